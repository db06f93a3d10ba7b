// Issue 38: the cost of a stability sweep after the derivation (the derivation is outside the
// timed loop): 1001 linearizations with eigenvalue matching and the refinement of every
// critical value. Numbers: docs/benchmarks.md ("Linearization").
#include <benchmark/benchmark.h>

#include <string>

#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"

namespace {

// The rolling disk rolling upright (tests/linearization/rolling_disk.yaml), spin rate 1 ... 6:
// one critical value (the eigenvalues meet at 0 at sqrt(g/(3R))).
void BM_LinearizationSweepRollingDisk1001(benchmark::State& state) {
  dirac::Scenario s =
      dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/tests/linearization/rolling_disk.yaml");
  dirac::ApplyOverrides(s, {"alpha=0", "valpha=0", "vtheta=0", "vphi=6", "theta=0"});
  dirac::LinearizationOptions options;
  options.ignorable = {"theta"};
  const auto lin = dirac::Linearizer::Derive(s, options);
  std::size_t critical = 0;
  for (auto _ : state) {
    const dirac::StabilitySweep sweep = lin->Sweep("vphi", 1.0, 6.0, 1001);
    critical = sweep.critical.size();
    benchmark::DoNotOptimize(sweep.eigenvalues.data());
  }
  state.counters["critical_values"] = static_cast<double>(critical);
}
BENCHMARK(BM_LinearizationSweepRollingDisk1001)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// The Whipple bicycle (scenarios/whipple_bicycle.yaml): the forward speed from 0 to 10 m/s in
// 1001 values, the weave and capsize speeds refined (issue 38: <= 0.5 s after derivation).
void BM_LinearizationSweepWhippleBicycle1001(benchmark::State& state) {
  dirac::Scenario s =
      dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml");
  dirac::ApplyOverrides(s, {"vphi=0", "vdelta=0"});
  dirac::LinearizationOptions options;
  options.ignorable = {"psi", "thetaR", "thetaF"};
  options.speeds = {"vphi", "vdelta", "vthetaR"};
  const auto lin = dirac::Linearizer::Derive(s, options);
  std::size_t critical = 0;
  for (auto _ : state) {
    const dirac::StabilitySweep sweep = lin->Sweep("v", 0.0, 10.0, 1001);
    critical = sweep.critical.size();
    benchmark::DoNotOptimize(sweep.eigenvalues.data());
  }
  state.counters["critical_values"] = static_cast<double>(critical);
}
BENCHMARK(BM_LinearizationSweepWhippleBicycle1001)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

namespace {

// The parts of one sweep point on the bicycle: the --set of the swept value on a copy of the
// scenario (derived parameters and initial-velocity expressions follow it), and one
// linearization.
void BM_BicycleSweepPointParts(benchmark::State& state) {
  dirac::Scenario s =
      dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml");
  dirac::ApplyOverrides(s, {"vphi=0", "vdelta=0"});
  if (state.range(0) == 0) {
    for (auto _ : state) {
      dirac::Scenario copy = s;
      dirac::ApplyOverride(copy, "v", 5.0);
      benchmark::DoNotOptimize(copy.coordinates.data());
    }
    return;
  }
  dirac::LinearizationOptions options;
  options.ignorable = {"psi", "thetaR", "thetaF"};
  options.speeds = {"vphi", "vdelta", "vthetaR"};
  const auto lin = dirac::Linearizer::Derive(s, options);
  for (auto _ : state) benchmark::DoNotOptimize(lin->Linearize("v", 5.0).A.data());
}
BENCHMARK(BM_BicycleSweepPointParts)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
