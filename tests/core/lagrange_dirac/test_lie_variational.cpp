// method: lie_variational (lagrange_dirac/lie_variational_step.*): the Lee–Leok–McClamroch
// discrete rigid body on SO(3) for scenarios/rigid_body.yaml (the unstable middle axis): the
// spatial angular momentum R J w and the energy kept to accumulated round-off over 10^6 steps, the
// attitude on SO(3) to round-off, order 2 against a tight CVODES run, and the refusals off the
// rigid body.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

Scenario RigidBody() {
  return LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/rigid_body.yaml");
}

Trajectory RunWith(Scenario s, const std::vector<std::string>& sets,
                   SimulationReport* report = nullptr) {
  for (const auto& set : sets) ApplyOverride(s, set);
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

// max_t |pi(t) - pi(0)| / |pi(0)| of the spatial angular momentum.
double MomentumDrift(const Trajectory& t) {
  const auto& x = t.Column("spatial_momentum_x");
  const auto& y = t.Column("spatial_momentum_y");
  const auto& z = t.Column("spatial_momentum_z");
  const double size = std::sqrt(x[0] * x[0] + y[0] * y[0] + z[0] * z[0]);
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::hypot(x[i] - x[0], y[i] - y[0], z[i] - z[0]) / size);
  return worst;
}

TEST(LieVariational, RigidBodyMomentumAndEnergyToRoundOffOverAMillionSteps) {
  // h = 0.01 to t = 10^4 s: 10^6 steps through the tumbling of the unstable middle axis.
  SimulationReport report;
  const Trajectory t =
      RunWith(RigidBody(), {"method=lie_variational", "step=0.01", "t_end=10000", "output_step=10"},
              &report);
  EXPECT_EQ(report.internal_steps, 1000000);
  EXPECT_NE(report.method.find("lie_variational"), std::string::npos) << report.method;
  const double momentum = MomentumDrift(t);
  double orthogonality = 0.0;
  for (double v : t.Column("orthogonality_error")) orthogonality = std::max(orthogonality, v);
  const auto& E = t.Column("E");
  const std::size_t half = E.size() / 2;
  double first = 0.0, second = 0.0;
  for (std::size_t i = 0; i < E.size(); ++i)
    (i < half ? first : second) =
        std::max(i < half ? first : second, std::abs(E[i] - E[0]) / std::abs(E[0]));
  std::printf(
      "[lie_variational rigid body, 10^6 steps of 0.01] |pi - pi0|/|pi0| %.3e, orthogonality "
      "%.3e, |E - E0|/E0 first half %.3e, second half %.3e, %ld Newton iterations\n",
      momentum, orthogonality, first, second, report.rhs_evaluations);
  // Round-off only: 10^6 steps of a few eps each (the scheme keeps R Pi and, for the free rigid
  // body, the energy exactly; an O(h^2) energy error would be 1e-5 here): below n eps = 1.1e-10.
  EXPECT_LT(momentum, 1e-10);
  EXPECT_LT(orthogonality, 1e-10);
  EXPECT_LT(std::max(first, second), 1e-10);
  EXPECT_FALSE(report.diverged_at.has_value());
}

TEST(LieVariational, MomentumDriftOfAdamsIsLargerOverTheSameRun) {
  const Trajectory iso =
      RunWith(RigidBody(), {"method=lie_variational", "step=0.01", "t_end=1000", "output_step=1"});
  const Trajectory adams = RunWith(
      RigidBody(), {"method=adams", "rtol=1e-8", "atol=1e-8", "t_end=1000", "output_step=1"});
  const double a = MomentumDrift(adams), l = MomentumDrift(iso);
  std::printf("[rigid body, t = 1000] momentum drift: lie_variational %.3e, Adams rtol 1e-8 %.3e\n",
              l, a);
  EXPECT_GT(a, 100.0 * l);
}

TEST(LieVariational, SecondOrderAgainstATightAdamsRun) {
  const std::vector<std::string> horizon = {"t_end=2", "output_step=1"};
  std::vector<std::string> sets = horizon;
  sets.insert(sets.end(), {"method=adams", "rtol=1e-13", "atol=1e-13"});
  const Trajectory reference = RunWith(RigidBody(), sets);
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    std::vector<std::string> s = horizon;
    s.insert(s.end(), {"method=lie_variational", i == 0 ? "step=0.02" : "step=0.01"});
    const Trajectory t = RunWith(RigidBody(), s);
    double worst = 0.0;
    for (const char* c :
         {"w1", "w2", "w3", "R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33"})
      worst = std::max(worst, std::abs(t.Column(c).back() - reference.Column(c).back()));
    errors[i] = worst;
  }
  const double order = std::log2(errors[0] / errors[1]);
  std::printf("[lie_variational] error at T = 2: h = 0.02 %.3e, h = 0.01 %.3e, order %.3f\n",
              errors[0], errors[1], order);
  EXPECT_NEAR(order, 2.0, 0.1);
}

std::string RefusalOf(Scenario s, const std::vector<std::string>& sets) {
  try {
    RunWith(std::move(s), sets);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(LieVariational, RefusedOffTheRigidBodyNamingTheMethodAndWhy) {
  const std::string chain =
      RefusalOf(ParseScenario(GenerateFamilyScenario("pendulum_chain", 2), "chain"),
                {"method=lie_variational", "step=0.01"});
  EXPECT_NE(chain.find("simulation.method: lie_variational does not apply to this Lagrange-Dirac "
                       "system"),
            std::string::npos)
      << chain;
  EXPECT_NE(chain.find("not the free rigid body on SO(3)"), std::string::npos) << chain;
  const std::string fluid =
      RefusalOf(LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/ideal_fluid_torus.yaml"),
                {"method=lie_variational", "step=0.01"});
  EXPECT_NE(fluid.find("use one of auto, adams, bdf, isospectral"), std::string::npos) << fluid;
  // A rigid body without its SO3 reconstruction names the reason.
  Scenario bare = RigidBody();
  bare.reconstruction = {};
  const std::string no_group = RefusalOf(bare, {"method=lie_variational", "step=0.01"});
  EXPECT_NE(no_group.find("no reconstruction on SO3"), std::string::npos) << no_group;
  const std::string no_step = RefusalOf(RigidBody(), {"method=lie_variational"});
  EXPECT_NE(no_step.find("simulation.step is not set"), std::string::npos) << no_step;
}

}  // namespace
}  // namespace dirac
