#pragma once
// Internal: SO(3) and SE(2) as 3x3 matrix groups, their exponentials, and a fourth-order Magnus
// (Lie group) integrator for the reconstruction equation g' = g xi^(t).

#include <Eigen/Dense>

namespace dirac::geometry {

enum class MatrixGroup { kSO3, kSE2 };

/// so(3): w^ with w^ u = w x u.
Eigen::Matrix3d HatSO3(const Eigen::Vector3d& w);
/// se(2) in homogeneous form for xi = (u, v, omega): [[0, -omega, u], [omega, 0, v], [0, 0, 0]].
Eigen::Matrix3d HatSE2(const Eigen::Vector3d& xi);
Eigen::Matrix3d Hat(MatrixGroup group, const Eigen::Vector3d& xi);
/// Inverse of Hat (reads the algebra coordinates of a matrix in the algebra).
Eigen::Vector3d Vee(MatrixGroup group, const Eigen::Matrix3d& m);
/// The angle `a` (radians) wrapped into (-pi, pi].
double WrapAngle(double a);

/// Closed-form exponentials: Rodrigues for SO(3), the SE(2) formula with V(omega).
Eigen::Matrix3d Exp(MatrixGroup group, const Eigen::Vector3d& xi);

/// Principal logarithm, the inverse of Exp: SO(3) rotation vector with angle in [0, pi]
/// (accurate near 0 and pi); SE(2) (u, v, omega) with omega in (-pi, pi].
Eigen::Vector3d Log(MatrixGroup group, const Eigen::Matrix3d& g);
/// ad_x as a 3x3 matrix on algebra coordinates: ad_x y = [x^, y^]^v.
Eigen::Matrix3d Ad(MatrixGroup group, const Eigen::Vector3d& x);
/// Left Jacobian J_l(x) = sum_n ad_x^n / (n+1)!: Exp(x + d) = Exp(J_l(x) d) Exp(x) + O(d^2).
/// The series is entire; 40 terms are exact to rounding for |x| <= 2 pi.
Eigen::Matrix3d LeftJacobian(MatrixGroup group, const Eigen::Vector3d& x);
/// Right Jacobian J_r(x) = J_l(-x): Exp(x + d) = Exp(x) Exp(J_r(x) d) + O(d^2).
inline Eigen::Matrix3d RightJacobian(MatrixGroup group, const Eigen::Vector3d& x) {
  return LeftJacobian(group, -x);
}
/// The nearest group element to a 3x3 matrix that drifted off the group by integration
/// (SO(3): polar factor; SE(2): rotation from the angle, translation kept).
Eigen::Matrix3d ProjectToGroup(MatrixGroup group, const Eigen::Matrix3d& m);

/// One step of g' = g A(t) with the fourth-order Magnus method:
///   g1 = g0 exp(h/2 (A1 + A2) + sqrt(3)/12 h^2 [A1, A2]),
/// A1, A2 = xi^ at the Gauss points t0 + (1/2 -+ sqrt(3)/6) h. The result stays in the group to
/// rounding (the exponential is exact), whatever the step size.
Eigen::Matrix3d MagnusStep(MatrixGroup group, const Eigen::Matrix3d& g0, const Eigen::Vector3d& xi1,
                           const Eigen::Vector3d& xi2, double h);

/// One step of g' = g A(t) with the sixth-order Magnus method (Blanes, Casas & Ros), A1, A2, A3
/// = xi^ at the Gauss points t0 + (1/2 - sqrt(15)/10, 1/2, 1/2 + sqrt(15)/10) h:
///   a1 = h A2, a2 = sqrt(15) h / 3 (A3 - A1), a3 = 10 h / 3 (A3 - 2 A2 + A1),
///   C1 = [a1, a2], C2 = -1/60 [a1, 2 a3 + C1],
///   Omega = a1 + a3 / 12 + 1/240 [-20 a1 - a3 + C1, a2 + C2],   g1 = g0 exp(Omega),
/// with [X, Y] = Y X - X Y, the bracket of right-invariant multiplication (the transpose of
/// the textbook formula for Y' = A Y). Measured order 6; exact in the group.
Eigen::Matrix3d MagnusStep6(MatrixGroup group, const Eigen::Matrix3d& g0,
                            const Eigen::Vector3d& xi1, const Eigen::Vector3d& xi2,
                            const Eigen::Vector3d& xi3, double h);

}  // namespace dirac::geometry
