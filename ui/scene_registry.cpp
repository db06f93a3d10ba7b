#include "scene_registry.hpp"

#include "dirac/error.hpp"
#include "particle_scene.hpp"
#include "planar_bodies_scene.hpp"
#include "rigid_body_scene.hpp"

namespace dirac::ui {

SceneRegistry SceneRegistry::WithBuiltinScenes() {
  SceneRegistry registry;
  registry.Register("particle", [](const SceneContext& context) {
    return std::make_unique<ParticleScene>(context);
  });
  registry.Register("rigid_body", [](const SceneContext& context) {
    return std::make_unique<RigidBodyScene>(context);
  });
  registry.Register("planar_bodies", [](const SceneContext& context) {
    return std::make_unique<PlanarBodiesScene>(context);
  });
  return registry;
}

void SceneRegistry::Register(const std::string& type, Factory factory) {
  factories_[type] = std::move(factory);
}

std::unique_ptr<SceneBuilder> SceneRegistry::Create(const SceneContext& context) const {
  const std::string& type = context.scenario.scene.type;
  const auto it = factories_.find(type);
  if (it == factories_.end()) {
    std::string known;
    for (const std::string& name : types()) known += (known.empty() ? "" : ", ") + name;
    throw dirac::Error("scene.type '" + type + "' is not a known scene type (known: " + known +
                       ")");
  }
  return it->second(context);
}

std::vector<std::string> SceneRegistry::types() const {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
}

}  // namespace dirac::ui
