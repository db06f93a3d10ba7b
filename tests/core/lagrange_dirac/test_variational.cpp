// method: variational (lagrange_dirac/variational_step.*) and the integrator seam
// (dynamics/integrator.*): measured orders 2 and 4 on the 3-link pendulum chain against a tight
// CVODES reference, bounded energy without drift on a chaotic chain, the Heisenberg constraint
// held at the nodes, symplecticity (DPhi)^T J (DPhi) = J of the midpoint step from its exact
// Jacobians, and the refusals of methods that do not apply.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/integrators.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/variational_step.hpp"

namespace dirac {
namespace {

Scenario Chain(int links) {
  return ParseScenario(GenerateFamilyScenario("pendulum_chain", links), "pendulum_chain");
}

Trajectory RunScenario(Scenario s, const std::vector<std::string>& sets,
                       SimulationReport* report = nullptr) {
  for (const auto& set : sets) ApplyOverride(s, set);
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

// max over the coordinates and velocities of |a - b| in the last row.
double FinalError(const Trajectory& a, const Trajectory& b, int links) {
  double worst = 0.0;
  for (int i = 1; i <= links; ++i)
    for (const std::string c : {"th" + std::to_string(i), "vth" + std::to_string(i)})
      worst = std::max(worst, std::abs(a.Column(c).back() - b.Column(c).back()));
  return worst;
}

// A nonlinear, swinging 3-link chain (not small oscillations) over 1 s.
const std::vector<std::string> kSwing = {"th1=1.0", "th2=0.5", "th3=-0.3", "t_end=1",
                                         "output_step=0.1"};

double MeasuredOrder(int order, double h_coarse) {
  const Scenario s = Chain(3);
  std::vector<std::string> reference_sets = kSwing;
  for (const char* set : {"method=adams", "rtol=1e-13", "atol=1e-13"})
    reference_sets.push_back(set);
  const Trajectory reference = RunScenario(s, reference_sets);
  double errors[2];
  for (int k = 0; k < 2; ++k) {
    std::vector<std::string> sets = kSwing;
    sets.push_back("method=variational");
    sets.push_back("order=" + std::to_string(order));
    sets.push_back("step=" + std::to_string(h_coarse / (k == 0 ? 1.0 : 2.0)));
    SimulationReport report;
    errors[k] = FinalError(RunScenario(s, sets, &report), reference, 3);
    EXPECT_NE(report.method.find("variational"), std::string::npos) << report.method;
  }
  std::printf("[variational order %d] h = %g: %.3e, h/2: %.3e, order %.3f\n", order, h_coarse,
              errors[0], errors[1], std::log2(errors[0] / errors[1]));
  return std::log2(errors[0] / errors[1]);
}

TEST(Variational, MidpointIsSecondOrderOnThePendulumChain) {
  EXPECT_NEAR(MeasuredOrder(2, 0.01), 2.0, 0.1);
}

TEST(Variational, TripleJumpIsFourthOrderOnThePendulumChain) {
  EXPECT_NEAR(MeasuredOrder(4, 0.01), 4.0, 0.1);
}

// A chaotic 4-link chain (released from high up), 2 000 s at h = 0.01 (2e5 steps, issue 39's
// must-show): the energy error stays bounded, the second half's worst no larger than twice the
// first half's.
TEST(Variational, EnergyBoundedWithoutDriftOnAChaoticChain) {
  const Trajectory tr =
      RunScenario(Chain(4), {"th1=2.0", "th2=2.5", "th3=1.5", "th4=3.0", "t_end=2000",
                             "output_step=0.1", "method=variational", "step=0.01"});
  const auto e = tr.Column("E");
  const std::size_t half = e.size() / 2;
  double first = 0.0, second = 0.0;
  for (std::size_t i = 0; i < e.size(); ++i)
    (i < half ? first : second) =
        std::max(i < half ? first : second, std::abs(e[i] - e.front()) / std::abs(e.front()));
  std::printf("[variational chaotic 4-chain] max |E - E0|/|E0|: first half %.3e, second %.3e\n",
              first, second);
  EXPECT_GT(first, 0.0);
  EXPECT_LT(first, 0.1);  // measured 6.9e-2 (second half 6.7e-2; 3.5 s CPU): the links whip
  EXPECT_LE(second, 2.0 * first);
}

// The Heisenberg particle: the node velocities lie on the distribution.
TEST(Variational, HeisenbergConstraintHeldAtTheNodes) {
  SimulationReport report;
  const Trajectory tr =
      RunScenario(LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml"),
                  {"t_end=20", "method=variational", "step=0.01"}, &report);
  double worst = 0.0;
  for (double g : tr.Column("residual_heisenberg")) worst = std::max(worst, std::abs(g));
  std::printf("[variational Heisenberg] max |constraint| = %.3e over 20 s; %s\n", worst,
              report.method.c_str());
  EXPECT_LT(worst, 1e-10);
  EXPECT_NE(report.method.find("Lagrange-d'Alembert"), std::string::npos);
  // And the energy (conserved by the continuous flow) stays near its initial value.
  const auto e = tr.Column("E");
  double drift = 0.0;
  for (double v : e) drift = std::max(drift, std::abs(v - e.front()));
  EXPECT_LT(drift / std::abs(e.front()), 1e-3);
}

// (DPhi)^T J (DPhi) = J for the midpoint step of the unconstrained 3-link chain, DPhi from the
// step's exact Jacobians.
TEST(Variational, MidpointStepIsSymplectic) {
  Scenario s = Chain(3);
  for (const char* set : {"th1=1.0", "th2=0.5", "th3=-0.3"}) ApplyOverride(s, set);
  const auto system = LagrangeDiracSystem::Derive(s);
  const SimulationInput input = SimulationInput::FromScenario(s);
  std::vector<double> x0 = input.q0;
  x0.insert(x0.end(), {0.3, -0.7, 1.1});
  lagrange_dirac::VariationalIntegrator integrator(CompiledDaeOf(*system), input.parameters, 0.05,
                                                   2, 0.0, x0);
  const std::vector<double> p0 = integrator.momentum();
  std::vector<double> q1(3), p1(3), v1(3);
  for (int i = 0; i < 3; ++i) q1[i] = x0[i] + 0.05 * x0[3 + i];
  Eigen::MatrixXd D;
  integrator.MidpointStep(0.0, 0.05, x0.data(), p0.data(), q1.data(), p1.data(), v1.data(), &D);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, 6);
  J.topRightCorner(3, 3).setIdentity();
  J.bottomLeftCorner(3, 3) = -Eigen::MatrixXd::Identity(3, 3);
  const double defect = (D.transpose() * J * D - J).cwiseAbs().maxCoeff();
  std::printf("[variational symplecticity] max |DPhi^T J DPhi - J| = %.3e (|DPhi| = %.3e)\n",
              defect, D.cwiseAbs().maxCoeff());
  EXPECT_LT(defect, 1e-12);
  EXPECT_GT((D - Eigen::MatrixXd::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-3);  // a real map

  // The Jacobian is that of the step: central differences of the step in p0 agree.
  const double eps = 1e-6;
  for (int j = 0; j < 3; ++j) {
    std::vector<double> pp = p0, pm = p0, qp(q1), qm(q1), p1p(3), p1m(3);
    pp[j] += eps;
    pm[j] -= eps;
    integrator.MidpointStep(0.0, 0.05, x0.data(), pp.data(), qp.data(), p1p.data(), v1.data());
    integrator.MidpointStep(0.0, 0.05, x0.data(), pm.data(), qm.data(), p1m.data(), v1.data());
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR((qp[i] - qm[i]) / (2 * eps), D(i, 3 + j), 1e-6);
      EXPECT_NEAR((p1p[i] - p1m[i]) / (2 * eps), D(3 + i, 3 + j), 1e-6);
    }
  }
}

TEST(IntegratorSeam, RegistryIsSortedAndNamesEveryMethod) {
  const auto& registry = IntegratorRegistry();
  ASSERT_FALSE(registry.empty());
  for (std::size_t i = 1; i < registry.size(); ++i)
    EXPECT_LT(std::string(registry[i - 1].name), std::string(registry[i].name));
  for (const auto& info : registry) {
    EXPECT_EQ(IntegrationMethodFromName(info.name), info.method);
    EXPECT_STREQ(IntegrationMethodName(info.method), info.name);
  }
  EXPECT_EQ(IntegrationMethodNames(),
            "adams, auto, bdf, idas, isospectral, lie_variational, variational");
}

std::string RefusalOf(Scenario s, const std::vector<std::string>& sets) {
  try {
    RunScenario(std::move(s), sets);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(IntegratorSeam, MethodsThatDoNotApplyAreRefusedNamingTheMethodAndWhy) {
  const std::string source = DIRAC_SOURCE_DIR;
  // Euler-Poincare (an explicit ODE on the Lie algebra): no DAE form for IDAS.
  const std::string fluid =
      RefusalOf(LoadScenario(source + "/scenarios/ideal_fluid_torus.yaml"), {"method=idas"});
  EXPECT_NE(fluid.find("simulation.method: idas does not apply to this Euler-Poincare system"),
            std::string::npos)
      << fluid;
  EXPECT_NE(fluid.find("without a DAE form"), std::string::npos) << fluid;
  const std::string rigid = RefusalOf(LoadScenario(source + "/scenarios/rigid_body.yaml"),
                                      {"method=variational", "step=0.01"});
  EXPECT_NE(rigid.find("simulation.method: variational does not apply"), std::string::npos)
      << rigid;
  const std::string no_step = RefusalOf(Chain(3), {"method=variational"});
  EXPECT_NE(no_step.find("simulation.step is not set"), std::string::npos) << no_step;
  const std::string off_grid =
      RefusalOf(Chain(3), {"method=variational", "step=0.03", "output_step=0.01"});
  EXPECT_NE(off_grid.find("output_step"), std::string::npos) << off_grid;
  EXPECT_NE(off_grid.find("not a whole multiple of step"), std::string::npos) << off_grid;
}

// Model::integration_methods: the verdicts a run would give, without a run (the window lists the
// methods that apply from it).
TEST(IntegratorSeam, ModelsListTheMethodsThatApply) {
  const std::string source = DIRAC_SOURCE_DIR;
  auto applying = [](const Scenario& s) {
    std::string names;
    const auto model = BuildModel(s);
    for (const MethodVerdict& v :
         model->integration_methods(SimulationInput::FromScenario(s).parameters))
      if (v.applies)
        names += std::string(names.empty() ? "" : ", ") + IntegrationMethodName(v.method);
    return names;
  };
  EXPECT_EQ(applying(LoadScenario(source + "/scenarios/heisenberg.yaml")),
            "adams, auto, bdf, idas, variational");
  const Scenario rigid = LoadScenario(source + "/scenarios/rigid_body.yaml");
  EXPECT_EQ(applying(rigid), "adams, auto, bdf, idas, lie_variational");
  EXPECT_EQ(applying(LoadScenario(source + "/scenarios/ideal_fluid_torus.yaml")),
            "adams, auto, bdf, isospectral");
  EXPECT_EQ(applying(LoadScenario(source + "/scenarios/degenerate.yaml")),
            "adams, auto, bdf, idas");
  // A refusal's reason is the run's message.
  const auto model = BuildModel(rigid);
  for (const MethodVerdict& v :
       model->integration_methods(SimulationInput::FromScenario(rigid).parameters))
    if (v.method == IntegrationMethod::kVariational) {
      EXPECT_FALSE(v.applies);
      EXPECT_EQ(v.reason, RefusalOf(rigid, {"method=variational", "step=0.01"}));
    }
}

// The method as a number (the window's undo and sessions hold numbers): its code.
TEST(IntegratorSeam, MethodCodesRoundTripThroughTheOverrides) {
  Scenario s = Chain(2);
  EXPECT_EQ(CurrentValue(s, "method"), 0.0);  // auto
  ApplyOverride(s, "method=variational");
  EXPECT_EQ(CurrentValue(s, "method"), 4.0);
  ApplyOverride(s, "method", 5.0);
  EXPECT_EQ(s.simulation.method, IntegrationMethod::kIsospectral);
  ApplyOverride(s, "method=6");
  EXPECT_EQ(s.simulation.method, IntegrationMethod::kLieVariational);
  for (const auto& info : IntegratorRegistry())
    EXPECT_EQ(IntegrationMethodFromCode(IntegrationMethodCode(info.method)), info.method);
  EXPECT_THROW(ApplyOverride(s, "method", 2.5), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "method=9"), ScenarioError);
  EXPECT_EQ(s.simulation.method, IntegrationMethod::kLieVariational);
}

}  // namespace
}  // namespace dirac
