#pragma once
/// @file scene_registry.hpp
/// Maps a scenario's `scene.type` to the DrawnScene that draws it: "particle", "rigid_body",
/// "planar_bodies", "planar_points", "rolling_disk" and "affine_ellipse" ship; more are added
/// with Register().

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scenes/drawn_scene.hpp"

namespace dirac::ui {

/// A small registry of scene factories.
class SceneRegistry {
 public:
  using Factory = std::function<std::unique_ptr<DrawnScene>(const SceneContext&)>;

  /// A registry with every scene type shipped with Dirac Studio: "particle" (ParticleScene),
  /// "rigid_body" (RigidBodyScene) and "planar_bodies" (PlanarBodiesScene).
  static SceneRegistry WithBuiltinScenes();

  /// Adds or replaces the factory for `type`.
  void Register(const std::string& type, Factory factory);
  /// Builds the scene for context.scenario.scene.type. Throws dirac::Error for an unknown type
  /// (listing the known ones) and whatever the scene throws for invalid options
  /// (dirac::ScenarioError naming file, line and key).
  std::unique_ptr<DrawnScene> Create(const SceneContext& context) const;
  /// Registered type names, sorted.
  std::vector<std::string> types() const;

 private:
  std::map<std::string, Factory> factories_;
};

}  // namespace dirac::ui
