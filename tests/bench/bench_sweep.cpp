// Sweep throughput (issue 12): 1000 Heisenberg runs over a 25 x 40 grid of (kx, ky), t_end = 2,
// one derived model shared by 1 or 2 worker threads, every trajectory and the summary written
// as `dirac sweep` writes them. Target: --jobs 2 at >= 1.8 x the throughput of --jobs 1.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>

#include "dirac/build_model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/sweep.hpp"

namespace {

void BM_Sweep1000Heisenberg(benchmark::State& state) {
  dirac::Scenario scenario =
      dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml");
  dirac::ApplyOverride(scenario, "t_end", 2.0);
  const auto model = dirac::BuildModel(scenario);
  dirac::SweepPlan plan;
  plan.grid = {{"kx", 0.5, 2.0, 25}, {"ky", 0.5, 4.0, 40}};
  dirac::SweepOptions options;
  options.jobs = static_cast<std::size_t>(state.range(0));
  const auto dir =
      std::filesystem::temp_directory_path() / ("dirac-bench-sweep-" + std::to_string(::getpid()));
  options.out_dir = dir.string();
  std::size_t runs = 0;
  for (auto _ : state) {
    const dirac::SweepResult result = dirac::RunSweep(*model, scenario, plan, options);
    if (result.failed) state.SkipWithError("a run failed");
    runs += result.completed;
  }
  std::filesystem::remove_all(dir);
  state.counters["runs_per_second"] =
      benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep1000Heisenberg)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("jobs")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
