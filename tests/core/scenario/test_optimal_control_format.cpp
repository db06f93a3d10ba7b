// The `optimal_control:` block of the scenario format: reading, errors naming file/line/symbol,
// save/reload round trip, the --set names (horizon, initial.X, final.X) and CurrentValue.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

using testing::ExpectError;
using testing::kSe2;
using testing::kSo3;
using testing::kTq;
using testing::LineOf;
using testing::Replace;

const BoundaryCondition* Find(const std::vector<BoundaryCondition>& list, const std::string& q) {
  for (const auto& bc : list)
    if (bc.quantity == q) return &bc;
  return nullptr;
}

// Row-major exp of the rotation vector a (Rodrigues).
std::vector<double> Exp(const std::array<double, 3>& a) {
  const double theta = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double s = theta < 1e-12 ? 1.0 : std::sin(theta) / theta;
  const double c = theta < 1e-6 ? 0.5 - theta * theta / 24 : (1 - std::cos(theta)) / theta / theta;
  const double K[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
  std::vector<double> R(9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double k2 = 0;
      for (int l = 0; l < 3; ++l) k2 += K[i][l] * K[l][j];
      R[3 * i + j] = (i == j ? 1.0 : 0.0) + s * K[i][j] + c * k2;
    }
  return R;
}

void ExpectSameSpec(const OptimalControlSpec& a, const OptimalControlSpec& b) {
  EXPECT_EQ(a.present, b.present);
  EXPECT_EQ(a.horizon, b.horizon);
  EXPECT_EQ(a.cost, b.cost);
  ASSERT_EQ(a.controls.size(), b.controls.size());
  for (std::size_t k = 0; k < a.controls.size(); ++k) {
    EXPECT_EQ(a.controls[k].name, b.controls[k].name);
    EXPECT_EQ(a.controls[k].acts_on, b.controls[k].acts_on);
    EXPECT_EQ(a.controls[k].unit, b.controls[k].unit);
  }
  for (const auto lists : {&OptimalControlSpec::initial, &OptimalControlSpec::final}) {
    const auto& la = a.*lists;
    const auto& lb = b.*lists;
    ASSERT_EQ(la.size(), lb.size());
    for (std::size_t k = 0; k < la.size(); ++k) {
      EXPECT_EQ(la[k].quantity, lb[k].quantity);
      EXPECT_EQ(la[k].free, lb[k].free) << la[k].quantity;
      EXPECT_EQ(la[k].value, lb[k].value) << la[k].quantity;
    }
  }
  EXPECT_EQ(a.shooting.nodes, b.shooting.nodes);
  EXPECT_EQ(a.shooting.max_iterations, b.shooting.max_iterations);
  EXPECT_EQ(a.shooting.tolerance, b.shooting.tolerance);
}

// ---- reading --------------------------------------------------------------------------------

TEST(OptimalControlFormat, ReadsTheSo3Block) {
  const Scenario s = ParseScenario(kSo3, "so3.yaml");
  const auto& oc = s.optimal_control;
  ASSERT_TRUE(oc.present);
  EXPECT_EQ(s.formulation, Formulation::kOptimalControl);  // implied by the block
  EXPECT_EQ(oc.where.line, LineOf(kSo3, "horizon:"));      // a mapping starts at its first key
  EXPECT_EQ(oc.horizon, 2.0);
  EXPECT_EQ(s.simulation.t_end, 2.0);  // the horizon is the one T
  ASSERT_EQ(oc.controls.size(), 3u);
  EXPECT_EQ(oc.controls[1].name, "u2");
  EXPECT_EQ(oc.controls[1].acts_on, "w2");
  EXPECT_EQ(oc.controls[1].where.line, LineOf(kSo3, "{name: u2"));
  EXPECT_EQ(oc.cost, "(u1^2 + u2^2 + u3^2)/2");
  EXPECT_EQ(oc.cost_where.line, LineOf(kSo3, "cost:"));
  ASSERT_EQ(oc.initial.size(), 2u);
  EXPECT_EQ(oc.initial[1].quantity, "R.x");
  EXPECT_FALSE(oc.initial[1].free);
  EXPECT_EQ(oc.initial[1].where.line, LineOf(kSo3, "initial: {w1"));
  ASSERT_EQ(oc.final.size(), 5u);
  EXPECT_EQ(oc.final[0].quantity, "w1");
  EXPECT_EQ(oc.final[1].quantity, "w2");
  EXPECT_TRUE(oc.final[1].free);
  EXPECT_EQ(oc.final[2].quantity, "R.x");
  EXPECT_EQ(oc.final[2].value, 1.2);
  EXPECT_EQ(oc.final[4].quantity, "R.z");
  EXPECT_EQ(oc.final[4].value, 0.0);
  EXPECT_EQ(oc.shooting.nodes, 4);
  EXPECT_EQ(oc.shooting.max_iterations, 40);
  EXPECT_EQ(oc.shooting.tolerance, 1e-10);
  EXPECT_EQ(s.plots[0].series[0], "u1");  // a control is a trajectory column
}

TEST(OptimalControlFormat, ReadsTheSe2AlgebroidBlockAndDefaults) {
  const Scenario s = ParseScenario(kSe2, "se2.yaml");
  const auto& oc = s.optimal_control;
  ASSERT_TRUE(oc.present);
  EXPECT_EQ(s.formulation, Formulation::kOptimalControl);
  EXPECT_EQ(s.simulation.t_end, 3.0);
  ASSERT_EQ(oc.controls.size(), 1u);
  EXPECT_EQ(oc.controls[0].acts_on, "v1");
  EXPECT_EQ(oc.initial.size(), 4u);
  ASSERT_EQ(oc.final.size(), 4u);
  EXPECT_EQ(oc.final[0].quantity, "psi");
  EXPECT_TRUE(oc.final[2].free);
  EXPECT_EQ(oc.final[3].quantity, "theta");
  EXPECT_EQ(oc.final[3].value, 0.5);
  // No shooting key: the defaults.
  EXPECT_EQ(oc.shooting.nodes, 0);
  EXPECT_EQ(oc.shooting.max_iterations, 40);
  EXPECT_EQ(oc.shooting.tolerance, 1e-10);

  const Scenario tq = ParseScenario(kTq, "tq.yaml");
  EXPECT_EQ(tq.optimal_control.controls[0].acts_on, "vx");
  EXPECT_TRUE(tq.optimal_control.initial.empty());
  EXPECT_EQ(tq.simulation.t_end, 1.0);
}

TEST(OptimalControlFormat, ShippedScenariosWithoutTheBlockAreUnchanged) {
  for (const char* file : {"scenarios/rigid_body_spline.yaml", "scenarios/elroys_beanie.yaml",
                           "scenarios/heisenberg.yaml"}) {
    const Scenario s = LoadScenario(testing::SourcePath(file));
    EXPECT_FALSE(s.optimal_control.present) << file;
    EXPECT_NE(s.formulation, Formulation::kOptimalControl) << file;
  }
}

// ---- errors ---------------------------------------------------------------------------------

TEST(OptimalControlFormat, UnknownKeys) {
  ExpectError(Replace(kSo3, "  horizon: 2.0\n", "  horizon: 2.0\n  bogus: 1\n"), "bogus", "bogus");
  ExpectError(Replace(kSo3, "{name: u2, acts_on: w2}", "{name: u2, acts_on: w2, gain: 2}"), "gain",
              "gain");
  ExpectError(Replace(kSo3, "nodes: 4,", "steps: 4,"), "steps", "steps");
}

TEST(OptimalControlFormat, Horizon) {
  ExpectError(Replace(kSo3, "  horizon: 2.0\n", ""), "horizon", "controls:");
  ExpectError(Replace(kSo3, "horizon: 2.0", "horizon: 0"), "horizon", "horizon:");
  ExpectError(Replace(kSo3, "horizon: 2.0", "horizon: -1"), "horizon", "horizon:");
  ExpectError(Replace(kSo3, "horizon: 2.0", "horizon: inf"), "horizon", "horizon:");
  ExpectError(Replace(kSo3, "horizon: 2.0", "horizon: long"), "horizon", "horizon:");
  // More samples than a run may have: the setting at fault, at the horizon.
  ExpectError(Replace(kSo3, "horizon: 2.0", "horizon: 1e6"), "output_step", "horizon:");
  // simulation.t_end must agree with the horizon (or be omitted).
  ExpectError(Replace(kSo3, "simulation: {output_step", "simulation: {t_end: 5, output_step"),
              "t_end", "simulation:");
  EXPECT_EQ(ParseScenario(Replace(kSo3, "simulation: {", "simulation: {t_end: 2, "), "c.yaml")
                .simulation.t_end,
            2.0);
}

TEST(OptimalControlFormat, Controls) {
  const std::string three =
      "    - {name: u1, acts_on: w1}\n    - {name: u2, acts_on: w2}\n"
      "    - {name: u3, acts_on: w3}\n";
  const std::string no_controls = Replace(kSo3, three, "");
  ExpectError(Replace(no_controls, "  controls:\n", ""), "controls", "horizon:");
  ExpectError(Replace(no_controls, "  controls:\n", "  controls: []\n"), "controls", "controls:");
  const std::string one = Replace(Replace(kSo3, three, "    - {name: u1, acts_on: w1}\n"),
                                  "(u1^2 + u2^2 + u3^2)/2", "u1^2/2");
  EXPECT_NO_THROW(ParseScenario(Replace(one, "u2, u3", "w2"), "one.yaml"));
  auto control = [&](const std::string& name, const std::string& acts_on) {
    return Replace(kSo3, "{name: u3, acts_on: w3}",
                   "{name: " + name + ", acts_on: " + acts_on + "}");
  };
  ExpectError(control("2u", "w3"), "2u", "{name: 2u");               // not an identifier
  ExpectError(control("sin", "w3"), "sin", "{name: sin");            // reserved
  ExpectError(control("t", "w3"), "t", "{name: t,");                 // reserved
  ExpectError(control("I1", "w3"), "I1", "{name: I1, acts_on");      // a parameter
  ExpectError(control("w2", "w3"), "w2", "{name: w2, acts_on");      // a fibre coordinate
  ExpectError(control("R", "w3"), "R", "{name: R,");                 // the reconstruction prefix
  ExpectError(control("u1", "w3"), "u1", "{name: u1, acts_on: w3");  // another control
  ExpectError(control("u3", "v9"), "v9", "{name: u3");               // names no fibre coordinate
  ExpectError(control("u3", "w1"), "w1", "{name: u3");               // same direction as u1
  // On TQ, acts_on names a velocity, not a coordinate.
  ExpectError(Replace(kTq, "acts_on: vx", "acts_on: x"), "x", "controls:");
  // Momenta and accelerations are symbols of the scenario too.
  ExpectError(Replace(kTq, "{name: u, acts_on", "{name: p_x, acts_on"), "p_x", "controls:");
}

TEST(OptimalControlFormat, ControlUnit) {
  // An optional display unit (axis titles, the bounds in the window); kept by Save.
  const std::string text =
      Replace(kSo3, "{name: u1, acts_on: w1}", "{name: u1, acts_on: w1, unit: N m}");
  const Scenario s = ParseScenario(text, "so3.yaml");
  EXPECT_EQ(s.optimal_control.controls[0].unit, "N m");
  EXPECT_EQ(s.optimal_control.controls[1].unit, "");
  const Scenario back = ParseScenario(SaveScenarioToString(s), "back.yaml");
  EXPECT_EQ(back.optimal_control.controls[0].unit, "N m");
  EXPECT_EQ(back.optimal_control.controls[1].unit, "");
}

TEST(OptimalControlFormat, Cost) {
  ExpectError(Replace(kSo3, "  cost: \"(u1^2 + u2^2 + u3^2)/2\"\n", ""), "cost", "horizon:");
  ExpectError(Replace(kSo3, "(u1^2 + u2^2 + u3^2)/2", "(u1^2 + u2^2 + u3^2"), "cost", "cost:");
  ExpectError(Replace(kSo3, "(u1^2 + u2^2 + u3^2)/2", "(u1^2 + u2^2 + u3^2)/2 + k*w1"), "k",
              "cost:");
  // The cost sees t, q, y, u and parameters, not momenta or reconstruction columns.
  EXPECT_NO_THROW(ParseScenario(Replace(kTq, "\"u^2/2\"", "\"u^2/2 + x*vx*t\""), "tq.yaml"));
  ExpectError(Replace(kTq, "\"u^2/2\"", "\"u^2/2 + p_x\""), "p_x", "cost:");
  ExpectError(Replace(kSe2, "u^2/2 + k*psi^2*t", "u^2/2 + theta"), "theta", "cost:");
  // The controls belong to the cost only.
  ExpectError(Replace(kSo3, "I3*w3^2)/2\"", "I3*w3^2)/2 + u1\""), "u1", "lagrangian:");
}

TEST(OptimalControlFormat, BoundaryConditions) {
  ExpectError(Replace(kSo3, "R.x: 1.2", "R.w: 1.2"), "R.w", "final:");
  ExpectError(Replace(kSo3, "R.x: 1.2", "R: 1.2"), "R", "final:");
  ExpectError(Replace(kSo3, "R.x: 1.2", "Q.x: 1.2"), "Q.x", "final:");
  ExpectError(Replace(kSo3, "R.x: 1.2", "u1: 1.2"), "u1", "final:");  // a control is no state
  ExpectError(Replace(kSo3, "{w1: 0.0, R.x: 0.0}", "{w1: 0.0, R11: 0.0}"), "R11", "initial: {");
  ExpectError(Replace(kSo3, "{w1: 0.0, R.x: 0.0}", "{w1: 0.0, w1: 1.0}"), "w1", "initial: {");
  ExpectError(Replace(kSo3, "w2: free", "w2: Free"), "w2", "final:");  // case-sensitive
  ExpectError(Replace(kSo3, "w2: free", "w2: fast"), "w2", "final:");
  ExpectError(Replace(kSo3, "w2: free", "w2: [1, 2]"), "w2", "final:");
  ExpectError(Replace(kSo3, "final: {w1: 0.0, w2: free, R.x: 1.2, R.y: 0, R.z: 0}", "final: [w1]"),
              "final", "final:");
  // SE2: the reconstruction's names; the TQ velocity, not a fibre coordinate.
  ExpectError(Replace(kSe2, "x: free", "gx: free"), "gx", "final:");
  ExpectError(Replace(kSe2, "x: free", "R.x: free"), "R.x", "final:");
  ExpectError(Replace(kTq, "{x: 1, vx: 0}", "{x: 1, v1: 0}"), "v1", "final:");
  ExpectError(Replace(kTq, "{x: 1, vx: 0}", "{x: 1, p_x: 0}"), "p_x", "final:");
}

TEST(OptimalControlFormat, Shooting) {
  ExpectError(Replace(kSo3, "nodes: 4", "nodes: 2.5"), "nodes", "shooting:");
  ExpectError(Replace(kSo3, "nodes: 4", "nodes: -1"), "nodes", "shooting:");
  ExpectError(Replace(kSo3, "max_iterations: 40", "max_iterations: 0"), "max_iterations",
              "shooting:");
  ExpectError(Replace(kSo3, "tolerance: 1e-10", "tolerance: 0"), "tolerance", "shooting:");
  EXPECT_EQ(
      ParseScenario(Replace(kSo3, "nodes: 4", "nodes: 1"), "c.yaml").optimal_control.shooting.nodes,
      1);
}

TEST(OptimalControlFormat, FormulationAndOneProblemPerFile) {
  ExpectError(Replace(kSe2, "formulation: optimal_control", "formulation: vakonomic"), "vakonomic",
              "formulation:");
  ExpectError(Replace(kSe2, "formulation: optimal_control", "formulation: second_order"),
              "second_order", "formulation:");
  EXPECT_EQ(
      ParseScenario(Replace(kSe2, "formulation: optimal_control", "formulation: auto"), "c.yaml")
          .formulation,
      Formulation::kOptimalControl);
  // optimal_control without the block.
  const std::string plain = R"yaml(name: n
coordinates: [{name: x}]
lagrangian: "vx^2/2"
formulation: optimal_control
)yaml";
  ExpectError(plain, "optimal_control", "formulation:");
  // One problem per file.
  ExpectError(kTq + "boundary_value: {unknowns: [vx], targets: {x: 1}}\n", "boundary_value",
              "boundary_value:");
}

