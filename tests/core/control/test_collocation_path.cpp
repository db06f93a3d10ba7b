// Path constraints g(t, q, y, u) <= 0 and terminal costs phi(t, q, y) at t = T in direct
// collocation: the format (one inequality or a list, errors naming file/line/symbol, save and
// reload), the method choice (shooting refuses them, auto picks collocation), and optima with
// closed forms derived here: the Bryson-Denham state-constrained problem, a soft terminal target,
// and the minimum-time double integrator posed with terminal_cost "t".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bryson_denham.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

using testing::ExpectError;
using testing::LineOf;
using testing::Replace;

// Bryson-Denham (tests/bryson_denham.hpp): the optimum in closed form there.
using testing::kBrysonDenham;

TEST(CollocationPath, ReadsOneInequalityOrAList) {
  const Scenario s = ParseScenario(kBrysonDenham, "bd.yaml");
  const auto& oc = s.optimal_control;
  ASSERT_EQ(oc.path_constraints.size(), 1u);
  EXPECT_EQ(oc.path_constraints[0].text, "x <= l");
  EXPECT_EQ(oc.path_constraints[0].where.line, LineOf(kBrysonDenham, "path_constraints"));
  EXPECT_TRUE(oc.terminal_cost.empty());
  const std::string list = Replace(kBrysonDenham, "path_constraints: \"x <= l\"",
                                   "path_constraints:\n    - \"x <= l\"\n    - \"u >= -10 + t\"\n"
                                   "  terminal_cost: \"(x - l)^2 + t\"");
  const Scenario two = ParseScenario(list, "two.yaml");
  ASSERT_EQ(two.optimal_control.path_constraints.size(), 2u);
  EXPECT_EQ(two.optimal_control.path_constraints[1].where.line, LineOf(list, "u >= -10"));
  EXPECT_EQ(two.optimal_control.terminal_cost, "(x - l)^2 + t");
  // Saved and reloaded: the same inequalities and terminal cost.
  const Scenario back = ParseScenario(SaveScenarioToString(two), "back.yaml");
  ASSERT_EQ(back.optimal_control.path_constraints.size(), 2u);
  EXPECT_EQ(back.optimal_control.path_constraints[1].text, "u >= -10 + t");
  EXPECT_EQ(back.optimal_control.path_constraints[1].g, two.optimal_control.path_constraints[1].g);
  EXPECT_EQ(back.optimal_control.terminal_cost, two.optimal_control.terminal_cost);
}

TEST(CollocationPath, BadInequalitiesNameFileLineAndSymbol) {
  const std::string at = "path_constraints";
  ExpectError(Replace(kBrysonDenham, "\"x <= l\"", "\"x < l\""), "x < l", at);
  ExpectError(Replace(kBrysonDenham, "\"x <= l\"", "\"x <= l <= 1\""), "x <= l <= 1", at);
  ExpectError(Replace(kBrysonDenham, "\"x <= l\"", "\" <= l\""), " <= l", at);
  ExpectError(Replace(kBrysonDenham, "\"x <= l\"", "[]"), "path_constraints", at);
  // An unknown name: the error names it.
  ExpectError(Replace(kBrysonDenham, "\"x <= l\"", "\"z >= l\""), "z", at);
  // The terminal cost reads no controls.
  ExpectError(Replace(kBrysonDenham, "  collocation:", "  terminal_cost: \"u^2\"\n  collocation:"),
              "u", "terminal_cost");
}

TEST(CollocationPath, ShootingRefusesInequalitiesAndTerminalCostsAutoPicksCollocation) {
  Scenario s = ParseScenario(kBrysonDenham, "bd.yaml");
  EXPECT_EQ(ChosenMethod(s), OptimalControlMethod::kCollocation);
  s.optimal_control.method = OptimalControlMethod::kShooting;
  try {
    SolveOptimalControl(s);
    ADD_FAILURE() << "shooting accepted a path constraint";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("path constraints"), std::string::npos) << e.what();
  }
  Scenario terminal = ParseScenario(
      Replace(testing::kTq, "  final: {x: 1, vx: 0}\n", "  terminal_cost: \"(x - 1)^2\"\n"),
      "t.yaml");
  EXPECT_EQ(ChosenMethod(terminal), OptimalControlMethod::kCollocation);
  terminal.optimal_control.method = OptimalControlMethod::kShooting;
  EXPECT_THROW(SolveOptimalControl(terminal), ScenarioError);
}

