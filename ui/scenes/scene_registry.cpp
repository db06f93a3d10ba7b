#include "scenes/scene_registry.hpp"

#include "dirac/error.hpp"
#include "scenes/affine_ellipse_scene.hpp"
#include "scenes/particle_scene.hpp"
#include "scenes/planar_bodies_scene.hpp"
#include "scenes/planar_points_scene.hpp"
#include "scenes/rigid_body_scene.hpp"
#include "scenes/bodies_scene.hpp"
#include "scenes/rolling_disk_scene.hpp"
#include "scenes/vorticity_torus_scene.hpp"

namespace dirac::ui {

SceneRegistry SceneRegistry::WithBuiltinScenes() {
  SceneRegistry registry;
  registry.Register("particle", [](const SceneContext& context) {
    return std::make_unique<ParticleScene>(context);
  });
  registry.Register("planar_points", [](const SceneContext& context) {
    return std::make_unique<PlanarPointsScene>(context);
  });
  registry.Register("rigid_body", [](const SceneContext& context) {
    return std::make_unique<RigidBodyScene>(context);
  });
  registry.Register("planar_bodies", [](const SceneContext& context) {
    return std::make_unique<PlanarBodiesScene>(context);
  });
  registry.Register("rolling_disk", [](const SceneContext& context) {
    return std::make_unique<RollingDiskScene>(context);
  });
  registry.Register("affine_ellipse", [](const SceneContext& context) {
    return std::make_unique<AffineEllipseScene>(context);
  });
  registry.Register("vorticity_torus", [](const SceneContext& context) {
    return std::make_unique<VorticityTorusScene>(context);
  });
  registry.Register("bodies", [](const SceneContext& context) {
    return std::make_unique<BodiesScene>(context);
  });
  return registry;
}

void SceneRegistry::Register(const std::string& type, Factory factory) {
  factories_[type] = std::move(factory);
}

std::unique_ptr<DrawnScene> SceneRegistry::Create(const SceneContext& context) const {
  const dirac::SceneSpec& scene = context.scenario.scene;
  const auto it = factories_.find(scene.type);
  if (it == factories_.end()) {
    std::string known;
    for (const std::string& name : types()) known += (known.empty() ? "" : ", ") + name;
    throw dirac::ScenarioError(
        context.scenario.source_file, scene.where.line, "view.scene.type",
        "scene.type '" + scene.type + "' is not a known scene type (known: " + known + ")");
  }
  return it->second(context);
}

std::vector<std::string> SceneRegistry::types() const {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
}

}  // namespace dirac::ui
