// The Heisenberg particle at kx = 1, ky = 2, T = 20, rtol = atol = 1e-12 (issue 12's case)
// through Model::Simulate with each method: the ODE path (CVODES Adams, the default; BDF) and the
// index-1 DAE (IDAS). Sampled every 0.01 with multipliers, energy and residuals, as `dirac run`.
// The hand-written limit (multiplier eliminated by hand, CVODE Adams) is in
// bench_handwritten_cvode.cpp when present; scripts/run-benchmarks.sh prints the ratios.
#include <benchmark/benchmark.h>

#include <string>

#include "dirac/build_model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace {

// Model::Simulate of scenario `s`, derived once outside the loop; steps and right-hand sides
// as counters.
void RunScenario(benchmark::State& state, const dirac::Scenario& s) {
  const auto model = dirac::BuildModel(s);
  const auto input = dirac::SimulationInput::FromScenario(s);
  dirac::SimulationReport report;
  for (auto _ : state) benchmark::DoNotOptimize(model->Simulate(input, {}, &report));
  state.counters["steps"] = static_cast<double>(report.internal_steps);
  state.counters["rhs"] = static_cast<double>(report.rhs_evaluations);
}

dirac::Scenario Shipped(const char* file) {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + file);
}

void RunHeisenberg20s(benchmark::State& state, const char* method) {
  dirac::Scenario s = Shipped("heisenberg.yaml");
  for (const char* set : {"kx=1", "ky=2", "t_end=20", "rtol=1e-12", "atol=1e-12"})
    dirac::ApplyOverride(s, set);
  dirac::ApplyOverride(s, std::string("method=") + method);
  RunScenario(state, s);
}

void BM_Heisenberg20sAdams(benchmark::State& state) { RunHeisenberg20s(state, "adams"); }
void BM_Heisenberg20sBdf(benchmark::State& state) { RunHeisenberg20s(state, "bdf"); }
void BM_Heisenberg20sIdas(benchmark::State& state) { RunHeisenberg20s(state, "idas"); }
BENCHMARK(BM_Heisenberg20sAdams)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Heisenberg20sBdf)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Heisenberg20sIdas)->Unit(benchmark::kMillisecond);

// Shipped scenarios at their own settings (tolerances, span, output step), as the window runs
// them after an edit: the run part of gui_latency's edit-to-redraw time.
void BM_RollingDiskShipped(benchmark::State& state) {
  RunScenario(state, Shipped("rolling_disk.yaml"));
}
void BM_HeisenbergShipped(benchmark::State& state) {
  RunScenario(state, Shipped("heisenberg.yaml"));
}
BENCHMARK(BM_RollingDiskShipped)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HeisenbergShipped)->Unit(benchmark::kMillisecond);

}  // namespace
