// The accuracy of Hermite-Simpson collocation with mesh refinement: the fourth-order Magnus
// increment on SO(3) against a fine integration, collocation against shooting on the smooth
// problems (so3_spline, elroys_beanie_ocp, a Heisenberg-group spline), and the closed-form optima
// of the minimum-time double integrator and the Bryson-Denham problem after refinement (no
// extrapolation).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_increment.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "geometry/lie_group.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

using geometry::MatrixGroup;
using testing::Replace;

Eigen::Vector3d BodyVelocityAt(double t) {
  return {std::sin(2 * t) + 0.5, std::cos(3 * t), t * t - 0.7};
}

// G(1) for G' = G xi^, G(0) = I, in `steps` increments of the scheme.
Eigen::Matrix3d Integrate(CollocationScheme scheme, int steps,
                          MatrixGroup group = MatrixGroup::kSO3) {
  const control::CollocationFormula f = control::CollocationFormula::For(scheme);
  const double h = 1.0 / steps;
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  for (int k = 0; k < steps; ++k) {
    Eigen::Vector3d xi[3];
    for (int l = 0; l < f.points; ++l) xi[l] = BodyVelocityAt((k + f.fraction[l]) * h);
    R = R * geometry::Exp(group, control::GroupIncrement(group, f, h, xi));
  }
  return R;
}

// The increment's global order: the error at N = 10, 20, 40 against 4000 fourth-order steps
// (whose own error is ~1e-15); Hermite-Simpson's Magnus increment is fourth order (the
// commutator's sign matters: the opposite sign leaves it second order), the trapezoidal one second.
TEST(CollocationAccuracy, MagnusIncrementIsFourthOrderOnSo3) {
  const Eigen::Matrix3d reference = Integrate(CollocationScheme::kHermiteSimpson, 4000);
  EXPECT_LT((reference.transpose() * reference - Eigen::Matrix3d::Identity()).norm(), 1e-13);
  auto error = [&](CollocationScheme scheme, int steps) {
    return geometry::Log(MatrixGroup::kSO3, reference.transpose() * Integrate(scheme, steps))
        .norm();
  };
  const double e10 = error(CollocationScheme::kHermiteSimpson, 10),
               e20 = error(CollocationScheme::kHermiteSimpson, 20),
               e40 = error(CollocationScheme::kHermiteSimpson, 40);
  const double order_hs = std::log2(e20 / e40);
  EXPECT_GT(std::log2(e10 / e20), 3.7);
  EXPECT_GT(order_hs, 3.8);
  EXPECT_LT(order_hs, 4.3);
  EXPECT_LT(e40, 1e-6);
  const double t20 = error(CollocationScheme::kTrapezoidal, 20),
               t40 = error(CollocationScheme::kTrapezoidal, 40);
  EXPECT_NEAR(std::log2(t20 / t40), 2.0, 0.2);
  std::printf(
      "[ measured ] SO(3) increment: Hermite-Simpson errors %.2e %.2e %.2e (order %.2f), "
      "trapezoidal order %.2f\n",
      e10, e20, e40, order_hs, std::log2(t20 / t40));
}

// The same on SE(2): the bracket from the matrix commutator of the hat matrices keeps the
// increment fourth order (without it, or with the opposite sign, it would be second order).
TEST(CollocationAccuracy, MagnusIncrementIsFourthOrderOnSe2) {
  const MatrixGroup se2 = MatrixGroup::kSE2;
  const Eigen::Matrix3d reference = Integrate(CollocationScheme::kHermiteSimpson, 4000, se2);
  auto error = [&](CollocationScheme scheme, int steps) {
    return geometry::Log(se2, reference.inverse() * Integrate(scheme, steps, se2)).norm();
  };
  const double e20 = error(CollocationScheme::kHermiteSimpson, 20),
               e40 = error(CollocationScheme::kHermiteSimpson, 40);
  EXPECT_GT(std::log2(e20 / e40), 3.8);
  EXPECT_LT(std::log2(e20 / e40), 4.3);
  EXPECT_NEAR(std::log2(error(CollocationScheme::kTrapezoidal, 20) /
                        error(CollocationScheme::kTrapezoidal, 40)),
              2.0, 0.2);
  std::printf("[ measured ] SE(2) increment: Hermite-Simpson errors %.2e %.2e (order %.2f)\n", e20,
              e40, std::log2(e20 / e40));
}

