// Scenario files: loading, errors naming file/line/symbol, overrides, save/reload round trip.
#include <gtest/gtest.h>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

ScenarioError ExpectScenarioError(const std::string& yaml) {
  try {
    ParseScenario(yaml, "case.yaml");
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "no ScenarioError for:\n" << yaml;
  return ScenarioError("", 0, "", "");
}

TEST(ScenarioFile, HeisenbergLoads) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  EXPECT_EQ(s.name, "Heisenberg particle");
  ASSERT_EQ(s.coordinates.size(), 3u);
  EXPECT_EQ(s.coordinates[2].velocity, "vz");
  ASSERT_EQ(s.parameters.size(), 2u);
  EXPECT_EQ(s.parameters[1].name, "ky");
  EXPECT_DOUBLE_EQ(s.parameters[1].value, 2.0);
  EXPECT_DOUBLE_EQ(s.parameters[1].max, 5.0);
  ASSERT_EQ(s.constraints.size(), 1u);
  EXPECT_EQ(s.constraints[0].multiplier, "mu");
  EXPECT_EQ(s.scene.constraint_plane, "heisenberg");
  EXPECT_EQ(s.plots.size(), 3u);
  EXPECT_DOUBLE_EQ(s.simulation.rtol, 1e-13);
}

TEST(ScenarioFile, UnknownSymbolInLagrangianNamesFileLineAndSymbol) {
  const auto e = ExpectScenarioError(R"yaml(name: n
coordinates:
  - {name: x}
lagrangian: "vx^2/2 - omega*x^2"
)yaml");
  EXPECT_EQ(e.file(), "case.yaml");
  EXPECT_EQ(e.line(), 4u);
  EXPECT_EQ(e.symbol(), "omega");
  EXPECT_NE(std::string(e.what()).find("case.yaml:4: 'omega'"), std::string::npos) << e.what();
}

TEST(ScenarioFile, SyntaxErrorInConstraintNamesTheConstraint) {
  const auto e = ExpectScenarioError(R"yaml(name: n
coordinates: [{name: x}, {name: y}]
lagrangian: "vx^2/2"
constraints:
  - {name: c, form: "vx - (y*"}
)yaml");
  EXPECT_EQ(e.line(), 5u);
  EXPECT_EQ(e.symbol(), "c.form");
}

TEST(ScenarioFile, StructuralErrors) {
  EXPECT_EQ(ExpectScenarioError("name: n\nlagrangian: \"1\"\n").symbol(), "coordinates");
  EXPECT_EQ(ExpectScenarioError("name: n\ncoordinates: [{name: x}, {name: x}]\nlagrangian: \"1\"\n")
                .symbol(),
            "x");
  EXPECT_EQ(
      ExpectScenarioError("name: n\ncoordinates: [{name: sin}]\nlagrangian: \"1\"\n").symbol(),
      "sin");
  const auto bad_number = ExpectScenarioError(
      "name: n\ncoordinates: [{name: x}]\nparameters:\n  - {name: k, default: abc}\n"
      "lagrangian: \"1\"\n");
  EXPECT_EQ(bad_number.line(), 4u);
  EXPECT_EQ(bad_number.symbol(), "k.default");
  EXPECT_EQ(ExpectScenarioError("name: n\ncoordinates: [{name: x}]\nlagrangian: \"1\"\nbogus: 1\n")
                .symbol(),
            "bogus");
  EXPECT_EQ(ExpectScenarioError("name: [unclosed\n").line(), 2u);
  const auto plot = ExpectScenarioError(
      "name: n\ncoordinates: [{name: x}]\nlagrangian: \"vx^2\"\nview:\n  plots:\n"
      "    - {title: a, series: [nope]}\n");
  EXPECT_EQ(plot.symbol(), "nope");
  EXPECT_EQ(plot.line(), 6u);
}

TEST(ScenarioFile, MissingFileIsAClearError) {
  try {
    LoadScenario("/nonexistent/dir/s.yaml");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/s.yaml"), std::string::npos);
  }
}

TEST(ScenarioFile, OverridesReachParametersInitialConditionsAndSettings) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  ApplyOverride(s, "ky=3.5");
  ApplyOverride(s, "x=0.25");
  ApplyOverride(s, "vy=-1");
  ApplyOverride(s, "t_end=7");
  EXPECT_DOUBLE_EQ(s.parameters[1].value, 3.5);
  EXPECT_DOUBLE_EQ(s.parameters[1].default_value, 2.0);
  EXPECT_DOUBLE_EQ(s.coordinates[0].initial, 0.25);
  EXPECT_DOUBLE_EQ(s.coordinates[1].initial_velocity, -1.0);
  EXPECT_DOUBLE_EQ(s.simulation.t_end, 7.0);
  EXPECT_THROW(ApplyOverride(s, "kz=1"), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "ky=fast"), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "t_end=-1"), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "noequals"), ScenarioError);
}

TEST(ScenarioFile, SaveAndReloadGivesTheSameProblem) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  ApplyOverride(s, "ky=3.25");
  const Scenario back = ParseScenario(SaveScenarioToString(s), "roundtrip.yaml");
  EXPECT_EQ(back.name, s.name);
  EXPECT_EQ(back.lagrangian, s.lagrangian);
  ASSERT_EQ(back.coordinates.size(), s.coordinates.size());
  for (std::size_t i = 0; i < s.coordinates.size(); ++i) {
    EXPECT_EQ(back.coordinates[i].name, s.coordinates[i].name);
    EXPECT_EQ(back.coordinates[i].initial_velocity, s.coordinates[i].initial_velocity);
  }
  EXPECT_EQ(back.parameters[1].value, 3.25);
  EXPECT_EQ(back.constraints[0].form, s.constraints[0].form);
  EXPECT_EQ(back.simulation.rtol, s.simulation.rtol);
  EXPECT_EQ(back.scene.position, s.scene.position);
  EXPECT_EQ(back.plots.size(), s.plots.size());
  // Same derived equations: the compiled residuals agree at a sample point.
  const auto a = LagrangeDiracSystem::Derive(s), b = LagrangeDiracSystem::Derive(back);
  std::vector<double> in(a->dae().layout.size());
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = 0.1 * static_cast<double>(k) - 0.7;
  const auto ra = a->dae().residual.Evaluate(in), rb = b->dae().residual.Evaluate(in);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t k = 0; k < ra.size(); ++k) EXPECT_EQ(ra[k], rb[k]);
}

TEST(ScenarioFile, SaveScenarioWritesAtomicallyAndReloads) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  ApplyOverride(s, "ky=7.5");  // outside the file's slider range [0, 5]: the range widens
  ApplyOverride(s, "vy=0.25");
  const std::string path = ::testing::TempDir() + "saved_heisenberg.yaml";
  SaveScenario(s, path);
  const Scenario back = LoadScenario(path);
  EXPECT_EQ(back.parameters[1].value, 7.5);
  EXPECT_GE(back.parameters[1].max, 7.5);
  EXPECT_EQ(back.coordinates[1].initial_velocity, 0.25);
  EXPECT_THROW(SaveScenario(s, "/nonexistent-dir/x.yaml"), IoError);
}

}  // namespace
}  // namespace dirac
