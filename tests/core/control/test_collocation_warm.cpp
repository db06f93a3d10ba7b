// Warm re-solves by collocation (SolveOptions::warm_start: the previous solve's tapes and IPOPT's
// primal-dual optimum): the same optimum as a cold solve of the edited problem in fewer
// iterations, the reorientation's bound edits that used to stall IPOPT, the fallback to a cold
// start, and failures that say why and write nothing (iteration limit, a fixed horizon too
// short for the bounds).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "canonical_problems.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;
using testing::kDoubleIntegrator;
using testing::Replace;

SolveOptions Unsampled(const WarmStart* warm = nullptr, int nodes = 0) {
  SolveOptions options;
  options.sample = false;
  options.warm_start = warm;
  options.nodes = nodes;
  return options;
}

Scenario Edited(Scenario s, const std::string& name, double value) {
  ApplyOverride(s, name, value);
  return s;
}

// The scenario on its first mesh only (no refinement): the cold and the warm solve of an edit
// then share the mesh, and their optima agree to the NLP tolerance (with refinement each ends on
// its own mesh: WarmStartKeepsTheRefinedMesh).
Scenario FixedMesh(Scenario s) {
  s.optimal_control.collocation.mesh_rounds = 0;
  return s;
}

// Cold solve of `s`, then of `edited` both cold and warm from the first: the same optimum (T to
// 1e-8 relative, the cost too), the warm one from the previous optimum in fewer iterations.
void ExpectWarmMatchesCold(const Scenario& s, const Scenario& edited) {
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled());
  ASSERT_TRUE(base.report.converged) << base.report.message;
  ASSERT_TRUE(base.warm_start.valid());
  const OptimalControlSolution cold = SolveOptimalControl(edited, Unsampled());
  const OptimalControlSolution warm = SolveOptimalControl(edited, Unsampled(&base.warm_start));
  ASSERT_TRUE(cold.report.converged) << cold.report.message;
  ASSERT_TRUE(warm.report.converged) << warm.report.message;
  EXPECT_TRUE(warm.report.warm_started);
  EXPECT_FALSE(cold.report.warm_started);
  EXPECT_NEAR(warm.report.final_time, cold.report.final_time, 1e-8 * cold.report.final_time);
  EXPECT_NEAR(warm.cost, cold.cost, 1e-8 * std::abs(cold.cost));
  EXPECT_LT(warm.report.iterations, cold.report.iterations);
  EXPECT_EQ(warm.report.warm_iterations, warm.report.iterations);
}

// Minimum-time double integrator from x0 = 1 at rest, u in [-1, 1] -> [-1, 1.05]: u = -1, then
// +1.05, T = sqrt(2 x0 (1 + 1/1.05)) (2 before the edit); the mesh's O(h^2) in T.
TEST(CollocationWarm, BoundEditReachesTheColdOptimumInFewerIterations) {
  const Scenario s = FixedMesh(ParseScenario(kDoubleIntegrator, "di.yaml"));
  const Scenario edited = Edited(s, "bounds.u.max", 1.05);
  ExpectWarmMatchesCold(s, edited);
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled());
  const OptimalControlSolution warm = SolveOptimalControl(edited, Unsampled(&base.warm_start));
  const double exact = std::sqrt(2 * (1 + 1 / 1.05));
  EXPECT_NEAR(warm.report.final_time, exact, 1e-3 * exact);
  // A parameter-free edit of the boundary data: x0 = 1 -> 1.05 (T = 2 sqrt(x0)).
  const Scenario moved = Edited(s, "x", 1.05);
  ExpectWarmMatchesCold(s, moved);
}

