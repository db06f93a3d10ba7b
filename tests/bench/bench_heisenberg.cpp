// Speed of the compiled tape against hand-written C++ for the same residual, and whole runs.
#include <benchmark/benchmark.h>

#include <random>

#include "dirac/build_model.hpp"
#include "dirac/gauge_two_form.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dynamics/idas_driver.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

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
  const auto& f = dirac::CompiledDaeOf(*system).residual;
  auto in = RandomInput(dirac::CompiledDaeOf(*system).layout);
  std::vector<double> out(f.num_outputs()), scratch(f.scratch_size());
  for (auto _ : state) {
    f.Evaluate(in.data(), out.data(), scratch.data());
    benchmark::DoNotOptimize(out.data());
    in[1] += 1e-12;  // defeat hoisting
  }
  state.counters["instructions"] = static_cast<double>(f.instruction_count());
}
BENCHMARK(BM_ResidualCompiled);

// The same residual as the pipeline runs it with `simulation.tape: native`: the model's tapes
// compiled as one C translation unit (cached on disk, loaded with dlopen), bit-identical to the
// interpreter. Skipped where no C compiler works.
void BM_ResidualNative(benchmark::State& state) {
  const auto system = dirac::LagrangeDiracSystem::Derive(Heisenberg());
  std::string description;
  const auto& f = dirac::TapesOf(*system, dirac::TapeMode::kNative, &description).residual;
  if (!f.is_machine_code()) {
    state.SkipWithError(description.c_str());
    return;
  }
  auto in = RandomInput(dirac::CompiledDaeOf(*system).layout);
  std::vector<double> out(f.num_outputs()), scratch(f.scratch_size());
  for (auto _ : state) {
    f.Evaluate(in.data(), out.data(), scratch.data());
    benchmark::DoNotOptimize(out.data());
    in[1] += 1e-12;  // defeat hoisting
  }
}
BENCHMARK(BM_ResidualNative);

void BM_ResidualHandWritten(benchmark::State& state) {
  const auto system = dirac::LagrangeDiracSystem::Derive(Heisenberg());
  auto in = RandomInput(dirac::CompiledDaeOf(*system).layout);
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
  const auto& j = dirac::CompiledDaeOf(*system).jacobian_y.values;
  auto in = RandomInput(dirac::CompiledDaeOf(*system).layout);
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
  for (auto _ : state) benchmark::DoNotOptimize(system->Simulate(input));
}
BENCHMARK(BM_WholeRun50s)->Unit(benchmark::kMillisecond);

// The baseline whole run: the same DAE, tolerances, driver and sampling, but residual and
// Jacobian written by hand (alpha = 10, kx = 1, ky = 2), so the ratio isolates the tape's cost.
void BM_WholeRun50sHandWritten(benchmark::State& state) {
  const dirac::Scenario s = Heisenberg();
  const double kx = 1.0, ky = 2.0, alpha = s.simulation.stabilization;
  dirac::dynamics::ImplicitDae dae;
  dae.size = 7;
  dae.differential = {1, 1, 1, 1, 1, 1, 0};
  dae.rtol = s.simulation.rtol;
  dae.atol = s.simulation.atol;
  dae.residual = [&](double, const double* y, const double* yp, double* r) {
    double in[17] = {0};
    for (int i = 0; i < 7; ++i) in[1 + i] = y[i];
    for (int i = 0; i < 6; ++i) in[8 + i] = yp[i];
    in[14] = kx;
    in[15] = ky;
    in[16] = alpha;
    HandWrittenResidual(in, r);
    return true;
  };
  dae.jacobian = [&](double, double cj, const double* y, const double* yp, double* J) {
    auto at = [J](int row, int col) -> double& { return J[col * 7 + row]; };
    const double x = y[0], yy = y[1], vx = y[3], vy = y[4], mu = y[6];
    for (int i = 0; i < 3; ++i) {
      at(i, i) += cj;
      at(i, 3 + i) -= 1.0;
      at(3 + i, 3 + i) += cj;
    }
    at(3, 0) += kx;
    at(3, 1) += mu;
    at(3, 6) += yy;
    at(4, 1) += ky;
    at(4, 0) -= mu;
    at(4, 6) -= x;
    at(5, 6) -= 1.0;
    // F_mu = vz' - y vx' + x vy' + alpha (vz - y vx + x vy)
    at(6, 0) += yp[4] + alpha * vy;
    at(6, 1) += -yp[3] - alpha * vx;
    at(6, 3) += -cj * yy - alpha * yy;
    at(6, 4) += cj * x + alpha * x;
    at(6, 5) += cj + alpha;
  };
  for (auto _ : state) {
    const double q0[6] = {1.0, 0.0, 0.0, 0.0, 0.8, -0.8};
    std::vector<double> y0(q0, q0 + 6), yp0(7, 0.0);
    y0.push_back(0.0);
    dirac::dynamics::IdasDriver driver(dae, 0.0, y0, yp0, s.simulation.t_end);
    driver.ComputeConsistentInitialValues(s.simulation.output_step);
    double sum = 0.0;
    for (int k = 1; k <= 5000; ++k) sum += driver.Advance(k * s.simulation.output_step);
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_WholeRun50sHandWritten)->Unit(benchmark::kMillisecond);

// The gauge two-form over t in [0, 2]: per run through the model's capability (derived once
// with the model, tapes only) against deriving it on every run (the old GUI path).
dirac::Scenario GaugeScenario() {
  dirac::Scenario s = Heisenberg();
  dirac::ApplyOverride(s, "t_end", 2.0);
  return s;
}

void BM_GaugeTwoFormPerRun(benchmark::State& state) {
  const dirac::Scenario s = GaugeScenario();
  const auto model = dirac::BuildModel(s);
  const auto input = dirac::SimulationInput::FromScenario(s);
  for (auto _ : state) benchmark::DoNotOptimize(model->gauge_two_form()->Compute(input));
}
BENCHMARK(BM_GaugeTwoFormPerRun)->Unit(benchmark::kMillisecond);

void BM_GaugeTwoFormDerivedEveryRun(benchmark::State& state) {
  const dirac::Scenario s = GaugeScenario();
  const auto input = dirac::SimulationInput::FromScenario(s);
  for (auto _ : state) benchmark::DoNotOptimize(dirac::ComputeGaugeTwoForm(s, input));
}
BENCHMARK(BM_GaugeTwoFormDerivedEveryRun)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
