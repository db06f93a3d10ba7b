// Direct collocation on SE(2) and the bounded / path-constrained shipped scenarios: Elroy's
// beanie steered in theta (the SE(2) angle row) against shooting, with a rotor-torque bound and
// a free horizon; so3_spline with a torque bound; the hovercraft past an obstacle against the
// closed forms of its unconstrained and speed-limited limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

Scenario Shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/" + name));
  ApplyOverrides(s, overrides);
  return s;
}

OptimalControlSolution ByCollocation(Scenario s, int nodes) {
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.polish = false;  // collocation's own optimum
  SolveOptions options;
  options.nodes = nodes;
  OptimalControlSolution solution = SolveOptimalControl(s, options);
  EXPECT_TRUE(solution.report.converged) << solution.report.message;
  return solution;
}

// max_k |theta_k + b psi_k| along the nodes, b = I2 / (I1 + I2) (the geometric phase at v4 = 0).
double PhaseDefect(const Trajectory& t, double b) {
  const auto theta = t.Column("theta"), psi = t.Column("psi");
  double worst = 0;
  for (std::size_t k = 0; k < theta.size(); ++k)
    worst = std::max(worst, std::abs(theta[k] + b * psi[k]));
  return worst;
}

TEST(CollocationSe2, ElroysBeanieSteeredInThetaAgreesWithShooting) {
  const Scenario s = Shipped("elroys_beanie_ocp.yaml", {"final.theta=-0.3", "final.psi=free"});
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  EXPECT_EQ(shooting.report.method, "shooting");
  const OptimalControlSolution c50 = ByCollocation(s, 50), c100 = ByCollocation(s, 100);
  ASSERT_TRUE(c50.report.converged && c100.report.converged);
  const double ref = shooting.cost, richardson = (4 * c100.cost - c50.cost) / 3;
  EXPECT_NEAR(c100.cost, ref, 1e-3 * ref);
  EXPECT_NEAR(richardson, ref, 1e-5 * ref);
  // The angle row holds (theta unwrapped in the node columns), psi(T) = 0.3 (I1 + I2) / I2 to
  // the mesh, and theta = -b psi at every node (v4 = 0 stays exactly 0 on the mesh).
  EXPECT_NEAR(c100.trajectory.Column("theta").back(), -0.3, 1e-9);
  EXPECT_NEAR(c100.trajectory.Column("psi").back(), 1.5, 1e-3);
  EXPECT_LT(PhaseDefect(c100.trajectory, 0.2), 1e-9);
  std::printf(
      "[ measured ] Elroy theta(T) = -0.3: shooting %.10f, collocation N=100 %.10f "
      "(%.1e rel), Richardson 50/100 %.10f (%.1e rel)\n",
      ref, c100.cost, std::abs(c100.cost - ref) / ref, richardson,
      std::abs(richardson - ref) / ref);
}

TEST(CollocationSe2, RefusesWhatShootingRefusesOnSe2) {
  Scenario s = Shipped("elroys_beanie_ocp.yaml", {"final.x=0.1", "final.theta=-0.3"});
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  const control::CollocationDynamics dynamics(s);
  try {
    const control::CollocationNlp nlp(s, dynamics, 10);
    ADD_FAILURE() << "a lone SE2 position component was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("fixed or free as a pair"), std::string::npos) << e.what();
  }
  // The pair fixed with the angle: three rows.
  ApplyOverride(s, "final.y", 0.0);
  EXPECT_EQ(control::CollocationNlp(s, dynamics, 10).group_rows().size(), 3);
  ApplyOverride(s, "final.theta=free");
  EXPECT_EQ(control::CollocationNlp(s, dynamics, 10).group_rows().size(), 2);
}

