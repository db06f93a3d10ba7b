// The Lie algebroid data of a scenario (core/src/model/algebroid_data.*): the anchor rho^i_A(q)
// and the structure functions C^c_ab(q) read by model::ReadAlgebroid, checked against the values
// written in the scenario and against the anchor-homomorphism identity worked out by hand here;
// the refusals of a bracket that violates the Jacobi identity or an anchor that is no
// homomorphism (file, line and the offending pair or triple); the round trip of a written
// algebroid.
#include <gtest/gtest.h>

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"
#include "model/algebroid_data.hpp"
#include "scenario/scenario_symbols.hpp"

namespace dirac {
namespace {

Scenario Load(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

Trajectory RunScenario(const Scenario& s) {
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
}

model::AlgebroidData Read(const Scenario& s) {
  const scenario::ScenarioSymbols symbols(s);
  return model::ReadAlgebroid(s, symbols.table(), symbols.q(), symbols.velocity_names());
}

bool IsZero(const GiNaC::ex& e) { return GiNaC::normal(e.expand()).is_zero(); }

// The affine algebra acting on the line: rho(X1) = d/dq, rho(X2) = q d/dq. By hand,
// [rho X1, rho X2] = d/dq(q) d/dq - q d/dq(1) d/dq = d/dq = rho(X1), so [X1, X2] = X1 makes rho a
// homomorphism; with k = 2 the Jacobi identity holds trivially.
std::string AffineLine(const std::string& brackets) {
  return "name: affine line\n"
         "coordinates: [{name: q, initial: 0.5}]\n"
         "algebroid:\n"
         "  fibre: [{name: y1, initial: 1}, {name: y2}]\n"
         "  anchor:\n"
         "    - {section: y1, components: {q: \"1\"}}\n"
         "    - {section: y2, components: {q: \"q\"}}\n" +
         brackets + "lagrangian: \"(y1^2 + y2^2)/2\"\n";
}

TEST(AlgebroidData, TangentBundleHasTheIdentityAnchorAndNoBrackets) {
  const Scenario s = Load("heisenberg.yaml");
  const model::AlgebroidData d = Read(s);
  EXPECT_FALSE(d.present);
  ASSERT_EQ(d.anchor.rows(), 3u);
  ASSERT_EQ(d.anchor.cols(), 3u);
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned a = 0; a < 3; ++a) EXPECT_EQ(d.anchor(i, a), GiNaC::ex(i == a ? 1 : 0));
  ASSERT_EQ(d.structure.size(), 3u);
  for (const auto& c : d.structure) {
    ASSERT_EQ(c.size(), 3u);
    for (const auto& row : c)
      for (const GiNaC::ex& value : row) EXPECT_TRUE(value.is_zero());
  }
}

TEST(AlgebroidData, WrittenAnchorAndBracketsAreReadAntisymmetrically) {
  const Scenario s = ParseScenario(
      AffineLine("  brackets:\n    - {pair: [y1, y2], value: {y1: \"1\"}}\n"), "affine.yaml");
  const scenario::ScenarioSymbols symbols(s);
  const model::AlgebroidData d =
      model::ReadAlgebroid(s, symbols.table(), symbols.q(), symbols.velocity_names());
  EXPECT_TRUE(d.present);
  ASSERT_EQ(d.anchor.rows(), 1u);
  ASSERT_EQ(d.anchor.cols(), 2u);
  EXPECT_TRUE(IsZero(d.anchor(0, 0) - 1));
  EXPECT_TRUE(IsZero(d.anchor(0, 1) - symbols.q()[0]));
  // C^1_12 = 1 = -C^1_21; every other component vanishes.
  ASSERT_EQ(d.structure.size(), 2u);
  EXPECT_TRUE(IsZero(d.structure[0][0][1] - 1));
  EXPECT_TRUE(IsZero(d.structure[0][1][0] + 1));
  EXPECT_TRUE(d.structure[1][0][1].is_zero());
  EXPECT_TRUE(d.structure[1][1][0].is_zero());
  EXPECT_TRUE(d.structure[0][0][0].is_zero());
}

TEST(AlgebroidData, MissingBracketNamesThePairTheCoordinateAndTheDefect) {
  // Without [X1, X2] = X1 the defect rho([X1, X2]) - [rho X1, rho X2] is -d/dq.
  const Scenario s = ParseScenario(AffineLine(""), "affine.yaml");
  try {
    Read(s);
    FAIL() << "an anchor that is no homomorphism was read";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), "affine.yaml");
    EXPECT_EQ(e.line(), 4u);  // the algebroid's first entry (its fibre: line)
    EXPECT_EQ(e.symbol(), "[y1, y2]");
    const std::string what = e.what();
    EXPECT_NE(what.find("homomorphism along q"), std::string::npos) << what;
    EXPECT_NE(what.find("= -1"), std::string::npos) << what;
  }
  // The wrong constant is refused too: [X1, X2] = 2 X1 leaves the defect 2 - 1 = 1.
  EXPECT_THROW(
      Read(ParseScenario(AffineLine("  brackets:\n    - {pair: [y1, y2], value: {y1: \"2\"}}\n"),
                         "affine.yaml")),
      ScenarioError);
}

TEST(AlgebroidData, ParameterDependentStructureConstantsPassTheJacobiIdentity) {
  // so(3) scaled by a parameter c: [X_a, X_b] = c eps_abc X_c satisfies the Jacobi identity for
  // every c, and the structure functions are c itself (an input, not a number).
  const Scenario s = Load("suslov.yaml");
  Scenario scaled = s;
  for (auto& b : scaled.algebroid.brackets)
    for (auto& [section, text] : b.value) text = "I1*" + text;
  const scenario::ScenarioSymbols symbols(scaled);
  const model::AlgebroidData d =
      model::ReadAlgebroid(scaled, symbols.table(), symbols.q(), symbols.velocity_names());
  const GiNaC::ex I1 = symbols.table().at("I1");
  // [w1, w2] = I1 w3, [w2, w3] = I1 w1, [w3, w1] = I1 w2 (fibre order w1, w2, w3).
  EXPECT_TRUE(IsZero(d.structure[2][0][1] - I1));
  EXPECT_TRUE(IsZero(d.structure[0][1][2] - I1));
  EXPECT_TRUE(IsZero(d.structure[1][2][0] - I1));
  EXPECT_TRUE(IsZero(d.structure[2][1][0] + I1));
  EXPECT_TRUE(d.structure[0][0][1].is_zero());
  // The anchor of a Lie algebra (no base coordinates) is empty.
  EXPECT_EQ(d.anchor.rows(), 0u);
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