// Collocation (Hermite-Simpson, refined to a tight mesh tolerance) against shooting on the same
// scenario: the cost to 1e-8 relative and the controls at the collocation nodes that fall on
// shooting's samples (the first mesh's nodes stay nodes) to 5e-4 (the issue asks 1e-6: not
// met). The states and the cost are fourth order in h, the controls only second: the node
// controls come from the discrete costates, which separated Hermite-Simpson approximates to
// O(h^2) (measured on so3_spline at N = 20, 40, 80 without refinement: the node-control error
// 3.7e-3, 9.3e-4, 2.3e-4, the cost's 2.0e-5, 1.2e-6, 7.7e-8), and the refinement's estimate
// (the state residual) does not see them.
void ExpectCollocationMatchesShooting(Scenario s, int nodes, double mesh_tolerance) {
  s.optimal_control.method = OptimalControlMethod::kShooting;
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.nodes = nodes;
  s.optimal_control.collocation.mesh_tolerance = mesh_tolerance;
  s.optimal_control.collocation.polish = false;  // collocation's own optimum
  const OptimalControlSolution direct = SolveOptimalControl(s);
  ASSERT_TRUE(direct.report.converged) << direct.report.message;
  EXPECT_NEAR(direct.cost, shooting.cost, 1e-8 * std::abs(shooting.cost));
  EXPECT_LE(direct.report.mesh_error, mesh_tolerance);
  const auto ts = shooting.trajectory.Column("t");
  const auto tc = direct.trajectory.Column("t");
  double worst = 0;
  int compared = 0;
  for (const ControlSpec& control : s.optimal_control.controls) {
    const std::string& u = control.name;
    const auto us = shooting.trajectory.Column(u), uc = direct.trajectory.Column(u);
    for (std::size_t k = 0; k < tc.size(); ++k) {
      const auto at = std::lower_bound(ts.begin(), ts.end(), tc[k] - 1e-9);
      if (at == ts.end() || std::abs(*at - tc[k]) > 1e-9) continue;
      worst = std::max(worst, std::abs(uc[k] - us[at - ts.begin()]));
      ++compared;
    }
  }
  EXPECT_GE(compared, nodes);
  EXPECT_LT(worst, 5e-4);
  std::printf(
      "[ measured ] %s: cost %.12g vs %.12g (rel %.1e), max |du| %.1e at %d nodes; "
      "%d intervals after %d refinements, %d iterations\n",
      s.name.c_str(), direct.cost, shooting.cost,
      std::abs(direct.cost - shooting.cost) / std::abs(shooting.cost), worst, compared,
      direct.report.nodes, direct.report.mesh_rounds, direct.report.iterations);
}

// so3_spline from 120 intervals (the estimate, ~3e-9, needs no refinement): its attitude rows'
// dense curvature block grows as (3 (2N + 1))^2, and this keeps the test's memory near the
// trapezoidal N = 200 test's (from 20 intervals with mesh_tolerance 1e-9: 163 intervals after
// two refinements, the cost to 1.1e-9, the controls to 5.9e-5, at 88 MB resident).
TEST(CollocationAccuracy, MatchesShootingOnTheSo3Spline) {
  ExpectCollocationMatchesShooting(LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml")),
                                   120, 1e-8);
}

TEST(CollocationAccuracy, MatchesShootingOnElroysBeanie) {
  ExpectCollocationMatchesShooting(
      LoadScenario(testing::SourcePath("scenarios/elroys_beanie_ocp.yaml")), 30, 1e-9);
}

// heisenberg_geodesic.yaml is a (vakonomic) boundary-value problem, not an optimal-control one;
// its optimal-control counterpart on the Heisenberg group is testing::kHeisenbergSpline
// (optimal_control_texts.hpp: the horizontal velocities forced, min int |u|^2/2).
using testing::kHeisenbergSpline;

TEST(CollocationAccuracy, MatchesShootingOnTheHeisenbergGroup) {
  ExpectCollocationMatchesShooting(ParseScenario(kHeisenbergSpline, "heisenberg.yaml"), 100, 1e-9);
}

// The minimum-time double integrator (|u| <= 1 from (1, 0) to rest, t_f = 2, the switch at 1):
// Hermite-Simpson with refinement concentrates nodes at the switch; t_f to 1e-5 relative
// without extrapolation, the switch within the final mesh's interval width there.
TEST(CollocationAccuracy, MinimumTimeDoubleIntegratorAfterRefinement) {
  const Scenario s = ParseScenario(
      Replace(testing::kDoubleIntegrator, "collocation: {nodes: 100}", "collocation: {nodes: 20}"),
      "di.yaml");
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  EXPECT_NEAR(report.final_time, 2.0, 1e-5 * 2.0);
  EXPECT_GE(report.mesh_rounds, 1);
  const auto t = solution.trajectory.Column("t");
  const auto u = solution.trajectory.Column("u");
  double switch_time = -1, width = 0;
  for (std::size_t k = 1; k < u.size(); ++k)
    if (u[k - 1] < 0 && u[k] >= 0) {
      switch_time = (t[k - 1] + t[k]) / 2;
      width = t[k] - t[k - 1];
    }
  EXPECT_NEAR(switch_time, 1.0, std::max(width, 1e-9));
  EXPECT_LT(width, 0.1 * report.final_time / 20);  // refined there
  std::printf(
      "[ measured ] double integrator: t_f - 2 = %.2e, switch %.8f (interval %.1e), %d "
      "intervals after %d refinements, %d iterations, estimate %.1e\n",
      report.final_time - 2, switch_time, width, report.nodes, report.mesh_rounds,
      report.iterations, report.mesh_error);
}

}  // namespace
}  // namespace dirac
