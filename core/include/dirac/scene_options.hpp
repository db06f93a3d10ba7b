#pragma once
/// @file scene_options.hpp
/// The options of a scenario's `view.scene` block as a typed key/value bag. Core knows no scene
/// type: each scene (in ui/) reads and validates its own keys through SceneOptions, whose errors
/// still name the file, the line and the key. Layer: scenario.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace dirac {

/// One value as written in the file: a scalar (kept as its text), a list or a map, with the
/// 1-based line it starts on (0 if built in memory).
class OptionValue {
 public:
  enum class Kind { kScalar, kList, kMap };

  OptionValue() : kind_(Kind::kMap) {}
  static OptionValue Scalar(std::string text, std::size_t line = 0);
  static OptionValue List(std::vector<OptionValue> items, std::size_t line = 0);
  static OptionValue Map(std::vector<std::pair<std::string, OptionValue>> entries,
                         std::size_t line = 0);

  Kind kind() const { return kind_; }
  std::size_t line() const { return line_; }
  /// Scalar text ("" for lists and maps).
  const std::string& text() const { return text_; }
  /// List items (empty for scalars and maps).
  const std::vector<OptionValue>& items() const { return items_; }
  /// Map entries in file order (empty for scalars and lists).
  const std::vector<std::pair<std::string, OptionValue>>& entries() const { return entries_; }
  /// The map entry named `key`, or nullptr.
  const OptionValue* Find(const std::string& key) const;
  /// Sets (or replaces) a map entry; the value becomes a map if it was not one.
  void Set(const std::string& key, OptionValue value);

  bool operator==(const OptionValue& other) const;

 private:
  Kind kind_;
  std::size_t line_ = 0;
  std::string text_;
  std::vector<OptionValue> items_;
  std::vector<std::pair<std::string, OptionValue>> entries_;
};

/// A map of options with the file it came from and its key path ("view.scene",
/// "view.scene.bodies[1]"). Every accessor that finds a malformed value throws ScenarioError
/// "FILE:LINE: 'key': message", so a scene's validation reads like the reader's own.
class SceneOptions {
 public:
  SceneOptions() = default;
  SceneOptions(std::string file, OptionValue map, std::string path = "view.scene");

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  const OptionValue& value() const { return map_; }
  OptionValue& value() { return map_; }

  /// True if `key` is present.
  bool Has(const std::string& key) const { return map_.Find(key) != nullptr; }
  /// Throws ScenarioError naming the first key that is not in `allowed`.
  void CheckKeys(const std::vector<std::string>& allowed) const;
  /// A text value, or `fallback` if absent. Throws if it is a list or map.
  std::string String(const std::string& key, const std::string& fallback = "") const;
  /// A finite number, or `fallback` if absent. Throws if it is no number.
  double Number(const std::string& key, double fallback) const;
  /// A list of texts (a single scalar counts as a one-element list); empty if absent.
  std::vector<std::string> Strings(const std::string& key) const;
  /// A list of finite numbers; empty if absent.
  std::vector<double> Numbers(const std::string& key) const;
  /// A list of maps (e.g. `bodies`), each with path "key[i]"; empty if absent.
  std::vector<SceneOptions> Maps(const std::string& key) const;
  /// Line of `key` (or of the map itself if absent), for messages.
  std::size_t Line(const std::string& key) const;
  /// Throws ScenarioError for `key` (its line, the key path) with `message`.
  [[noreturn]] void Fail(const std::string& key, const std::string& message) const;

  /// Sets `key` (in-memory scenarios, tests).
  void Set(const std::string& key, OptionValue value) { map_.Set(key, std::move(value)); }

 private:
  const OptionValue& Get(const std::string& key) const;
  std::string file_;
  OptionValue map_;
  std::string path_ = "view.scene";
};

}  // namespace dirac