// The trapezoidal rule on a fixed uniform mesh (no refinement): second order, extrapolated.
TEST(CollocationPath, BrysonDenhamMatchesTheClosedForm) {
  const Scenario s = ParseScenario(
      Replace(kBrysonDenham, "{nodes: 100}", "{nodes: 100, scheme: trapezoidal, mesh_rounds: 0}"),
      "bd.yaml");
  const double l = 0.1, exact = 4 / (9 * l);
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  const double h = 1.0 / report.nodes;
  // Trapezoidal collocation: an h^2 error, extrapolated away with N = 200.
  EXPECT_NEAR(solution.cost, exact, 2e-3 * exact);
  SolveOptions finer;
  finer.nodes = 200;
  const OptimalControlSolution refined = SolveOptimalControl(s, finer);
  ASSERT_TRUE(refined.report.converged) << refined.report.message;
  EXPECT_NEAR((4 * refined.cost - solution.cost) / 3, exact, 1e-5 * exact);
  // The constraint met at every node; on the boundary arc [3l, 1 - 3l] x = l and u = 0; on the
  // entry arc the closed form. The controls at the end nodes and at the junctions (where u has
  // a kink) are first order in h; elsewhere second.
  const auto t = solution.trajectory.Column("t");
  const auto x = solution.trajectory.Column("x");
  const auto u = solution.trajectory.Column("u");
  double worst_x = 0, worst_u = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    EXPECT_LE(x[k], l + 1e-8);
    const double s3 = 1 - t[k] / (3 * l);
    if (t[k] < 3 * l) {
      worst_x = std::max(worst_x, std::abs(x[k] - l * (1 - s3 * s3 * s3)));
      if (k > 0 && t[k] < 3 * l - 1.5 * h)
        worst_u = std::max(worst_u, std::abs(u[k] + 2 / (3 * l) * s3));
    } else if (t[k] <= 1 - 3 * l) {
      worst_x = std::max(worst_x, std::abs(x[k] - l));
      if (t[k] > 3 * l + 1.5 * h && t[k] < 1 - 3 * l - 1.5 * h)
        worst_u = std::max(worst_u, std::abs(u[k]));
    }
  }
  EXPECT_LT(worst_x, 1e-3 * l);
  EXPECT_LT(worst_u, 1e-2);  // of max |u| = 2 / (3l) = 6.7
  // The report: x <= l active on [3l, 1 - 3l] to a few intervals, and nothing else. The
  // report's tolerance is O(h^2) (the discrete optimum sags ~0.4 h^2 below l between the
  // junctions), and l - x = l (1 - t/(3l))^3 enters tangentially: within h^2 of l from
  // 3l (1 - (h^2/l)^(1/3)) = 3l - 2.2h.
  ASSERT_EQ(report.active_arcs.size(), 1u);
  const ActiveArc& arc = report.active_arcs[0];
  EXPECT_TRUE(arc.path_constraint);
  EXPECT_EQ(arc.name, "x <= l");
  EXPECT_NEAR(arc.t_begin, 3 * l, 3.5 * h);
  EXPECT_NEAR(arc.t_end, 1 - 3 * l, 3.5 * h);
  EXPECT_NE(FormatSolveReport(report, solution.cost).find("path constraint x <= l active"),
            std::string::npos);
  EXPECT_NE(SolveReportToJson(report, solution.cost).find("\"bound\": \"path\""),
            std::string::npos);
}