// The reorientation's torque bound moved 50 -> 48 and -> 40 N m (both stalled IPOPT's
// limited-memory iterations at the 3000-iteration limit before the barrier floor was raised):
// the warm re-solve from the optimum at 50 matches a cold solve of the edited problem. On the
// shipped 50 Hermite-Simpson intervals with the exact Hessian (before the sparse attitude
// formulation: the trapezoidal rule on 100 with the limited-memory Hessian, which stalled cold
// at 50 N m on 60).
TEST(CollocationWarm, ReorientationTorqueBoundEditsConvergeWarm) {
  constexpr int kIntervals = 50;
  const Scenario s =
      FixedMesh(LoadScenario(testing::SourcePath("scenarios/reorientation_min_time.yaml")));
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled(nullptr, kIntervals));
  ASSERT_TRUE(base.report.converged) << base.report.message;
  const Scenario edited = Edited(s, "bounds.u1.max", 48);
  const OptimalControlSolution cold = SolveOptimalControl(edited, Unsampled(nullptr, kIntervals));
  ASSERT_TRUE(cold.report.converged) << cold.report.message;
  const OptimalControlSolution warm =
      SolveOptimalControl(edited, Unsampled(&base.warm_start, kIntervals));
  ASSERT_TRUE(warm.report.converged) << warm.report.message;
  EXPECT_TRUE(warm.report.warm_started);
  EXPECT_NEAR(warm.report.final_time, cold.report.final_time, 1e-8 * cold.report.final_time);
  EXPECT_LT(warm.report.iterations, cold.report.iterations / 3);
  // A smaller bound, a longer turn: u1 <= 40 N m.
  const OptimalControlSolution forty =
      SolveOptimalControl(Edited(s, "bounds.u1.max", 40), Unsampled(&base.warm_start, kIntervals));
  ASSERT_TRUE(forty.report.converged) << forty.report.message;
  EXPECT_TRUE(forty.report.warm_started);
  EXPECT_GT(forty.report.final_time, warm.report.final_time);
  std::printf(
      "reorientation, %d intervals: t_f %.9f (u1 <= 50, %d iterations cold), %.9f "
      "(u1 <= 48: %d warm, %d cold), %.9f (u1 <= 40: %d warm)\n",
      kIntervals, base.report.final_time, base.report.iterations, warm.report.final_time,
      warm.report.iterations, cold.report.iterations, forty.report.final_time,
      forty.report.iterations);
}

// The edits the window makes near the shipped reorientation (bounds, the horizon, the target as a
// drag moves it), each re-solved warm from the shipped optimum: every one converges to the
// tolerance (not IPOPT's "acceptable point", where the limited-memory Hessian stopped
// final.R.z = 0.01 and 0.03) from the warm start.
TEST(CollocationWarm, ReorientationNearbyEditsConvergeWarm) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/reorientation_min_time.yaml"));
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled());
  ASSERT_TRUE(base.report.converged) << base.report.message;
  // (u1 <= 48 and <= 40: ReorientationTorqueBoundEditsConvergeWarm.)
  const std::pair<const char*, double> edits[] = {
      {"bounds.u1.max", 45},      {"bounds.u1.max", 52.5},    {"bounds.u1.max", 55},
      {"horizon_bounds.max", 40}, {"horizon_bounds.min", 29}, {"final.R.z", 0.01},
      {"final.R.z", 0.03},        {"bounds.w1.max", 0.15}};
  for (const auto& [name, value] : edits) {
    const OptimalControlSolution warm =
        SolveOptimalControl(Edited(s, name, value), Unsampled(&base.warm_start));
    EXPECT_TRUE(warm.report.converged) << name << " = " << value << ": " << warm.report.message;
    EXPECT_TRUE(warm.report.warm_started) << name << " = " << value;
    std::printf("[ measured ] reorientation warm, %s = %g: t_f %.6f, %d iterations, %.0f ms\n",
                name, value, warm.report.final_time, warm.report.iterations,
                warm.report.seconds * 1e3);
  }
}

