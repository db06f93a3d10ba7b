// GroupRows: the fixed final group components of a collocation problem on SO(3) or SE(2) as
// rows, with their derivatives in the group's right-trivialised perturbation.
#include "control/collocation_group.hpp"

#include <cmath>

namespace dirac::control {

using geometry::MatrixGroup;

namespace {

double Wrap(double a) {
  a = std::remainder(a, 2 * M_PI);
  return a <= -M_PI ? a + 2 * M_PI : a;
}

}  // namespace

Eigen::Matrix3d SE2Matrix(double x, double y, double theta) {
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  g.topLeftCorner<2, 2>() << std::cos(theta), -std::sin(theta), std::sin(theta), std::cos(theta);
  g(0, 2) = x;
  g(1, 2) = y;
  return g;
}

GroupRows::GroupRows(MatrixGroup group, const Eigen::Matrix3d& target, bool fix_translation,
                     bool fix_angle)
    : group_(group), target_(target), translation_(fix_translation), angle_(fix_angle) {
  if (group == MatrixGroup::kSO3)
    rows_ = fix_translation || fix_angle ? 3 : 0;
  else
    rows_ = (fix_translation ? 2 : 0) + (fix_angle ? 1 : 0);
}

Eigen::Matrix3d GroupRows::InverseAdjoint(const Eigen::Matrix3d& P) const {
  if (group_ == MatrixGroup::kSO3) return P.transpose();
  const Eigen::Matrix3d Pinv = P.inverse();
  Eigen::Matrix3d A;
  for (int i = 0; i < 3; ++i)
    A.col(i) = geometry::Vee(group_, Pinv * geometry::Hat(group_, Eigen::Vector3d::Unit(i)) * P);
  return A;
}

void GroupRows::Residual(const Eigen::Matrix3d& GN, double* rows) const {
  if (group_ == MatrixGroup::kSO3) {
    if (rows_ == 0) return;
    const Eigen::Vector3d e = geometry::Log(group_, GN.transpose() * target_);
    for (int r = 0; r < 3; ++r) rows[r] = e[r];
    return;
  }
  int r = 0;
  if (translation_) {
    rows[r++] = GN(0, 2) - target_(0, 2);
    rows[r++] = GN(1, 2) - target_(1, 2);
  }
  if (angle_)
    rows[r] = Wrap(std::atan2(GN(1, 0), GN(0, 0)) - std::atan2(target_(1, 0), target_(0, 0)));
}

Eigen::Matrix3d GroupRows::EtaJacobian(const Eigen::Matrix3d& GN) const {
  Eigen::Matrix3d D = Eigen::Matrix3d::Zero();
  if (group_ == MatrixGroup::kSO3) {
    if (rows_ == 0) return D;
    const Eigen::Vector3d e = geometry::Log(group_, GN.transpose() * target_);
    return -geometry::LeftJacobian(group_, e).inverse();
  }
  // Position: p + R V(omega) (u, v) = p + R (u, v) + O(eta^2); angle: theta + omega.
  int r = 0;
  if (translation_) {
    D.block<2, 2>(0, 0) = GN.topLeftCorner<2, 2>();
    r = 2;
  }
  if (angle_) D(r, 2) = 1.0;
  return D;
}

void GroupRows::IncrementGradient(const Eigen::Matrix3d& G0, const std::vector<Eigen::Matrix3d>& E,
                                  const std::vector<Eigen::Matrix3d>& Jr, const double* lambda,
                                  Eigen::VectorXd& gradient) const {
  const int N = static_cast<int>(E.size());
  Eigen::Matrix3d GN = G0;
  for (const auto& Ek : E) GN = GN * Ek;
  Eigen::Vector3d l = Eigen::Vector3d::Zero();
  for (int r = 0; r < rows_; ++r) l[r] = lambda[r];
  const Eigen::Vector3d Dl = EtaJacobian(GN).transpose() * l;
  gradient.resize(3 * N);
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity();
  for (int k = N - 1; k >= 0; --k) {
    gradient.segment<3>(3 * k) = Jr[k].transpose() * (InverseAdjoint(P).transpose() * Dl);
    P = E[k] * P;
  }
}

}  // namespace dirac::control
