// The costates from collocation's defect multipliers (control/collocation_costates.hpp) against
// the indirect shooting's costates at the mesh nodes, on a nonlinear problem without
// inequalities (a pendulum turned by a torque, min int u^2/2): second order in h, and the sign
// and scaling of the derivation (lambda_k = p(t_k + h/2), H = p . f - C).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "control/collocation_costates.hpp"
#include "control/collocation_warm_start.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

const std::string kPendulum = R"yaml(name: pendulum turned by a torque
coordinates:
  - {name: th, initial: 0.0, initial_velocity: 0.0}
lagrangian: "vth^2/2 + cos(th)"
optimal_control:
  horizon: 2
  controls: [{name: u, acts_on: vth}]
  cost: "u^2/2"
  final: {th: 1.5, vth: 0}
simulation: {output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}
)yaml";

// max_k |p(t_k) - p_shooting(t_k)| over both costates on N intervals (uniform: no refinement).
double CostateError(const Scenario& s, const Trajectory& shooting, int intervals,
                    CollocationScheme scheme) {
  Scenario c = s;
  c.optimal_control.method = OptimalControlMethod::kCollocation;
  c.optimal_control.collocation.scheme = scheme;
  c.optimal_control.collocation.mesh_rounds = 0;
  c.optimal_control.collocation.polish = false;
  SolveOptions options;
  options.nodes = intervals;
  options.sample = false;
  const OptimalControlSolution solution = SolveOptimalControl(c, options);
  EXPECT_TRUE(solution.report.converged) << solution.report.message;
  if (!solution.warm_start.collocation) return 1e9;
  EXPECT_EQ(solution.report.nodes, intervals);
  const auto p =
      control::NodeCostates(intervals, 2, solution.warm_start.collocation->point.lambda, scheme);
  // The shooting's costates of th and vth: p_vth, pbar_vth (H = p . f - C).
  const auto t = shooting.Column("t");
  const auto p_q = shooting.Column("p_vth"), p_v = shooting.Column("pbar_vth");
  double error = 0.0;
  const double h = 2.0 / intervals;
  for (int k = 0; k <= intervals; ++k) {
    const auto at = std::min_element(t.begin(), t.end(), [&](double a, double b) {
      return std::abs(a - k * h) < std::abs(b - k * h);
    });
    EXPECT_NEAR(*at, k * h, 1e-9);
    const std::size_t r = static_cast<std::size_t>(at - t.begin());
    error = std::max({error, std::abs(p[k][0] - p_q[r]), std::abs(p[k][1] - p_v[r])});
  }
  return error;
}

TEST(CollocationCostates, DefectMultipliersAreTheShootingCostatesToSecondOrder) {
  const Scenario s = ParseScenario(kPendulum, "pendulum.yaml");
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  const auto p_v = shooting.trajectory.Column("pbar_vth");
  const double scale = std::abs(*std::max_element(
      p_v.begin(), p_v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); }));
  const double coarse = CostateError(s, shooting.trajectory, 50, CollocationScheme::kTrapezoidal);
  const double fine = CostateError(s, shooting.trajectory, 100, CollocationScheme::kTrapezoidal);
  // O(h^2): within 1e-3 of the costates' scale at h = 0.02, and about 4 x smaller on halving h.
  EXPECT_LT(fine, 1e-3 * scale) << fine << " (scale " << scale << ")";
  EXPECT_GT(coarse / fine, 3.0) << coarse << " " << fine;
  EXPECT_LT(coarse / fine, 5.0) << coarse << " " << fine;
  std::printf(
      "costates from the multipliers: max error %.3e (N = 50), %.3e (N = 100), scale %.3f\n",
      coarse, fine, scale);
}

// Hermite-Simpson (no refinement): the Simpson rows' multipliers are p(t_k + h/2) as well (the
// Hermite rows' are O(h) and skipped), second order like the discrete adjoint they solve.
TEST(CollocationCostates, SimpsonMultipliersAreTheShootingCostatesToSecondOrder) {
  const Scenario s = ParseScenario(kPendulum, "pendulum.yaml");
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  const double coarse =
      CostateError(s, shooting.trajectory, 50, CollocationScheme::kHermiteSimpson);
  const double fine = CostateError(s, shooting.trajectory, 100, CollocationScheme::kHermiteSimpson);
  EXPECT_LT(fine, 2e-3);
  EXPECT_GT(coarse / fine, 3.0) << coarse << " " << fine;
  EXPECT_LT(coarse / fine, 5.0) << coarse << " " << fine;
  std::printf("costates from the Simpson multipliers: max error %.3e (N = 50), %.3e (N = 100)\n",
              coarse, fine);
}

}  // namespace
}  // namespace dirac