// With mesh refinement (Hermite-Simpson, the default): the warm start keeps the refined mesh and
// the re-solve starts there from the kept optimum (not on the first, uniform mesh), refining on
// if the edit asks; cold and warm end on their own meshes and agree to the mesh's accuracy.
TEST(CollocationWarm, WarmStartKeepsTheRefinedMesh) {
  const Scenario s = ParseScenario(kDoubleIntegrator, "di.yaml");
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled());
  ASSERT_TRUE(base.report.converged) << base.report.message;
  ASSERT_GT(base.report.mesh_rounds, 0);  // the switch refined: the kept mesh is not uniform
  // The same problem again: on the kept mesh at once, no refinement, a few iterations.
  const OptimalControlSolution same = SolveOptimalControl(s, Unsampled(&base.warm_start));
  ASSERT_TRUE(same.report.converged) << same.report.message;
  EXPECT_TRUE(same.report.warm_started);
  EXPECT_EQ(same.report.nodes, base.report.nodes);
  EXPECT_EQ(same.report.mesh_rounds, 0);
  EXPECT_EQ(same.report.warm_iterations, same.report.iterations);
  EXPECT_LT(same.report.iterations, base.report.iterations / 2);
  EXPECT_NEAR(same.report.final_time, base.report.final_time, 1e-8);
  // An edit: warm from the kept mesh, then refined where the switch moved.
  const Scenario edited = Edited(s, "bounds.u.max", 1.05);
  const OptimalControlSolution cold = SolveOptimalControl(edited, Unsampled());
  const OptimalControlSolution warm = SolveOptimalControl(edited, Unsampled(&base.warm_start));
  ASSERT_TRUE(cold.report.converged && warm.report.converged) << warm.report.message;
  EXPECT_TRUE(warm.report.warm_started);
  EXPECT_GE(warm.report.nodes, base.report.nodes);
  EXPECT_LE(warm.report.mesh_error, edited.optimal_control.collocation.mesh_tolerance);
  const double exact = std::sqrt(2 * (1 + 1 / 1.05));
  // The switch is located to the mesh (T off by ~8e-6 on both), the two meshes agree closer.
  EXPECT_NEAR(warm.report.final_time, exact, 1e-4 * exact);
  EXPECT_NEAR(warm.report.final_time, cold.report.final_time, 1e-6 * exact);
  std::printf(
      "[ measured ] refined warm start: same problem %d iterations (cold %d) on %d intervals; "
      "u <= 1.05: warm %d (%d from the warm start) on %d intervals, cold %d on %d; "
      "T - exact %.1e warm, %.1e cold\n",
      same.report.iterations, base.report.iterations, same.report.nodes, warm.report.iterations,
      warm.report.warm_iterations, warm.report.nodes, cold.report.iterations, cold.report.nodes,
      warm.report.final_time - exact, cold.report.final_time - exact);
}

// A warm start that leads nowhere (from the optimum of another horizon bound, into a problem
// IPOPT finds infeasible) is abandoned: the cold solve says why; and a warm start of another
// structure (a shooting solution, another mesh) is not used at all.
TEST(CollocationWarm, FallsBackToAColdStartAndIgnoresOtherStructures) {
  const Scenario s = ParseScenario(kDoubleIntegrator, "di.yaml");
  const OptimalControlSolution base = SolveOptimalControl(s, Unsampled());
  ASSERT_TRUE(base.report.converged);
  const OptimalControlSolution failed =
      SolveOptimalControl(Edited(Edited(s, "horizon_guess", 1), "horizon_bounds.max", 1.5),
                          Unsampled(&base.warm_start));
  EXPECT_FALSE(failed.report.converged);
  EXPECT_FALSE(failed.report.warm_started);
  EXPECT_FALSE(failed.report.message.empty());
  EXPECT_GT(failed.report.iterations, failed.report.warm_iterations);
  Scenario finer = s;
  finer.optimal_control.collocation.nodes = 50;
  const OptimalControlSolution other = SolveOptimalControl(finer, Unsampled(&base.warm_start));
  ASSERT_TRUE(other.report.converged);
  EXPECT_FALSE(other.report.warm_started);
  EXPECT_EQ(other.report.warm_iterations, 0);
}

// Failures at the CLI exit 1, say why (the file, IPOPT's reason) and write no CSV: the
// iteration limit, and a fixed horizon the bounds cannot meet (the double integrator needs 2 s).
TEST(CollocationWarm, NonConvergenceAndAnUnreachableFixedHorizonWriteNothing) {
  const fs::path dir =
      fs::temp_directory_path() / ("dirac-colloc-fail-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "limit.yaml") << Replace(kDoubleIntegrator, "collocation: {nodes: 100}",
                                               "collocation: {nodes: 100, max_iterations: 2}");
  std::ofstream(dir / "di.yaml") << kDoubleIntegrator;
  const std::pair<std::string, std::string> cases[] = {{"limit.yaml", "iteration limit"},
                                                       {"di.yaml --set horizon=1", "infeasible"}};
  for (const auto& [args, reason] : cases) {
    const fs::path csv = dir / "out.csv";
    const std::string command = std::string(DIRAC_CLI) + " solve " + (dir / args).string() +
                                " --quiet --csv " + csv.string() + " > " +
                                (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(command.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 1) << args;
    EXPECT_FALSE(fs::exists(csv)) << args;
    std::ifstream log(dir / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(args.substr(0, args.find(' '))), std::string::npos) << text;
    EXPECT_NE(text.find(reason), std::string::npos) << text;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dirac
