#pragma once
// Internal to control/: the group of a collocation problem (SO(3) or SE(2)) and which of its
// final components are fixed: the rows r(G_N) = 0 of the NLP (their values and derivatives in
// the chart at the last node: FinalChartRows, collocation_chart.hpp).

#include <Eigen/Dense>

#include "control/collocation_chart.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::control {

/// The rows, by group:
/// - SO(3): Log(R_N^T R*) (3 rows; the attitude is fixed as a whole or free, as in shooting);
/// - SE(2): the components directly, as shooting's rows: the position (x_N - x*, y_N - y*)
///   when fixed (2 rows, the pair as a whole), the angle wrap(theta_N - theta*) to (-pi, pi]
///   when fixed (1 row). In the chart G_N = Gref Exp(eta) the position is smooth in eta and the
///   angle theta_ref + eta_omega linear, so a subset is exact and smooth as well.
class GroupRows {
 public:
  GroupRows() = default;
  /// `target`: the group element whose fixed components are met (its others unread).
  GroupRows(geometry::MatrixGroup group, const Eigen::Matrix3d& target, bool fix_translation,
            bool fix_angle);

  geometry::MatrixGroup group() const { return group_; }
  int size() const { return rows_; }  ///< number of rows: 0 .. 3
  const Eigen::Matrix3d& target() const { return target_; }
  bool fixes_translation() const { return translation_; }  ///< SE(2): the position pair
  bool fixes_angle() const { return angle_; }              ///< SE(2): the angle

  Eigen::Matrix3d Exp(const Eigen::Vector3d& phi) const { return geometry::Exp(group_, phi); }
  /// Ad_{P^-1}: the matrix of v -> (P^-1 v^ P)^v (carries a group costate along the motion).
  Eigen::Matrix3d InverseAdjoint(const Eigen::Matrix3d& P) const;
  /// D = dr / deta of r(G_N Exp(eta)) at eta = 0 (the right-trivialised derivative of the
  /// rows at G_N): its first size() rows, the others zero. The final rows' multipliers nu
  /// give the group costate at T, mu_T = -D^T nu.
  Eigen::Matrix3d EtaJacobian(const Eigen::Matrix3d& GN) const;
  /// The rows in the chart G_N = reference Exp(eta).
  FinalChartRows InChart(const Eigen::Matrix3d& reference) const {
    return FinalChartRows(group_, reference, target_, translation_, angle_);
  }

 private:
  geometry::MatrixGroup group_ = geometry::MatrixGroup::kSO3;
  Eigen::Matrix3d target_ = Eigen::Matrix3d::Identity();
  bool translation_ = false, angle_ = false;  ///< SE(2): which components are fixed
  int rows_ = 0;
};

/// The SE(2) element (x, y, theta) as a homogeneous matrix.
Eigen::Matrix3d SE2Matrix(double x, double y, double theta);

}  // namespace dirac::control
