// Speed of the compiled tape against hand-written C++ for the same residual, and whole runs.
#include <benchmark/benchmark.h>

#include <random>

#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/simulation.hpp"

namespace {

dirac::Scenario Heisenberg() {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml");
}

std::vector<double> RandomInput(const dirac::InputLayout& layout) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> in(layout.size());
  for (double& v : in) v = u(rng);
  return in;
}

// The baseline: eq (29) + differentiated constraint for the Heisenberg particle, by hand.
void HandWrittenResidual(const double* in, double* out) {
  const double x = in[1], y = in[2], vx = in[4], vy = in[5], vz = in[6], mu = in[7];
  const double qdx = in[8], qdy = in[9], qdz = in[10], vdx = in[11], vdy = in[12], vdz = in[13];
  const double kx = in[14], ky = in[15], alpha = in[16];
  out[0] = qdx - vx;
  out[1] = qdy - vy;
  out[2] = qdz - vz;
  out[3] = vdx + kx * x + mu * y;
  out[4] = vdy + ky * y - mu * x;
  out[5] = vdz - mu;
  out[6] = vdz - y * vdx + x * vdy + alpha * (vz - y * vx + x * vy);
}

void BM_ResidualCompiled(benchmark::State& state) {
  const auto system = dirac::LagrangeDiracSystem::Derive(Heisenberg());
  const auto& f = system->dae().residual;
  auto in = RandomInput(system->dae().layout);
  std::vector<double> out(f.num_outputs()), scratch(f.scratch_size());
  for (auto _ : state) {
    f.Evaluate(in.data(), out.data(), scratch.data());
    benchmark::DoNotOptimize(out.data());
    in[1] += 1e-12;  // defeat hoisting
  }
  state.counters["instructions"] = static_cast<double>(f.instruction_count());
}
BENCHMARK(BM_ResidualCompiled);

void BM_ResidualHandWritten(benchmark::State& state) {
  const auto system = dirac::LagrangeDiracSystem::Derive(Heisenberg());
  auto in = RandomInput(system->dae().layout);
  double out[7];
  for (auto _ : state) {
    HandWrittenResidual(in.data(), out);
    benchmark::DoNotOptimize(out);
    in[1] += 1e-12;
  }
}
BENCHMARK(BM_ResidualHandWritten);

void BM_JacobianCompiled(benchmark::State& state) {
  const auto system = dirac::LagrangeDiracSystem::Derive(Heisenberg());
  const auto& j = system->dae().jacobian_y.values;
  auto in = RandomInput(system->dae().layout);
  std::vector<double> out(j.num_outputs()), scratch(j.scratch_size());
  for (auto _ : state) {
    j.Evaluate(in.data(), out.data(), scratch.data());
    benchmark::DoNotOptimize(out.data());
    in[1] += 1e-12;
  }
}
BENCHMARK(BM_JacobianCompiled);

void BM_Derive(benchmark::State& state) {
  const dirac::Scenario s = Heisenberg();
  for (auto _ : state) benchmark::DoNotOptimize(dirac::LagrangeDiracSystem::Derive(s));
}
BENCHMARK(BM_Derive)->Unit(benchmark::kMillisecond);

void BM_WholeRun50s(benchmark::State& state) {
  const dirac::Scenario s = Heisenberg();
  const auto system = dirac::LagrangeDiracSystem::Derive(s);
  const auto input = dirac::SimulationInput::FromScenario(s);
  for (auto _ : state) benchmark::DoNotOptimize(dirac::Simulate(*system, input));
}
BENCHMARK(BM_WholeRun50s)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
