#pragma once
// The optimal-control scenario texts and the error check shared by the format tests
// (test_optimal_control_format.cpp, test_optimal_control_bounds.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

namespace dirac::testing {

// Rigid-body splines on SO(3) (as scenarios/rigid_body_spline.yaml) posed as an optimal control
// problem: the free rigid body on so(3), fully actuated, cost |u|^2 / 2.
inline const std::string kSo3 = R"yaml(name: SO3 spline (optimal control)
parameters:
  - {name: I1, default: 1.0, min: 0.2, max: 4.0}
  - {name: I2, default: 2.0, min: 0.2, max: 4.0}
  - {name: I3, default: 3.0, min: 0.2, max: 4.0}
algebroid:
  fibre:
    - {name: w1, initial: 0.3}
    - {name: w2, initial: 0.0}
    - {name: w3, initial: 0.2}
  brackets:
    - {pair: [w1, w2], value: {w3: "1"}}
    - {pair: [w2, w3], value: {w1: "1"}}
    - {pair: [w3, w1], value: {w2: "1"}}
lagrangian: "(I1*w1^2 + I2*w2^2 + I3*w3^2)/2"
reconstruction: {group: SO3, body_velocity: [w1, w2, w3], names: [R]}
simulation: {output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}
optimal_control:
  horizon: 2.0
  controls:
    - {name: u1, acts_on: w1}
    - {name: u2, acts_on: w2}
    - {name: u3, acts_on: w3}
  cost: "(u1^2 + u2^2 + u3^2)/2"
  initial: {w1: 0.0, R.x: 0.0}
  final: {w1: 0.0, w2: free, R.x: 1.2, R.y: 0, R.z: 0}
  shooting: {nodes: 4, max_iterations: 40, tolerance: 1e-10}
view:
  scene: {type: rigid_body, attitude: R}
  plots:
    - {title: "Torques", series: [u1, u2, u3]}
)yaml";

// Elroy's beanie (as scenarios/elroys_beanie.yaml), only the rotor torque u on v1.
inline const std::string kSe2 = R"yaml(name: Elroy's beanie (optimal control)
parameters:
  - {name: m, default: 1.0, min: 0.2, max: 5.0}
  - {name: I1, default: 2.0, min: 0.2, max: 5.0}
  - {name: I2, default: 0.5, min: 0.05, max: 5.0}
  - {name: k, default: 0.3, min: 0.0, max: 3.0}
coordinates:
  - {name: psi, initial: 0.25}
algebroid:
  fibre:
    - {name: v1, initial: 1.2}
    - {name: v2, initial: 0.4}
    - {name: v3, initial: 0.0}
    - {name: v4, initial: 0.3}
  anchor:
    - {section: v1, components: {psi: "sqrt((I1 + I2)/(I1*I2))"}}
  brackets:
    - {pair: [v1, v2], value: {v3: "-sqrt(I2/(I1*(I1 + I2)))"}}
    - {pair: [v1, v3], value: {v2: "sqrt(I2/(I1*(I1 + I2)))"}}
    - {pair: [v2, v4], value: {v3: "-1/sqrt(I1 + I2)"}}
    - {pair: [v3, v4], value: {v2: "1/sqrt(I1 + I2)"}}
lagrangian: "(v1^2 + v2^2 + v3^2 + v4^2)/2 - k*(1 - cos(psi))"
reconstruction:
  group: SE2
  names: [x, y, theta]
  initial: [0.5, -0.25, 0.125]
  body_velocity: ["v2/sqrt(m)", "v3/sqrt(m)",
                  "v4/sqrt(I1 + I2) - sqrt((I1 + I2)/(I1*I2))*I2/(I1 + I2)*v1"]
formulation: optimal_control
optimal_control:
  horizon: 3
  controls: [{name: u, acts_on: v1}]
  cost: "u^2/2 + k*psi^2*t"
  initial: {v1: 0, v2: 0, v3: 0, v4: 0}
  final: {psi: 1.0, v1: 0, x: free, theta: 0.5}
)yaml";