// x'' = u, (x, x')(0) = (0, 0), T = 1, min int u^2/2 + c/2 (x(1) - 1)^2 with x(1), x'(1) free.
// Pontryagin: p_x = c (x(1) - 1) constant, p_v(t) = p_x (1 - t), u = -p_v, so
// x(1) = int_0^1 (1 - s) u ds = -p_x / 3, x(1) = c / (3 + c), and the cost is
// p_x^2 / 6 + c/2 (x(1) - 1)^2 = 3c / (2 (3 + c)). At c = 3: x(1) = 1/2, u = 3/2 (1 - t), 3/4.
TEST(CollocationPath, TerminalCostMatchesTheClosedForm) {
  const std::string text =
      Replace(Replace(testing::kTq, "  final: {x: 1, vx: 0}\n",
                      "  terminal_cost: \"c/2*(x - 1)^2\"\n  collocation: {nodes: 100, scheme: "
                      "trapezoidal, mesh_rounds: 0}\n"),
              "coordinates:\n  - {name: x, initial: 0.5, initial_velocity: -1.5}",
              "parameters: [{name: c, default: 3}]\n"
              "coordinates:\n  - {name: x, initial: 0, initial_velocity: 0}");
  const Scenario s = ParseScenario(text, "terminal.yaml");
  const OptimalControlSolution solution = SolveOptimalControl(s);
  ASSERT_TRUE(solution.report.converged) << solution.report.message;
  EXPECT_NEAR(solution.cost, 0.75, 1e-4);
  const auto x = solution.trajectory.Column("x");
  const auto u = solution.trajectory.Column("u");
  EXPECT_NEAR(x.back(), 0.5, 1e-4);
  // u = 3/2 (1 - t): second order inside, first order at the end nodes.
  const double h = 1.0 / solution.report.nodes;
  EXPECT_NEAR(u[u.size() / 2], 0.75, 1e-3);
  EXPECT_NEAR(u.front(), 1.5, h);
  EXPECT_NEAR(u.back(), 0.0, h);
  SolveOptions finer;
  finer.nodes = 200;
  const OptimalControlSolution refined = SolveOptimalControl(s, finer);
  ASSERT_TRUE(refined.report.converged);
  EXPECT_NEAR((4 * refined.cost - solution.cost) / 3, 0.75, 1e-7);
}

// Hermite-Simpson with mesh refinement (the default): the cost to 1e-5 relative of 4/(9l)
// without extrapolation, the constraint met at every node, the arc reported on [3l, 1 - 3l] to
// the final mesh's width there.
TEST(CollocationPath, BrysonDenhamAfterRefinement) {
  const Scenario s =
      ParseScenario(Replace(kBrysonDenham, "{nodes: 100}", "{nodes: 20}"), "bd.yaml");
  const double l = 0.1, exact = 4 / (9 * l);
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  EXPECT_NEAR(solution.cost, exact, 1e-5 * exact);
  EXPECT_LE(report.mesh_error, s.optimal_control.collocation.mesh_tolerance);
  const auto t = solution.trajectory.Column("t");
  const auto x = solution.trajectory.Column("x");
  for (std::size_t k = 0; k < t.size(); ++k) EXPECT_LE(x[k], l + 1e-8);
  ASSERT_EQ(report.active_arcs.size(), 1u);
  EXPECT_NEAR(report.active_arcs[0].t_begin, 3 * l, 0.05);
  EXPECT_NEAR(report.active_arcs[0].t_end, 1 - 3 * l, 0.05);
  std::printf(
      "[ measured ] Bryson-Denham: cost rel error %.1e, %d intervals after %d "
      "refinements, %d iterations, estimate %.1e, arc [%.4f, %.4f]\n",
      std::abs(solution.cost - exact) / exact, report.nodes, report.mesh_rounds, report.iterations,
      report.mesh_error, report.active_arcs[0].t_begin, report.active_arcs[0].t_end);
}

// Minimum time written as a terminal cost in t (no running cost): the double integrator from
// x = 1 at rest to the origin with |u| <= 1 takes t_f = 2 (bang-bang, switch at 1).
TEST(CollocationPath, MinimumTimeAsTerminalCostInT) {
  const Scenario s = ParseScenario(
      Replace(testing::kDoubleIntegrator, "  cost: \"1\"\n", "  terminal_cost: \"t\"\n"),
      "mt.yaml");
  EXPECT_EQ(s.optimal_control.cost, "0");
  const OptimalControlSolution solution = SolveOptimalControl(s);
  ASSERT_TRUE(solution.report.converged) << solution.report.message;
  EXPECT_NEAR(solution.report.final_time, 2.0, 3e-4 * 2);
  EXPECT_NEAR(solution.cost, solution.report.final_time, 1e-9);
}

}  // namespace
}  // namespace dirac
