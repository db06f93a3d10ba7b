// Models written with bodies, frames, points, rolling wheels and definitions
// (docs/scenario-format.md, "Bodies"): against the same systems written as hand-written
// Lagrangians, the refusals of bad models, derived parameters and the save/reload round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "canonical_problems.hpp"
#include "dirac/body_poses.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "scenario/scenario_symbols.hpp"

namespace dirac {
namespace {

using testing::SourcePath;

Trajectory RunOf(const Scenario& s) {
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
}

// The largest difference of the columns both trajectories have (same sample times).
double LargestDifference(const Trajectory& a, const Trajectory& b,
                         const std::vector<std::string>& columns) {
  EXPECT_EQ(a.num_rows(), b.num_rows());
  double worst = 0.0;
  for (const auto& name : columns) {
    const auto ca = a.Column(name), cb = b.Column(name);
    for (std::size_t r = 0; r < std::min(ca.size(), cb.size()); ++r)
      worst = std::max(worst, std::abs(ca[r] - cb[r]));
  }
  return worst;
}

TEST(Bodies, RollingDiskAgreesWithItsHandWrittenLagrangian) {
  const Scenario bodies = LoadScenario(SourcePath("scenarios/rolling_disk.yaml"));
  const Scenario hand =
      LoadScenario(SourcePath("tests/reference/scenarios/rolling_disk_lagrangian.yaml"));
  EXPECT_TRUE(bodies.holonomic.empty()) << "the contact height holds by construction";
  ASSERT_EQ(bodies.constraints.size(), 2u);
  EXPECT_EQ(bodies.constraints[0].multiplier, "Fx");
  const double worst = LargestDifference(
      RunOf(bodies), RunOf(hand),
      {"x", "y", "theta", "alpha", "phi", "vx", "vy", "vtheta", "valpha", "vphi", "Fx", "Fy", "E"});
  EXPECT_LT(worst, 1e-10);
}

TEST(Bodies, ChaplyginSleighAgreesWithItsHandWrittenLagrangian) {
  const Scenario bodies = LoadScenario(SourcePath("scenarios/chaplygin_sleigh.yaml"));
  const Scenario hand =
      LoadScenario(SourcePath("tests/reference/scenarios/chaplygin_sleigh_lagrangian.yaml"));
  const double worst = LargestDifference(RunOf(bodies), RunOf(hand),
                                         {"x", "y", "theta", "vx", "vy", "vtheta", "lam", "E"});
  EXPECT_LT(worst, 1e-10);
}

// The expression the engine generates for `name` and a hand-written text in the same symbols.
std::pair<GiNaC::ex, GiNaC::ex> GeneratedAndWritten(const scenario::ScenarioSymbols& symbols,
                                                    const std::string& name,
                                                    const std::string& written) {
  GiNaC::ex generated;
  for (const auto& [n, value] : symbols.definition_values())
    if (n == name) generated = value;
  return {generated, symbols.Parse(written, 1, name)};
}

// The chains leave cos^2 + sin^2 and the root of the contact's cos(alpha)^2 in what they build;
// reduced (symbolic/trig_reduce.hpp), the disk's no-slip forms are exactly the hand-written ones,
// its contact height is zero and its spin angle is gone from its energy, as in the hand-written
// Lagrangian (which makes its gauge two-form take seconds, not minutes).
TEST(Bodies, TheRollingDiskGeneratesTheHandWrittenFormsExactly) {
  const Scenario s = LoadScenario(SourcePath("scenarios/rolling_disk.yaml"));
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kTangent});
  for (const auto& [name, written] :
       std::vector<std::pair<std::string, std::string>>{{"roll_x", "vx - R*cos(theta)*vphi"},
                                                        {"roll_y", "vy - R*sin(theta)*vphi"},
                                                        {"roll_contact", "0"}}) {
    const auto [generated, hand] = GeneratedAndWritten(symbols, name, written);
    EXPECT_TRUE((generated - hand).expand().is_zero()) << name << " = " << generated;
  }
  const auto [T, hand] = GeneratedAndWritten(
      symbols, "T_disk",
      "m*((vx + R*(cos(alpha)*sin(theta)*valpha + sin(alpha)*cos(theta)*vtheta))^2"
      " + (vy + R*(sin(alpha)*sin(theta)*vtheta - cos(alpha)*cos(theta)*valpha))^2"
      " + R^2*sin(alpha)^2*valpha^2)/2"
      " + Id*(valpha^2 + cos(alpha)^2*vtheta^2)/2 + Ja*(vphi + sin(alpha)*vtheta)^2/2");
  EXPECT_FALSE(T.has(symbols.table().at("phi"))) << T;
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    GiNaC::exmap at;
    for (const auto& [name, value] : symbols.table())
      if (GiNaC::is_a<GiNaC::symbol>(value)) at[value] = uniform(random);
    const double difference = GiNaC::ex_to<GiNaC::numeric>((T - hand).subs(at).evalf()).to_double();
    EXPECT_LT(std::abs(difference), 1e-14);
  }
}

