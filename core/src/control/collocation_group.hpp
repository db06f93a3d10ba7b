#pragma once
// Internal to control/: the group element's increment over one collocation interval, from the
// body velocities at the interval's local points (SO(3); small functions so that another group
// can slot in beside them).

#include <Eigen/Dense>

#include "control/collocation_nlp.hpp"

namespace dirac::control {

/// Phi with R_{k+1} = R_k Exp(Phi) for R' = R xi^ (right-trivialised) over an interval of
/// length h, from xi at the formula's local points (xi[0 .. formula.points - 1]).
/// Hermite-Simpson: the fourth-order Magnus increment h/6 (xi_0 + 4 xi_m + xi_1) +
/// h^2/12 xi_0 x xi_1 (the commutator term of -Omega_2 for the transposed, left-trivialised
/// equation: with xi = a + b t, (1/2) int int_{t2 < t1} [xi(t2), xi(t1)] = h^3/12 a x b);
/// trapezoidal: h/2 (xi_0 + xi_1), second order.
Eigen::Vector3d So3Increment(const CollocationFormula& formula, double h,
                             const Eigen::Vector3d* xi);

/// d Phi / d xi_l (3 x 3, for every local point l) and d Phi / d h.
void So3IncrementJacobian(const CollocationFormula& formula, double h, const Eigen::Vector3d* xi,
                          Eigen::Matrix3d* d_xi, Eigen::Vector3d& d_h);

/// The second derivatives of G . Phi in (xi_0, ..., xi_{L-1}, h): (3L + 1) x (3L + 1).
Eigen::MatrixXd So3IncrementCurvature(const CollocationFormula& formula, double h,
                                      const Eigen::Vector3d* xi, const Eigen::Vector3d& G);

}  // namespace dirac::control
