// StructureKey, DynamicsFor, WarmFor: reuse of a collocation solve by the next one.
#include "control/collocation_warm_start.hpp"

#include "dirac/simulation_types.hpp"

namespace dirac::control {

std::string StructureKey(const Scenario& scenario) {
  Scenario s = scenario;
  s.source_file.clear();
  s.name.clear();
  s.description.clear();
  for (Parameter& p : s.parameters) {
    p.value = p.default_value = p.min = 0.0;
    p.max = 1.0;
  }
  for (Coordinate& c : s.coordinates) c.initial = c.initial_velocity = c.initial_momentum = 0.0;
  for (FibreCoordinate& f : s.algebroid.fibre) f.initial = 0.0;
  s.reconstruction.initial.clear();
  OptimalControlSpec& ocp = s.optimal_control;
  ocp.horizon = 1.0;
  ocp.horizon_min = ocp.horizon_max = 0.0;
  ocp.bounds.clear();
  ocp.method = OptimalControlMethod::kAuto;
  ocp.collocation = CollocationSettings{};
  ocp.shooting = ShootingSettings{};
  // Which end values are fixed shapes the bounds only; the attitude rows depend on whether the
  // final attitude is fixed (kept: the names and their free flags, not the values).
  for (auto* list : {&ocp.initial, &ocp.final})
    for (BoundaryCondition& bc : *list) bc.value = 0.0;
  s.simulation = SimulationSpec{};
  s.scene = SceneSpec{};
  s.plots.clear();
  return SaveScenarioToString(s);
}

std::shared_ptr<const CollocationDynamics> DynamicsFor(const Scenario& scenario,
                                                       const std::string& structure,
                                                       const WarmStart* warm) {
  if (warm && warm->collocation && warm->collocation->dynamics &&
      warm->collocation->structure == structure) {
    auto dynamics = std::make_shared<CollocationDynamics>(*warm->collocation->dynamics);
    dynamics->set_parameters(SimulationInput::FromScenario(scenario).parameters);
    return dynamics;
  }
  return std::make_shared<const CollocationDynamics>(scenario);
}

void KeepOptimum(const CollocationNlp& nlp, const NlpPoint& point, CollocationWarmStart& kept) {
  kept.mesh = nlp.mesh();
  kept.point = point;
  if (!nlp.has_group() || point.x.size() != static_cast<std::size_t>(nlp.num_variables())) return;
  kept.reference = nlp.Attitudes(point.x.data());
  nlp.ClearChart(kept.point.x.data());
}

const CollocationWarmStart* WarmFor(const std::string& structure, CollocationScheme scheme,
                                    int intervals, const WarmStart* warm) {
  if (!warm || !warm->collocation || warm->collocation->structure != structure ||
      warm->collocation->scheme != scheme || warm->collocation->intervals != intervals ||
      warm->collocation->mesh.size() < 2)
    return nullptr;
  return warm->collocation.get();
}

}  // namespace dirac::control
