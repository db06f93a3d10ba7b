// The increment Phi of the group element over one collocation interval (trapezoidal, or the
// fourth-order Magnus increment with the bracket term), its exact Jacobian and curvature.
#include "control/collocation_increment.hpp"

namespace dirac::control {
namespace {

using geometry::MatrixGroup;

bool HasCommutator(const CollocationFormula& formula) { return formula.points == 3; }

}  // namespace

Eigen::Vector3d Bracket(MatrixGroup group, const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return group == MatrixGroup::kSO3 ? a.cross(b) : Eigen::Vector3d(geometry::Ad(group, a) * b);
}

Eigen::Vector3d GroupIncrement(MatrixGroup group, const CollocationFormula& formula, double h,
                               const Eigen::Vector3d* xi) {
  Eigen::Vector3d phi = Eigen::Vector3d::Zero();
  for (int l = 0; l < formula.points; ++l) phi += h * formula.weight[l] * xi[l];
  if (HasCommutator(formula)) phi += h * h / 12 * Bracket(group, xi[0], xi[2]);
  return phi;
}

void GroupIncrementJacobian(MatrixGroup group, const CollocationFormula& formula, double h,
                            const Eigen::Vector3d* xi, Eigen::Matrix3d* d_xi,
                            Eigen::Vector3d& d_h) {
  d_h.setZero();
  for (int l = 0; l < formula.points; ++l) {
    d_xi[l] = h * formula.weight[l] * Eigen::Matrix3d::Identity();
    d_h += formula.weight[l] * xi[l];
  }
  if (!HasCommutator(formula)) return;
  d_xi[0] -= h * h / 12 * geometry::Ad(group, xi[2]);  // d [a, b] / da = -ad_b
  d_xi[2] += h * h / 12 * geometry::Ad(group, xi[0]);  // d [a, b] / db = ad_a
  d_h += h / 6 * Bracket(group, xi[0], xi[2]);
}

Eigen::MatrixXd GroupIncrementCurvature(MatrixGroup group, const CollocationFormula& formula,
                                        double h, const Eigen::Vector3d* xi,
                                        const Eigen::Vector3d& G) {
  const int L = formula.points, H = 3 * L;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(H + 1, H + 1);
  for (int l = 0; l < L; ++l) C.block<3, 1>(3 * l, H) = formula.weight[l] * G;
  if (HasCommutator(formula)) {
    // G . [a, b] = a^T B b with B_ij = G . [e_i, e_j]; d/dh of G . h^2/12 [a, b]:
    // h/6 (G . [e_i, b]) in a, h/6 (G . [a, e_j]) in b.
    Eigen::Matrix3d B;
    for (int i = 0; i < 3; ++i)
      B.row(i) = G.transpose() * geometry::Ad(group, Eigen::Vector3d::Unit(i));
    C.block<3, 3>(0, 6) = h * h / 12 * B;
    C.block<3, 3>(6, 0) = h * h / 12 * B.transpose();
    C.block<3, 1>(0, H) += h / 6 * (-geometry::Ad(group, xi[2]).transpose() * G);
    C.block<3, 1>(6, H) += h / 6 * (geometry::Ad(group, xi[0]).transpose() * G);
    C(H, H) = G.dot(Bracket(group, xi[0], xi[2])) / 6;
  }
  C.block(H, 0, 1, H) = C.block(0, H, H, 1).transpose();
  return C;
}

}  // namespace dirac::control
