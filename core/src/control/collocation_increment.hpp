#pragma once
// Internal to control/: the group element's increment over one collocation interval, from the
// body velocities at the interval's local points, on SO(3) or SE(2) (the group's own bracket).

#include <Eigen/Dense>

#include "control/collocation_nlp.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::control {

/// The Lie bracket [a, b] = ([a^, b^])^v = ad_a b of the group's algebra (on SO(3) a x b).
Eigen::Vector3d Bracket(geometry::MatrixGroup group, const Eigen::Vector3d& a,
                        const Eigen::Vector3d& b);

/// Phi with G_{k+1} = G_k Exp(Phi) for G' = G xi^ (right-trivialised) over an interval of
/// length h, from xi at the formula's local points (xi[0 .. formula.points - 1]).
/// Hermite-Simpson: the fourth-order Magnus increment h/6 (xi_0 + 4 xi_m + xi_1) +
/// h^2/12 [xi_0, xi_1] (the commutator term of -Omega_2 for the transposed, left-trivialised
/// equation: with xi = a + b t, (1/2) int int_{t2 < t1} [xi(t2), xi(t1)] = h^3/12 [a, b]; on
/// SO(3) [a, b] = a x b); trapezoidal: h/2 (xi_0 + xi_1), second order.
Eigen::Vector3d GroupIncrement(geometry::MatrixGroup group, const CollocationFormula& formula,
                               double h, const Eigen::Vector3d* xi);

/// d Phi / d xi_l (3 x 3, for every local point l) and d Phi / d h, exact.
void GroupIncrementJacobian(geometry::MatrixGroup group, const CollocationFormula& formula,
                            double h, const Eigen::Vector3d* xi, Eigen::Matrix3d* d_xi,
                            Eigen::Vector3d& d_h);

/// The second derivatives of G . Phi in (xi_0, ..., xi_{L-1}, h): (3L + 1) x (3L + 1), exact
/// (Phi is bilinear in the xi through the bracket, quadratic in h).
Eigen::MatrixXd GroupIncrementCurvature(geometry::MatrixGroup group,
                                        const CollocationFormula& formula, double h,
                                        const Eigen::Vector3d* xi, const Eigen::Vector3d& G);

}  // namespace dirac::control
