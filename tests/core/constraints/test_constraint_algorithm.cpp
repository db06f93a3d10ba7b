// The Gotay–Nester–Hinds constraint algorithm: small presymplectic systems with known chains and
// the shipped degenerate scenarios, each against an analytic solution.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

std::shared_ptr<const ConstrainedSystem> AnalyzeText(const std::string& yaml) {
  Scenario s = ParseScenario(yaml, "inline.yaml");
  if (s.formulation == Formulation::kAuto) s.formulation = Formulation::kConstraintAlgorithm;
  return ConstrainedSystem::Analyze(s);
}

std::shared_ptr<const ConstrainedSystem> AnalyzeFile(const std::string& name) {
  return ConstrainedSystem::Analyze(LoadScenario(testing::SourcePath("scenarios/" + name)));
}

Trajectory RunScenario(const std::string& name, SimulationReport* report = nullptr) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/" + name));
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

// "lhs = 0" printed by the engine equals `expected` = 0 up to a nonzero constant factor.
bool SameEquation(const std::string& printed, const std::string& expected,
                  const std::string& symbol_list) {
  GiNaC::symtab table;
  std::stringstream names(symbol_list);
  std::string name;
  while (std::getline(names, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    table[name] = GiNaC::symbol(name);
  }
  GiNaC::parser reader(table, true);
  const GiNaC::ex lhs = reader(printed.substr(0, printed.find(" = 0")));
  const GiNaC::ex ratio = GiNaC::normal(lhs / reader(expected));
  return GiNaC::is_a<GiNaC::numeric>(ratio) && !ratio.is_zero();
}

void ExpectSymbolicAndNumericAgree(const ConstraintChain& chain) {
  EXPECT_GE(chain.check.points, 6u);
  EXPECT_TRUE(chain.check.ranks_agree);
  EXPECT_LT(chain.check.max_constraint_value, 1e-12);
  for (const auto& m : chain.check.messages) ADD_FAILURE() << m;
}

TEST(ConstraintAlgorithm, NoDynamicsEndsOnTheEmptySet) {
  // L = x: E_L = -x, Omega_L = 0, so dH(ker Omega) = -1 != 0 everywhere.
  const auto system = AnalyzeText("name: n\ncoordinates: [{name: x}]\nlagrangian: \"x\"\n");
  EXPECT_EQ(system->chain().outcome, ChainOutcome::kEmpty);
  EXPECT_NE(system->chain().verdict.find("empty"), std::string::npos);
  EXPECT_THROW(system->Simulate(SimulationInput{}), ModelError);
}

TEST(ConstraintAlgorithm, PurePotentialPinsTheConfigurationAtTheCriticalPoint) {
  // L = -(x^2 + y^2)/2: Omega_L = 0, so M_1 = {dE_L = dU = 0} = {x = y = 0}; the velocities
  // enter nothing and remain free (fibre-only gauge): dim M_f = 2, Omega_f = 0.
  const auto system =
      AnalyzeText("name: n\ncoordinates: [{name: x}, {name: y}]\nlagrangian: \"-(x^2 + y^2)/2\"\n");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  EXPECT_EQ(chain.final_dimension, 2u);
  EXPECT_EQ(chain.final_rank, 0u);
  ASSERT_EQ(chain.gauge.size(), 2u);
  EXPECT_TRUE(chain.configuration_dynamics_unique);
  ExpectSymbolicAndNumericAgree(chain);
}

TEST(ConstraintAlgorithm, FirstOrderOscillatorNeedsNoStep) {
  // L = x y' - (x^2 + y^2)/2 is linear in the velocities: Omega_L = dx ^ dy on Q (plus the
  // fibre kernel), E_L = (x^2 + y^2)/2 does not depend on v: M_1 = M_0, a symplectic quotient.
  const auto system = AnalyzeText(
      "name: n\ncoordinates: [{name: x}, {name: y}]\n"
      "lagrangian: \"x*vy - x^2/2 - y^2/2\"\n");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  EXPECT_EQ(chain.steps.size(), 1u);
  EXPECT_TRUE(chain.symplectic_modulo_gauge);
  EXPECT_TRUE(chain.configuration_dynamics_unique);
  ExpectSymbolicAndNumericAgree(chain);
}

TEST(ConstraintAlgorithm, GaugeTranslationIsFound) {
  // L = (v1 - v2)^2/2 sees only v1 - v2: moving q1 and q2 together (d/dq1 + d/dq2, with the
  // matching fibre direction) is a genuine gauge direction.
  const auto system = AnalyzeText(
      "name: n\ncoordinates: [{name: q1}, {name: q2}]\nlagrangian: \"(vq1 - vq2)^2/2\"\n");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  bool moves_diagonal = false;
  for (const auto& g : chain.gauge)
    if (!g.fibre_only && g.components[0] == g.components[1] && g.components[0] != "0")
      moves_diagonal = true;
  EXPECT_TRUE(moves_diagonal) << FormatChain(chain);
  EXPECT_FALSE(chain.configuration_dynamics_unique);
  ExpectSymbolicAndNumericAgree(chain);
}

TEST(DegenerateScenario, ChainFindsV3ThenQ3AndAGaugeDirection) {
  const auto system = AnalyzeFile("degenerate.yaml");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized) << FormatChain(chain);
  ASSERT_EQ(chain.steps.size(), 3u);  // M_0 ⊃ M_1 ⊃ M_2 = M_f
  EXPECT_EQ(chain.steps[0].dimension, 6u);
  ASSERT_EQ(chain.steps[0].new_constraints.size(), 1u);
  EXPECT_EQ(chain.steps[0].new_constraints[0], "v3 = 0");  // q3' = v3 = 0 (seed D §6.3)
  ASSERT_EQ(chain.steps[1].new_constraints.size(), 1u);
  EXPECT_EQ(chain.steps[1].new_constraints[0], "q3 = 0");  // from v3' = q3 on M_1
  EXPECT_TRUE(chain.steps[2].new_constraints.empty());
  EXPECT_EQ(chain.final_dimension, 4u);
  EXPECT_FALSE(chain.symplectic);
  ASSERT_EQ(chain.gauge.size(), 2u);
  EXPECT_FALSE(chain.gauge[0].fibre_only);  // q2 is arbitrary
  EXPECT_EQ(chain.gauge[0].components[1], "1");
  EXPECT_TRUE(chain.gauge[1].fibre_only);  // v2 never enters L
  ExpectSymbolicAndNumericAgree(chain);
}

