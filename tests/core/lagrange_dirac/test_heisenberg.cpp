// The Heisenberg particle: derived equations vs a hand derivation, and the integrated motion vs
// physics (vanishing multiplier, energy, constraint) and an independent RK4 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "canonical_problems.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac {
namespace {

using testing::HeisenbergReference;
using testing::HeisenbergScenario;

TEST(HeisenbergEquations, ResidualMatchesHandDerivationAtRandomPoints) {
  const auto system = LagrangeDiracSystem::Derive(HeisenbergScenario(1.0, 2.0));
  const CompiledDae& dae = CompiledDaeOf(*system);
  const InputLayout& L = dae.layout;
  ASSERT_EQ(L.n, 3u);
  ASSERT_EQ(L.m, 1u);
  ASSERT_EQ(L.num_parameters, 2u);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> in(L.size());
    for (double& value : in) value = u(rng);
    const double x = in[L.q()], y = in[L.q() + 1];
    const double vx = in[L.v()], vy = in[L.v() + 1], vz = in[L.v() + 2];
    const double mu = in[L.mu()];
    const double qdx = in[L.qdot()], qdy = in[L.qdot() + 1], qdz = in[L.qdot() + 2];
    const double vdx = in[L.vdot()], vdy = in[L.vdot() + 1], vdz = in[L.vdot() + 2];
    const double kx = in[L.parameters()], ky = in[L.parameters() + 1];
    const double alpha = in[L.stabilization()];
    const double g = vz - y * vx + x * vy;
    // Hand derivation: L has no mixed q-v terms, so eq (29) is W v' - dL/dq - mu omega = 0 with
    // omega = (-y, x, 1); the constraint row is d/dt g along (v, v') plus alpha g.
    const std::vector<double> expected = {
        qdx - vx,
        qdy - vy,
        qdz - vz,
        vdx + kx * x + mu * y,
        vdy + ky * y - mu * x,
        vdz - mu,
        vdz - y * vdx + x * vdy + alpha * g};  // dg/dq . v = vy vx - vx vy = 0
    const std::vector<double> got = dae.residual.Evaluate(in);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      worst = std::max(worst, std::abs(got[k] - expected[k]));
    EXPECT_NEAR(dae.energy.Evaluate(in)[0],
                0.5 * (vx * vx + vy * vy + vz * vz) + 0.5 * (kx * x * x + ky * y * y), 1e-13);
    EXPECT_NEAR(dae.constraints.Evaluate(in)[0], g, 1e-14);
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(HeisenbergEquations, ExactJacobianMatchesFiniteDifferences) {
  const auto system = LagrangeDiracSystem::Derive(HeisenbergScenario(1.3, 0.4));
  const CompiledDae& dae = CompiledDaeOf(*system);
  const InputLayout& L = dae.layout;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  std::vector<double> in(L.size());
  for (double& value : in) value = u(rng);
  const std::size_t N = L.dae_size();
  auto dense = [&](const CompiledSparseMatrix& m) {
    std::vector<double> values = m.values.Evaluate(in), out(N * N, 0.0);
    for (std::size_t k = 0; k < values.size(); ++k) out[m.rows[k] * N + m.cols[k]] += values[k];
    return out;
  };
  const auto Jy = dense(dae.jacobian_y), Jyp = dense(dae.jacobian_yp);
  const double h = 1e-6;
  for (std::size_t col = 0; col < N; ++col) {
    for (int which = 0; which < 2; ++which) {
      // y = (q, v, mu) starts at L.q(); y' = (q', v') at L.qdot() and has no mu' entry.
      if (which == 1 && col >= 2 * L.n) continue;
      const std::size_t slot = (which == 0 ? L.q() : L.qdot()) + col;
      auto plus = in, minus = in;
      plus[slot] += h;
      minus[slot] -= h;
      const auto fp = dae.residual.Evaluate(plus), fm = dae.residual.Evaluate(minus);
      for (std::size_t row = 0; row < N; ++row) {
        const double fd = (fp[row] - fm[row]) / (2 * h);
        const double exact = (which == 0 ? Jy : Jyp)[row * N + col];
        EXPECT_NEAR(exact, fd, 1e-7) << "row " << row << " col " << col << " which " << which;
      }
    }
  }
}

TEST(HeisenbergEquations, SolvedMultiplierIsPrinted) {
  const auto system = LagrangeDiracSystem::Derive(HeisenbergScenario(1.0, 2.0));
  bool found = false;
  for (const auto& eq : system->Equations(EquationFormat::kPlain))
    if (eq.label == "solved[mu]") found = true;
  EXPECT_TRUE(found);
}

TEST(HeisenbergMotion, MultiplierVanishesForEqualStiffness) {
  const Scenario s = HeisenbergScenario(1.5, 1.5);
  const auto system = LagrangeDiracSystem::Derive(s);
  SimulationReport report;
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s), {}, &report);
  ASSERT_GT(tr.num_rows(), 1000u);
  double worst = 0.0;
  for (double mu : tr.Column("mu")) worst = std::max(worst, std::abs(mu));
  EXPECT_LT(worst, 1e-13) << "analytically mu = (ky - kx) x y / (1 + x^2 + y^2) = 0";
}

