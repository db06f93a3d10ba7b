// Issue 24: a re-solve of a bounded problem after a 5 % change of a bound, cold (what
// `dirac solve` does: derive the controlled equations, IPOPT from the scenario's guess) against
// warm (SolveOptions::warm_start: the previous solve's tapes and IPOPT's primal-dual optimum);
// target: warm under 50 ms median. On the time-optimal reorientation (SO(3), u1 <= 50 -> 47.5)
// and on the Bryson-Denham problem (R, x <= 0.1 -> 0.105).
#include <benchmark/benchmark.h>

#include <string>

#include "bryson_denham.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"

namespace {

dirac::Scenario Reorientation() {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) +
                             "/scenarios/reorientation_min_time.yaml");
}

// Bryson-Denham with its state constraint x <= 0.1 written as a bound.
dirac::Scenario BrysonDenham() {
  std::string text = dirac::testing::kBrysonDenham;
  const std::string path = "path_constraints: \"x <= l\"";
  text.replace(text.find(path), path.size(), "bounds: {x: [-inf, 0.1]}");
  return dirac::ParseScenario(text, "bryson_denham");
}

// The scenario with the bound `name` (a --set name) moved by `factor`.
dirac::Scenario Edited(dirac::Scenario s, const char* name, double factor) {
  dirac::ApplyOverride(s, name, *dirac::CurrentValue(s, name) * factor);
  return s;
}

void Report(benchmark::State& state, const dirac::OptimalControlSolution& solution) {
  if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
  state.counters["iterations"] = solution.report.iterations;
  state.counters["final_time"] = solution.report.final_time;
  state.counters["cost"] = solution.cost;
}

void Cold(benchmark::State& state, const dirac::Scenario& s, const char* name) {
  const dirac::Scenario edited = Edited(s, name, 1.05);
  dirac::SolveOptions options;
  options.sample = false;
  for (auto _ : state) Report(state, dirac::SolveOptimalControl(edited, options));
}

void Warm(benchmark::State& state, const dirac::Scenario& s, const char* name) {
  dirac::SolveOptions options;
  options.sample = false;
  const dirac::OptimalControlSolution base = dirac::SolveOptimalControl(s, options);
  const dirac::Scenario edited = Edited(s, name, 1.05);
  options.warm_start = &base.warm_start;
  for (auto _ : state) {
    const auto solution = dirac::SolveOptimalControl(edited, options);
    if (!solution.report.warm_started) state.SkipWithError("the warm start fell back to cold");
    Report(state, solution);
  }
}

void BM_ReorientationBound5pctCold(benchmark::State& state) {
  Cold(state, Reorientation(), "bounds.u1.max");
}
BENCHMARK(BM_ReorientationBound5pctCold)->Unit(benchmark::kMillisecond);
void BM_ReorientationBound5pctWarm(benchmark::State& state) {
  Warm(state, Reorientation(), "bounds.u1.max");
}
BENCHMARK(BM_ReorientationBound5pctWarm)->Unit(benchmark::kMillisecond);
void BM_BrysonDenhamBound5pctCold(benchmark::State& state) {
  Cold(state, BrysonDenham(), "bounds.x.max");
}
BENCHMARK(BM_BrysonDenhamBound5pctCold)->Unit(benchmark::kMillisecond);
void BM_BrysonDenhamBound5pctWarm(benchmark::State& state) {
  Warm(state, BrysonDenham(), "bounds.x.max");
}
BENCHMARK(BM_BrysonDenhamBound5pctWarm)->Unit(benchmark::kMillisecond);

}  // namespace