TEST(DegenerateScenario, AStepBoundTooSmallIsDiagnosed) {
  const auto system = ConstrainedSystem::Analyze(
      LoadScenario(testing::SourcePath("scenarios/degenerate.yaml")), /*max_steps=*/1);
  EXPECT_EQ(system->chain().outcome, ChainOutcome::kNotStabilized);
  EXPECT_NE(system->chain().verdict.find("not stabilised within 1"), std::string::npos)
      << system->chain().verdict;
  EXPECT_THROW(system->Simulate(SimulationInput{}), ModelError);
}

TEST(DegenerateScenario, MotionOnMfMatchesTheAnalyticSolution) {
  // On M_f: q1'' = q2' + q1 with q2' = lambda1 = cos(t)/2, q1(0) = 1, q1'(0) = 0:
  //   q1 = 5/4 cosh t - 1/4 cos t,  q2 = sin(t)/2,  q3 = v3 = 0.
  SimulationReport report;
  const Trajectory tr = RunScenario("degenerate.yaml", &report);
  double worst = 0.0, worst_constraint = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    const double q1 = 1.25 * std::cosh(t) - 0.25 * std::cos(t);
    worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("q1")) - q1) / std::cosh(t));
    worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("q2")) - 0.5 * std::sin(t)));
    for (const char* c : {"q3", "v3", "residual_hidden1", "residual_hidden2", "residual_dynamics"})
      worst_constraint = std::max(worst_constraint, std::abs(tr.at(r, tr.ColumnIndex(c))));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LE(worst_constraint, 1e-10);
  EXPECT_LE(report.max_constraint_residual, 1e-10);
}

