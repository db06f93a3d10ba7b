#include "geometry/lie_group.hpp"

#include <cmath>

namespace dirac::geometry {

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

Eigen::Matrix3d MagnusStep(MatrixGroup group, const Eigen::Matrix3d& g0, const Eigen::Vector3d& xi1,
                           const Eigen::Vector3d& xi2, double h) {
  const Eigen::Matrix3d A1 = Hat(group, xi1), A2 = Hat(group, xi2);
  const Eigen::Matrix3d omega =
      0.5 * h * (A1 + A2) + std::sqrt(3.0) / 12.0 * h * h * (A1 * A2 - A2 * A1);
  return g0 * Exp(group, Vee(group, omega));
}

}  // namespace dirac::geometry
