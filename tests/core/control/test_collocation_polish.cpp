// The shooting polish of a collocation optimum (control/collocation_polish.hpp): with a bound
// added far from the optimum, collocation hands its nodes' states and costates to multiple
// shooting, whose optimum is the one a direct shooting solve finds (cost to 1e-8 relative,
// controls to 1e-6 at every sample), on so3_spline, elroys_beanie_ocp and the Heisenberg-group
// spline; an active bound, `polish: off` and a polish cancelled mid-way leave the collocation
// result, and the report says why.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "canonical_problems.hpp"
#include "control/boundary_conditions.hpp"
#include "control/collocation_polish.hpp"
#include "control/multiple_shooting.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "model/explicit_flow.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

// max over the samples and the controls of |u_a - u_b| (the same sample times).
double ControlDifference(const Scenario& s, const Trajectory& a, const Trajectory& b) {
  EXPECT_EQ(a.num_rows(), b.num_rows());
  const auto ta = a.Column("t"), tb = b.Column("t");
  double worst = 0.0;
  for (const ControlSpec& control : s.optimal_control.controls) {
    const auto ua = a.Column(control.name), ub = b.Column(control.name);
    for (std::size_t k = 0; k < std::min(ua.size(), ub.size()); ++k) {
      EXPECT_NEAR(ta[k], tb[k], 1e-12);
      worst = std::max(worst, std::abs(ua[k] - ub[k]));
    }
  }
  return worst;
}

// The largest |u| of the optimum, to put a bound at ten times it.
double LargestControl(const Scenario& s, const Trajectory& t) {
  double largest = 0.0;
  for (const ControlSpec& control : s.optimal_control.controls)
    for (double u : t.Column(control.name)) largest = std::max(largest, std::abs(u));
  return largest;
}

// Shooting directly, then collocation (`method`: collocation or auto) on `intervals` with the
// bound |u_1| <= 10 max |u| (inactive) on the first control: polished, and on shooting's optimum.
OptimalControlSolution ExpectPolishedToShooting(Scenario s, OptimalControlMethod method,
                                                int intervals) {
  s.optimal_control.method = OptimalControlMethod::kShooting;
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  EXPECT_TRUE(shooting.report.converged) << shooting.report.message;
  const double far = 10 * LargestControl(s, shooting.trajectory);
  s.optimal_control.bounds.push_back({s.optimal_control.controls[0].name, -far, far, {}});
  s.optimal_control.method = method;
  s.optimal_control.collocation.nodes = intervals;
  EXPECT_EQ(ChosenMethod(s), OptimalControlMethod::kCollocation);
  const OptimalControlSolution polished = SolveOptimalControl(s);
  const SolveReport& report = polished.report;
  EXPECT_TRUE(report.converged) << report.message;
  EXPECT_TRUE(report.polished) << report.polish;
  EXPECT_EQ(report.method, "collocation");
  EXPECT_TRUE(report.active_arcs.empty());
  EXPECT_LE(report.polish_residual, 1e-10);
  EXPECT_NEAR(polished.cost, shooting.cost, 1e-8 * std::abs(shooting.cost));
  const double du = ControlDifference(s, polished.trajectory, shooting.trajectory);
  EXPECT_LT(du, 1e-6);
  const std::string text = FormatSolveReport(report, polished.cost);
  EXPECT_NE(text.find("method collocation, then shooting polish: converged"), std::string::npos)
      << text;
  const std::string json = SolveReportToJson(report, polished.cost);
  EXPECT_NE(json.find("\"polished\": true"), std::string::npos) << json;
  std::printf(
      "[ measured ] %s: cost %.15g vs shooting %.15g (rel %.1e), max |du| %.1e; %d intervals, "
      "%d IPOPT + %d Newton iterations (max |F| %.1e), %.0f ms (polish %.0f ms)\n",
      s.name.c_str(), polished.cost, shooting.cost,
      std::abs(polished.cost - shooting.cost) / std::abs(shooting.cost), du, report.nodes,
      report.iterations, report.polish_iterations, report.polish_residual, report.seconds * 1e3,
      report.polish_seconds * 1e3);
  return polished;
}

