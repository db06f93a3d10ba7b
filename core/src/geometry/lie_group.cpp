#include "geometry/lie_group.hpp"

#include <algorithm>
#include <cmath>

namespace dirac::geometry {

double WrapAngle(double a) {
  a = std::remainder(a, 2 * M_PI);
  return a <= -M_PI ? a + 2 * M_PI : a;
}

Eigen::Matrix3d HatSO3(const Eigen::Vector3d& w) {
  Eigen::Matrix3d m;
  m << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return m;
}

Eigen::Matrix3d HatSE2(const Eigen::Vector3d& xi) {
  Eigen::Matrix3d m;
  m << 0, -xi.z(), xi.x(), xi.z(), 0, xi.y(), 0, 0, 0;
  return m;
}

Eigen::Matrix3d Hat(MatrixGroup group, const Eigen::Vector3d& xi) {
  return group == MatrixGroup::kSO3 ? HatSO3(xi) : HatSE2(xi);
}

Eigen::Vector3d Vee(MatrixGroup group, const Eigen::Matrix3d& m) {
  if (group == MatrixGroup::kSO3) return {m(2, 1), m(0, 2), m(1, 0)};
  return {m(0, 2), m(1, 2), m(1, 0)};
}

Eigen::Matrix3d Exp(MatrixGroup group, const Eigen::Vector3d& xi) {
  if (group == MatrixGroup::kSO3) {
    const double theta = xi.norm();
    const Eigen::Matrix3d K = HatSO3(xi);
    // Series for small angles keeps full precision: sin(t)/t and (1 - cos t)/t^2.
    const double a =
        theta < 1e-4 ? 1 - theta * theta / 6 + std::pow(theta, 4) / 120 : std::sin(theta) / theta;
    const double b = theta < 1e-4 ? 0.5 - theta * theta / 24 + std::pow(theta, 4) / 720
                                  : (1 - std::cos(theta)) / (theta * theta);
    return Eigen::Matrix3d::Identity() + a * K + b * K * K;
  }
  const double w = xi.z();
  const double s = std::abs(w) < 1e-4 ? 1 - w * w / 6 + std::pow(w, 4) / 120 : std::sin(w) / w;
  const double c = std::abs(w) < 1e-4 ? w / 2 - std::pow(w, 3) / 24 : (1 - std::cos(w)) / w;
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  g(0, 0) = std::cos(w);
  g(0, 1) = -std::sin(w);
  g(1, 0) = std::sin(w);
  g(1, 1) = std::cos(w);
  g(0, 2) = s * xi.x() - c * xi.y();
  g(1, 2) = c * xi.x() + s * xi.y();
  return g;
}

Eigen::Vector3d Log(MatrixGroup group, const Eigen::Matrix3d& g) {
  if (group == MatrixGroup::kSO3) {
    const double c = std::clamp((g.trace() - 1.0) / 2.0, -1.0, 1.0);
    const Eigen::Vector3d axis_sin{g(2, 1) - g(1, 2), g(0, 2) - g(2, 0), g(1, 0) - g(0, 1)};
    const double s = 0.5 * axis_sin.norm();  // sin(theta) >= 0
    const double theta = std::atan2(s, c);
    if (theta < 1e-4) return 0.5 * (1 + theta * theta / 6) * axis_sin;  // theta / (2 sin theta)
    if (M_PI - theta > 1e-4) return theta / (2 * s) * axis_sin;
    // Near pi: the axis from the symmetric part R + R^T = 2 cos(theta) I + 2 (1 - cos) a a^T.
    const Eigen::Matrix3d B = (g + g.transpose()) / 2 - c * Eigen::Matrix3d::Identity();
    int k = 0;
    B.diagonal().maxCoeff(&k);
    Eigen::Vector3d axis = B.col(k) / std::sqrt(std::max(B(k, k), 1e-300));
    axis.normalize();
    if (axis.dot(axis_sin) < 0) axis = -axis;
    return theta * axis;
  }
  const double w = std::atan2(g(1, 0), g(0, 0));
  const double s = std::abs(w) < 1e-4 ? 1 - w * w / 6 + std::pow(w, 4) / 120 : std::sin(w) / w;
  const double c = std::abs(w) < 1e-4 ? w / 2 - std::pow(w, 3) / 24 : (1 - std::cos(w)) / w;
  Eigen::Matrix2d V;
  V << s, -c, c, s;
  const Eigen::Vector2d uv = V.inverse() * Eigen::Vector2d(g(0, 2), g(1, 2));
  return {uv.x(), uv.y(), w};
}

Eigen::Matrix3d Ad(MatrixGroup group, const Eigen::Vector3d& x) {
  if (group == MatrixGroup::kSO3) return HatSO3(x);  // ad_x y = x cross y
  const Eigen::Matrix3d X = Hat(group, x);
  Eigen::Matrix3d ad;
  for (int j = 0; j < 3; ++j) {
    const Eigen::Matrix3d E = Hat(group, Eigen::Vector3d::Unit(j));
    ad.col(j) = Vee(group, X * E - E * X);
  }
  return ad;
}

Eigen::Matrix3d LeftJacobian(MatrixGroup group, const Eigen::Vector3d& x) {
  const Eigen::Matrix3d ad = Ad(group, x);
  Eigen::Matrix3d term = Eigen::Matrix3d::Identity(), sum = term;
  for (int n = 1; n <= 40; ++n) {
    term = term * ad / static_cast<double>(n + 1);
    sum += term;
  }
  return sum;
}

Eigen::Matrix3d ProjectToGroup(MatrixGroup group, const Eigen::Matrix3d& m) {
  if (group == MatrixGroup::kSO3) {
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d r = svd.matrixU() * svd.matrixV().transpose();
    if (r.determinant() < 0) {
      Eigen::Matrix3d u = svd.matrixU();
      u.col(2) = -u.col(2);
      r = u * svd.matrixV().transpose();
    }
    return r;
  }
  const double w = std::atan2(m(1, 0) - m(0, 1), m(0, 0) + m(1, 1));
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  g(0, 0) = std::cos(w);
  g(0, 1) = -std::sin(w);
  g(1, 0) = std::sin(w);
  g(1, 1) = std::cos(w);
  g(0, 2) = m(0, 2);
  g(1, 2) = m(1, 2);
  return g;
}

Eigen::Matrix3d MagnusStep(MatrixGroup group, const Eigen::Matrix3d& g0, const Eigen::Vector3d& xi1,
                           const Eigen::Vector3d& xi2, double h) {
  const Eigen::Matrix3d A1 = Hat(group, xi1), A2 = Hat(group, xi2);
  const Eigen::Matrix3d omega =
      0.5 * h * (A1 + A2) + std::sqrt(3.0) / 12.0 * h * h * (A1 * A2 - A2 * A1);
  return g0 * Exp(group, Vee(group, omega));
}

Eigen::Matrix3d MagnusStep6(MatrixGroup group, const Eigen::Matrix3d& g0,
                            const Eigen::Vector3d& xi1, const Eigen::Vector3d& xi2,
                            const Eigen::Vector3d& xi3, double h) {
  const Eigen::Matrix3d A1 = Hat(group, xi1), A2 = Hat(group, xi2), A3 = Hat(group, xi3);
  auto bracket = [](const Eigen::Matrix3d& x, const Eigen::Matrix3d& y) -> Eigen::Matrix3d {
    return y * x - x * y;
  };
  const Eigen::Matrix3d a1 = h * A2, a2 = std::sqrt(15.0) * h / 3.0 * (A3 - A1),
                        a3 = 10.0 * h / 3.0 * (A3 - 2.0 * A2 + A1);
  const Eigen::Matrix3d c1 = bracket(a1, a2);
  const Eigen::Matrix3d c2 = -1.0 / 60.0 * bracket(a1, 2.0 * a3 + c1);
  const Eigen::Matrix3d omega = a1 + a3 / 12.0 + bracket(-20.0 * a1 - a3 + c1, a2 + c2) / 240.0;
  return g0 * Exp(group, Vee(group, omega));
}

}  // namespace dirac::geometry