TEST(CollocationSe2, ElroysBeanieWithRotorTorqueBoundAndFreeHorizon) {
  const std::vector<std::string> bounded = {"rho=0.5",
                                            "bounds.u.min=-0.5",
                                            "bounds.u.max=0.5",
                                            "horizon_bounds.min=1",
                                            "horizon_bounds.max=10",
                                            "horizon=free"};
  const Scenario s = Shipped("elroys_beanie_ocp.yaml", bounded);
  EXPECT_EQ(ChosenMethod(s), OptimalControlMethod::kCollocation);
  SolveOptions options;
  options.nodes = 100;
  const OptimalControlSolution sol = SolveOptimalControl(s, options);
  ASSERT_TRUE(sol.report.converged) << sol.report.message;
  const double tf = sol.report.final_time;
  EXPECT_GT(tf, 1.01);
  EXPECT_LT(tf, 9.99);
  int on_bound = 0;
  for (const ActiveArc& arc : sol.report.active_arcs)
    if (arc.name == "u" && !arc.path_constraint) ++on_bound;
  EXPECT_GE(on_bound, 1);
  const auto u = sol.trajectory.Column("u");
  EXPECT_LE(*std::max_element(u.begin(), u.end()), 0.5 + 1e-8);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), -0.5 - 1e-8);
  EXPECT_NEAR(sol.trajectory.Column("psi").back(), 1.2, 1e-9);
  EXPECT_LT(PhaseDefect(sol.trajectory, 0.2), 1e-9);
  // T is optimal: the same problem with the horizon fixed a little off t_f costs more.
  for (const double dt : {-0.025, 0.025}) {
    Scenario fixed = s;
    ApplyOverride(fixed, "horizon", tf + dt);
    const OptimalControlSolution off = SolveOptimalControl(fixed, options);
    ASSERT_TRUE(off.report.converged) << off.report.message;
    EXPECT_GT(off.cost, sol.cost);
  }
  std::printf(
      "[ measured ] Elroy |u| <= 0.5, free T, cost 0.5 T + int u^2/2: t_f = %.6f, cost %.6f, "
      "%zu active arcs, %d iterations\n",
      tf, sol.cost, sol.report.active_arcs.size(), sol.report.iterations);
}

// The scenario file's documented bound: |u2|, |u3| <= 2 against an optimum reaching -2.62 and
// [-2.98, 2.30].
TEST(CollocationSe2, So3SplineWithATorqueBound) {
  const OptimalControlSolution open =
      ByCollocation(Shipped("so3_spline.yaml", {"optimal_control.method=collocation"}), 60);
  const auto u3 = open.trajectory.Column("u3");
  EXPECT_LT(*std::min_element(u3.begin(), u3.end()), -2.5);
  const Scenario bounded =
      Shipped("so3_spline.yaml", {"bounds.u2.min=-2", "bounds.u3.min=-2", "bounds.u3.max=2"});
  EXPECT_EQ(ChosenMethod(bounded), OptimalControlMethod::kCollocation);
  const OptimalControlSolution sol = ByCollocation(bounded, 60);
  std::string arcs;
  for (const ActiveArc& arc : sol.report.active_arcs)
    if (arc.t_end > arc.t_begin) arcs += arc.name + (arc.upper ? "+ " : "- ");
  EXPECT_EQ(arcs, "u2- u3- u3+ ");
  EXPECT_GT(sol.cost, open.cost + 0.1);
}

// Hovercraft: m x'' = Fx, m y'' = Fy, J theta'' = tau, rest to rest over (L, 0) and a quarter turn.
constexpr double kL = 4.0, kT = 4.0, kTurn = M_PI / 2, kM = 1.0, kJ = 0.5;

double Richardson(const Scenario& s) {
  return (4 * ByCollocation(s, 200).cost - ByCollocation(s, 100).cost) / 3;
}

