// Mechanics on Lie algebroids: the rigid body on so(3), the Suslov problem and Elroy's beanie
// reduced on TS^1 x se(2) vs unreduced on TQ; Lie group reconstruction. (The algebroid data and
// their checks: tests/core/model/test_algebroid_data.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac {
namespace {

Scenario Load(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

Trajectory RunScenario(const Scenario& s, SimulationReport* report = nullptr) {
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

double MaxDeviation(const std::vector<double>& values) {
  double worst = 0.0;
  for (double v : values) worst = std::max(worst, std::abs(v - values.front()));
  return worst;
}

TEST(RigidBody, DerivedEquationsAreEulersEquations) {
  // Hand derivation: I w' + w x I w - mu A = 0 (Suslov form; the free body has no mu).
  const auto system = LagrangeDiracSystem::Derive(Load("suslov.yaml"));
  const InputLayout& L = CompiledDaeOf(*system).layout;
  ASSERT_EQ(L.n, 0u);
  ASSERT_EQ(L.k, 3u);
  ASSERT_EQ(L.m, 1u);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> in(L.size());
    for (double& x : in) x = u(rng);
    const double* w = &in[L.v()];
    const double* wd = &in[L.vdot()];
    const double mu = in[L.mu()];
    const double* p = &in[L.parameters()];  // I1 I2 I3 a1 a2 a3
    const double I[3] = {p[0], p[1], p[2]}, A[3] = {p[3], p[4], p[5]};
    const double Iw[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]};
    const double cross[3] = {w[1] * Iw[2] - w[2] * Iw[1], w[2] * Iw[0] - w[0] * Iw[2],
                             w[0] * Iw[1] - w[1] * Iw[0]};
    const auto F = CompiledDaeOf(*system).residual.Evaluate(in);
    ASSERT_EQ(F.size(), 4u);
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(F[a], I[a] * wd[a] + cross[a] - mu * A[a], 1e-12) << "row " << a;
    const double alpha = in[L.stabilization()];
    EXPECT_NEAR(F[3],
                A[0] * wd[0] + A[1] * wd[1] + A[2] * wd[2] +
                    alpha * (A[0] * w[0] + A[1] * w[1] + A[2] * w[2]),
                1e-12);
  }
}

TEST(RigidBody, ConservedQuantitiesAndOrthogonality) {
  SimulationReport report;
  const Scenario s = Load("rigid_body.yaml");
  const Trajectory tr = RunScenario(s, &report);
  ASSERT_DOUBLE_EQ(tr.at(tr.num_rows() - 1, 0), 40.0);
  std::vector<double> energy = tr.Column("E"), momentum_norm;
  const auto w1 = tr.Column("w1"), w2 = tr.Column("w2"), w3 = tr.Column("w3");
  for (std::size_t r = 0; r < w1.size(); ++r)
    momentum_norm.push_back(std::hypot(1 * w1[r], 2 * w2[r], 3 * w3[r]));
  EXPECT_LT(MaxDeviation(energy), 1e-10);
  EXPECT_LT(MaxDeviation(momentum_norm), 1e-10);
  for (const char* c : {"spatial_momentum_x", "spatial_momentum_y", "spatial_momentum_z"})
    EXPECT_LT(MaxDeviation(tr.Column(c)), 1e-9) << c;
  double orthogonality = 0.0;
  for (double e : tr.Column("orthogonality_error")) orthogonality = std::max(orthogonality, e);
  EXPECT_LT(orthogonality, 1e-12);
  // R' = R w^ really integrated: R is far from the identity at the end.
  EXPECT_LT(tr.at(tr.num_rows() - 1, tr.ColumnIndex("R22")), 0.999);
}

TEST(RigidBody, MiddleAxisUnstableOthersStable) {
  // Spin about axis a with a 1e-3 perturbation of the other two components.
  auto max_off_axis = [](int axis) {
    Scenario s = Load("rigid_body.yaml");
    const char* names[3] = {"w1", "w2", "w3"};
    for (int i = 0; i < 3; ++i) ApplyOverride(s, names[i], i == axis ? 1.0 : 1e-3);
    ApplyOverride(s, "t_end", 30.0);
    const Trajectory tr = RunScenario(s);
    double worst = 0.0;
    for (int i = 0; i < 3; ++i)
      if (i != axis)
        for (double w : tr.Column(names[i])) worst = std::max(worst, std::abs(w));
    return worst;
  };
  EXPECT_LT(max_off_axis(0), 1e-2);  // smallest inertia: stable
  EXPECT_LT(max_off_axis(2), 1e-2);  // largest inertia: stable
  EXPECT_GT(max_off_axis(1), 0.5);   // middle inertia: the perturbation grows to O(1)
}

TEST(Suslov, ConstraintHoldsAndEigenvectorGivesRelativeEquilibria) {
  SimulationReport report;
  const Trajectory tr = RunScenario(Load("suslov.yaml"), &report);
  EXPECT_LT(report.max_constraint_residual, 1e-10);
  const auto w1 = tr.Column("w1"), w3 = tr.Column("w3");
  double worst = 0.0, max_mu = 0.0;
  for (std::size_t r = 0; r < w1.size(); ++r)
    worst = std::max(worst, std::abs(0.3 * w1[r] + w3[r]));
  for (double mu : tr.Column("mu")) max_mu = std::max(max_mu, std::abs(mu));
  EXPECT_LT(worst, 1e-10);
  EXPECT_GT(max_mu, 1e-3) << "A = (0.3, 0, 1) is not an eigenvector: the constraint works";
  EXPECT_GT(MaxDeviation(tr.Column("w2")), 1e-2) << "and the motion is not an equilibrium";
  // A = e3, an eigenvector of I = diag(1, 2, 3): every solution is a relative equilibrium.
  for (const auto& w0 : {std::array<double, 2>{0.8, 0.6}, std::array<double, 2>{-0.3, 1.7}}) {
    Scenario s = Load("suslov.yaml");
    for (const char* a : {"a1=0", "a2=0", "a3=1", "w3=0"}) ApplyOverride(s, a);
    ApplyOverride(s, "w1", w0[0]);
    ApplyOverride(s, "w2", w0[1]);
    const Trajectory eq = RunScenario(s);
    for (const char* c : {"w1", "w2", "w3"}) EXPECT_LT(MaxDeviation(eq.Column(c)), 1e-9) << c;
    double mu = 0.0;
    for (double v : eq.Column("mu")) mu = std::max(mu, std::abs(v));
    EXPECT_LT(std::abs(mu - std::abs((1.0 - 2.0) * w0[0] * w0[1])), 1e-9)
        << "mu = (I1 - I2) w1 w2 keeps w3 = 0";
  }
}

// Elroy's beanie: reduced (psi, v1..v4) + SE(2) reconstruction vs unreduced (x, y, theta, psi).
void ExpectBeanieAgrees(double m, double I1, double I2, double k, std::array<double, 4> v) {
  Scenario reduced = Load("elroys_beanie.yaml");
  Scenario unreduced = Load("elroys_beanie_unreduced.yaml");
  for (Scenario* s : {&reduced, &unreduced}) {
    ApplyOverride(*s, "m", m);
    ApplyOverride(*s, "I1", I1);
    ApplyOverride(*s, "I2", I2);
    ApplyOverride(*s, "k", k);
    ApplyOverride(*s, "t_end", 25.0);
  }
  const char* names[4] = {"v1", "v2", "v3", "v4"};
  for (int a = 0; a < 4; ++a) ApplyOverride(reduced, names[a], v[a]);
  // y = v^A X_A with X1 = a (d/dpsi - b xi3), X2 = xi1/sqrt(m), X3 = xi2/sqrt(m),
  // X4 = xi3/sqrt(I1 + I2): at theta = 0 the body velocity is the spatial one.
  const double a = std::sqrt((I1 + I2) / (I1 * I2)), b = I2 / (I1 + I2);
  ApplyOverride(unreduced, "vx", v[1] / std::sqrt(m));
  ApplyOverride(unreduced, "vy", v[2] / std::sqrt(m));
  ApplyOverride(unreduced, "vtheta", v[3] / std::sqrt(I1 + I2) - a * b * v[0]);
  ApplyOverride(unreduced, "vpsi", a * v[0]);
  const Trajectory r = RunScenario(reduced), u = RunScenario(unreduced);
  ASSERT_EQ(r.num_rows(), u.num_rows());
  double worst = 0.0, travelled = 0.0;
  for (std::size_t row = 0; row < r.num_rows(); ++row) {
    for (const char* c : {"x", "y", "theta", "psi"})
      worst = std::max(worst, std::abs(r.at(row, r.ColumnIndex(c)) - u.at(row, u.ColumnIndex(c))));
    travelled = std::max(travelled, std::abs(u.at(row, u.ColumnIndex("theta"))));
  }
  EXPECT_LT(worst, 1e-8) << "m=" << m << " I1=" << I1 << " I2=" << I2 << " k=" << k;
  EXPECT_GT(travelled, 0.1) << "the main body really turns";
  EXPECT_NEAR(r.Column("E").front(), u.Column("E").front(), 1e-12);
}

TEST(ElroysBeanie, ReducedAndUnreducedAgreeAfterReconstruction) {
  ExpectBeanieAgrees(1.0, 2.0, 0.5, 0.3, {1.2, 0.4, 0.0, 0.3});
  ExpectBeanieAgrees(2.5, 1.0, 1.5, 0.0, {-0.7, 0.2, 0.5, 0.0});
  ExpectBeanieAgrees(0.5, 3.0, 0.2, 1.5, {2.0, -0.3, 0.1, -0.4});
}

}  // namespace
}  // namespace dirac