// ---- writing --------------------------------------------------------------------------------

TEST(OptimalControlFormat, SaveAndReloadGivesTheSameSpec) {
  for (const std::string* text : {&kSo3, &kSe2, &kTq}) {
    Scenario s = ParseScenario(*text, "case.yaml");
    const std::string saved = SaveScenarioToString(s);
    const Scenario back = ParseScenario(saved, "back.yaml");
    SCOPED_TRACE(saved);
    ExpectSameSpec(back.optimal_control, s.optimal_control);
    EXPECT_EQ(back.formulation, Formulation::kOptimalControl);
    EXPECT_EQ(back.simulation.t_end, s.optimal_control.horizon);
    // After overrides (values needing all 17 digits, a free end made fixed, new quantities).
    ApplyOverride(s, "horizon", 2.0 / 3.0);
    ApplyOverride(s, "final." + s.optimal_control.final[0].quantity, 0.1 + 0.2);
    ApplyOverride(s, "initial." + s.optimal_control.controls[0].acts_on, -1.0 / 7.0);
    s.optimal_control.shooting = {7, 12, 1e-11};
    const Scenario again = ParseScenario(SaveScenarioToString(s), "again.yaml");
    ExpectSameSpec(again.optimal_control, s.optimal_control);
    EXPECT_EQ(again.simulation.t_end, 2.0 / 3.0);
    // A spec built in memory with the formulation left at auto and t_end not matching.
    Scenario memory = s;
    memory.formulation = Formulation::kAuto;
    memory.simulation.t_end = 99;
    memory.optimal_control.horizon = 1.5;
    const Scenario from_memory = ParseScenario(SaveScenarioToString(memory), "memory.yaml");
    ExpectSameSpec(from_memory.optimal_control, memory.optimal_control);
    EXPECT_EQ(from_memory.simulation.t_end, 1.5);
  }
}