TEST(HeisenbergMotion, MatchesIndependentReferenceForUnequalStiffness) {
  Scenario s = HeisenbergScenario(1.0, 2.0);
  ApplyOverride(s, "t_end", 20.0);
  const auto system = LagrangeDiracSystem::Derive(s);
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s));
  const HeisenbergReference ref{1.0, 2.0};
  HeisenbergReference::State state = {1.0, 0.0, 0.0, 0.0, 0.8, -0.8};
  const int substeps = 40;  // RK4 with h = 2.5e-4 between the 0.01-spaced samples
  const double h = s.simulation.output_step / substeps;
  const char* names[6] = {"x", "y", "z", "vx", "vy", "vz"};
  std::size_t cols[6];
  for (int i = 0; i < 6; ++i) cols[i] = tr.ColumnIndex(names[i]);
  const std::size_t mu_col = tr.ColumnIndex("mu");
  double worst = 0.0, worst_mu = 0.0, max_mu = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    if (r > 0)
      for (int k = 0; k < substeps; ++k) state = ref.Step(state, h);
    ASSERT_NEAR(tr.at(r, 0), r * s.simulation.output_step, 1e-12);
    for (int i = 0; i < 6; ++i) worst = std::max(worst, std::abs(tr.at(r, cols[i]) - state[i]));
    worst_mu = std::max(worst_mu, std::abs(tr.at(r, mu_col) - ref.Multiplier(state)));
    max_mu = std::max(max_mu, std::abs(ref.Multiplier(state)));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(worst_mu, 1e-8);
  EXPECT_GT(max_mu, 0.05) << "the default stiffnesses must show a live multiplier";
}

class HeisenbergInvariants : public ::testing::TestWithParam<std::pair<double, double>> {};

TEST_P(HeisenbergInvariants, EnergyAndConstraintPreservedOverFiftySeconds) {
  const auto [kx, ky] = GetParam();
  const Scenario s = HeisenbergScenario(kx, ky);
  ASSERT_DOUBLE_EQ(s.simulation.t_end, 50.0);
  const auto system = LagrangeDiracSystem::Derive(s);
  SimulationReport report;
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s), {}, &report);
  EXPECT_NEAR(tr.at(tr.num_rows() - 1, 0), 50.0, 1e-12);
  const auto energy = tr.Column("E");
  const auto residual = tr.Column("residual_heisenberg");
  const HeisenbergReference ref{kx, ky};
  EXPECT_NEAR(energy[0], ref.Energy({1.0, 0.0, 0.0, 0.0, 0.8, -0.8}), 1e-15);
  double drift = 0.0, worst_g = 0.0;
  for (std::size_t r = 0; r < energy.size(); ++r) {
    drift = std::max(drift, std::abs(energy[r] - energy[0]) / std::abs(energy[0]));
    worst_g = std::max(worst_g, std::abs(residual[r]));
  }
  EXPECT_LE(drift, 1e-9);
  EXPECT_LE(worst_g, 1e-10);
  EXPECT_DOUBLE_EQ(report.max_constraint_residual, worst_g);
}

INSTANTIATE_TEST_SUITE_P(Stiffnesses, HeisenbergInvariants,
                         ::testing::Values(std::make_pair(1.0, 2.0), std::make_pair(1.0, 1.0),
                                           std::make_pair(1.0, 0.5), std::make_pair(0.3, 4.0)));

TEST(HeisenbergMotion, InitialVelocityOffTheConstraintIsProjected) {
  Scenario s = HeisenbergScenario(1.0, 2.0);
  ApplyOverride(s, "vz", 0.5);  // violates vz = y vx - x vy = -0.8
  ApplyOverride(s, "t_end", 1.0);
  const auto system = LagrangeDiracSystem::Derive(s);
  SimulationReport report;
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s), {}, &report);
  EXPECT_GT(report.initial_projection, 0.1);
  EXPECT_LT(std::abs(tr.at(0, tr.ColumnIndex("residual_heisenberg"))), 1e-14);
  EXPECT_LT(report.max_constraint_residual, 1e-10);
}

TEST(HeisenbergMotion, ProgressCallbackCancels) {
  const Scenario s = HeisenbergScenario(1.0, 2.0);
  const auto system = LagrangeDiracSystem::Derive(s);
  SimulationReport report;
  int calls = 0;
  const Trajectory tr = system->Simulate(
      SimulationInput::FromScenario(s), [&](const Trajectory&) { return ++calls < 2; }, &report);
  EXPECT_TRUE(report.cancelled);
  EXPECT_EQ(calls, 2);
  EXPECT_LT(tr.at(tr.num_rows() - 1, 0), 49.0);
}

}  // namespace
}  // namespace dirac
