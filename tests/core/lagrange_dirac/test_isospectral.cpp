// method: isospectral (lagrange_dirac/isospectral_step.*) on Zeitlin's su(N) model of the fluid on
// the torus: the Casimirs tr((iW)^k) kept to round-off over 2 000 steps where Adams drifts, order
// 2 against a tight CVODES run, agreement with an independent NumPy implementation of the same
// step (tests/reference/zeitlin_isospectral.py) at N = 63 and 127, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "families/lie_algebra_family.hpp"
#include "lagrange_dirac/isospectral_step.hpp"

namespace dirac {
namespace {

Scenario Torus(int N, const std::string& simulation) {
  std::ostringstream text;
  text << "name: torus\nalgebroid:\n  algebra: {family: zeitlin_torus, size: " << N
       << "}\n  inertia: laplacian\n  initial_momentum: {c1_0: 1.0, c0_2: 0.8, s1_1: 0.5, "
          "c2_m1: 0.3}\nsimulation: "
       << simulation << "\n";
  return ParseScenario(text.str(), "torus.yaml");
}

Trajectory RunWith(Scenario s, const std::vector<std::string>& sets,
                   SimulationReport* report = nullptr) {
  for (const auto& set : sets) ApplyOverride(s, set);
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

// max over t and k = 2 ... 4 of |C_k(t) - C_k(0)| / s_k, C_k = tr((iW)^k), with s_k = |C_k(0)|
// for k = 2, 4 (sums of even powers of the eigenvalues) and s_3 = C_2(0)^(3/2) >= Σ|λ|³ (C_3
// itself may nearly vanish).
double CasimirDrift(const Trajectory& t) {
  double worst = 0.0;
  const double c2 = std::abs(t.Column("casimir2")[0]);
  for (int k = 2; k <= 4; ++k) {
    const auto& c = t.Column("casimir" + std::to_string(k));
    const double scale = k == 3 ? std::pow(c2, 1.5) : std::abs(c[0]);
    for (double v : c) worst = std::max(worst, std::abs(v - c[0]) / scale);
  }
  return worst;
}

TEST(Isospectral, ZeitlinCasimirsKeptToRoundOffWhereAdamsDrifts) {
  // su(15), h = 0.01, 2 000 steps.
  const Scenario s = Torus(15, "{t_end: 20, output_step: 0.5, rtol: 1.0e-8, atol: 1.0e-8}");
  SimulationReport report;
  const Trajectory iso = RunWith(s, {"method=isospectral", "step=0.01"}, &report);
  EXPECT_NE(report.method.find("isospectral midpoint"), std::string::npos) << report.method;
  EXPECT_EQ(report.internal_steps, 2000);
  const double drift = CasimirDrift(iso);
  double all = 0.0;
  for (double v : iso.Column("casimir_drift")) all = std::max(all, v);
  const Trajectory adams = RunWith(s, {"method=adams"});
  const double adams_drift = CasimirDrift(adams);
  std::printf(
      "[isospectral su(15), 2000 steps] Casimir k=2..4 drift %.3e (all k: %.3e), %ld fixed-point "
      "iterations; Adams rtol 1e-8: %.3e\n",
      drift, all, report.rhs_evaluations, adams_drift);
  EXPECT_LT(drift, 1e-12);
  EXPECT_LT(all, 1e-12);
  EXPECT_GT(adams_drift, 100.0 * drift);
  // The energy is not a Casimir: bounded (second order in h), not kept to round-off.
  const auto& E = iso.Column("E");
  double energy = 0.0;
  for (double e : E) energy = std::max(energy, std::abs(e - E[0]) / std::abs(E[0]));
  EXPECT_LT(energy, 1e-3);
}

TEST(Isospectral, SecondOrderAgainstATightAdamsRun) {
  const Scenario s = Torus(7, "{t_end: 1, output_step: 0.5, rtol: 1.0e-13, atol: 1.0e-13}");
  const Trajectory reference = RunWith(s, {"method=adams"});
  const auto& names = families::LieAlgebraBasisOf("zeitlin_torus", 7).names;
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    const Trajectory t = RunWith(s, {"method=isospectral", i == 0 ? "step=0.05" : "step=0.025"});
    double worst = 0.0;
    for (const auto& name : names)
      worst = std::max(worst, std::abs(t.Column(name).back() - reference.Column(name).back()));
    errors[i] = worst;
  }
  const double order = std::log2(errors[0] / errors[1]);
  std::printf("[isospectral su(7)] error at T = 1: h = 0.05 %.3e, h = 0.025 %.3e, order %.3f\n",
              errors[0], errors[1], order);
  EXPECT_NEAR(order, 2.0, 0.1);
  EXPECT_LT(errors[1], 1e-3);
}

// The initial momentum of tests/reference/zeitlin_isospectral.py (the same formula).
std::vector<double> ReferenceMomentum(const families::LieAlgebraBasis& basis) {
  std::vector<double> p(basis.dimension());
  for (std::size_t a = 0; a < p.size(); ++a) {
    const auto [m1, m2] = basis.modes[a];
    const double r2 = m1 * m1 + m2 * m2;
    p[a] = std::exp(-0.3 * r2) * (basis.sine[a] ? std::sin(0.9 * m1 - 1.1 * m2 + 0.5)
                                                : std::cos(1.3 * m1 + 0.7 * m2 + 0.2));
  }
  return p;
}

// The first interpreter with NumPy, or "".
std::string PythonWithNumpy() {
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    const std::string probe = std::string(python) + " -c \"import numpy\" > /dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return "";
}

void ExpectAgreesWithNumpy(int N, double h, int steps) {
  const std::string python = PythonWithNumpy();
  if (python.empty()) GTEST_SKIP() << "no python3 with NumPy (scripts/install-deps.sh installs it)";
  const std::string out = "zeitlin_isospectral_" + std::to_string(N) + ".txt";
  std::ostringstream command;
  command << python << " " << DIRAC_SOURCE_DIR << "/tests/reference/zeitlin_isospectral.py " << N
          << " " << h << " " << steps << " " << out << " > " << out << ".time";
  ASSERT_EQ(std::system(command.str().c_str()), 0) << command.str();
  std::vector<double> expected;
  {
    std::ifstream in(out);
    for (double v; in >> v;) expected.push_back(v);
  }
  const families::LieAlgebraBasis basis = families::MatrixFormBasisOf("zeitlin_torus", N);
  ASSERT_EQ(expected.size(), basis.dimension());
  std::vector<double> laplacian = basis.laplacian;
  lagrange_dirac::IsospectralIntegrator integrator(
      basis,
      [&laplacian](const double* p, double* y) {
        for (std::size_t a = 0; a < laplacian.size(); ++a) y[a] = p[a] / laplacian[a];
      },
      ReferenceMomentum(basis), h, 0.0);
  integrator.Advance(steps * h);
  std::vector<double> p(basis.dimension());
  integrator.midpoint().Momentum(p.data());
  double worst = 0.0, size = 0.0;
  for (std::size_t a = 0; a < p.size(); ++a) {
    worst = std::max(worst, std::abs(p[a] - expected[a]));
    size = std::max(size, std::abs(expected[a]));
  }
  std::printf(
      "[isospectral vs NumPy, N = %d, %d steps of %g] max |dp| = %.3e (max |p| %.3f), "
      "%ld iterations\n",
      N, steps, h, worst, size, integrator.rhs_evaluations());
  EXPECT_LT(worst, 1e-10 * size);
  std::remove(out.c_str());
  std::remove((out + ".time").c_str());
}

TEST(Isospectral, AgreesWithAnIndependentNumpyStepAtN63) { ExpectAgreesWithNumpy(63, 0.01, 5); }
TEST(Isospectral, AgreesWithAnIndependentNumpyStepAtN127) { ExpectAgreesWithNumpy(127, 0.01, 3); }

// The torus's FFT transform against the generic sums over the sparse entries of the family's
// matrix realization (clock and shift): the same matrix, momentum and step to round-off.
TEST(Isospectral, TorusTransformAgreesWithTheSparseMatrixRealization) {
  const families::LieAlgebraBasis basis = families::LieAlgebraBasisOf("zeitlin_torus", 15);
  const std::vector<double> laplacian = basis.laplacian;
  const auto velocity = [&laplacian](const double* p, double* y) {
    for (std::size_t a = 0; a < laplacian.size(); ++a) y[a] = p[a] / laplacian[a];
  };
  lagrange_dirac::IsospectralMidpoint fft(basis, velocity);
  lagrange_dirac::IsospectralMidpoint entries(families::MatrixSize(basis),
                                              families::MatrixRealization(basis), velocity);
  const std::vector<double> p0 = ReferenceMomentum(basis);
  fft.SetMomentum(p0.data());
  entries.SetMomentum(p0.data());
  EXPECT_LT((fft.matrix() - entries.matrix()).cwiseAbs().maxCoeff(), 1e-15);
  std::vector<double> back(p0.size());
  fft.Momentum(back.data());
  double round_trip = 0.0;
  for (std::size_t a = 0; a < p0.size(); ++a)
    round_trip = std::max(round_trip, std::abs(back[a] - p0[a]));
  EXPECT_LT(round_trip, 1e-14);
  for (int i = 0; i < 3; ++i) {
    fft.Step(0.01);
    entries.Step(0.01);
  }
  EXPECT_LT((fft.matrix() - entries.matrix()).cwiseAbs().maxCoeff(),
            1e-13 * entries.matrix().cwiseAbs().maxCoeff());
}

std::string RefusalOf(Scenario s, const std::vector<std::string>& sets) {
  try {
    RunWith(std::move(s), sets);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Isospectral, RefusedOffMatrixLiePoissonSystemsNamingTheMethodAndSystem) {
  const std::string source = DIRAC_SOURCE_DIR;
  const std::string rigid = RefusalOf(LoadScenario(source + "/scenarios/rigid_body.yaml"),
                                      {"method=isospectral", "step=0.01"});
  EXPECT_NE(rigid.find("simulation.method: isospectral does not apply to this Lagrange-Dirac "
                       "system"),
            std::string::npos)
      << rigid;
  EXPECT_NE(rigid.find("not an Euler-Poincare (Lie-Poisson) system on a matrix Lie algebra"),
            std::string::npos)
      << rigid;
  const std::string su = RefusalOf(
      ParseScenario("name: su3\nalgebroid:\n  algebra: {family: su, size: 3}\n  inertia: "
                    "{diagonal: [1, 2, 3, 4, 5, 6, 7, 8]}\n  initial: {a1_2: 1.0}\nsimulation: "
                    "{t_end: 1, output_step: 0.1}\n",
                    "su3.yaml"),
      {"method=isospectral", "step=0.01"});
  EXPECT_NE(su.find("isospectral does not apply to this Euler-Poincare system on su(3)"),
            std::string::npos)
      << su;
  const std::string no_step =
      RefusalOf(Torus(5, "{t_end: 1, output_step: 0.1}"), {"method=isospectral"});
  EXPECT_NE(no_step.find("simulation.step is not set"), std::string::npos) << no_step;
  const std::string off_grid =
      RefusalOf(Torus(5, "{t_end: 1, output_step: 0.1}"), {"method=isospectral", "step=0.03"});
  EXPECT_NE(off_grid.find("not a whole multiple of step"), std::string::npos) << off_grid;
}

}  // namespace
}  // namespace dirac
