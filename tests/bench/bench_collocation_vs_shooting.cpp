// Issue 24: collocation against shooting on the smooth problems (no inequality, fixed horizon),
// time to the same cost. Each solve is cold, as `dirac solve` runs it (derivation included):
// - Shooting: the indirect multiple shooting (method shooting);
// - Collocation: Hermite-Simpson with mesh refinement, its own optimum (polish off);
// - Polished: the same collocation, then the shooting polish from its nodes (polish auto).
// Counters: the cost, its relative distance to shooting's (computed once outside the timing),
// the iterations (IPOPT's; Newton's for shooting).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "dirac/optimal_control.hpp"
#include "optimal_control_texts.hpp"

namespace {

enum class Way { kShooting, kCollocation, kPolished };

dirac::Scenario Shipped(const char* file) {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + file);
}

dirac::Scenario Posed(dirac::Scenario s, Way way) {
  s.optimal_control.method = way == Way::kShooting ? dirac::OptimalControlMethod::kShooting
                                                   : dirac::OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.polish = way == Way::kPolished;
  return s;
}

void Solve(benchmark::State& state, const dirac::Scenario& s, Way way) {
  dirac::SolveOptions options;
  options.sample = false;
  const double reference = dirac::SolveOptimalControl(Posed(s, Way::kShooting), options).cost;
  const dirac::Scenario posed = Posed(s, way);
  for (auto _ : state) {
    const dirac::OptimalControlSolution solution = dirac::SolveOptimalControl(posed, options);
    if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
    if (way == Way::kPolished && !solution.report.polished)
      state.SkipWithError(("not polished: " + solution.report.polish).c_str());
    state.counters["cost"] = solution.cost;
    state.counters["cost_rel_to_shooting"] =
        std::abs(solution.cost - reference) / std::max(1.0, std::abs(reference));
    state.counters["iterations"] = solution.report.iterations;
  }
}

void BM_So3Spline(benchmark::State& state) {
  Solve(state, Shipped("so3_spline.yaml"), static_cast<Way>(state.range(0)));
}
void BM_ElroysBeanieOcp(benchmark::State& state) {
  Solve(state, Shipped("elroys_beanie_ocp.yaml"), static_cast<Way>(state.range(0)));
}
void BM_HeisenbergSpline(benchmark::State& state) {
  Solve(state, dirac::ParseScenario(dirac::testing::kHeisenbergSpline, "heisenberg_spline"),
        static_cast<Way>(state.range(0)));
}
// Arg 0: shooting, 1: collocation alone, 2: collocation then the shooting polish.
BENCHMARK(BM_So3Spline)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ElroysBeanieOcp)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HeisenbergSpline)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