TEST(CollocationPlanar, HovercraftLimitsMatchTheirClosedForms) {
  // Obstacle away: 1/2 int a^2 of a rest-to-rest cubic is 6 L^2 / T^3 per unit mass.
  const double turn = kJ * kJ * 6 * kTurn * kTurn / std::pow(kT, 3);
  const double open = kM * kM * 6 * kL * kL / std::pow(kT, 3) + turn;
  const double c_open = Richardson(Shipped("hovercraft_obstacle.yaml", {"yo=100"}));
  EXPECT_NEAR(c_open, open, 1e-6 * open);
  // Speed limit V < 3 L / (2 T): a = c (tau - t) on [0, tau] (u continuous at the junction of
  // a first-order state constraint), v = V on [tau, T - tau]; L = V T - 2 V tau / 3 gives tau,
  // the cost 2 * c^2 tau^3 / 6 = 4 V^2 / (3 tau).
  const double V = 1.2, tau = 3 * (V * kT - kL) / (2 * V);
  const double limited = kM * kM * 4 * V * V / (3 * tau) + turn;
  const Scenario s = Shipped("hovercraft_obstacle.yaml", {"yo=100", "vmax=1.2"});
  const double c_limited = Richardson(s);
  EXPECT_NEAR(c_limited, limited, 1e-4 * limited);
  const OptimalControlSolution sol = ByCollocation(s, 100);
  int arcs = 0;
  for (const ActiveArc& arc : sol.report.active_arcs) {
    if (!arc.path_constraint || arc.name != "vx^2 + vy^2 <= vmax^2") continue;
    ++arcs;
    EXPECT_NEAR(arc.t_begin, tau, 0.1);
    EXPECT_NEAR(arc.t_end, kT - tau, 0.1);
  }
  EXPECT_EQ(arcs, 1);
  std::printf("[ measured ] hovercraft: open %.8f (closed form %.8f), speed-limited %.8f (%.8f)\n",
              c_open, open, c_limited, limited);
}

// The obstacle (centre (2, -0.2), r = 0.8) below the straight line: the optimum touches it at
// its top, (xo, yo + r), at t = T/2 (a touch point, not an arc: the path's curvature there,
// |y''| / x'^2 = 0.9 / 1.5^2, is below the circle's 1/r). By symmetry x is the open cubic and
// y rises rest to rest to h = yo + r in T/2 and comes back: 2 * 6 h^2 / (T/2)^3 = 96 h^2 / T^3.
TEST(CollocationPlanar, HovercraftTouchesTheObstacleWhereTheClosedFormSays) {
  const Scenario s = Shipped("hovercraft_obstacle.yaml");
  EXPECT_EQ(ChosenMethod(s), OptimalControlMethod::kCollocation);
  const OptimalControlSolution sol = SolveOptimalControl(s);
  ASSERT_TRUE(sol.report.converged) << sol.report.message;
  const auto x = sol.trajectory.Column("x"), y = sol.trajectory.Column("y");
  double min_clearance = 1e9;
  for (std::size_t k = 0; k < x.size(); ++k)
    min_clearance = std::min(min_clearance, std::hypot(x[k] - 2.0, y[k] + 0.2) - 0.8);
  EXPECT_GT(min_clearance, -1e-8);
  EXPECT_NEAR(y[x.size() / 2], 0.6, 1e-7);  // on the top of the circle at t = T/2
  int arcs = 0;
  for (const ActiveArc& arc : sol.report.active_arcs)
    if (arc.path_constraint && arc.name == "(x - xo)^2 + (y - yo)^2 >= r^2") {
      ++arcs;
      EXPECT_LE(arc.t_begin, kT / 2 + 1e-12);
      EXPECT_GE(arc.t_end, kT / 2 - 1e-12);
    }
  EXPECT_EQ(arcs, 1);
  const double h = 0.6, turn = kJ * kJ * 6 * kTurn * kTurn / std::pow(kT, 3);
  const double touch = kM * kM * (6 * kL * kL + 96 * h * h) / std::pow(kT, 3) + turn;
  EXPECT_NEAR(sol.cost, touch, 1e-3 * touch);
  const double extrapolated = Richardson(s);
  EXPECT_NEAR(extrapolated, touch, 1e-5 * touch);
  std::printf(
      "[ measured ] hovercraft past the obstacle: N=100 %.8f, Richardson %.8f, closed form "
      "%.8f; %d iterations\n",
      sol.cost, extrapolated, touch, sol.report.iterations);
}

}  // namespace
}  // namespace dirac
