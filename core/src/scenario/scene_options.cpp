#include "dirac/scene_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "dirac/error.hpp"

namespace dirac {
namespace {

std::string Join(const std::string& path, const std::string& key) {
  return key.empty() ? path : path + "." + key;
}

std::string Item(const std::string& key, std::size_t index) {
  return key + "[" + std::to_string(index) + "]";
}

// Throws for item `index` of the list `key`: its own line if known, else the key's.
[[noreturn]] void FailItem(const SceneOptions& options, const std::string& key, std::size_t index,
                           const OptionValue& item, const std::string& message) {
  throw ScenarioError(options.file(), item.line() ? item.line() : options.Line(key),
                      Join(options.path(), Item(key, index)), message);
}

bool ParseFinite(const std::string& text, double* value) {
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && std::isfinite(*value);
}

}  // namespace

// ---- OptionValue ----------------------------------------------------------------------------

OptionValue OptionValue::Scalar(std::string text, std::size_t line) {
  OptionValue v;
  v.kind_ = Kind::kScalar;
  v.text_ = std::move(text);
  v.line_ = line;
  return v;
}

OptionValue OptionValue::List(std::vector<OptionValue> items, std::size_t line) {
  OptionValue v;
  v.kind_ = Kind::kList;
  v.items_ = std::move(items);
  v.line_ = line;
  return v;
}

OptionValue OptionValue::Map(std::vector<std::pair<std::string, OptionValue>> entries,
                             std::size_t line) {
  OptionValue v;
  v.kind_ = Kind::kMap;
  v.entries_ = std::move(entries);
  v.line_ = line;
  return v;
}

const OptionValue* OptionValue::Find(const std::string& key) const {
  for (const auto& [name, value] : entries_)
    if (name == key) return &value;
  return nullptr;
}

void OptionValue::Set(const std::string& key, OptionValue value) {
  if (kind_ != Kind::kMap) *this = Map({}, line_);
  for (auto& [name, old] : entries_)
    if (name == key) {
      old = std::move(value);
      return;
    }
  entries_.emplace_back(key, std::move(value));
}

bool OptionValue::operator==(const OptionValue& other) const {
  return kind_ == other.kind_ && text_ == other.text_ && items_ == other.items_ &&
         entries_ == other.entries_;
}

// ---- SceneOptions ---------------------------------------------------------------------------

SceneOptions::SceneOptions(std::string file, OptionValue map, std::string path)
    : file_(std::move(file)), map_(std::move(map)), path_(std::move(path)) {}

void SceneOptions::CheckKeys(const std::vector<std::string>& allowed) const {
  for (const auto& [key, value] : map_.entries())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) Fail(key, "unknown key");
}

std::string SceneOptions::String(const std::string& key, const std::string& fallback) const {
  if (!Has(key)) return fallback;
  const OptionValue& value = Get(key);
  if (value.kind() != OptionValue::Kind::kScalar) Fail(key, "expected a text value");
  return value.text();
}

double SceneOptions::Number(const std::string& key, double fallback) const {
  if (!Has(key)) return fallback;
  const OptionValue& value = Get(key);
  if (value.kind() != OptionValue::Kind::kScalar) Fail(key, "expected a number");
  double number = 0;
  if (!ParseFinite(value.text(), &number))
    Fail(key, "expected a finite number, found \"" + value.text() + "\"");
  return number;
}

std::vector<std::string> SceneOptions::Strings(const std::string& key) const {
  if (!Has(key)) return {};
  const OptionValue& value = Get(key);
  if (value.kind() == OptionValue::Kind::kScalar) return {value.text()};
  if (value.kind() != OptionValue::Kind::kList) Fail(key, "expected a list of text values");
  std::vector<std::string> out;
  for (const OptionValue& item : value.items()) {
    if (item.kind() != OptionValue::Kind::kScalar)
      FailItem(*this, key, out.size(), item, "expected a text value");
    out.push_back(item.text());
  }
  return out;
}

std::vector<double> SceneOptions::Numbers(const std::string& key) const {
  if (!Has(key)) return {};
  const OptionValue& value = Get(key);
  if (value.kind() != OptionValue::Kind::kList) Fail(key, "expected a list of numbers");
  std::vector<double> out;
  for (const OptionValue& item : value.items()) {
    double number = 0;
    if (item.kind() != OptionValue::Kind::kScalar || !ParseFinite(item.text(), &number))
      FailItem(*this, key, out.size(), item,
               "expected a finite number, found \"" + item.text() + "\"");
    out.push_back(number);
  }
  return out;
}

std::vector<SceneOptions> SceneOptions::Maps(const std::string& key) const {
  if (!Has(key)) return {};
  const OptionValue& value = Get(key);
  if (value.kind() != OptionValue::Kind::kList) Fail(key, "expected a list of mappings");
  std::vector<SceneOptions> out;
  for (const OptionValue& item : value.items()) {
    if (item.kind() != OptionValue::Kind::kMap)
      FailItem(*this, key, out.size(), item, "expected a mapping");
    out.emplace_back(file_, item, Join(path_, Item(key, out.size())));
  }
  return out;
}

std::size_t SceneOptions::Line(const std::string& key) const {
  const OptionValue* value = map_.Find(key);
  return value && value->line() ? value->line() : map_.line();
}

void SceneOptions::Fail(const std::string& key, const std::string& message) const {
  throw ScenarioError(file_, Line(key), Join(path_, key), message);
}

const OptionValue& SceneOptions::Get(const std::string& key) const {
  const OptionValue* value = map_.Find(key);
  if (!value) Fail(key, "missing required key");
  return *value;
}

}  // namespace dirac
