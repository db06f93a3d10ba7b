#pragma once
/// @file build_model.hpp
/// The factory that picks the formulation a scenario asks for. Layer: formulation.

#include <memory>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac {

/// Derives the model the scenario asks for: `formulation: lagrange_dirac` with a regular
/// Lagrangian gives the index-1 LagrangeDiracSystem; a degenerate Lagrangian, `vakonomic`,
/// `second_order` or `constraint_algorithm` goes through the Gotay–Nester–Hinds algorithm
/// (ConstrainedSystem). Uses GiNaC: call from one thread at a time. Throws ScenarioError /
/// ModelError.
std::shared_ptr<const Model> BuildModel(const Scenario& scenario);

}  // namespace dirac