TEST(LcCircuit, HiddenKvlConstraintAndAnalyticOscillation) {
  const auto system = AnalyzeFile("lc_circuit.yaml");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  ASSERT_EQ(chain.steps[0].new_constraints.size(), 1u);
  EXPECT_TRUE(SameEquation(chain.steps[0].new_constraints[0], "C4*q2 - C2*q4", "q2, q4, C2, C4"))
      << chain.steps[0].new_constraints[0];  // q2/C2 = q4/C4: C2 and C4 in parallel
  EXPECT_TRUE(chain.configuration_dynamics_unique);
  ExpectSymbolicAndNumericAgree(chain);
  // With I1 = 1, C2 = 0.4, C3 = 1, C4 = 0.6 and q2 = 0.4 q3 initially: V = q3 (1/C3 + 1/(C2+C4))
  // = 2 q3, so q3 = 0.5 cos(sqrt 2 t); currents q1' = q3' = q2' + q4'; KVL: mu2 = q2/C2 = q3,
  // mu1 = q3/C3 + mu2 = 2 q3 (I1 v1' = -mu1).
  SimulationReport report;
  const Trajectory tr = RunScenario("lc_circuit.yaml", &report);
  const double w = std::sqrt(2.0);
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    const double q3 = 0.5 * std::cos(w * t), i = -0.5 * w * std::sin(w * t);
    auto col = [&](const char* name) { return tr.at(r, tr.ColumnIndex(name)); };
    for (double e :
         {col("q3") - q3, col("q2") - 0.4 * q3, col("q4") - 0.6 * q3, col("q1") - (q3 - 0.5),
          col("q1_dot") - i, col("q3_dot") - i, col("q2_dot") - 0.4 * i, col("q4_dot") - 0.6 * i,
          col("mu2") - q3, col("mu1") - 2 * q3})
      worst = std::max(worst, std::abs(e));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(report.max_energy_drift / report.initial_energy, 1e-8);
}

TEST(PointVortices, StopsAtTheFirstStepAndRotatesRigidly) {
  const auto system = AnalyzeFile("point_vortices.yaml");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  EXPECT_EQ(chain.steps.size(), 1u);
  EXPECT_TRUE(chain.steps[0].new_constraints.empty());
  EXPECT_TRUE(chain.symplectic_modulo_gauge);
  EXPECT_TRUE(chain.configuration_dynamics_unique);
  ExpectSymbolicAndNumericAgree(chain);
  // G1 = G2 = 1 at (+-1, 0): rigid rotation about the origin, omega = (G1+G2)/(2 pi d^2).
  const Trajectory tr = RunScenario("point_vortices.yaml");
  const double omega = 2.0 / (2.0 * M_PI * 4.0);
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0), c = std::cos(omega * t), s = std::sin(omega * t);
    worst = std::max({worst, std::abs(tr.at(r, tr.ColumnIndex("x1")) - c),
                      std::abs(tr.at(r, tr.ColumnIndex("y1")) - s),
                      std::abs(tr.at(r, tr.ColumnIndex("x2")) + c),
                      std::abs(tr.at(r, tr.ColumnIndex("y2")) + s)});
  }
  EXPECT_LT(worst, 1e-8);
}

TEST(PointVortices, UnequalCirculationsKeepCentreAndDistance) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/point_vortices.yaml"));
  ApplyOverride(s, "G1=2");
  ApplyOverride(s, "G2=-0.5");
  const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
  const double G1 = 2, G2 = -0.5, d = 2;
  const double cx = (G1 * 1 + G2 * -1) / (G1 + G2);  // centre of vorticity on the x-axis
  const double omega = (G1 + G2) / (2 * M_PI * d * d);
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    const double x1 = tr.at(r, 1), y1 = tr.at(r, 2), x2 = tr.at(r, 3), y2 = tr.at(r, 4);
    worst = std::max(worst, std::abs((G1 * x1 + G2 * x2) / (G1 + G2) - cx));
    worst = std::max(worst, std::abs(std::hypot(x1 - x2, y1 - y2) - d));
    const double angle = std::atan2(y1 - y2, x1 - x2);
    worst = std::max(worst, std::abs(std::remainder(angle - omega * t, 2 * M_PI)));
  }
  EXPECT_LT(worst, 1e-8);
}

