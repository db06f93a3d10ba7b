#pragma once
// Internal to control/: the group element of a collocation problem carried at every node in a
// local chart G_k = Gref_k Exp(eta_k), and the two smooth maps its rows are made of, with exact
// first and second derivatives (second-order forward mode on these small maps):
// - the relative increment F(a, b) = Log(Exp(-a) C Exp(b)) with C = Gref_k^-1 Gref_{k+1}, the
//   interval's defect row F(eta_k, eta_{k+1}) - Phi_k = 0 (Log(G_k^-1 G_{k+1}) = Phi_k);
// - the fixed final components r(Gref_N Exp(eta_N)) (GroupRows: Log(G_N^T R*) on SO(3), the
//   position and the wrapped angle on SE(2)).

#include <Eigen/Dense>

#include "geometry/lie_group.hpp"

namespace dirac::control {

/// The derivatives of a map R^n -> R^3 at a point: values, Jacobian and, weighted by given
/// multipliers, the Hessian sum_r lambda_r d2 F_r.
template <int n>
struct ChartDerivatives {
  Eigen::Vector3d value = Eigen::Vector3d::Zero();
  Eigen::Matrix<double, 3, n> jacobian = Eigen::Matrix<double, 3, n>::Zero();
  Eigen::Matrix<double, n, n> hessian = Eigen::Matrix<double, n, n>::Zero();
};

/// The relative increment of one interval: F(a, b) = Log(Exp(-a) C Exp(b)) for a fixed C (the
/// references' relative element, near Exp(Phi_k)). Smooth wherever the rotation of
/// Exp(-a) C Exp(b) is below pi (series at the identity: no branch, no square root at zero).
class RelativeIncrement {
 public:
  RelativeIncrement(geometry::MatrixGroup group, const Eigen::Matrix3d& C);
  /// F(a, b) (values only).
  Eigen::Vector3d Value(const Eigen::Vector3d& a, const Eigen::Vector3d& b) const;
  /// F, dF/d(a, b) (3 x 6) and, if `lambda` is not null, sum_r lambda_r d2 F_r (6 x 6).
  ChartDerivatives<6> Derivatives(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                  const double* lambda) const;

 private:
  geometry::MatrixGroup group_;
  Eigen::Matrix3d C_;
  double angle_ = 0.0;  ///< SE(2): C's rotation angle in (-pi, pi]
};

/// The fixed final components of G_N = Gref Exp(eta) as functions of eta (the rows of
/// GroupRows: `rows` of them; SO(3): Log(G_N^T R*), SE(2): position pair then angle).
class FinalChartRows {
 public:
  FinalChartRows(geometry::MatrixGroup group, const Eigen::Matrix3d& reference,
                 const Eigen::Matrix3d& target, bool fix_translation, bool fix_angle);
  /// r, dr/deta and the weighted Hessian (the first `rows` entries / rows meaningful).
  ChartDerivatives<3> Derivatives(const Eigen::Vector3d& eta, const double* lambda) const;
  Eigen::Vector3d Value(const Eigen::Vector3d& eta) const;

 private:
  geometry::MatrixGroup group_;
  Eigen::Matrix3d reference_, target_;
  bool translation_, angle_;
  double angle_offset_ = 0.0;  ///< SE(2): wrap(theta_ref - theta*)
};

}  // namespace dirac::control
