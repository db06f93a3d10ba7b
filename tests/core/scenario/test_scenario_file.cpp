// Scenario files: loading, errors naming file/line/symbol, overrides, save/reload round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

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

// The summary a listing shows (the scenario browser) equals what the full reader reads, for every
// shipped scenario; it checks the YAML and its bounds but not the expressions.
TEST(ScenarioFile, SummaryReadsNameAndDescriptionWithoutTheExpressions) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(testing::SourcePath("scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    const Scenario full = LoadScenario(entry.path().string());
    const ScenarioSummary summary = ReadScenarioSummary(entry.path().string());
    EXPECT_EQ(summary.name, full.name) << entry.path();
    EXPECT_EQ(summary.description, full.description) << entry.path();
    ++files;
  }
  EXPECT_GE(files, 10);
  const fs::path dir = fs::temp_directory_path() / "dirac_summary_test";
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  // An unknown symbol is the full reader's business, not the listing's.
  const std::string unknown = write("unknown.yaml",
                                    "name: Unknown symbol\ncoordinates:\n  - {name: x, velocity: "
                                    "vx}\nlagrangian: \"vx^2/2 + nosuch\"\n");
  EXPECT_EQ(ReadScenarioSummary(unknown).name, "Unknown symbol");
  EXPECT_THROW(LoadScenario(unknown), ScenarioError);
  // Broken YAML names the file and line; too deep a nesting is refused before yaml-cpp.
  const std::string broken = write("broken.yaml", "name: x\ndescription: [unclosed\n");
  try {
    ReadScenarioSummary(broken);
    ADD_FAILURE() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), broken);
    EXPECT_NE(std::string(e.what()).find("invalid YAML"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ReadScenarioSummary(testing::SourcePath("tests/fuzz_regressions/"
                                                       "yaml_3000_nested_lists.yaml")),
               ScenarioError);
  EXPECT_THROW(ReadScenarioSummary(write("list.yaml", "- a\n- b\n")), ScenarioError);
  EXPECT_THROW(ReadScenarioSummary(dir.string()), ScenarioError);  // a directory
  fs::remove_all(dir);
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
  EXPECT_EQ(s.scene.options.String("constraint_plane"), "heisenberg");
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

TEST(ScenarioFile, SimulationOverridesCheckTheWholeSpecAndKeepItOnFailure) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  const SimulationSpec before = s.simulation;
  try {
    ApplyOverride(s, "t_end", 1e9);  // 1e11 samples at output_step 0.01
    FAIL() << "t_end=1e9 accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.symbol(), "t_end");
    EXPECT_NE(std::string(e.what()).find("samples"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ApplyOverride(s, "output_step", 1e-9), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "rtol", 0), ScenarioError);
  EXPECT_THROW(ApplyOverride(s, "stabilization", -1), ScenarioError);
  EXPECT_EQ(s.simulation.t_end, before.t_end);
  EXPECT_EQ(s.simulation.output_step, before.output_step);
  EXPECT_EQ(s.simulation.rtol, before.rtol);
  EXPECT_EQ(s.simulation.stabilization, before.stabilization);
  ApplyOverride(s, "stabilization", 0);
  EXPECT_EQ(s.simulation.stabilization, 0.0);
  const auto e = ExpectScenarioError(
      "name: n\ncoordinates: [{name: x}]\nlagrangian: \"vx^2\"\n"
      "simulation: {t_end: 1.0e9, output_step: 0.01}\n");
  EXPECT_EQ(e.line(), 4u);
  EXPECT_EQ(e.symbol(), "output_step");
}

TEST(ScenarioFile, CurrentValueReadsWhatOverridesSet) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  EXPECT_EQ(CurrentValue(s, "ky"), 2.0);
  EXPECT_EQ(CurrentValue(s, "x"), s.coordinates[0].initial);
  EXPECT_EQ(CurrentValue(s, "vy"), s.coordinates[1].initial_velocity);
  EXPECT_EQ(CurrentValue(s, "p_z"), s.coordinates[2].initial_momentum);
  EXPECT_EQ(CurrentValue(s, "rtol"), 1e-13);
  EXPECT_EQ(CurrentValue(s, "kz"), std::nullopt);
  EXPECT_EQ(CurrentValue(s, "mu"), std::nullopt);    // a multiplier has no initial value to set
  EXPECT_EQ(CurrentValue(s, "p_vx"), std::nullopt);  // no second-order problem here
  double value = 0.5;
  for (const char* name : {"kx", "ky", "x", "y", "z", "vx", "vy", "vz", "p_x", "p_z", "t_end",
                           "output_step", "rtol", "atol", "stabilization"}) {
    value *= 1.5;
    ApplyOverride(s, name, value);
    EXPECT_EQ(CurrentValue(s, name), value) << name;
  }
  EXPECT_EQ(CurrentValue(s, "ky"), s.parameters[1].value);
}