TEST(ChargedParticle, PhaseSpaceLagrangianGivesTheLorentzMotion) {
  // The same physics two ways: Littlejohn's phase-space Lagrangian on T(TQ) through the
  // constraint algorithm vs the regular L = m|v|^2/2 + e v.A - e Phi through the index-1 DAE.
  const auto chain = AnalyzeFile("charged_particle.yaml")->chain();
  EXPECT_TRUE(chain.configuration_dynamics_unique);
  EXPECT_TRUE(chain.steps[0].new_constraints.empty());
  ExpectSymbolicAndNumericAgree(chain);
  const Trajectory phase_space = RunScenario("charged_particle.yaml");
  const Scenario regular = ParseScenario(R"yaml(
name: charged particle, regular Lagrangian
coordinates:
  - {name: x, velocity: ux, initial: 0.0, initial_velocity: 0.0}
  - {name: y, velocity: uy, initial: 0.0, initial_velocity: 1.0}
  - {name: z, velocity: uz, initial: 0.0, initial_velocity: 0.1}
parameters:
  - {name: m, default: 1.0, min: 0.1, max: 5}
  - {name: e, default: 1.0, min: -2, max: 2}
  - {name: B, default: 2.0, min: 0, max: 5}
  - {name: E0, default: 0.3, min: -1, max: 1}
lagrangian: "m*(ux^2 + uy^2 + uz^2)/2 + e*B/2*(x*uy - y*ux) + e*E0*x"
simulation: {t_end: 20, output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}
)yaml",
                                         "regular.yaml");
  const auto model = BuildModel(regular);
  EXPECT_NE(dynamic_cast<const LagrangeDiracSystem*>(model.get()), nullptr);
  const Trajectory reference = model->Simulate(SimulationInput::FromScenario(regular));
  ASSERT_EQ(reference.num_rows(), phase_space.num_rows());
  double worst = 0.0;
  for (std::size_t r = 0; r < reference.num_rows(); ++r)
    for (const char* c : {"x", "y", "z", "ux", "uy", "uz"})
      worst = std::max(worst, std::abs(reference.at(r, reference.ColumnIndex(c)) -
                                       phase_space.at(r, phase_space.ColumnIndex(c))));
  EXPECT_LT(worst, 1e-8);
}

TEST(VakonomicHeisenberg, W1IsSymplecticAndTheMotionIsACircle) {
  const auto system = AnalyzeFile("vakonomic_heisenberg.yaml");
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  EXPECT_EQ(chain.steps.size(), 2u);                     // W_0 ⊃ W_1 = W_f
  EXPECT_EQ(chain.steps[0].new_constraints.size(), 2u);  // p_a = dL~/dv^a - p_z dPsi/dv^a
  EXPECT_EQ(chain.final_dimension, 6u);                  // dim W_1 = 2n
  EXPECT_TRUE(chain.symplectic);                         // det C_ab = 1 != 0 (seed V Prop 3.3)
  EXPECT_TRUE(chain.gauge.empty());
  ExpectSymbolicAndNumericAgree(chain);
  // v(0) = (1, 0), p_z = 1/2: v' = 2 p_z J v, a circle of radius |v|/(2|p_z|) = 1 about (0, -1).
  for (double pz : {0.5, 0.25, 0.0}) {
    Scenario s = LoadScenario(testing::SourcePath("scenarios/vakonomic_heisenberg.yaml"));
    ApplyOverride(s, "p_z", pz);
    const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
    double worst = 0.0, max_y = 0.0;
    for (std::size_t r = 0; r < tr.num_rows(); ++r) {
      const double x = tr.at(r, tr.ColumnIndex("x")), y = tr.at(r, tr.ColumnIndex("y"));
      max_y = std::max(max_y, std::abs(y));
      if (pz > 0) {
        const double radius = 1.0 / (2 * pz);
        worst = std::max(worst, std::abs(std::hypot(x, y + radius) - radius));
      } else {
        worst = std::max(worst, std::abs(y));  // a straight line along x
      }
      worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("p_z")) - pz));  // conserved
    }
    EXPECT_LT(worst, 1e-8) << "p_z = " << pz;
    if (pz > 0) EXPECT_GT(max_y, 0.5 / pz) << "the circle is really traversed";
  }
}

