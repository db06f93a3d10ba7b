// The gauge two-form (seed D Prop 2.7, Thm 3.14): phi_t^*(i^* Omega_L) = i^* Omega_L + B_t,
// both sides computed independently (flow Jacobian vs integrated B_t).
#include <gtest/gtest.h>

#include <algorithm>

#include "canonical_problems.hpp"
#include "dirac/gauge_two_form.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

double ColumnMax(const Trajectory& tr, const std::string& name) {
  double worst = 0.0;
  for (double v : tr.Column(name)) worst = std::max(worst, std::abs(v));
  return worst;
}

Trajectory Gauge(Scenario s, double t_end) {
  ApplyOverride(s, "t_end", t_end);
  return ComputeGaugeTwoForm(s, SimulationInput::FromScenario(s));
}

TEST(GaugeTwoForm, HeisenbergIdentityHoldsAndBIsNonzero) {
  const Trajectory tr = Gauge(testing::HeisenbergScenario(1.0, 2.0), 10.0);
  ASSERT_TRUE(tr.FindColumn("B_1_2"));
  EXPECT_GT(ColumnMax(tr, "B_norm"), 1e-2) << "the nonholonomic flow is not symplectic on K";
  EXPECT_GT(ColumnMax(tr, "omega_change"), 1e-2);
  EXPECT_LT(ColumnMax(tr, "identity_residual"), 1e-7);
  // The motion itself is the Heisenberg particle's (same as the index-1 DAE).
  Scenario s = testing::HeisenbergScenario(1.0, 2.0);
  ApplyOverride(s, "t_end", 10.0);
  const Trajectory dae = LagrangeDiracSystem::Derive(s)->Simulate(SimulationInput::FromScenario(s));
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); r += 50)
    for (const char* c : {"x", "y", "z", "vx", "vy", "vz"})
      worst =
          std::max(worst, std::abs(tr.at(r, tr.ColumnIndex(c)) - dae.at(r, dae.ColumnIndex(c))));
  EXPECT_LT(worst, 1e-8);
}

TEST(GaugeTwoForm, VanishesWithoutMultiplier) {
  // kx = ky: mu = 0 identically, so beta = 0 and the flow preserves i^* Omega_L.
  const Trajectory tr = Gauge(testing::HeisenbergScenario(1.5, 1.5), 10.0);
  EXPECT_LT(ColumnMax(tr, "B_norm"), 1e-12);
  EXPECT_LT(ColumnMax(tr, "omega_change"), 1e-7);
}

TEST(GaugeTwoForm, VanishesForHolonomicConstraints) {
  // z' - x' = 0 is integrable (z - x = const): mu != 0, but on the leaves (K = T(TN)) the
  // pull-back of beta vanishes and so does B_t (seed D Remark 2.9); transversally to the leaves
  // Delta_Q still sees d mu ^ d(z - x), which the identity accounts for.
  const Scenario s = ParseScenario(R"yaml(
name: holonomic
coordinates:
  - {name: x, velocity: vx, initial: 1.0, initial_velocity: 0.3}
  - {name: y, velocity: vy, initial: 0.2, initial_velocity: 0.5}
  - {name: z, velocity: vz, initial: 0.0, initial_velocity: 0.3}
parameters: [{name: k, default: 1.3, min: 0, max: 5}]
lagrangian: "(vx^2 + vy^2 + vz^2)/2 - k*(x^2 + 2*y^2 + 3*z^2)/2 - x*y*z"
constraints: [{name: holo, form: "vz - vx"}]
simulation: {t_end: 8, output_step: 0.01, rtol: 1e-12, atol: 1e-12}
)yaml",
                                   "holonomic.yaml");
  const Trajectory tr = ComputeGaugeTwoForm(s, SimulationInput::FromScenario(s));
  EXPECT_LT(ColumnMax(tr, "B_norm"), 1e-9);
  EXPECT_GT(ColumnMax(tr, "B_full_norm"), 1e-3);
  EXPECT_LT(ColumnMax(tr, "identity_residual"), 1e-7);
}

TEST(GaugeTwoForm, UnconstrainedFlowIsSymplectic) {
  const Scenario s = ParseScenario(R"yaml(
name: free
coordinates: [{name: x, initial: 1.0, initial_velocity: 0.2}, {name: y, initial_velocity: 0.7}]
lagrangian: "(vx^2 + vy^2)/2 - (x^2 + y^2)^2/4 + x*vy"
simulation: {t_end: 8, output_step: 0.01, rtol: 1e-12, atol: 1e-12}
)yaml",
                                   "free.yaml");
  const Trajectory tr = ComputeGaugeTwoForm(s, SimulationInput::FromScenario(s));
  EXPECT_EQ(ColumnMax(tr, "B_norm"), 0.0);
  EXPECT_LT(ColumnMax(tr, "omega_change"), 1e-7);
}

}  // namespace
}  // namespace dirac