TEST(OptimalControlFormat, WritesFreeEndsAsFree) {
  const std::string saved = SaveScenarioToString(ParseScenario(kSo3, "so3.yaml"));
  EXPECT_NE(saved.find("w2: free"), std::string::npos) << saved;
  EXPECT_NE(saved.find("formulation: optimal_control"), std::string::npos) << saved;
}

// ---- --set and CurrentValue -----------------------------------------------------------------

TEST(OptimalControlFormat, HorizonOverrideSetsTheOneT) {
  Scenario s = ParseScenario(kSo3, "so3.yaml");
  EXPECT_EQ(CurrentValue(s, "horizon"), 2.0);
  ApplyOverride(s, "horizon=3.5");
  EXPECT_EQ(s.optimal_control.horizon, 3.5);
  EXPECT_EQ(s.simulation.t_end, 3.5);
  EXPECT_EQ(CurrentValue(s, "horizon"), 3.5);
  for (const double bad : {0.0, -1.0, 1e6}) {  // 1e6: too many samples at output_step 0.01
    try {
      ApplyOverride(s, "horizon", bad);
      ADD_FAILURE() << bad;
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.symbol(), "horizon");
    }
    EXPECT_EQ(s.optimal_control.horizon, 3.5);
    EXPECT_EQ(s.simulation.t_end, 3.5);
  }
  EXPECT_THROW(ApplyOverride(s, "horizon=soon"), ScenarioError);
  // t_end is the same T.
  ApplyOverride(s, "t_end", 1.25);
  EXPECT_EQ(s.optimal_control.horizon, 1.25);
  // Without the block there is no horizon.
  Scenario plain = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  EXPECT_EQ(CurrentValue(plain, "horizon"), std::nullopt);
  EXPECT_THROW(ApplyOverride(plain, "horizon", 1.0), ScenarioError);
  EXPECT_THROW(ApplyOverride(plain, "initial.x", 1.0), ScenarioError);
  EXPECT_EQ(CurrentValue(plain, "initial.x"), std::nullopt);
}