// so3_spline with method auto: a bound makes auto take collocation, and the bound turning out
// inactive ends on shooting's optimum. Without the polish the same collocation's controls are
// off by far more than 1e-6 (second order in h).
TEST(CollocationPolish, So3SplineWithAnInactiveBoundEndsOnShootingsOptimum) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml"));
  const OptimalControlSolution polished =
      ExpectPolishedToShooting(s, OptimalControlMethod::kAuto, 20);
  Scenario off = s;
  off.optimal_control.bounds.push_back({"u1", -100, 100, {}});
  off.optimal_control.collocation.nodes = 20;
  off.optimal_control.collocation.polish = false;
  const OptimalControlSolution collocation = SolveOptimalControl(off);
  ASSERT_TRUE(collocation.report.converged) << collocation.report.message;
  EXPECT_FALSE(collocation.report.polished);
  EXPECT_EQ(collocation.report.polish, "shooting polish not applied: polish: off");
  // The node trajectory of collocation against the polished samples at the same times.
  const auto tc = collocation.trajectory.Column("t"), tp = polished.trajectory.Column("t");
  double worst = 0.0;
  for (const char* u : {"u1", "u2", "u3"}) {
    const auto uc = collocation.trajectory.Column(u), up = polished.trajectory.Column(u);
    for (std::size_t k = 0; k < tc.size(); ++k) {
      const auto at = std::lower_bound(tp.begin(), tp.end(), tc[k] - 1e-9);
      if (at != tp.end() && std::abs(*at - tc[k]) < 1e-9)
        worst = std::max(worst, std::abs(uc[k] - up[static_cast<std::size_t>(at - tp.begin())]));
    }
  }
  EXPECT_GT(worst, 1e-5);
  std::printf("[ measured ] so3_spline without the polish: node controls off by %.1e\n", worst);
}

TEST(CollocationPolish, ElroysBeanieWithAnInactiveBoundEndsOnShootingsOptimum) {
  ExpectPolishedToShooting(LoadScenario(testing::SourcePath("scenarios/elroys_beanie_ocp.yaml")),
                           OptimalControlMethod::kCollocation, 20);
}

// The beanie turned by its geometric phase: the SE(2) angle row carries the group costate.
TEST(CollocationPolish, ElroysBeanieWithTheAngleRowEndsOnShootingsOptimum) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/elroys_beanie_ocp.yaml"));
  ApplyOverride(s, "final.theta=-0.3");
  ApplyOverride(s, "final.psi=free");
  ExpectPolishedToShooting(s, OptimalControlMethod::kCollocation, 20);
}

TEST(CollocationPolish, HeisenbergSplineWithAnInactiveBoundEndsOnShootingsOptimum) {
  ExpectPolishedToShooting(ParseScenario(testing::kHeisenbergSpline, "heisenberg.yaml"),
                           OptimalControlMethod::kCollocation, 20);
}

// The start itself (PolishSeed::Start) against shooting's optimum: the initial flow state
// (states and costates; on so3_spline p_w is the group costate, carried back from the final
// attitude rows' multipliers; on the Heisenberg spline p_v1, p_v2 come from the base costates
// through the anchor; on the beanie from the SE(2) angle row) within `tolerance` of its scale,
// and the shooting residual there small (the intervals amplify the costates' O(h^2) error), on 4
// shooting intervals, from 20 collocation intervals refined. A wrong sign or transport of the
// group costate is off by the costates' size (6.5 on so3_spline).
void ExpectStartNearShooting(Scenario s) {
  s.optimal_control.method = OptimalControlMethod::kShooting;
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.nodes = 20;
  s.optimal_control.collocation.polish = false;
  const OptimalControlSolution collocation = SolveOptimalControl(s);
  ASSERT_TRUE(collocation.report.converged && collocation.warm_start.collocation);
  const auto model = BuildModel(s);
  const ExplicitFlow& flow = *model->explicit_flow();
  const SimulationInput input = SimulationInput::FromScenario(s);
  control::MultipleShooting ms(
      flow, control::ResolveBoundaryProblem(s, flow, model->FlowState(input)), 4, input.parameters);
  const control::PolishSeed seed(s, *collocation.warm_start.collocation);
  EXPECT_EQ(seed.ActiveInequality(), "");
  control::ShootingPoint start;
  std::string why;
  ASSERT_TRUE(seed.Start(ms, start, why)) << why;
  const std::vector<double> x0 = ms.InitialState(start);
  const std::vector<double> exact =
      model->FlowState(SimulationInput::FromScenario(shooting.solved));
  ASSERT_EQ(x0.size(), exact.size());
  double scale = 1.0, error = 0.0;
  for (std::size_t i = 0; i < x0.size(); ++i) {
    scale = std::max(scale, std::abs(exact[i]));
    error = std::max(error, std::abs(x0[i] - exact[i]));
  }
  Eigen::VectorXd F;
  std::string failure;
  ASSERT_TRUE(ms.Evaluate(start, F, nullptr, &failure)) << failure;
  EXPECT_LT(error, 3e-3 * scale);
  EXPECT_LT(control::MaxAbs(F), 3e-2 * scale);
  std::printf(
      "[ measured ] %s: the polish's start off shooting's x(0) by %.1e (scale %.2f), "
      "max |F| %.1e there\n",
      s.name.c_str(), error, scale, control::MaxAbs(F));
}

