// geometry/lie_group.* on its own: the closed-form exponentials against rotations and arcs
// written out by hand, the principal logarithm as their inverse (also near the angle pi), the
// angle wrap, the left Jacobian's first-order property, and the Magnus steps' measured orders
// (4 and 6) on a non-commuting body velocity, staying in the group to rounding.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <random>

#include "geometry/lie_group.hpp"

namespace dirac {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using geometry::MatrixGroup;

constexpr double kPi = 3.14159265358979323846;

TEST(LieGroup, ExponentialsAreTheRotationAndTheArc) {
  const double a = 0.7;
  Matrix3d rz;
  rz << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  EXPECT_LT((geometry::Exp(MatrixGroup::kSO3, Vector3d(0, 0, a)) - rz).norm(), 1e-15);
  // SE(2): a unit of constant body velocity (u, 0, omega) drives along a circle of radius
  // u/omega: x = (u/omega) sin omega, y = (u/omega)(1 - cos omega), heading omega.
  const double u = 1.5, w = 0.9;
  const Matrix3d g = geometry::Exp(MatrixGroup::kSE2, Vector3d(u, 0, w));
  EXPECT_NEAR(g(0, 2), u / w * std::sin(w), 1e-15);
  EXPECT_NEAR(g(1, 2), u / w * (1 - std::cos(w)), 1e-15);
  EXPECT_NEAR(std::atan2(g(1, 0), g(0, 0)), w, 1e-15);
  // omega -> 0: the straight line.
  const Matrix3d line = geometry::Exp(MatrixGroup::kSE2, Vector3d(u, 0.25, 0));
  EXPECT_NEAR(line(0, 2), u, 1e-15);
  EXPECT_NEAR(line(1, 2), 0.25, 1e-15);
}

TEST(LieGroup, LogarithmInvertsTheExponentialUpToTheAnglePi) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  double worst_so3 = 0, worst_se2 = 0;
  for (int k = 0; k < 200; ++k) {
    Vector3d axis(n(rng), n(rng), n(rng));
    axis.normalize();
    const double angle = kPi * (k + 0.5) / 200.0;  // (0, pi)
    const Vector3d w = angle * axis;
    worst_so3 = std::max(
        worst_so3,
        (geometry::Log(MatrixGroup::kSO3, geometry::Exp(MatrixGroup::kSO3, w)) - w).norm());
    const Vector3d xi(n(rng), n(rng), angle - kPi / 2);
    worst_se2 = std::max(
        worst_se2,
        (geometry::Log(MatrixGroup::kSE2, geometry::Exp(MatrixGroup::kSE2, xi)) - xi).norm());
  }
  EXPECT_LT(worst_so3, 1e-12);
  EXPECT_LT(worst_se2, 1e-12);
  // 1e-9 short of pi, where 1/sin(angle) would lose the axis.
  const Vector3d near_pi = (kPi - 1e-9) * Vector3d(1, 2, 2) / 3.0;
  EXPECT_LT((geometry::Log(MatrixGroup::kSO3, geometry::Exp(MatrixGroup::kSO3, near_pi)) - near_pi)
                .norm(),
            1e-7);
}

TEST(LieGroup, WrapAngleMapsIntoTheHalfOpenInterval) {
  EXPECT_NEAR(geometry::WrapAngle(3 * kPi), kPi, 1e-12);
  EXPECT_NEAR(geometry::WrapAngle(-kPi), kPi, 1e-12);
  EXPECT_NEAR(geometry::WrapAngle(2 * kPi + 0.25), 0.25, 1e-12);
  EXPECT_NEAR(geometry::WrapAngle(-0.25), -0.25, 1e-15);
}

TEST(LieGroup, LeftJacobianIsTheFirstOrderTermOfTheExponential) {
  for (MatrixGroup group : {MatrixGroup::kSO3, MatrixGroup::kSE2}) {
    const Vector3d x(0.4, -1.1, 0.8), d(0.3, 0.2, -0.5);
    const Matrix3d J = geometry::LeftJacobian(group, x);
    double previous = 0;
    for (double eps : {1e-2, 5e-3}) {
      const double error = (geometry::Exp(group, x + eps * d) -
                            geometry::Exp(group, J * (eps * d)) * geometry::Exp(group, x))
                               .norm();
      if (previous > 0) EXPECT_NEAR(previous / error, 4.0, 0.2);  // O(eps^2)
      previous = error;
    }
  }
}

// g' = g xi^(t) with a body velocity whose directions do not commute.
Vector3d Xi(double t) { return Vector3d(std::cos(t), 0.5 * std::sin(2 * t), 0.3 + t); }

Matrix3d Integrate(MatrixGroup group, int steps, bool sixth) {
  const double T = 2.0, h = T / steps;
  Matrix3d g = Matrix3d::Identity();
  for (int k = 0; k < steps; ++k) {
    const double t0 = k * h;
    if (sixth) {
      const double c = std::sqrt(15.0) / 10.0;
      g = geometry::MagnusStep6(group, g, Xi(t0 + (0.5 - c) * h), Xi(t0 + 0.5 * h),
                                Xi(t0 + (0.5 + c) * h), h);
    } else {
      const double c = std::sqrt(3.0) / 6.0;
      g = geometry::MagnusStep(group, g, Xi(t0 + (0.5 - c) * h), Xi(t0 + (0.5 + c) * h), h);
    }
  }
  return g;
}

TEST(LieGroup, MagnusStepsHaveOrdersFourAndSixAndStayInTheGroup) {
  for (MatrixGroup group : {MatrixGroup::kSO3, MatrixGroup::kSE2}) {
    const Matrix3d reference = Integrate(group, 4096, true);
    const double e4a = (Integrate(group, 32, false) - reference).norm();
    const double e4b = (Integrate(group, 64, false) - reference).norm();
    const double e6a = (Integrate(group, 16, true) - reference).norm();
    const double e6b = (Integrate(group, 32, true) - reference).norm();
    EXPECT_NEAR(std::log2(e4a / e4b), 4.0, 0.3);
    EXPECT_NEAR(std::log2(e6a / e6b), 6.0, 0.4);
    const Matrix3d g = Integrate(group, 7, false);  // a coarse run is still in the group
    if (group == MatrixGroup::kSO3) {
      EXPECT_LT((g.transpose() * g - Matrix3d::Identity()).norm(), 1e-14);
      EXPECT_NEAR(g.determinant(), 1.0, 1e-14);
    } else {
      EXPECT_EQ(g(2, 0), 0.0);
      EXPECT_EQ(g(2, 1), 0.0);
      EXPECT_EQ(g(2, 2), 1.0);
      EXPECT_NEAR(g(0, 0) * g(0, 0) + g(1, 0) * g(1, 0), 1.0, 1e-14);
    }
  }
}

}  // namespace
}  // namespace dirac
