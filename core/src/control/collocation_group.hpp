#pragma once
// Internal to control/: the group of a collocation problem (SO(3) or SE(2)) and its fixed final
// components as rows r(G_N) = 0 of the NLP, G_N = G_0 E_0 ... E_{N-1}, E_k = Exp(Phi_k).

#include <Eigen/Dense>

#include <vector>

#include "geometry/lie_group.hpp"

namespace dirac::control {

/// The rows, by group:
/// - SO(3): Log(R_N^T R*) (3 rows; the attitude is fixed as a whole or free, as in shooting);
/// - SE(2): the components directly, as shooting's rows: the position (x_N - x*, y_N - y*)
///   when fixed (2 rows, the pair as a whole), the angle wrap(theta_N - theta*) to (-pi, pi]
///   when fixed (1 row). The position is a smooth function of the increments and the angle
///   theta_0 + sum_k Phi_k,omega is linear in them, so a subset is exact and smooth as well.
/// Derivatives: r(G_N Exp(eta)) = r(G_N) + D eta + O(eta^2) (EtaJacobian), and a change of
/// Phi_k moves G_N by eta = Ad_{P_k^-1} J_r(Phi_k) dPhi_k, P_k = E_{k+1} ... E_{N-1}.
class GroupRows {
 public:
  GroupRows() = default;
  /// `target`: the group element whose fixed components are met (its others unread).
  GroupRows(geometry::MatrixGroup group, const Eigen::Matrix3d& target, bool fix_translation,
            bool fix_angle);

  geometry::MatrixGroup group() const { return group_; }
  int size() const { return rows_; }  ///< number of rows: 0 .. 3

  Eigen::Matrix3d Exp(const Eigen::Vector3d& phi) const { return geometry::Exp(group_, phi); }
  Eigen::Matrix3d RightJacobian(const Eigen::Vector3d& phi) const {
    return geometry::RightJacobian(group_, phi);
  }
  /// Ad_{P^-1}: the matrix of v -> (P^-1 v^ P)^v.
  Eigen::Matrix3d InverseAdjoint(const Eigen::Matrix3d& P) const;

  /// r(G_N), size() values.
  void Residual(const Eigen::Matrix3d& GN, double* rows) const;
  /// D = dr / deta at G_N: its first size() rows (the others zero; 3 x 3 for fixed-size
  /// arithmetic, the same on SO(3) as before SE(2) was added).
  Eigen::Matrix3d EtaJacobian(const Eigen::Matrix3d& GN) const;
  /// d (lambda . r(G_N)) / d Phi (3N values) for G_N = G0 E_0 ... E_{N-1}, with Jr_k =
  /// J_r(Phi_k) given: J_r(Phi_k)^T Ad_{P_k^-1}^T D^T lambda.
  void IncrementGradient(const Eigen::Matrix3d& G0, const std::vector<Eigen::Matrix3d>& E,
                         const std::vector<Eigen::Matrix3d>& Jr, const double* lambda,
                         Eigen::VectorXd& gradient) const;

 private:
  geometry::MatrixGroup group_ = geometry::MatrixGroup::kSO3;
  Eigen::Matrix3d target_ = Eigen::Matrix3d::Identity();
  bool translation_ = false, angle_ = false;  ///< SE(2): which components are fixed
  int rows_ = 0;
};

/// The SE(2) element (x, y, theta) as a homogeneous matrix.
Eigen::Matrix3d SE2Matrix(double x, double y, double theta);

}  // namespace dirac::control