TEST(CollocationPolish, TheStartIsNearShootingsOptimum) {
  ExpectStartNearShooting(LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml")));
  ExpectStartNearShooting(ParseScenario(testing::kHeisenbergSpline, "heisenberg.yaml"));
  Scenario beanie = LoadScenario(testing::SourcePath("scenarios/elroys_beanie_ocp.yaml"));
  ApplyOverride(beanie, "final.theta=-0.3");
  ApplyOverride(beanie, "final.psi=free");
  ExpectStartNearShooting(beanie);
}

// On TQ (a particle, x'' = u): the costate of x is p_vx, that of the velocity pbar_vx.
TEST(CollocationPolish, AParticleOnTqEndsOnShootingsOptimum) {
  ExpectPolishedToShooting(ParseScenario(testing::kTq, "particle.yaml"),
                           OptimalControlMethod::kCollocation, 20);
}

// so3_spline's torque bounds of the docs are active: no polish, and the report names the bound.
TEST(CollocationPolish, AnActiveBoundIsNotPolished) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml"));
  ApplyOverride(s, "bounds.u3.max", 2.0);
  s.optimal_control.collocation.nodes = 20;
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  EXPECT_FALSE(report.polished);
  EXPECT_FALSE(report.active_arcs.empty());
  EXPECT_EQ(report.polish.rfind("shooting polish not applied: u3 is on its max for t in [0, ", 0),
            0u)
      << report.polish;
  // The margin check alone (what decides where the report's arcs are empty) names it too.
  const std::string margin =
      control::PolishSeed(s, *solution.warm_start.collocation).ActiveInequality();
  EXPECT_EQ(margin.rfind("u3 is on (or within 0.0002 of) its max 2 at t = 0 ", 0), 0u) << margin;
  EXPECT_NE(FormatSolveReport(report, solution.cost).find(report.polish), std::string::npos);
  EXPECT_NE(SolveReportToJson(report, solution.cost).find("\"polished\": false"),
            std::string::npos);
}

// A cancel arriving after the collocation's iterations (from the progress callback) stops the
// polish at its first Newton iteration: the collocation result stands, and the report says so.
TEST(CollocationPolish, ACancelledPolishLeavesTheCollocationResult) {
  Scenario s = ParseScenario(testing::kHeisenbergSpline, "heisenberg.yaml");
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.nodes = 20;
  s.optimal_control.collocation.polish = false;
  int calls = 0;
  SolveOptions options;
  options.progress = [&](const NewtonIterate&) { return ++calls > 0; };
  const OptimalControlSolution plain = SolveOptimalControl(s, options);
  ASSERT_TRUE(plain.report.converged) << plain.report.message;
  const int collocation_calls = calls;  // the collocation's progress reports
  s.optimal_control.collocation.polish = true;
  calls = 0;
  options.progress = [&](const NewtonIterate&) { return ++calls <= collocation_calls; };
  const OptimalControlSolution solution = SolveOptimalControl(s, options);
  EXPECT_EQ(calls, collocation_calls + 1);  // the polish's first Newton iteration cancels
  EXPECT_TRUE(solution.report.converged) << solution.report.message;
  EXPECT_FALSE(solution.report.polished);
  EXPECT_EQ(solution.cost, plain.cost);
  EXPECT_NE(solution.report.polish.find("did not converge: cancelled"), std::string::npos)
      << solution.report.polish;
}

// `collocation: {polish: off}` in the file, the --set name, and the round trip through the writer.
TEST(CollocationPolish, PolishSettingParsesSetsAndRoundTrips) {
  const std::string text = testing::Replace(testing::kSo3, "shooting: {nodes: 4,",
                                            "collocation: {polish: off}\n  shooting: {nodes: 4,");
  Scenario s = ParseScenario(text, "so3.yaml");
  EXPECT_FALSE(s.optimal_control.collocation.polish);
  EXPECT_FALSE(
      ParseScenario(SaveScenarioToString(s), "again.yaml").optimal_control.collocation.polish);
  ApplyOverride(s, "optimal_control.collocation.polish=auto");
  EXPECT_TRUE(s.optimal_control.collocation.polish);
  EXPECT_THROW(ApplyOverride(s, "optimal_control.collocation.polish=maybe"), ScenarioError);
  EXPECT_TRUE(s.optimal_control.collocation.polish);
  testing::ExpectError(testing::Replace(testing::kSo3, "shooting: {nodes: 4,",
                                        "collocation: {polish: on}\n  shooting: {nodes: 4,"),
                       "on", "polish: on");
}

}  // namespace
}  // namespace dirac
