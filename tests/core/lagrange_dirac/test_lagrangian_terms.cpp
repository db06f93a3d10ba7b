// Eq (29)'s mixed terms D1D2L and the second-order condition, checked on a charged particle in
// a magnetic field (L linear in v through the vector potential): a hand derivation gives
//   F_vx = vx' - B y' + k x,  F_vy = vy' + B x' + k y  for any (q', v'), not only on q' = v.
#include <gtest/gtest.h>

#include <random>

#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac {
namespace {

constexpr const char* kMagnetic = R"yaml(
name: planar charge in a magnetic field
coordinates:
  - {name: x, velocity: vx, initial: 1.0, initial_velocity: 0.0}
  - {name: y, velocity: vy, initial: 0.0, initial_velocity: 0.5}
parameters:
  - {name: B, default: 1.5, min: 0, max: 5}
  - {name: k, default: 0.7, min: 0, max: 5}
lagrangian: "(vx^2 + vy^2)/2 + B/2*(x*vy - y*vx) - k/2*(x^2 + y^2)"
simulation: {t_end: 10, output_step: 0.01, rtol: 1e-12, atol: 1e-12}
)yaml";

TEST(LagrangianTerms, MixedTermsOfEq29MatchHandDerivationOffShell) {
  const auto system = LagrangeDiracSystem::Derive(ParseScenario(kMagnetic, "magnetic.yaml"));
  const InputLayout& L = CompiledDaeOf(*system).layout;
  ASSERT_EQ(L.m, 0u);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> in(L.size());
    for (double& value : in) value = u(rng);
    const double x = in[L.q()], y = in[L.q() + 1];
    const double B = in[L.parameters()], k = in[L.parameters() + 1];
    const auto F = CompiledDaeOf(*system).residual.Evaluate(in);
    ASSERT_EQ(F.size(), 4u);
    EXPECT_NEAR(F[0], in[L.qdot()] - in[L.v()], 1e-14);
    EXPECT_NEAR(F[2], in[L.vdot()] - B * in[L.qdot() + 1] + k * x, 1e-13);
    EXPECT_NEAR(F[3], in[L.vdot() + 1] + B * in[L.qdot()] + k * y, 1e-13);
  }
}

TEST(LagrangianTerms, LorentzMotionConservesEnergyAndMatchesRk4) {
  const Scenario s = ParseScenario(kMagnetic, "magnetic.yaml");
  const auto system = LagrangeDiracSystem::Derive(s);
  SimulationReport report;
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s), {}, &report);
  EXPECT_LT(report.max_energy_drift, 1e-10);
  // Independent reference: x'' = B y' - k x, y'' = -B x' - k y, RK4 with h = 1e-4.
  const double B = 1.5, k = 0.7, h = 1e-4;
  double st[4] = {1.0, 0.0, 0.0, 0.5};
  auto rate = [&](const double* a, double* d) {
    d[0] = a[2];
    d[1] = a[3];
    d[2] = B * a[3] - k * a[0];
    d[3] = -B * a[2] - k * a[1];
  };
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    if (r > 0) {
      for (int step = 0; step < 100; ++step) {
        double k1[4], k2[4], k3[4], k4[4], tmp[4];
        rate(st, k1);
        for (int i = 0; i < 4; ++i) tmp[i] = st[i] + h / 2 * k1[i];
        rate(tmp, k2);
        for (int i = 0; i < 4; ++i) tmp[i] = st[i] + h / 2 * k2[i];
        rate(tmp, k3);
        for (int i = 0; i < 4; ++i) tmp[i] = st[i] + h * k3[i];
        rate(tmp, k4);
        for (int i = 0; i < 4; ++i) st[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
      }
    }
    for (int i = 0; i < 4; ++i) worst = std::max(worst, std::abs(tr.at(r, 1 + i) - st[i]));
  }
  EXPECT_LT(worst, 1e-8);
}

TEST(LagrangianTerms, DegenerateLagrangianIsRefusedWithAReason) {
  const char* degenerate = R"yaml(
name: degenerate
coordinates: [{name: q1}, {name: q2}, {name: q3}]
lagrangian: "vq1*vq3 - q2*vq3 + q1*q3"
)yaml";
  try {
    LagrangeDiracSystem::Derive(ParseScenario(degenerate, "degenerate.yaml"));
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("degenerate"), std::string::npos) << e.what();
  }
}

TEST(LagrangianTerms, NonlinearConstraintIsRefusedNamingTheConstraint) {
  const char* bad = R"yaml(
name: bad constraint
coordinates: [{name: x}, {name: y}]
lagrangian: "(vx^2 + vy^2)/2"
constraints:
  - {name: rolling, form: "vx^2 - vy"}
)yaml";
  try {
    LagrangeDiracSystem::Derive(ParseScenario(bad, "bad.yaml"));
    FAIL() << "expected ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.symbol(), "rolling");
    EXPECT_EQ(e.line(), 6u);
    EXPECT_NE(std::string(e.what()).find("bad.yaml:6"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dirac
