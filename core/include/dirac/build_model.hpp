#pragma once
/// @file build_model.hpp
/// The factory that picks the formulation a scenario asks for. Layer: formulation.

#include <memory>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac {

/// Derives the model the scenario asks for. An `optimal_control:` block, `vakonomic`,
/// `second_order`, `optimal_control` or `constraint_algorithm` goes through the Gotay–Nester–Hinds
/// algorithm (ConstrainedSystem). `auto` and `lagrange_dirac` try, in order: the Euler–Poincaré
/// system of a Lie algebra named by a family (no constraints, constant Hessian); the regular
/// LagrangeDiracSystem (W of full generic rank); above the exact chain's size, the
/// FirstOrderSystem of a Lagrangian affine in the velocities; else ConstrainedSystem, falling back
/// to the FirstOrderSystem when its exact elimination exceeds the work bound
/// (core/src/formulation/README.md). Uses GiNaC: hold a dirac::SymbolicGuard
/// (dirac/symbolic_lock.hpp) where other threads may use GiNaC. Throws ScenarioError /
/// ModelError.
std::shared_ptr<const Model> BuildModel(const Scenario& scenario);

}  // namespace dirac
