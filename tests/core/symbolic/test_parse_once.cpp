// Parse once (issue 37): within one dirac::ParseOnce, as the `dirac` CLI holds around a command,
// reading a shipped scenario, deriving it, solving its initial state and running it parses each
// expression text exactly once (once per reading for a text with decimals: floats, and the exact
// rationals of the constraint algorithm and of body sections); the parse session's memo gives
// the same expressions as parsing anew.
#include <gtest/gtest.h>

#include <ginac/ginac.h>

#include <cstdio>
#include <optional>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/parse_once.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/parse_session.hpp"

namespace dirac {
namespace {

std::string Shipped(const std::string& name) {
  return std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + name;
}

// Parses of a load, derivation, initial state and a short run of `file` (as `dirac run`), with
// one ParseOnce around them, or (`once` false) with none (each of LoadScenario and BuildModel
// then opens its own session).
symbolic::ParseCounter::Counts Parses(const std::string& file, bool once, double t_end) {
  symbolic::ParseCounter counter;
  {
    std::optional<ParseOnce> session;
    if (once) session.emplace();
    Scenario s = LoadScenario(file);
    const auto model = BuildModel(s);
    SimulationInput input = SimulationInput::FromScenario(s);
    input.spec.t_end = t_end;
    const Trajectory trajectory = model->Simulate(input);
    EXPECT_GT(trajectory.num_rows(), 1u) << file;
  }
  return counter.counts();
}

std::size_t Total(const symbolic::ParseCounter::Counts& counts) {
  std::size_t n = 0;
  for (const auto& [text, count] : counts) n += count;
  return n;
}

void ExpectEachTextParsedOnce(const std::string& name, double t_end) {
  const auto counts = Parses(Shipped(name), true, t_end);
  ASSERT_FALSE(counts.empty()) << name;
  for (const auto& [text, count] : counts)
    EXPECT_EQ(count, 1u) << name << ": parsed " << count << " times: " << text.substr(0, 200);
  const auto apart = Parses(Shipped(name), false, t_end);
  // Without the CLI's session the file's checks and the derivation read apart: at most twice.
  for (const auto& [text, count] : apart) EXPECT_LE(count, 2u) << name << ": " << text;
  std::printf("[ parses   ] %s: %zu texts, %zu parses in one session; %zu without\n", name.c_str(),
              counts.size(), Total(counts), Total(apart));
}

// A hand-written Lagrangian with constraint forms (the Lagrange-Dirac path).
TEST(ParseOnce, HandWrittenLagrangianParsesEachTextOnce) {
  ExpectEachTextParsedOnce("chaplygin_sleigh.yaml", 0.2);
}

// The bicycle: definitions, bodies (their sections read once, the kinematics built once for
// every formulation), rolling wheels and a holonomic front contact.
TEST(ParseOnce, BicycleParsesEachTextOnce) {
  ExpectEachTextParsedOnce("whipple_bicycle.yaml", 0.1);
}

// A degenerate Lagrangian: the Euler-Poincare and Lagrange-Dirac attempts, then the constraint
// algorithm, in one solve.
TEST(ParseOnce, ConstraintAlgorithmParsesEachTextOnce) {
  ExpectEachTextParsedOnce("degenerate.yaml", 0.2);
}

// An optimal control problem: the Pontryagin system of the constraint algorithm, its cost and
// boundary conditions.
TEST(ParseOnce, OptimalControlParsesEachTextOnce) {
  ExpectEachTextParsedOnce("elroys_beanie_ocp.yaml", 0.1);
}

// The memo returns what a parse would: the same text in another table's symbols (swapped in),
// a table that binds a name to an expression parses anew, and so does a table without a name
// the text uses (with the parser's own error).
TEST(ParseOnce, MemoGivesWhatAParseGives) {
  const std::string text = "x^2*cos(y) + 0.5*y - x/3";
  GiNaC::symbol x1("x"), y1("y"), x2("x"), y2("y");
  const GiNaC::symtab first{{"x", x1}, {"y", y1}};
  const GiNaC::symtab second{{"x", x2}, {"y", y2}};
  const GiNaC::symtab valued{{"x", x2}, {"y", x2 + 1}};
  const GiNaC::symtab lacking{{"x", x2}};
  const GiNaC::ex direct_second = symbolic::ParseExpression(text, second, {"f", 1, "k"});
  const GiNaC::ex direct_valued = symbolic::ParseExpression(text, valued, {"f", 1, "k"});
  symbolic::ParseCounter counter;
  symbolic::ParseSession session;
  const GiNaC::ex a = symbolic::ParseExpression(text, first, {"f", 1, "k"});
  const GiNaC::ex b = symbolic::ParseExpression(text, second, {"f", 1, "k"});
  EXPECT_EQ(counter.counts().at(text), 1u);
  EXPECT_TRUE(b.is_equal(direct_second));
  EXPECT_FALSE(b.is_equal(a));  // other symbols
  EXPECT_TRUE(symbolic::ParseExpression(text, first, {"f", 1, "k"}).is_equal(a));
  EXPECT_EQ(counter.counts().at(text), 1u);
  EXPECT_TRUE(symbolic::ParseExpression(text, valued, {"f", 1, "k"}).is_equal(direct_valued));
  EXPECT_EQ(counter.counts().at(text), 2u);
  EXPECT_THROW(symbolic::ParseExpression(text, lacking, {"f", 1, "k"}), ScenarioError);
  {
    // The exact reading of a decimal is another expression (1/2, not 0.5): parsed apart.
    const symbolic::ScopedExactDecimals exact;
    const GiNaC::ex e = symbolic::ParseExpression(text, first, {"f", 1, "k"});
    EXPECT_TRUE(
        e.is_equal(GiNaC::pow(x1, 2) * GiNaC::cos(y1) + GiNaC::numeric(1, 2) * y1 - x1 / 3));
    EXPECT_EQ(counter.counts().at("exact: " + text), 1u);
  }
  // A text without decimals reads the same either way: one parse serves both readings.
  const std::string plain = "x*y + 2";
  symbolic::ParseExpression(plain, first, {"f", 1, "k"});
  {
    const symbolic::ScopedExactDecimals exact;
    symbolic::ParseExpression(plain, second, {"f", 1, "k"});
  }
  EXPECT_EQ(counter.counts().at(plain), 1u);
  EXPECT_EQ(counter.counts().count("exact: " + plain), 0u);
}

// Swapping one symbol for another must not merge names the text kept apart.
TEST(ParseOnce, MemoKeepsNamesApart) {
  GiNaC::symbol x("x"), y("y"), z("z");
  const GiNaC::symtab apart{{"x", x}, {"y", y}};
  const GiNaC::symtab merged{{"x", z}, {"y", z}};
  symbolic::ParseCounter counter;
  symbolic::ParseSession session;
  symbolic::ParseExpression("x - y", apart, {"f", 1, "k"});
  EXPECT_TRUE(symbolic::ParseExpression("x - y", merged, {"f", 1, "k"}).is_zero());
  EXPECT_EQ(counter.counts().at("x - y"), 2u);
}

}  // namespace
}  // namespace dirac
