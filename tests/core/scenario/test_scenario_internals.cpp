// The scenario layer's internal functions on their own (core/src/scenario/): the holonomic
// constraints' differentials and the consistent initial state (initial_state.hpp) against the
// Cartesian pendulum worked out by hand, the --set refusal of a solved coordinate, and where a
// YAML syntax error is located (yaml_syntax_error.hpp) for a bracket left open lines before
// yaml-cpp notices.
#include <gtest/gtest.h>

#include <ginac/ginac.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "scenario/initial_state.hpp"
#include "scenario/yaml_syntax_error.hpp"

namespace dirac {
namespace {

// A planar pendulum of length l = 1.3 in Cartesian coordinates (y up): x0 = 0.6 given, y0
// solved from x^2 + y^2 = l^2 on the lower branch (the guess -1), vx0 = 0.9 given, vy0
// dependent: x vx + y vy = 0.
Scenario CartesianPendulum() {
  return ParseScenario(
      "name: cartesian pendulum\n"
      "coordinates:\n"
      "  - {name: x, velocity: vx, initial: 0.6, initial_velocity: 0.9}\n"
      "  - {name: y, velocity: vy, initial: -1, solve: true}\n"
      "parameters:\n"
      "  - {name: g, default: 9.81, max: 20}\n"
      "  - {name: l, default: 1.3, max: 5}\n"
      "lagrangian: \"(vx^2 + vy^2)/2 - g*y\"\n"
      "holonomic:\n"
      "  - {name: rod, equation: \"x^2 + y^2 - l^2\"}\n",
      "pendulum.yaml");
}

TEST(InitialState, HolonomicDifferentialIsTheGradientAlongTheVelocities) {
  const Scenario s = CartesianPendulum();
  const std::vector<ConstraintSpec> forms = scenario::HolonomicDifferentials(s);
  ASSERT_EQ(forms.size(), 1u);
  EXPECT_EQ(forms[0].name, "rod");
  // The form is the constraint's rate by name: ScenarioSymbols defines rod_rate = df in every
  // table with velocities (parsed once, scenario_symbols.cpp).
  EXPECT_EQ(forms[0].form, "rod_rate");
  // WithHolonomicDifferentials appends the form and keeps the position constraint.
  const Scenario with = scenario::WithHolonomicDifferentials(s);
  EXPECT_EQ(with.constraints.size(), s.constraints.size() + 1);
  EXPECT_EQ(with.holonomic.size(), 1u);
}

TEST(InitialState, NewtonSolvesTheCoordinateAndTheFormsTheDependentVelocity) {
  Scenario s = CartesianPendulum();  // ParseScenario made it consistent once
  const double l = 1.3;
  EXPECT_NEAR(s.coordinates[1].initial, -std::sqrt(l * l - 0.36), 1e-12);
  EXPECT_NEAR(s.coordinates[1].initial_velocity, -0.6 * 0.9 / s.coordinates[1].initial, 1e-12);
  EXPECT_TRUE(s.coordinates[1].velocity_solved);
  EXPECT_FALSE(s.coordinates[0].velocity_solved);
  // A new x0 = 0.5 (as `--set x=0.5` does): y0 = -sqrt(1.69 - 0.25) = -1.2 and
  // vy0 = -x0 vx0 / y0 = 0.45 / 1.2 = 0.375.
  s.coordinates[0].initial = 0.5;
  scenario::SolveInitialState(s, {"x"});
  EXPECT_NEAR(s.coordinates[1].initial, -1.2, 1e-12);
  EXPECT_NEAR(s.coordinates[1].initial_velocity, 0.375, 1e-12);
  const double x = s.coordinates[0].initial, y = s.coordinates[1].initial;
  EXPECT_LE(std::abs(x * x + y * y - l * l), scenario::kHolonomicTolerance);
}

TEST(InitialState, SettingASolvedCoordinateIsRefusedByName) {
  Scenario s = CartesianPendulum();
  try {
    scenario::SolveInitialState(s, std::set<std::string>{"y"});
    FAIL() << "a --set of the solved coordinate y was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.symbol(), "y");
    EXPECT_EQ(e.line(), 0u);
  }
}

TEST(InitialState, GivenCoordinatesOffTheConstraintAreRefusedWithTheResidual) {
  Scenario s = ParseScenario(
      "name: off\n"
      "coordinates:\n"
      "  - {name: x, velocity: vx, initial: 0.6}\n"
      "  - {name: y, velocity: vy, initial: -1}\n"
      "parameters: [{name: l, default: 1.3}]\n"
      "lagrangian: \"(vx^2 + vy^2)/2\"\n",
      "off.yaml");
  HolonomicSpec rod;
  rod.name = "rod";
  rod.equation = "x^2 + y^2 - l^2";
  rod.multiplier = "nu";
  rod.where.line = 7;
  s.holonomic.push_back(rod);
  // f(q0) = 0.36 + 1 - 1.69 = -0.33.
  try {
    scenario::SolveInitialState(s);
    FAIL() << "initial coordinates with f = -0.33 were accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), "off.yaml");
    EXPECT_EQ(e.line(), 7u);
    EXPECT_NE(std::string(e.what()).find("-3.300e-01"), std::string::npos) << e.what();
  }
}

TEST(YamlSyntaxLocation, BracketOpenedLinesBeforeTheEndIsReportedWhereItOpens) {
  const std::string text =
      "name: open\n"                // 1
      "coordinates: [{name: x},\n"  // 2: '[' in column 14, never closed
      "  {name: y}\n"               // 3
      "lagrangian: \"vx^2\"\n";     // 4
  try {
    YAML::Load(text);
    FAIL() << "yaml-cpp read an unclosed bracket";
  } catch (const YAML::Exception& error) {
    const scenario::YamlSyntaxProblem p = scenario::LocateYamlSyntaxError(error, text);
    EXPECT_NE(p.message.find("'[' is never closed"), std::string::npos) << p.message;
    // The quoted line is `line` itself unless quoted_line names another (0: none).
    EXPECT_EQ(p.quoted_line ? p.quoted_line : p.line, 2u);
    EXPECT_EQ(p.quoted_line ? p.quoted_column : p.column, 14u);
    const ScenarioError e = scenario::YamlSyntaxError(error, text, "open.yaml");
    const std::string what = e.what();
    EXPECT_EQ(e.file(), "open.yaml");
    EXPECT_NE(what.find("  2 | coordinates: [{name: x},\n"), std::string::npos) << what;
    EXPECT_NE(what.find("    | " + std::string(13, ' ') + "^"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace dirac
