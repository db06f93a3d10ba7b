// Issue 12's baselines: the Heisenberg particle at kx = 1, ky = 2, T = 20, rtol = atol = 1e-12,
// written by hand for CVODE (the multiplier eliminated by hand; the limit), against the engine's
// model of the same problem, both sampled every 0.01 s into memory.
#include <benchmark/benchmark.h>

#include "dirac/build_model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "heisenberg_handwritten.hpp"

namespace {

void BM_Heisenberg20sHandWrittenCvode(benchmark::State& state) {
  dirac::bench::HandWrittenSettings settings;
  settings.newton = state.range(0) != 0;
  long steps = 0, rhs = 0;
  for (auto _ : state) {
    const auto run = dirac::bench::RunHeisenbergHandWritten(settings);
    benchmark::DoNotOptimize(run.samples.data());
    steps = run.steps;
    rhs = run.rhs_evaluations;
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["rhs_calls"] = static_cast<double>(rhs);
}
BENCHMARK(BM_Heisenberg20sHandWrittenCvode)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("newton")
    ->Unit(benchmark::kMillisecond);

// The engine on the same problem: the model the scenario builds (whatever integrator it picks),
// derived once outside the loop; tapes interpreted (native = 0) or as machine code (native = 1,
// compiled or loaded from the cache before the loop).
void BM_Heisenberg20sEngine(benchmark::State& state) {
  dirac::Scenario s =
      dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml");
  for (const char* set : {"kx=1", "ky=2", "t_end=20", "rtol=1e-12", "atol=1e-12"})
    dirac::ApplyOverride(s, set);
  dirac::ApplyOverride(s, state.range(0) != 0 ? "tape=native" : "tape=interpreter");
  const auto model = dirac::BuildModel(s);
  const auto input = dirac::SimulationInput::FromScenario(s);
  dirac::SimulationReport report;
  model->Simulate(input, {}, &report);
  if (state.range(0) != 0 && report.tape.rfind("native", 0) != 0) {
    state.SkipWithError(report.tape.c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(model->Simulate(input, {}, &report));
  state.counters["steps"] = static_cast<double>(report.internal_steps);
}
BENCHMARK(BM_Heisenberg20sEngine)->Arg(0)->Arg(1)->ArgName("native")->Unit(benchmark::kMillisecond);

}  // namespace