TEST(OptimalControlFormat, BoundaryOverridesSetAndFix) {
  Scenario s = ParseScenario(kSo3, "so3.yaml");
  ApplyOverride(s, "initial.w1=0.4");  // listed
  EXPECT_EQ(Find(s.optimal_control.initial, "w1")->value, 0.4);
  EXPECT_EQ(s.optimal_control.initial.size(), 2u);
  ApplyOverride(s, "final.w2=0.7");  // free becomes fixed
  EXPECT_FALSE(Find(s.optimal_control.final, "w2")->free);
  EXPECT_EQ(CurrentValue(s, "final.w2"), 0.7);
  ApplyOverride(s, "initial.R.y=-0.3");  // not listed: added
  ASSERT_NE(Find(s.optimal_control.initial, "R.y"), nullptr);
  EXPECT_EQ(CurrentValue(s, "initial.R.y"), -0.3);
  ApplyOverride(s, "final.w3", 0.05);
  EXPECT_EQ(CurrentValue(s, "final.w3"), 0.05);
  for (const char* bad : {"initial.R.q", "final.bogus", "final.R", "initial.u1", "final.I1",
                          "middle.w1", "initial."}) {
    try {
      ApplyOverride(s, bad, 1.0);
      ADD_FAILURE() << bad;
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.symbol(), bad);
    }
    EXPECT_EQ(CurrentValue(s, bad), std::nullopt) << bad;
  }
  EXPECT_EQ(s.optimal_control.initial.size(), 3u);
  EXPECT_EQ(s.optimal_control.final.size(), 6u);
  EXPECT_THROW(ApplyOverride(s, "final.w1=quick"), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "final.w1", std::nan("")), ScenarioError);
}

