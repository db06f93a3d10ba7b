// The Lie algebroid data of a scenario (core/src/model/algebroid_data.*): the refusals of a
// bracket that violates the Jacobi identity or an anchor that is no homomorphism, and the round
// trip of a written algebroid.
#include <gtest/gtest.h>

#include <string>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

Scenario Load(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

Trajectory RunScenario(const Scenario& s) {
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
}

TEST(AlgebroidData, JacobiViolationIsRefused) {
  const char* bad = R"yaml(
name: bad bracket
algebroid:
  fibre: [{name: y1}, {name: y2}, {name: y3}]
  brackets:
    - {pair: [y1, y2], value: {y1: "1"}}
    - {pair: [y1, y3], value: {y2: "1"}}
lagrangian: "(y1^2 + y2^2 + y3^2)/2"
)yaml";
  try {
    LagrangeDiracSystem::Derive(ParseScenario(bad, "bad.yaml"));
    FAIL() << "a bracket violating the Jacobi identity was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("Jacobi"), std::string::npos) << e.what();
    EXPECT_EQ(e.symbol(), "[y1, y2, y3]");
    EXPECT_GE(e.line(), 3u);  // the algebroid block of the file
  }
}

TEST(AlgebroidData, AnchorThatIsNoHomomorphismIsRefused) {
  const char* bad = R"yaml(
name: bad anchor
coordinates: [{name: q}]
algebroid:
  fibre: [{name: y1}, {name: y2}]
  anchor:
    - {section: y1, components: {q: "1"}}
    - {section: y2, components: {q: "q"}}
lagrangian: "(y1^2 + y2^2)/2"
)yaml";
  try {
    LagrangeDiracSystem::Derive(ParseScenario(bad, "bad.yaml"));
    FAIL() << "[rho y1, rho y2] = d/dq != rho([y1, y2]) = 0 was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("homomorphism"), std::string::npos) << e.what();
  }
}

TEST(AlgebroidData, BeanieBracketsPassTheChecksAndRoundTrip) {
  const Scenario s = Load("elroys_beanie.yaml");
  EXPECT_NO_THROW(LagrangeDiracSystem::Derive(s));
  const Scenario back = ParseScenario(SaveScenarioToString(s), "roundtrip.yaml");
  ASSERT_TRUE(back.algebroid.present);
  EXPECT_EQ(back.algebroid.brackets.size(), 4u);
  EXPECT_EQ(back.algebroid.anchor.size(), 1u);
  EXPECT_EQ(back.reconstruction.group, "SE2");
  EXPECT_EQ(back.scene.options.Maps("bodies").size(), 2u);
  const Trajectory a = RunScenario(s), b = RunScenario(back);
  EXPECT_EQ(a.at(a.num_rows() - 1, a.ColumnIndex("x")), b.at(b.num_rows() - 1, b.ColumnIndex("x")));
}

}  // namespace
}  // namespace dirac
