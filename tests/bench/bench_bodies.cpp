// Models written with bodies: the derivation of the Whipple bicycle
// (scenarios/whipple_bicycle.yaml: reading the file, the bodies' kinematics, L and the rolling
// forms, the Lagrange–Dirac system and its compiled tapes; issue 37 targets <= 0.3 s) and one 5 s
// run of it.
#include <benchmark/benchmark.h>

#include <string>

#include "dirac/build_model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace {

std::string Bicycle() { return std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml"; }

void BM_WhippleBicycleLoad(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(dirac::LoadScenario(Bicycle()));
}
void BM_WhippleBicycleDerive(benchmark::State& state) {
  const dirac::Scenario s = dirac::LoadScenario(Bicycle());
  for (auto _ : state) benchmark::DoNotOptimize(dirac::BuildModel(s));
}
void BM_WhippleBicycleRun5s(benchmark::State& state) {
  const dirac::Scenario s = dirac::LoadScenario(Bicycle());
  const auto model = dirac::BuildModel(s);
  const auto input = dirac::SimulationInput::FromScenario(s);
  for (auto _ : state) benchmark::DoNotOptimize(model->Simulate(input));
}
BENCHMARK(BM_WhippleBicycleLoad)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WhippleBicycleDerive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WhippleBicycleRun5s)->Unit(benchmark::kMillisecond);

}  // namespace
