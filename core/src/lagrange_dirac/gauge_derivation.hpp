#pragma once
// Internal: derivation of the gauge two-form capability of a regular Lagrangian on TQ.

#include <Eigen/Dense>
#include <memory>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac::lagrange_dirac {

/// Derives (GiNaC, one thread at a time) and compiles the flow, its Jacobian, Omega_L and
/// d(beta) of the scenario's constrained Lagrangian flow. Throws ModelError for algebroids,
/// degenerate Lagrangians or when the accelerations and multipliers do not solve symbolically.
std::shared_ptr<const GaugeTwoForm> DeriveGaugeTwoForm(const Scenario& scenario);

/// The matrices behind the last row of the gauge two-form (for the comparison with the discrete
/// flow of `method: variational`, tests/core/lagrange_dirac/test_discrete_gauge.cpp).
struct GaugeTwoFormMatrices {
  Eigen::VectorXd z0;             ///< the initial point (q, v) on Delta_Q (v0 projected)
  Eigen::MatrixXd tangent_basis;  ///< T: orthonormal basis of T_z0 Delta_Q in (q, v), 2n x d
  Eigen::MatrixXd admissible;     ///< C: the subbundle K in the coordinates of T, d x (2n - 2m)
  double t = 0.0;                 ///< the time of the last row [s]
  Eigen::MatrixXd B;              ///< B_t on T_z0 Delta_Q in the basis T (d x d), integrated
  /// (Phi_t T)^T Omega_L (Phi_t T) - T^T Omega_L T (d x d), from the flow Jacobian Phi_t.
  Eigen::MatrixXd omega_change;
};

/// Derives the gauge two-form of `scenario` and integrates it over [0, t_end] of `input`;
/// returns the matrices at the last sample. Throws like DeriveGaugeTwoForm and Compute.
GaugeTwoFormMatrices ComputeGaugeTwoFormMatrices(const Scenario& scenario,
                                                 const SimulationInput& input);

}  // namespace dirac::lagrange_dirac