TEST(OptimalControlFormat, CurrentValueOfBoundaryNames) {
  Scenario s = ParseScenario(kSo3, "so3.yaml");
  EXPECT_EQ(CurrentValue(s, "initial.w1"), 0.0);   // listed
  EXPECT_EQ(CurrentValue(s, "initial.w3"), 0.2);   // not listed: the scenario's initial value
  EXPECT_EQ(CurrentValue(s, "initial.R.z"), 0.0);  // no reconstruction.initial: identity
  EXPECT_EQ(CurrentValue(s, "final.R.x"), 1.2);
  EXPECT_EQ(CurrentValue(s, "final.w2"), std::nullopt);  // free
  EXPECT_EQ(CurrentValue(s, "final.w3"), std::nullopt);  // not listed: free
  EXPECT_EQ(CurrentValue(s, "final.R.q"), std::nullopt);
  s.optimal_control.initial[1].free = true;  // initial.R.x free
  EXPECT_EQ(CurrentValue(s, "initial.R.x"), std::nullopt);

  const Scenario se2 = ParseScenario(kSe2, "se2.yaml");
  EXPECT_EQ(CurrentValue(se2, "initial.psi"), 0.25);
  EXPECT_EQ(CurrentValue(se2, "initial.v2"), 0.0);  // listed 0, the file's initial is 0.4
  EXPECT_EQ(CurrentValue(se2, "initial.x"), 0.5);
  EXPECT_EQ(CurrentValue(se2, "initial.y"), -0.25);
  EXPECT_EQ(CurrentValue(se2, "initial.theta"), 0.125);
  EXPECT_EQ(CurrentValue(se2, "final.theta"), 0.5);
  EXPECT_EQ(CurrentValue(se2, "final.x"), std::nullopt);
  EXPECT_EQ(CurrentValue(se2, "final.y"), std::nullopt);

  const Scenario tq = ParseScenario(kTq, "tq.yaml");
  EXPECT_EQ(CurrentValue(tq, "initial.x"), 0.5);
  EXPECT_EQ(CurrentValue(tq, "initial.vx"), -1.5);
  EXPECT_EQ(CurrentValue(tq, "final.vx"), 0.0);
}

