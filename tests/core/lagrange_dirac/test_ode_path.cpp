// The ODE path of regular index-1 systems (multipliers eliminated through the saddle system,
// CVODES Adams or BDF with projection) against the IDAS path and independent references: the
// Heisenberg particle, a stiff damped oscillator (automatic BDF), the rigid body and Elroy's
// beanie reduced and unreduced; the exact Jacobian of the ODE against finite differences.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/saddle_system.hpp"

namespace dirac {
namespace {

using testing::HeisenbergReference;
using testing::HeisenbergScenario;

Scenario Load(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

Trajectory RunWith(Scenario s, const std::string& method, SimulationReport* report = nullptr) {
  ApplyOverride(s, "method=" + method);
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

// max over rows and the named columns of |a - b|.
double MaxDifference(const Trajectory& a, const Trajectory& b,
                     const std::vector<std::string>& columns) {
  EXPECT_EQ(a.num_rows(), b.num_rows());
  double worst = 0.0;
  for (std::size_t r = 0; r < std::min(a.num_rows(), b.num_rows()); ++r)
    for (const auto& c : columns)
      worst = std::max(worst, std::abs(a.at(r, a.ColumnIndex(c)) - b.at(r, b.ColumnIndex(c))));
  return worst;
}

double RelativeEnergyDrift(const Trajectory& tr) {
  const auto e = tr.Column("E");
  double worst = 0.0;
  for (double v : e) worst = std::max(worst, std::abs(v - e.front()));
  return worst / std::max(std::abs(e.front()), 1e-300);
}

class HeisenbergMethods : public ::testing::TestWithParam<const char*> {};

// kx = 1, ky = 2, T = 20 at rtol = atol = 1e-12 (the benchmark case of issue 12).
TEST_P(HeisenbergMethods, MatchesHandEliminatedReferenceToOneInABillion) {
  Scenario s = HeisenbergScenario(1.0, 2.0);
  for (const char* set : {"t_end=20", "rtol=1e-12", "atol=1e-12"}) ApplyOverride(s, set);
  SimulationReport report;
  const Trajectory tr = RunWith(s, GetParam(), &report);
  const HeisenbergReference ref{1.0, 2.0};
  HeisenbergReference::State state = {1.0, 0.0, 0.0, 0.0, 0.8, -0.8};
  const int substeps = 80;  // RK4, h = 1.25e-4: global error ~1e-13 over [0, 20]
  const double h = s.simulation.output_step / substeps;
  const char* names[6] = {"x", "y", "z", "vx", "vy", "vz"};
  double worst = 0.0, worst_mu = 0.0, worst_g = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    if (r > 0)
      for (int k = 0; k < substeps; ++k) state = ref.Step(state, h);
    for (int i = 0; i < 6; ++i)
      worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex(names[i])) - state[i]));
    worst_mu = std::max(worst_mu, std::abs(tr.at(r, tr.ColumnIndex("mu")) - ref.Multiplier(state)));
    worst_g = std::max(worst_g, std::abs(tr.at(r, tr.ColumnIndex("residual_heisenberg"))));
  }
  EXPECT_LT(worst, 1e-9) << report.method;
  EXPECT_LT(worst_mu, 1e-9) << report.method;
  EXPECT_LE(worst_g, 1e-10) << report.method;
  EXPECT_LE(RelativeEnergyDrift(tr), 1e-9) << report.method;
  EXPECT_GT(report.internal_steps, 0);
}

INSTANTIATE_TEST_SUITE_P(Methods, HeisenbergMethods, ::testing::Values("adams", "bdf", "idas"));

TEST(OdePath, AutoPicksAdamsForUndampedMechanics) {
  for (const char* file : {"heisenberg.yaml", "rigid_body.yaml", "elroys_beanie.yaml"}) {
    Scenario s = Load(file);
    ApplyOverride(s, "t_end=1");
    SimulationReport report;
    RunWith(s, "auto", &report);
    EXPECT_NE(report.method.find("Adams"), std::string::npos) << file << ": " << report.method;
    EXPECT_GT(report.rhs_evaluations, 0) << file;
  }
}

// Caldirola–Kanai: L = e^(g t) (v^2 - x^2)/2 gives x'' + g x' + x = 0. With g = 1000 the modes
// decay at ~1000/s and ~0.001/s: stiff, so `auto` takes BDF; x(t) is known in closed form.
Scenario DampedOscillator() {
  const std::string path = ::testing::TempDir() + "/caldirola_kanai.yaml";
  std::ofstream out(path);
  out << "name: Caldirola-Kanai oscillator\n"
         "coordinates: [{name: x, velocity: vx, initial: 1.0, initial_velocity: 0.0}]\n"
         "parameters: [{name: g, default: 1000}]\n"
         "lagrangian: \"exp(g*t)*(vx^2 - x^2)/2\"\n"
         "simulation: {t_end: 0.5, output_step: 0.01, rtol: 1e-10, atol: 1e-12}\n";
  out.close();
  return LoadScenario(path);
}