// The optimal-control counterpart of heisenberg_geodesic.yaml (a boundary-value problem) on the
// Heisenberg group: x' = v1, y' = v2, z' = y v1 - x v2 (the geodesic's constraint
// z' - y x' + x y' = 0, as the anchor of the frame X1 = d/dx + y d/dz, X2 = d/dy - x d/dz,
// X3 = d/dz with [X1, X2] = -2 X3), the horizontal velocities forced, min int |u|^2/2 from the
// origin with velocity (1, 0) (the geodesic's initial velocity; from rest shooting's first
// Jacobian is singular) to (1, 0, 0.2), the final velocities free.
inline const std::string kHeisenbergSpline = R"yaml(name: Heisenberg spline
coordinates: [{name: x, initial: 0.0}, {name: y, initial: 0.0}, {name: z, initial: 0.0}]
algebroid:
  fibre: [{name: v1, initial: 1.0}, {name: v2, initial: 0.0}, {name: v3, initial: 0.0}]
  anchor:
    - {section: v1, components: {x: "1", z: "y"}}
    - {section: v2, components: {y: "1", z: "-x"}}
    - {section: v3, components: {z: "1"}}
  brackets:
    - {pair: [v1, v2], value: {v3: "-2"}}
lagrangian: "(v1^2 + v2^2 + v3^2)/2"
optimal_control:
  horizon: 1
  controls: [{name: u1, acts_on: v1}, {name: u2, acts_on: v2}]
  cost: "(u1^2 + u2^2)/2"
  final: {x: 1, y: 0, z: 0.2}
simulation: {output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}
)yaml";

// A particle on TQ with one control on its velocity.
inline const std::string kTq = R"yaml(name: controlled particle
coordinates:
  - {name: x, initial: 0.5, initial_velocity: -1.5}
lagrangian: "vx^2/2"
optimal_control:
  horizon: 1
  controls: [{name: u, acts_on: vx}]
  cost: "u^2/2"
  final: {x: 1, vx: 0}
)yaml";

// x'' = u, |u| <= 1, from (x, x') = (x0, 0) to (0, 0) in the least time. Pontryagin: bang-bang
// with one switch; by symmetry u = -1 on [0, ts], +1 on [ts, tf], ts = tf / 2, and
// x0 = 2 * (ts^2 / 2) gives ts = sqrt(x0), tf = 2 sqrt(x0).
inline const std::string kDoubleIntegrator = R"yaml(name: minimum-time double integrator
coordinates:
  - {name: x, initial: 1.0, initial_velocity: 0.0}
lagrangian: "vx^2/2"
optimal_control:
  horizon: free
  horizon_bounds: [0.5, 5]
  horizon_guess: 3
  controls: [{name: u, acts_on: vx}]
  cost: "1"
  final: {x: 0, vx: 0}
  bounds: {u: [-1, 1]}
  collocation: {nodes: 100}
)yaml";

// 1-based line of the first occurrence of `needle` in `text` (0 if absent).
inline std::size_t LineOf(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// `text` with the one occurrence of `from` replaced by `to`.
inline std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "not unique: " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The error of parsing `yaml`, checked to name case.yaml, `symbol` and the line of `at`.
inline void ExpectError(const std::string& yaml, const std::string& symbol, const std::string& at) {
  SCOPED_TRACE("symbol " + symbol + ", at \"" + at + "\"");
  ASSERT_NE(LineOf(yaml, at), 0u) << "bad test: no \"" << at << "\"";
  try {
    ParseScenario(yaml, "case.yaml");
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), "case.yaml");
    EXPECT_EQ(e.symbol(), symbol) << e.what();
    EXPECT_EQ(e.line(), LineOf(yaml, at)) << e.what();
    const std::string prefix = "case.yaml:" + std::to_string(LineOf(yaml, at)) + ": '" + symbol;
    EXPECT_NE(std::string(e.what()).find(prefix), std::string::npos) << e.what();
    return;
  }
  ADD_FAILURE() << "no ScenarioError for:\n" << yaml;
}

}  // namespace dirac::testing