// The SO3 initial value is log R of reconstruction.initial, also near angles 0 and pi.
TEST(OptimalControlFormat, InitialRotationVectorIsTheLogOfTheInitialAttitude) {
  Scenario s = ParseScenario(kSo3, "so3.yaml");
  s.optimal_control.initial.clear();  // every quantity from the scenario's initial values
  const double pi = std::acos(-1.0);
  const double n[3] = {2.0 / 7, -3.0 / 7, 6.0 / 7};  // a unit axis
  const std::vector<std::array<double, 3>> cases = {
      {0.3, -0.2, 0.5},
      {1e-9, 2e-9, -1e-9},
      {1e-5, 0, -2e-5},
      {0, 0, 1.5707963},
      {1.2, 1.1, -1.4},
      {n[0] * 2.5, n[1] * 2.5, n[2] * 2.5},
      {n[0] * (pi - 1e-7), n[1] * (pi - 1e-7), n[2] * (pi - 1e-7)},
      {0, 0, pi - 1e-12},
      {0, -(pi - 1e-9), 0}};
  for (const auto& a : cases) {
    s.reconstruction.initial = Exp(a);
    for (std::size_t k = 0; k < 3; ++k) {
      const auto value = CurrentValue(s, std::string("initial.R.") + "xyz"[k]);
      ASSERT_TRUE(value.has_value());
      EXPECT_NEAR(*value, a[k], 1e-12) << a[0] << " " << a[1] << " " << a[2];
    }
  }
  // At angle pi exactly both signs of the axis are the same rotation.
  s.reconstruction.initial = Exp({n[0] * pi, n[1] * pi, n[2] * pi});
  const double sign = *CurrentValue(s, "initial.R.z") < 0 ? -1.0 : 1.0;
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_NEAR(*CurrentValue(s, std::string("initial.R.") + "xyz"[k]), sign * n[k] * pi, 1e-12);
}

TEST(OptimalControlFormat, SetFormulationFollowsTheBlock) {
  Scenario s = ParseScenario(kSo3, "so3.yaml");
  SetFormulation(s, "auto");
  EXPECT_EQ(s.formulation, Formulation::kOptimalControl);
  SetFormulation(s, "lagrange_dirac");  // e.g. `dirac run --formulation lagrange_dirac`
  EXPECT_EQ(s.formulation, Formulation::kLagrangeDirac);
  SetFormulation(s, "optimal_control");
  EXPECT_EQ(s.formulation, Formulation::kOptimalControl);
  Scenario plain = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  try {
    SetFormulation(plain, "optimal_control");
    ADD_FAILURE();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.symbol(), "optimal_control");
  }
  EXPECT_EQ(plain.formulation, Formulation::kAuto);
}

}  // namespace
}  // namespace dirac