TEST(VakonomicHeisenberg, NonholonomicMotionOfTheSameProblemIsAStraightLine) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/vakonomic_heisenberg.yaml"));
  SetFormulation(s, "lagrange_dirac");  // L degenerate in z': through the constraint algorithm
  ApplyOverride(s, "vy", 0.5);
  const auto model = BuildModel(s);
  ASSERT_NE(model->constraint_chain(), nullptr);
  const Trajectory tr = model->Simulate(SimulationInput::FromScenario(s));
  double worst = 0.0, worst_constraint = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    worst = std::max({worst, std::abs(tr.at(r, tr.ColumnIndex("x")) - t),
                      std::abs(tr.at(r, tr.ColumnIndex("y")) - 0.5 * t)});
    // z' = y x' - x y' = 0.5 t - 0.5 t = 0 along this line.
    const double g = tr.at(r, tr.ColumnIndex("z_dot")) -
                     tr.at(r, tr.ColumnIndex("y")) * tr.at(r, tr.ColumnIndex("x_dot")) +
                     tr.at(r, tr.ColumnIndex("x")) * tr.at(r, tr.ColumnIndex("y_dot"));
    worst_constraint = std::max(worst_constraint, std::abs(g));
    worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("mu"))));  // mu = 0 (free motion)
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(worst_constraint, 1e-10);
}

TEST(AnalyzeReport, JsonParsesAndTextNamesTheChain) {
  const auto system = AnalyzeFile("degenerate.yaml");
  const YAML::Node json = YAML::Load(ChainToJson(system->chain()));
  EXPECT_EQ(json["outcome"].as<std::string>(), "stabilized");
  EXPECT_EQ(json["steps"].size(), 3u);
  EXPECT_EQ(json["steps"][0]["new_constraints"][0].as<std::string>(), "v3 = 0");
  EXPECT_EQ(json["gauge"].size(), 2u);
  const std::string text = FormatChain(system->chain());
  EXPECT_NE(text.find("M_2: dim 4"), std::string::npos) << text;
  EXPECT_NE(text.find("lambda1"), std::string::npos);
}

TEST(AnalyzeReport, UnknownGaugeNameIsAScenarioError) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/degenerate.yaml"));
  s.gauge.push_back({"lambda9", "1", {3}});
  EXPECT_THROW(ConstrainedSystem::Analyze(s), ScenarioError);
}

}  // namespace
}  // namespace dirac

namespace dirac {
namespace {

TEST(SecondOrderProblem, SplineOnTheLineIsACubic) {
  // L(x, v, a) = a^2/2: on W1 (pbar = a) the motion is x'''' = 0 from the costates:
  // p' = 0, pbar' = -p, v' = pbar, x' = v.
  const Scenario s = ParseScenario(R"yaml(
name: cubic spline on R
formulation: second_order
coordinates: [{name: x, velocity: v, initial: 0.0, initial_velocity: 0.5}]
second_order: {accelerations: [a], initial: {p_v: 0.3, pbar_v: 0.2}}
lagrangian: "a^2/2"
simulation: {t_end: 4, output_step: 0.01, rtol: 1e-12, atol: 1e-12}
)yaml",
                                   "spline.yaml");
  const auto system = ConstrainedSystem::Analyze(s);
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized) << FormatChain(chain);
  EXPECT_EQ(chain.steps.front().dimension, 5u);  // (x, v, p, pbar, a)
  EXPECT_EQ(chain.final_dimension, 4u);          // W1: a = pbar
  EXPECT_TRUE(chain.symplectic);                 // det d2L/da^2 = 1
  ExpectSymbolicAndNumericAgree(chain);
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s));
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    worst = std::max(
        {worst,
         std::abs(tr.at(r, tr.ColumnIndex("x")) - (0.5 * t + 0.1 * t * t - 0.05 * t * t * t)),
         std::abs(tr.at(r, tr.ColumnIndex("a")) - (0.2 - 0.3 * t))});
  }
  EXPECT_LT(worst, 1e-9);
}

