// Seed D Remark 2.8 on the discrete side (lagrange_dirac/README.md, "The discrete gauge
// two-form"): the discrete flow Phi of `method: variational` satisfies Phi^* Omega = Omega +
// d beta_d step by step (both sides from the step's exact Jacobians, to round-off), and its
// failure to preserve Omega_L on T Delta_Q, accumulated over [0, T], converges to the continuous
// gauge two-form B_T of `dirac gauge` at the method's order (2 and 4), on the Heisenberg particle
// and the Chaplygin sleigh, in the same basis of T_x0 Delta_Q.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/gauge_derivation.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "lagrange_dirac/variational_step.hpp"

namespace dirac {
namespace {

using lagrange_dirac::GaugeTwoFormMatrices;
using lagrange_dirac::VariationalIntegrator;

Scenario Shipped(const std::string& name) {
  Scenario s = LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + name + ".yaml");
  // T = 1, and a continuous reference far more accurate than the finest discrete flow.
  for (const char* set : {"t_end=1", "output_step=0.125", "rtol=1e-13", "atol=1e-13"})
    ApplyOverride(s, set);
  return s;
}

double MaxAbs(const Eigen::MatrixXd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

struct DiscreteError {
  double full = 0.0;      // max |B_d - B_T| on T Delta_Q (basis T)
  double admissible = 0;  // the same on K (Thm 3.14)
  double identity = 0.0;  // max |omega_change - accumulated d beta_d| of the discrete flow
};

DiscreteError Compare(const Scenario& s, const GaugeTwoFormMatrices& continuous, double h,
                      int order) {
  const auto system = LagrangeDiracSystem::Derive(s);
  const SimulationInput input = SimulationInput::FromScenario(s);
  const std::vector<double> x0(continuous.z0.data(), continuous.z0.data() + continuous.z0.size());
  VariationalIntegrator integrator(CompiledDaeOf(*system), input.parameters, h, order, 0.0, x0);
  const auto gauge = integrator.AdvanceWithGauge(continuous.t, continuous.tangent_basis);
  const Eigen::MatrixXd difference = gauge.omega_change - continuous.B;
  const Eigen::MatrixXd& C = continuous.admissible;
  return {MaxAbs(difference), MaxAbs(C.transpose() * difference * C),
          MaxAbs(gauge.omega_change - gauge.accumulated)};
}

// Errors at h, h/2, h/4, h/8; the order measured as the least-squares slope of log2 error
// against log2 h, on T Delta_Q and on K.
void ExpectOrder(const std::string& name, int order, double h0, double finest_bound) {
  const Scenario s = Shipped(name);
  const GaugeTwoFormMatrices continuous =
      lagrange_dirac::ComputeGaugeTwoFormMatrices(s, SimulationInput::FromScenario(s));
  const double reference_error = MaxAbs(continuous.omega_change - continuous.B);
  const double b_norm = MaxAbs(continuous.B);
  const double b_k =
      MaxAbs(continuous.admissible.transpose() * continuous.B * continuous.admissible);
  std::printf(
      "[discrete gauge %s, order %d] T = %g: max|B_T| = %.3e (on K %.3e), continuous "
      "identity residual %.2e\n",
      name.c_str(), order, continuous.t, b_norm, b_k, reference_error);
  ASSERT_NEAR(continuous.t, 1.0, 1e-12);
  EXPECT_GT(b_k, 1e-3) << "B_T on K must be far from zero for the comparison to mean something";
  std::vector<double> full, admissible;
  for (int k = 0; k < 4; ++k) {
    const double h = h0 / std::pow(2.0, k);
    const DiscreteError e = Compare(s, continuous, h, order);
    std::printf("  h = %-9g |B_d - B_T| = %.3e, on K %.3e; discrete identity residual %.2e\n", h,
                e.full, e.admissible, e.identity);
    // Phi^* Omega - Omega = sum of the steps' d beta_d: an identity, to round-off.
    EXPECT_LT(e.identity, 1e-11 * std::max(1.0, b_norm));
    full.push_back(e.full);
    admissible.push_back(e.admissible);
  }
  auto slope = [](const std::vector<double>& e) {
    // Least squares slope of log2 e against k (h = h0 2^-k), negated.
    double mean_k = 1.5, mean_e = 0.0, num = 0.0, den = 0.0;
    for (double v : e) mean_e += std::log2(v) / 4.0;
    for (int k = 0; k < 4; ++k) {
      num += (k - mean_k) * (std::log2(e[k]) - mean_e);
      den += (k - mean_k) * (k - mean_k);
    }
    return -num / den;
  };
  const double measured = slope(full), measured_k = slope(admissible);
  std::printf("  measured order %.3f (on K %.3f), expected %d\n", measured, measured_k, order);
  EXPECT_NEAR(measured, order, 0.3);
  EXPECT_NEAR(measured_k, order, 0.3);
  for (int k = 1; k < 4; ++k) EXPECT_LT(full[k], full[k - 1]);
  EXPECT_LT(full.back(), finest_bound);
  EXPECT_GT(full.back(), 100.0 * reference_error) << "the reference is not accurate enough";
}

TEST(DiscreteGauge, MidpointConvergesToBTAtOrderTwoOnHeisenberg) {
  ExpectOrder("heisenberg", 2, 0.1, 1e-4);  // measured 2.8e-5
}

TEST(DiscreteGauge, TripleJumpConvergesToBTAtOrderFourOnHeisenberg) {
  ExpectOrder("heisenberg", 4, 0.25, 1e-6);  // measured 3.7e-7
}

TEST(DiscreteGauge, MidpointConvergesToBTAtOrderTwoOnTheChaplyginSleigh) {
  ExpectOrder("chaplygin_sleigh", 2, 0.1, 1e-4);  // measured 1.9e-5
}

TEST(DiscreteGauge, TripleJumpConvergesToBTAtOrderFourOnTheChaplyginSleigh) {
  ExpectOrder("chaplygin_sleigh", 4, 0.25, 1e-6);  // measured 9.2e-8
}

// One constrained step: its exact Jacobian d(q1, p1)/d(q0, p0) (through lambda and mu) against
// central differences, and Phi^* Omega - Omega = d beta_d on all of T*Q, both from the
// implicit-function Jacobians: the discrete relation of seed D Remark 2.8 (Cortes-Martinez).
TEST(DiscreteGauge, OneStepIdentityAndJacobianOnTheSleigh) {
  const Scenario s = Shipped("chaplygin_sleigh");
  const auto system = LagrangeDiracSystem::Derive(s);
  const SimulationInput input = SimulationInput::FromScenario(s);
  // A generic point (q0, p0), not on the constraint manifold: the identity holds everywhere.
  const std::vector<double> x0 = {0.3, -0.2, 0.7, -0.3, 0.75, 1.5};
  const double h = 0.1;
  VariationalIntegrator integrator(CompiledDaeOf(*system), input.parameters, h, 2, 0.0, x0);
  const std::vector<double> q0(x0.begin(), x0.begin() + 3), p0 = {-0.4, 0.6, 0.2};
  auto step = [&](const std::vector<double>& q, const std::vector<double>& p, Eigen::MatrixXd* D,
                  Eigen::MatrixXd* M) {
    std::vector<double> q1(3), p1(3), v1(3);
    for (int i = 0; i < 3; ++i) q1[i] = q[i] + h * x0[3 + i];
    integrator.MidpointStep(0.0, h, q.data(), p.data(), q1.data(), p1.data(), v1.data(), D, M);
    Eigen::VectorXd out(6);
    for (int i = 0; i < 3; ++i) {
      out[i] = q1[i];
      out[3 + i] = p1[i];
    }
    return out;
  };
  Eigen::MatrixXd D, M;
  step(q0, p0, &D, &M);
  const double eps = 1e-6;
  double worst = 0.0;
  for (int j = 0; j < 6; ++j) {
    std::vector<double> qp = q0, qm = q0, pp = p0, pm = p0;
    (j < 3 ? qp[j] : pp[j - 3]) += eps;
    (j < 3 ? qm[j] : pm[j - 3]) -= eps;
    const Eigen::VectorXd column =
        (step(qp, pp, nullptr, nullptr) - step(qm, pm, nullptr, nullptr)) / (2 * eps);
    worst = std::max(worst, (column - D.col(j)).cwiseAbs().maxCoeff());
  }
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, 6);
  J.topRightCorner(3, 3).setIdentity();
  J.bottomLeftCorner(3, 3) = -Eigen::MatrixXd::Identity(3, 3);
  const double defect = MaxAbs(D.transpose() * J * D - J);
  const double identity = MaxAbs(D.transpose() * J * D - J - M);
  std::printf(
      "[discrete gauge, one step] |DPhi - central differences| = %.2e; |DPhi^T J DPhi - J| "
      "= %.3e; |DPhi^T J DPhi - J - d beta_d| = %.2e\n",
      worst, defect, identity);
  EXPECT_LT(worst, 1e-7);
  EXPECT_GT(defect, 1e-4);  // the constrained step is not symplectic
  EXPECT_LT(identity, 1e-11);
}

}  // namespace
}  // namespace dirac
