#pragma once
// Internal: derivation of the gauge two-form capability of a regular Lagrangian on TQ.

#include <memory>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac::lagrange_dirac {

/// Derives (GiNaC, one thread at a time) and compiles the flow, its Jacobian, Omega_L and
/// d(beta) of the scenario's constrained Lagrangian flow. Throws ModelError for algebroids,
/// degenerate Lagrangians or when the accelerations and multipliers do not solve symbolically.
std::shared_ptr<const GaugeTwoForm> DeriveGaugeTwoForm(const Scenario& scenario);

}  // namespace dirac::lagrange_dirac