TEST(Bodies, TheSleighGeneratesTheHandWrittenKnifeEdgeExactly) {
  const Scenario s = LoadScenario(SourcePath("scenarios/chaplygin_sleigh.yaml"));
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kTangent});
  const auto [generated, hand] =
      GeneratedAndWritten(symbols, "knife_edge", "-sin(theta)*vx + cos(theta)*vy - a*vtheta");
  EXPECT_TRUE(generated.is_equal(hand.expand())) << generated;
}

// A 3D double pendulum of two rods, each turned by a about x then b about y (absolute angles),
// hanging from O; written with bodies and by hand (positions and velocities written out).
const char* kPendulumCommon = R"(
coordinates:
  - {name: a1, velocity: va1, initial: 0.4, initial_velocity: 0.3}
  - {name: b1, velocity: vb1, initial: -0.2, initial_velocity: 0.5}
  - {name: a2, velocity: va2, initial: 0.9, initial_velocity: -0.4}
  - {name: b2, velocity: vb2, initial: 0.3, initial_velocity: 0.2}
parameters:
  - {name: m1, default: 1.0}
  - {name: m2, default: 0.7}
  - {name: l1, default: 1.0}
  - {name: l2, default: 0.8}
  - {name: I1, default: "m1*l1^2/12"}
  - {name: I2, default: "m2*l2^2/12"}
  - {name: g, default: 9.81, max: 20}
simulation: {t_end: 3, output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}
)";

const char* kPendulumBodies = R"(
name: double pendulum (bodies)
frames:
  - {name: F1, rotations: [{axis: x, angle: a1}, {axis: y, angle: b1}]}
  - {name: F2, rotations: [{axis: x, angle: a2}, {axis: y, angle: b2}]}
points:
  - {name: c1, parent: O, frame: F1, offset: [0, 0, -l1/2]}
  - {name: joint, parent: c1, frame: F1, offset: [0, 0, -l1/2]}
  - {name: c2, parent: joint, frame: F2, offset: [0, 0, -l2/2]}
bodies:
  - {name: rod1, mass: m1, point: c1, frame: F1, inertia: {xx: I1, yy: I1}}
  - {name: rod2, mass: m2, point: c2, frame: F2, inertia: [[I2, 0, 0], [0, I2, 0], [0, 0, 0]]}
gravity: [0, 0, -g]
)";

// d = -(sin b, -sin a cos b, cos a cos b) (the rod's direction), its rate, the body rate
// (a' cos b, b', a' sin b) with inertia diag(I, I, 0).
const char* kPendulumHand = R"(
name: double pendulum (hand)
definitions:
  - {name: dx1, value: "-cos(b1)*vb1"}
  - {name: dy1, value: "cos(a1)*cos(b1)*va1 - sin(a1)*sin(b1)*vb1"}
  - {name: dz1, value: "sin(a1)*cos(b1)*va1 + cos(a1)*sin(b1)*vb1"}
  - {name: dx2, value: "-cos(b2)*vb2"}
  - {name: dy2, value: "cos(a2)*cos(b2)*va2 - sin(a2)*sin(b2)*vb2"}
  - {name: dz2, value: "sin(a2)*cos(b2)*va2 + cos(a2)*sin(b2)*vb2"}
