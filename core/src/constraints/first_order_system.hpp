#pragma once
// Internal: a Lagrangian affine in the velocities on TQ, L = theta(q, t).v - H(q, t), without
// constraints and with d theta regular (seed D §6.3: point vortices, phase-space Lagrangians),
// integrated at any size. Its Euler–Lagrange rows do not involve v at all:
//   B(q) q' + dH(q) + d_t theta = 0,   B_ij = d_j theta_i - d_i theta_j,
// so q' solves an n x n linear system at every step (numerically: no symbolic inversion), and
// the velocities are the fibre gauge directions the constraint algorithm finds (kept at their
// initial values, v' = lambda = 0, as the exact chain integrates them). The columns are those
// of the constraint algorithm's model of the same scenario.

#include <memory>

#include "dirac/constrained_system.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac::constraints {

/// Builds the model when the scenario has that structure, else returns nullptr (BuildModel asks
/// above the exact chain's size, kMaxExactChainDimension, or when the exact elimination exceeds
/// the symbolic work bound). Throws ScenarioError for bad expressions.
std::shared_ptr<const Model> DeriveFirstOrderSystemIfApplicable(const Scenario& scenario);

}  // namespace dirac::constraints
