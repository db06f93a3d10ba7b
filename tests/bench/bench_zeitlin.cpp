// Issue 25's benchmarks for Zeitlin's su(N) model of the ideal fluid on the torus
// (scenarios/ideal_fluid_torus.yaml, the format's `algebroid.algebra`):
//   BM_ZeitlinDeriveCompile/N   ParseScenario + BuildModel: the basis, the N^2 - 1 structure
//                               constants with their checks, the momentum and energy tapes
//                               (targets: N = 15 under 1 s, N = 31 under 10 s);
//   BM_ZeitlinRhs/N             one right-hand side of the engine's Euler-Poincare model (the
//                               momentum tape, the sparse coadjoint contraction, W^-1);
//   BM_ZeitlinMatrixRhs/N       the hand-written baseline in matrix form: P = Delta^-1 W by the
//                               projection on the T_m (O(N^3)), then [P, W] (two complex products);
//   BM_ZeitlinProductsOnly/N    the two complex N x N products alone;
//   BM_ZeitlinIsospectralStep/N one step of `method: isospectral` in matrix form (issue 39),
//                               N = 15 ... 127, beside tests/reference/zeitlin_isospectral.py.
// Process CPU time (the machine is shared). docs/benchmarks.md has the numbers and the ratios.
#include <benchmark/benchmark.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../zeitlin_reference.hpp"
#include "dirac/build_model.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "families/lie_algebra_family.hpp"
#include "lagrange_dirac/euler_poincare_system.hpp"
#include "lagrange_dirac/isospectral_step.hpp"

namespace {

std::string TorusText(int N) {
  std::ostringstream text;
  text << "name: torus\nalgebroid:\n  algebra: {family: zeitlin_torus, size: " << N
       << "}\n  inertia: laplacian\n  initial_momentum: {c1_0: 1.0, c0_2: 0.8, s1_1: 0.5}\n"
          "simulation: {t_end: 1, output_step: 0.1, rtol: 1e-10, atol: 1e-10}\n";
  return text.str();
}

void BM_ZeitlinDeriveCompile(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0));
  const std::string text = TorusText(N);
  for (auto _ : state) {
    const dirac::Scenario s = dirac::ParseScenario(text, "torus.yaml");
    auto model = dirac::BuildModel(s);
    benchmark::DoNotOptimize(model.get());
  }
  state.counters["dim"] = N * N - 1;
}
BENCHMARK(BM_ZeitlinDeriveCompile)
    ->Arg(15)
    ->Arg(31)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(false);

// N = 15 and 31, microseconds, process CPU time: every right-hand-side benchmark.
void RhsSizes(benchmark::internal::Benchmark* b) {
  b->Arg(15)->Arg(31)->Unit(benchmark::kMicrosecond)->MeasureProcessCPUTime();
}

std::vector<double> State(std::size_t k) {
  std::vector<double> y(k);
  for (std::size_t a = 0; a < k; ++a) y[a] = 0.3 * std::cos(1.7 * static_cast<double>(a) + 0.3);
  return y;
}

void BM_ZeitlinRhs(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0));
  const dirac::Scenario s = dirac::ParseScenario(TorusText(N), "torus.yaml");
  const auto data = dirac::lagrange_dirac::DeriveEulerPoincareData(s);
  // The model's own right-hand side, as the integrator calls it.
  const auto model = dirac::BuildModel(s);
  const std::optional<dirac::RightHandSide> rhs =
      model->MakeRightHandSide(dirac::SimulationInput::FromScenario(s));
  if (!rhs) {
    state.SkipWithError("the Euler-Poincare model offers no right-hand side");
    return;
  }
  const std::vector<double> y = State(data->dimension());
  std::vector<double> ydot(y.size());
  for (auto _ : state) {
    rhs->rates(0.0, y.data(), ydot.data());
    benchmark::DoNotOptimize(ydot.data());
  }
  state.counters["constants"] = static_cast<double>(data->constants.size());
}
BENCHMARK(BM_ZeitlinRhs)->Apply(RhsSizes);

Eigen::MatrixXcd Vorticity(const dirac::testing::ZeitlinMatrixForm& form) {
  return form.FromReal([](int m1, int m2, bool sine) {
    return 0.3 * std::cos(1.7 * (m1 * 7 + m2) + (sine ? 0.3 : 0.9)) / (1.0 + m1 * m1 + m2 * m2);
  });
}

void BM_ZeitlinMatrixRhs(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0));
  const dirac::testing::ZeitlinMatrixForm form(N);
  const Eigen::MatrixXcd W = Vorticity(form);
  for (auto _ : state) {
    Eigen::MatrixXcd rate = form.Rate(W);
    benchmark::DoNotOptimize(rate.data());
  }
}
BENCHMARK(BM_ZeitlinMatrixRhs)->Apply(RhsSizes);

void BM_ZeitlinProductsOnly(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0));
  const dirac::testing::ZeitlinMatrixForm form(N);
  const Eigen::MatrixXcd W = Vorticity(form), P = 0.5 * W.adjoint();
  Eigen::MatrixXcd rate(N, N);
  for (auto _ : state) {
    rate.noalias() = P * W;
    rate.noalias() -= W * P;
    benchmark::DoNotOptimize(rate.data());
  }
}
BENCHMARK(BM_ZeitlinProductsOnly)->Apply(RhsSizes);

}  // namespace

namespace {

// Issue 39: one step of `method: isospectral` (lagrange_dirac/isospectral_step.*) on the torus,
// h = 0.01, from the smooth spectrum of tests/reference/zeitlin_isospectral.py (whose NumPy step
// prints its own time per step: run it beside this for the side-by-side numbers). Each step is a
// fresh one from the same state (the step count per call is stable).
void BM_ZeitlinIsospectralStep(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0));
  const dirac::families::LieAlgebraBasis basis =
      dirac::families::MatrixFormBasisOf("zeitlin_torus", N);
  std::vector<double> p(basis.dimension());
  for (std::size_t a = 0; a < p.size(); ++a) {
    const auto [m1, m2] = basis.modes[a];
    p[a] =
        std::exp(-0.3 * (m1 * m1 + m2 * m2)) *
        (basis.sine[a] ? std::sin(0.9 * m1 - 1.1 * m2 + 0.5) : std::cos(1.3 * m1 + 0.7 * m2 + 0.2));
  }
  const std::vector<double> laplacian = basis.laplacian;
  const auto velocity = [&laplacian](const double* q, double* y) {
    for (std::size_t a = 0; a < laplacian.size(); ++a) y[a] = q[a] / laplacian[a];
  };
  // Arg 1: the torus's FFT transform (what the model uses); 0: the sums over the sparse entries
  // of the matrix realization (the generic path of so(n)).
  dirac::lagrange_dirac::IsospectralMidpoint midpoint =
      state.range(1) ? dirac::lagrange_dirac::IsospectralMidpoint(basis, velocity)
                     : dirac::lagrange_dirac::IsospectralMidpoint(
                           N, dirac::families::MatrixRealization(basis), velocity);
  long iterations = 0;
  for (auto _ : state) {
    state.PauseTiming();
    midpoint.SetMomentum(p.data());
    state.ResumeTiming();
    iterations += midpoint.Step(0.01);
  }
  state.counters["iterations"] =
      benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_ZeitlinIsospectralStep)
    ->Args({15, 1})
    ->Args({31, 1})
    ->Args({63, 1})
    ->Args({127, 1})
    ->Args({15, 0})
    ->Args({31, 0})
    ->Args({63, 0})
    ->Args({127, 0})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

}  // namespace