lagrangian: >-
  m1*l1^2/8*(dx1^2 + dy1^2 + dz1^2) + I1/2*(va1^2*cos(b1)^2 + vb1^2)
  + m2/2*((l1*dx1 + l2/2*dx2)^2 + (l1*dy1 + l2/2*dy2)^2 + (l1*dz1 + l2/2*dz2)^2)
  + I2/2*(va2^2*cos(b2)^2 + vb2^2)
  + m1*g*l1/2*cos(a1)*cos(b1) + m2*g*(l1*cos(a1)*cos(b1) + l2/2*cos(a2)*cos(b2))
)";

TEST(Bodies, DoublePendulum3DAgreesWithItsHandWrittenLagrangian) {
  const Scenario bodies =
      ParseScenario(std::string(kPendulumBodies) + kPendulumCommon, "bodies.yaml");
  const Scenario hand = ParseScenario(std::string(kPendulumHand) + kPendulumCommon, "hand.yaml");
  EXPECT_NEAR(bodies.parameters[4].value, 1.0 / 12, 1e-15) << "a derived parameter";
  const Trajectory a = RunOf(bodies), b = RunOf(hand);
  const double worst =
      LargestDifference(a, b, {"a1", "b1", "a2", "b2", "va1", "vb1", "va2", "vb2", "E"});
  EXPECT_LT(worst, 1e-10);
  // The motion is not trivial: the second rod swings through more than a radian.
  const auto a2 = a.Column("a2");
  EXPECT_GT(*std::max_element(a2.begin(), a2.end()) - *std::min_element(a2.begin(), a2.end()), 1.0);
}

TEST(Bodies, BodyPosesOfThePendulum) {
  const Scenario s = ParseScenario(std::string(kPendulumBodies) + kPendulumCommon, "bodies.yaml");
  const BodyPoses poses = InitialBodyPoses(s);
  ASSERT_EQ(poses.bodies.size(), 2u);
  const double a = 0.4, b = -0.2, l1 = 1.0;
  // c1 = l1/2 (-sin b, sin a cos b, -cos a cos b); the rotation's third column is (sin b,
  // -sin a cos b, cos a cos b).
  EXPECT_NEAR(poses.bodies[0].position[0], -l1 / 2 * std::sin(b), 1e-15);
  EXPECT_NEAR(poses.bodies[0].position[1], l1 / 2 * std::sin(a) * std::cos(b), 1e-15);
  EXPECT_NEAR(poses.bodies[0].position[2], -l1 / 2 * std::cos(a) * std::cos(b), 1e-15);
  EXPECT_NEAR(poses.bodies[0].rotation[2], std::sin(b), 1e-15);
  EXPECT_NEAR(poses.bodies[0].rotation[5], -std::sin(a) * std::cos(b), 1e-15);
  EXPECT_NEAR(poses.bodies[0].rotation[8], std::cos(a) * std::cos(b), 1e-15);
  EXPECT_NEAR(poses.bodies[1].inertia[2], 0.7 * 0.64 / 12, 1e-15);
}

TEST(Bodies, RollingDiskContactPointIsOnTheGroundUnderTheCentre) {
  const Scenario s = LoadScenario(SourcePath("scenarios/rolling_disk.yaml"));
  const BodyPoses poses = InitialBodyPoses(s);
  ASSERT_EQ(poses.contacts.size(), 1u);
  EXPECT_NEAR(poses.contacts[0].point[0], 0.0, 1e-15);
  EXPECT_NEAR(poses.contacts[0].point[1], 0.0, 1e-15);
  EXPECT_NEAR(poses.contacts[0].point[2], 0.0, 1e-15);
  EXPECT_NEAR(poses.bodies[0].position[2], 0.3 * std::cos(0.3), 1e-15);
}

TEST(Bodies, DerivedParametersFollowTheirParametersUntilSet) {
  Scenario s = ParseScenario(std::string(kPendulumBodies) + kPendulumCommon, "bodies.yaml");
  ApplyOverride(s, "m1=3");
  EXPECT_NEAR(s.parameters[4].value, 3.0 / 12, 1e-15);
  ApplyOverride(s, "I1=0.5");
  ApplyOverride(s, "m1=6");
  EXPECT_EQ(s.parameters[4].value, 0.5) << "set by hand: no longer derived";
  EXPECT_NEAR(s.parameters[5].value, 0.7 * 0.64 / 12, 1e-15);
  // Save and reload: the derived one keeps its expression, the set one its number.
  const Scenario back = ParseScenario(SaveScenarioToString(s), "roundtrip.yaml");
  EXPECT_EQ(back.parameters[4].value, 0.5);
  EXPECT_EQ(back.parameters[5].default_expression, "m2*l2^2/12");
  EXPECT_EQ(SaveScenarioToString(back), SaveScenarioToString(s));
}

