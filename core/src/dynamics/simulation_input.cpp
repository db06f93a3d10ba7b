#include "dirac/simulation_types.hpp"

namespace dirac {

SimulationInput SimulationInput::FromScenario(const Scenario& scenario) {
  SimulationInput in;
  for (const auto& p : scenario.parameters) in.parameters.push_back(p.value);
  for (const auto& c : scenario.coordinates) {
    in.q0.push_back(c.initial);
    in.v0.push_back(c.initial_velocity);
    in.p0.push_back(c.initial_momentum);
    if (c.solve) in.solved_initial_values.push_back(c.name);
  }
  for (const auto& c : scenario.coordinates)
    if (c.velocity_solved) in.solved_initial_values.push_back(c.velocity);
  in.named = scenario.second_order.initial;
  // On a Lie algebroid the "velocities" are the fibre coordinates y^A.
  if (scenario.algebroid.present) {
    in.v0.clear();
    for (const auto& y : scenario.algebroid.fibre) in.v0.push_back(y.initial);
  }
  in.spec = scenario.simulation;
  return in;
}

}  // namespace dirac