TEST(ScenarioFile, CurrentValueOfSecondOrderAndFibreNames) {
  Scenario spline = LoadScenario(testing::SourcePath("scenarios/cubic_spline_bvp.yaml"));
  EXPECT_EQ(CurrentValue(spline, "p_v"), 10.0);
  EXPECT_EQ(CurrentValue(spline, "pbar_v"), 5.0);
  EXPECT_EQ(CurrentValue(spline, "a"), 0.0);    // an acceleration not given: 0
  EXPECT_EQ(CurrentValue(spline, "p_x"), 0.0);  // the momentum of coordinate x
  EXPECT_EQ(CurrentValue(spline, "pbar_x"), std::nullopt);
  ApplyOverride(spline, "a", 2.5);
  EXPECT_EQ(CurrentValue(spline, "a"), 2.5);
  const Scenario beanie = LoadScenario(testing::SourcePath("scenarios/elroys_beanie.yaml"));
  EXPECT_EQ(CurrentValue(beanie, "v1"), 1.2);
  EXPECT_EQ(CurrentValue(beanie, "psi"), 0.0);
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
  EXPECT_EQ(back.scene.options.Strings("position"), s.scene.options.Strings("position"));
  EXPECT_TRUE(back.scene.options.value() == s.scene.options.value());
  EXPECT_EQ(back.plots.size(), s.plots.size());
  // Same derived equations: the compiled residuals agree at a sample point.
  const auto a = LagrangeDiracSystem::Derive(s), b = LagrangeDiracSystem::Derive(back);
  std::vector<double> in(CompiledDaeOf(*a).layout.size());
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = 0.1 * static_cast<double>(k) - 0.7;
  const auto ra = CompiledDaeOf(*a).residual.Evaluate(in),
             rb = CompiledDaeOf(*b).residual.Evaluate(in);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t k = 0; k < ra.size(); ++k) EXPECT_EQ(ra[k], rb[k]);
}

// A multiplier's `unit:` (issue 40) is read, written back and optional; a body model's contact
// multipliers are forces in N.
TEST(ScenarioFile, MultiplierUnitsAreReadAndWritten) {
  const Scenario disk =
      LoadScenario(testing::SourcePath("tests/reference/scenarios/rolling_disk_lagrangian.yaml"));
  ASSERT_EQ(disk.constraints.size(), 2u);
  EXPECT_EQ(disk.constraints[0].multiplier, "Fx");
  EXPECT_EQ(disk.constraints[0].unit, "N");
  EXPECT_EQ(disk.constraints[1].unit, "N");
  const Scenario circuit = LoadScenario(testing::SourcePath("scenarios/lc_circuit.yaml"));
  for (const ConstraintSpec& c : circuit.constraints) EXPECT_EQ(c.unit, "V") << c.name;
  const Scenario heisenberg = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  EXPECT_EQ(heisenberg.constraints[0].unit, "");  // not given: none

  const std::string pendulum = R"(name: pendulum
coordinates:
  - {name: x, initial: 1.0, initial_velocity: 0.0, unit: m}
  - {name: y, initial: 0.0, initial_velocity: 0.0, unit: m}
lagrangian: "(vx^2 + vy^2)/2 - 9.81*y"
holonomic:
  - {name: rod, equation: "x^2 + y^2 - 1", multiplier: tension, unit: N}
simulation: {t_end: 1, output_step: 0.1}
)";
  const Scenario rod = ParseScenario(pendulum, "rod.yaml");
  ASSERT_EQ(rod.holonomic.size(), 1u);
  EXPECT_EQ(rod.holonomic[0].unit, "N");
  const Scenario back = ParseScenario(SaveScenarioToString(rod), "back.yaml");
  EXPECT_EQ(back.holonomic[0].unit, "N");
  EXPECT_EQ(ParseScenario(SaveScenarioToString(disk), "disk.yaml").constraints[1].unit, "N");

  const Scenario bodies = LoadScenario(testing::SourcePath("scenarios/rolling_disk.yaml"));
  ASSERT_FALSE(bodies.constraints.empty());
  for (const ConstraintSpec& c : bodies.constraints) EXPECT_EQ(c.unit, "N") << c.name;
  for (const HolonomicSpec& h : bodies.holonomic) EXPECT_EQ(h.unit, "N") << h.name;
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