TEST(Bodies, SaveAndReloadGivesTheSameProblem) {
  for (const char* file : {"scenarios/rolling_disk.yaml", "scenarios/chaplygin_sleigh.yaml"}) {
    const Scenario s = LoadScenario(SourcePath(file));
    const Scenario back = ParseScenario(SaveScenarioToString(s), "roundtrip.yaml");
    EXPECT_EQ(SaveScenarioToString(back), SaveScenarioToString(s)) << file;
    EXPECT_EQ(back.lagrangian, s.lagrangian) << file;
    ASSERT_EQ(back.constraints.size(), s.constraints.size()) << file;
    // The same problem: the same motion to rounding (a second derivation in one process orders
    // GiNaC's sums by fresh symbols, so the tapes' operations may come in another order).
    EXPECT_LT(LargestDifference(RunOf(s), RunOf(back), {"x", "y", "theta", "vx", "vy", "E"}), 1e-10)
        << file;
  }
  const Scenario hand = ParseScenario(std::string(kPendulumHand) + kPendulumCommon, "hand.yaml");
  const Scenario back = ParseScenario(SaveScenarioToString(hand), "roundtrip.yaml");
  ASSERT_EQ(back.definitions.size(), 6u);
  EXPECT_EQ(back.definitions[2].value, hand.definitions[2].value);
}

// Each refusal names the file, the line and the key; nothing is read past it.
void ExpectRefused(const std::string& text, std::size_t line, const std::string& key,
                   const std::string& words) {
  try {
    ParseScenario(text, "model.yaml");
    ADD_FAILURE() << "accepted: " << words;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), "model.yaml") << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.symbol(), key) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Bodies, RefusalsNameFileLineAndKey) {
  const std::string head =
      "name: m\ncoordinates: [{name: q, velocity: vq}]\nparameters: [{name: k, default: 1}]\n";
  // line 4 onward
  ExpectRefused(head +
                    "frames: [{name: A, parent: Z, rotations: [{axis: x, angle: q}]}]\n"
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: P, frame: A}]\n",
                4, "Z", "unknown frame");
  ExpectRefused(head +
                    "frames: [{name: A, parent: B}, {name: B, parent: A}]\n"
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: P, frame: A}]\n",
                4, "A", "cycle");
  ExpectRefused(head +
                    "points: [{name: P, parent: Q, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: P}]\n",
                4, "Q", "unknown point");
  ExpectRefused(head +
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: R}]\n",
                5, "R", "unknown point");
  ExpectRefused(head +
                    "frames: [{name: A, rotations: [{axis: w, angle: q}]}]\n"
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: P, frame: A}]\n",
                4, "w", "unnamed axis");
  ExpectRefused(head +
                    "frames: [{name: A, rotations: [{axis: [1, 1, 0], angle: q}]}]\n"
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies: [{name: b, mass: 1, point: P, frame: A}]\n",
                4, "axis", "not a unit vector");
  ExpectRefused(head +
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies:\n  - {name: b, mass: -k, point: P}\n",
                6, "b.mass", "mass is negative");
  ExpectRefused(
      head +
          "points: [{name: P, offset: [q, 0, 0]}]\n"
          "bodies:\n  - {name: b, mass: 1, point: P, inertia: {xx: 1, yy: 1, zz: 1, xy: 2}}\n",
      6, "b.inertia", "not positive semidefinite");
  ExpectRefused(head +
                    "points: [{name: P, offset: [q, 0, 0]}]\n"
                    "bodies:\n  - {name: b, mass: 1, point: P, inertia: [[1, 0, 0], [0.5, 1, 0], "
                    "[0, 0, 1]]}\n",
                6, "b.inertia", "not symmetric");
  ExpectRefused(head +
                    "definitions: [{name: d, value: \"e + q\"}, {name: e, value: q}]\n"
                    "lagrangian: vq^2/2\n",
                4, "e", "unknown symbol");
}

}  // namespace
}  // namespace dirac