TEST(OdePath, AutoPicksBdfForAStiffDampedOscillatorAndMatchesTheClosedForm) {
  Scenario s = DampedOscillator();
  SimulationReport report;
  const Trajectory bdf = RunWith(s, "auto", &report);
  EXPECT_NE(report.method.find("BDF"), std::string::npos) << report.method;
  const double g = 1000.0, d = std::sqrt(g * g - 4.0);
  const double r1 = (-g + d) / 2, r2 = (-g - d) / 2;
  const double a = -r2 / (r1 - r2), b = r1 / (r1 - r2);
  double worst = 0.0;
  for (std::size_t r = 0; r < bdf.num_rows(); ++r) {
    const double t = bdf.at(r, 0);
    worst = std::max(worst, std::abs(bdf.at(r, 1) - (a * std::exp(r1 * t) + b * std::exp(r2 * t))));
  }
  EXPECT_LT(worst, 1e-9);
  // Adams (implicit, Newton on the same Jacobian) reaches the same motion.
  EXPECT_LT(MaxDifference(bdf, RunWith(s, "adams"), {"x", "vx"}), 1e-8);
}

// The free rigid body: Euler's equations I w' = (I w) x w and R' = R w^ by hand (RK4, h = 1.25e-4),
// against the ODE path (with its sixth-order Magnus reconstruction) and the IDAS path.
TEST(OdePath, RigidBodyMatchesEulersEquationsAndTheDaePath) {
  Scenario s = Load("rigid_body.yaml");
  for (const char* set : {"rtol=1e-12", "atol=1e-12"}) ApplyOverride(s, set);
  SimulationReport report;
  const Trajectory ode = RunWith(s, "auto", &report), dae = RunWith(s, "idas");
  const std::array<double, 3> I = {1.0, 2.0, 3.0};
  using State = std::array<double, 12>;  // w, then R row-major
  State x = {0.05, 1.0, 0.05, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  auto rate = [&](const State& v) {
    State d{};
    const double L[3] = {I[0] * v[0], I[1] * v[1], I[2] * v[2]};
    d[0] = (L[1] * v[2] - L[2] * v[1]) / I[0];
    d[1] = (L[2] * v[0] - L[0] * v[2]) / I[1];
    d[2] = (L[0] * v[1] - L[1] * v[0]) / I[2];
    const double W[3][3] = {{0, -v[2], v[1]}, {v[2], 0, -v[0]}, {-v[1], v[0], 0}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double sum = 0.0;
        for (int l = 0; l < 3; ++l) sum += v[3 + 3 * i + l] * W[l][j];
        d[3 + 3 * i + j] = sum;
      }
    return d;
  };
  auto axpy = [](State a, double c, const State& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += c * b[i];
    return a;
  };
  const int substeps = 80;
  const double h = s.simulation.output_step / substeps;
  const char* R[9] = {"R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33"};
  double worst_w = 0.0, worst_R = 0.0;
  for (std::size_t r = 0; r < ode.num_rows(); ++r) {
    if (r > 0)
      for (int k = 0; k < substeps; ++k) {
        const State k1 = rate(x), k2 = rate(axpy(x, h / 2, k1)), k3 = rate(axpy(x, h / 2, k2)),
                    k4 = rate(axpy(x, h, k3));
        for (std::size_t i = 0; i < x.size(); ++i)
          x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
      }
    for (std::size_t i = 0; i < 3; ++i)
      worst_w = std::max(worst_w,
                         std::abs(ode.at(r, ode.ColumnIndex("w" + std::to_string(i + 1))) - x[i]));
    for (std::size_t i = 0; i < 9; ++i)
      worst_R = std::max(worst_R, std::abs(ode.at(r, ode.ColumnIndex(R[i])) - x[3 + i]));
  }
  EXPECT_LT(worst_w, 1e-9) << report.method;
  EXPECT_LT(worst_R, 1e-9) << report.method;
  EXPECT_LT(MaxDifference(ode, dae, {"w1", "w2", "w3", "R11", "R12", "R21", "R33"}), 1e-9);
  EXPECT_LE(RelativeEnergyDrift(ode), 1e-10);
}

// Elroy's beanie reduced on TS^1 x se(2) and unreduced on TQ, both on the ODE path, and each
// against its IDAS run; initial values as in test_lie_algebroids.cpp's comparison.
TEST(OdePath, ElroysBeanieReducedAndUnreducedAgreeWithEachOtherAndWithIdas) {
  Scenario reduced = Load("elroys_beanie.yaml");
  Scenario unreduced = Load("elroys_beanie_unreduced.yaml");
  const double m = 1.0, I1 = 2.0, I2 = 0.5;
  const std::array<double, 4> v = {1.2, 0.4, 0.0, 0.3};
  for (Scenario* s : {&reduced, &unreduced}) {
    for (const char* set : {"m=1", "I1=2", "I2=0.5", "k=0.3", "rtol=1e-12", "atol=1e-12"})
      ApplyOverride(*s, set);
  }
  const char* names[4] = {"v1", "v2", "v3", "v4"};
  for (int a = 0; a < 4; ++a) ApplyOverride(reduced, names[a], v[static_cast<std::size_t>(a)]);
  const double sa = std::sqrt((I1 + I2) / (I1 * I2)), b = I2 / (I1 + I2);
  ApplyOverride(unreduced, "vx", v[1] / std::sqrt(m));
  ApplyOverride(unreduced, "vy", v[2] / std::sqrt(m));
  ApplyOverride(unreduced, "vtheta", v[3] / std::sqrt(I1 + I2) - sa * b * v[0]);
  ApplyOverride(unreduced, "vpsi", sa * v[0]);
  const Trajectory r_ode = RunWith(reduced, "auto"), u_ode = RunWith(unreduced, "auto");
  const Trajectory r_dae = RunWith(reduced, "idas"), u_dae = RunWith(unreduced, "idas");
  const std::vector<std::string> pose = {"x", "y", "theta", "psi"};
  EXPECT_LT(MaxDifference(r_ode, u_ode, pose), 1e-9);
  EXPECT_LT(MaxDifference(r_ode, r_dae, pose), 1e-9);
  EXPECT_LT(MaxDifference(u_ode, u_dae, pose), 1e-9);
  EXPECT_LE(RelativeEnergyDrift(r_ode), 1e-10);
  EXPECT_LE(RelativeEnergyDrift(u_ode), 1e-10);
}

// df/dx through the saddle system vs central differences of f, at random states.
TEST(OdePath, ExactJacobianMatchesFiniteDifferences) {
  for (const char* file :
       {"heisenberg.yaml", "elroys_beanie.yaml", "suslov.yaml", "elroys_beanie_unreduced.yaml"}) {
    const Scenario s = Load(file);
    const auto system = LagrangeDiracSystem::Derive(s);
    const SimulationInput input = SimulationInput::FromScenario(s);
    lagrange_dirac::SaddleSystem saddle(CompiledDaeOf(*system), input.parameters);
    const std::size_t N = saddle.state_size();
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-0.8, 0.8);
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<double> x(N), f(N), fp(N), fm(N), J(N * N);
      for (double& v : x) v = u(rng);
      ASSERT_TRUE(saddle.Rates(0.3, x.data(), f.data())) << file;
      saddle.Jacobian(0.3, x.data(), J.data());
      double worst = 0.0, scale = 1.0;
      for (std::size_t j = 0; j < N; ++j) {
        const double h = 1e-6;
        std::vector<double> xp = x, xm = x;
        xp[j] += h;
        xm[j] -= h;
        saddle.Rates(0.3, xp.data(), fp.data());
        saddle.Rates(0.3, xm.data(), fm.data());
        for (std::size_t i = 0; i < N; ++i) {
          const double fd = (fp[i] - fm[i]) / (2 * h);
          worst = std::max(worst, std::abs(J[j * N + i] - fd));
          scale = std::max(scale, std::abs(fd));
        }
      }
      EXPECT_LT(worst / scale, 1e-7) << file << " trial " << trial;
    }
  }
}

TEST(OdePath, MethodIsReadFromTheFileAndCheckedWithItsLine) {
  const std::string path = ::testing::TempDir() + "/method_test.yaml";
  std::ifstream in(testing::SourcePath("scenarios/heisenberg.yaml"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto write = [&](const std::string& method) {
    std::string t = text;
    const std::string key = "  stabilization: 10.0\n";
    t.replace(t.find(key), key.size(), key + "  method: " + method + "\n");
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(t.c_str(), f);
    std::fclose(f);
  };
  write("bdf");
  EXPECT_EQ(LoadScenario(path).simulation.method, IntegrationMethod::kBdf);
  write("rk4");
  try {
    LoadScenario(path);
    FAIL() << "an unknown method must be refused";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("method_test.yaml:"), std::string::npos) << what;
    EXPECT_NE(what.find("method"), std::string::npos) << what;
  }
  Scenario s = HeisenbergScenario(1.0, 2.0);
  EXPECT_THROW(ApplyOverride(s, "method=rk4"), ScenarioError);
  ApplyOverride(s, "method=idas");
  EXPECT_EQ(s.simulation.method, IntegrationMethod::kIdas);
}

}  // namespace
}  // namespace dirac
