#pragma once
// The Bryson-Denham state-constrained problem as a scenario text, shared by the tests
// (test_collocation_path.cpp) and the benchmarks (bench_collocation_warm.cpp).

#include <string>

namespace dirac::testing {

// Bryson-Denham: x'' = u, (x, x')(0) = (0, 1), (x, x')(1) = (0, -1), min int u^2/2 with
// x <= l. Unconstrained, u = -2 and max x = 1/4. For l <= 1/6 the optimum has three arcs
// (Bryson, Denham & Dreyfus 1963; Bryson & Ho §3.11): on [0, 3l] x = l (1 - (1 - t/(3l))^3),
// u = -2/(3l) (1 - t/(3l)); x = l, u = 0 on [3l, 1 - 3l]; the mirror image after. Cost 4/(9l).
inline const std::string kBrysonDenham = R"yaml(name: Bryson-Denham
parameters:
  - {name: l, default: 0.1}
coordinates:
  - {name: x, initial: 0.0, initial_velocity: 1.0}
lagrangian: "vx^2/2"
optimal_control:
  horizon: 1
  controls: [{name: u, acts_on: vx}]
  cost: "u^2/2"
  final: {x: 0, vx: -1}
  path_constraints: "x <= l"
  collocation: {nodes: 100}
)yaml";

}  // namespace dirac::testing