TEST(SecondOrderProblem, RigidBodySplinesOnTheLieAlgebra) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/rigid_body_spline.yaml"));
  const auto system = ConstrainedSystem::Analyze(s);
  const auto& chain = system->chain();
  ASSERT_EQ(chain.outcome, ChainOutcome::kStabilized);
  EXPECT_EQ(chain.steps.size(), 2u);     // W0 ⊃ W1 = W_f
  EXPECT_EQ(chain.final_dimension, 9u);  // (w, p, pbar)
  EXPECT_TRUE(chain.symplectic);         // det (d2L/dz dz) = det(I)^2 != 0
  ExpectSymbolicAndNumericAgree(chain);
  SimulationReport report;
  const Trajectory tr = system->Simulate(SimulationInput::FromScenario(s), {}, &report);
  EXPECT_LT(report.max_energy_drift, 1e-9) << "the Pontryagin Hamiltonian is conserved";
  // On W1 the optimal torque u = I w' + w x I w equals I^-1 pbar (pbar = dL/dz = I u).
  const double I[3] = {1.0, 2.0, 3.0};
  double worst = 0.0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    auto col = [&](const std::string& c) { return tr.at(r, tr.ColumnIndex(c)); };
    const double w[3] = {col("w1"), col("w2"), col("w3")};
    const double wd[3] = {col("w1_dot"), col("w2_dot"), col("w3_dot")};
    const double Iw[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]};
    const double u[3] = {I[0] * wd[0] + w[1] * Iw[2] - w[2] * Iw[1],
                         I[1] * wd[1] + w[2] * Iw[0] - w[0] * Iw[2],
                         I[2] * wd[2] + w[0] * Iw[1] - w[1] * Iw[0]};
    for (int a = 0; a < 3; ++a)
      worst = std::max(worst, std::abs(u[a] - col("pbar_w" + std::to_string(a + 1)) / I[a]));
  }
  EXPECT_LT(worst, 1e-10);
  // The costate obeys the Lie–Poisson equation p' = p x w, so its spatial image R p is constant:
  // an independent check of the sign of the C^C_AB p_C term of Omega_0 and of the SO(3)
  // reconstruction. R stays orthogonal to rounding.
  for (const char* c : {"spatial_momentum_x", "spatial_momentum_y", "spatial_momentum_z"}) {
    const auto v = tr.Column(c);
    EXPECT_LT(*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()), 1e-9)
        << c;
  }
  const auto orthogonality = tr.Column("orthogonality_error");
  EXPECT_LT(*std::max_element(orthogonality.begin(), orthogonality.end()), 1e-12);
  EXPECT_LT(tr.at(tr.num_rows() - 1, tr.ColumnIndex("R11")), 0.9);  // R really moved
}

TEST(AlgebroidConstraintAlgorithm, SameMotionAsTheAlgebroidDae) {
  // The prolongation T^E E through the constraint algorithm vs the index-1 algebroid DAE.
  for (const char* name : {"rigid_body.yaml", "suslov.yaml", "elroys_beanie.yaml"}) {
    Scenario s = LoadScenario(testing::SourcePath(std::string("scenarios/") + name));
    ApplyOverride(s, "t_end", 10.0);
    const Trajectory dae = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
    SetFormulation(s, "constraint_algorithm");
    const auto system = ConstrainedSystem::Analyze(s);
    ExpectSymbolicAndNumericAgree(system->chain());
    // A regular L needs no step; with the Suslov constraint the algorithm derives <A, w> = 0
    // itself (X^(1) in ker A and admissibility), as one step.
    const bool constrained = !s.constraints.empty();
    EXPECT_EQ(system->chain().steps.size(), constrained ? 2u : 1u) << FormatChain(system->chain());
    if (constrained)
      EXPECT_TRUE(SameEquation(system->chain().steps[0].new_constraints.at(0),
                               "a1*w1 + a2*w2 + a3*w3", "a1, a2, a3, w1, w2, w3, I1, I2, I3") ||
                  SameEquation(system->chain().steps[0].new_constraints.at(0),
                               "I3*(a1*w1 + a2*w2 + a3*w3)", "a1, a2, a3, w1, w2, w3, I1, I2, I3"))
          << system->chain().steps[0].new_constraints.at(0);
    const Trajectory gnh = system->Simulate(SimulationInput::FromScenario(s));
    ASSERT_EQ(dae.num_rows(), gnh.num_rows());
    double worst = 0.0;
    for (const auto& c : gnh.columns()) {
      if (c == "t" || !dae.FindColumn(c) || c.rfind("residual", 0) == 0) continue;
      for (std::size_t r = 0; r < dae.num_rows(); ++r)
        worst = std::max(worst,
                         std::abs(dae.at(r, dae.ColumnIndex(c)) - gnh.at(r, gnh.ColumnIndex(c))));
    }
    EXPECT_LT(worst, 1e-9) << name;
  }
}

}  // namespace
}  // namespace dirac
