#pragma once
/// @file scene_registry.hpp
/// Maps a scenario's `scene.type` to the SceneBuilder that draws it.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scene_builder.hpp"

namespace dirac::ui {

/// A small registry of scene factories; new scene types are added with Register().
class SceneRegistry {
 public:
  using Factory = std::function<std::unique_ptr<SceneBuilder>(const SceneContext&)>;

  /// A registry with every scene type shipped with Dirac Studio ("particle").
  static SceneRegistry WithBuiltinScenes();

  /// Adds or replaces the factory for `type`.
  void Register(const std::string& type, Factory factory);
  /// Builds the scene for context.scenario.scene.type. Throws dirac::Error for an unknown type
  /// (listing the known ones) or an invalid scene spec.
  std::unique_ptr<SceneBuilder> Create(const SceneContext& context) const;
  /// Registered type names, sorted.
  std::vector<std::string> types() const;

 private:
  std::map<std::string, Factory> factories_;
};

}  // namespace dirac::ui
