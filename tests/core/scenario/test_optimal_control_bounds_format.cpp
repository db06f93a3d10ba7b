// The bounds, free horizon and method of an `optimal_control:` block: reading, errors naming
// file/line/symbol (also for bounds no motion can meet), save/reload, the --set names
// (bounds.<name>.min/.max, horizon_bounds.min/.max, horizon_guess, horizon=free) and CurrentValue.
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

using namespace testing;  // the shared optimal-control texts and ExpectError

// kSo3 with torque and rate bounds, a free horizon and the collocation method.
const std::string kBounded =
    Replace(Replace(kSo3, "  horizon: 2.0\n",
                    "  horizon: free\n  horizon_bounds: [0.5, 6]\n  horizon_guess: 2.5\n"),
            "  shooting:",
            "  bounds: {u1: [-50, 50], u2: [-inf, 3], w2: [-0.5, 0.5]}\n"
            "  method: collocation\n"
            "  collocation: {nodes: 40, max_iterations: 200, tolerance: 1e-8}\n  shooting:");

const VariableBound* FindBound(const OptimalControlSpec& spec, const std::string& name) {
  for (const auto& b : spec.bounds)
    if (b.name == name) return &b;
  return nullptr;
}

TEST(OptimalControlBoundsFormat, ReadsBoundsFreeHorizonAndMethod) {
  const Scenario s = ParseScenario(kBounded, "b.yaml");
  const auto& oc = s.optimal_control;
  EXPECT_TRUE(oc.horizon_free);
  EXPECT_EQ(oc.horizon_min, 0.5);
  EXPECT_EQ(oc.horizon_max, 6.0);
  EXPECT_EQ(oc.horizon, 2.5);
  EXPECT_EQ(s.simulation.t_end, 2.5);  // the guess is the T of the initial motion
  ASSERT_EQ(oc.bounds.size(), 3u);
  EXPECT_EQ(oc.bounds[0].name, "u1");
  EXPECT_EQ(oc.bounds[0].min, -50.0);
  EXPECT_EQ(oc.bounds[0].max, 50.0);
  EXPECT_EQ(oc.bounds[0].where.line, LineOf(kBounded, " bounds: "));
  EXPECT_EQ(oc.bounds[1].min, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(oc.bounds[1].max, 3.0);
  EXPECT_EQ(oc.bounds[2].name, "w2");
  EXPECT_EQ(oc.method, OptimalControlMethod::kCollocation);
  EXPECT_EQ(oc.collocation.nodes, 40);
  EXPECT_EQ(oc.collocation.max_iterations, 200);
  EXPECT_EQ(oc.collocation.tolerance, 1e-8);
  // Without the keys: no bounds, a fixed horizon, method auto, default collocation settings.
  const Scenario plain = ParseScenario(kSo3, "so3.yaml");
  EXPECT_TRUE(plain.optimal_control.bounds.empty());
  EXPECT_FALSE(plain.optimal_control.horizon_free);
  EXPECT_EQ(plain.optimal_control.method, OptimalControlMethod::kAuto);
  EXPECT_EQ(plain.optimal_control.collocation.nodes, 0);
  // A free horizon without a guess starts in the middle of its bounds.
  const Scenario mid = ParseScenario(Replace(kBounded, "  horizon_guess: 2.5\n", ""), "mid.yaml");
  EXPECT_EQ(mid.optimal_control.horizon, 3.25);
}

// One edit of kBounded and the symbol and line its error must name.
struct BadEdit {
  const char* from;
  const char* to;
  const char* symbol;
  const char* at;
};

void ExpectErrors(std::initializer_list<BadEdit> edits) {
  for (const BadEdit& e : edits) ExpectError(Replace(kBounded, e.from, e.to), e.symbol, e.at);
}

TEST(OptimalControlBoundsFormat, BadBoundsNameFileLineAndSymbol) {
  const char* at = " bounds: ";
  ExpectErrors({{"u1: [-50, 50]", "k: [-50, 50]", "k", at},
                {"u1: [-50, 50]", "R.x: [-1, 1]", "R.x", at},
                {"u1: [-50, 50]", "u1: [50, -50]", "u1", at},
                {"u1: [-50, 50]", "u1: [-50]", "u1", at},
                {"u1: [-50, 50]", "u1: 50", "u1", at},
                {"u1: [-50, 50]", "u1: [-50, big]", "u1", at},
                {"u1: [-50, 50]", "u1: [nan, 50]", "u1", at},
                {"u2: [-inf, 3]", "u1: [-inf, 3]", "u1", at},
                {"{u1: [-50, 50], u2: [-inf, 3], w2: [-0.5, 0.5]}", "[u1]", "bounds", at}});
  // On TQ a bound names the velocity or the coordinate, not a momentum.
  const std::string tq = Replace(kTq, "  final:", "  bounds: {vx: [-2, 2], x: [-1, 2]}\n  final:");
  EXPECT_EQ(ParseScenario(tq, "tq.yaml").optimal_control.bounds.size(), 2u);
  ExpectError(Replace(tq, "x: [-1, 2]", "p_x: [-1, 2]"), "p_x", " bounds: ");
}

TEST(OptimalControlBoundsFormat, BadHorizonAndMethod) {
  ExpectErrors({{"  horizon_bounds: [0.5, 6]\n", "", "horizon_bounds", "horizon: free"},
                {"[0.5, 6]", "[0, 6]", "horizon_bounds", "horizon_bounds:"},
                {"[0.5, 6]", "[6, 0.5]", "horizon_bounds", "horizon_bounds:"},
                {"[0.5, 6]", "[0.5, inf]", "horizon_bounds", "horizon_bounds:"},
                {"[0.5, 6]", "0.5", "horizon_bounds", "horizon_bounds:"},
                {"horizon_guess: 2.5", "horizon_guess: 7", "horizon_guess", "horizon_guess:"},
                {"horizon: free", "horizon: 2", "horizon_bounds", "horizon_bounds:"},
                {"horizon: free", "horizon: Free", "horizon", "horizon: Free"},
                {"method: collocation", "method: pseudospectral", "pseudospectral", "method:"},
                {"nodes: 40, max", "nodes: -2, max", "nodes", "collocation:"},
                {"tolerance: 1e-8", "tolerance: 0", "tolerance", "collocation:"},
                {"nodes: 40, max", "knots: 40, max", "knots", "collocation:"}});
}

// Bounds that no motion can meet with the boundary values: refused at the bound's line.
TEST(OptimalControlBoundsFormat, InfeasibleBoundsAgainstBoundaryValues) {
  // The final value w1 = 0 outside w1's bound.
  ExpectError(Replace(kBounded, "w2: [-0.5, 0.5]", "w1: [0.1, 0.5]"), "w1", " bounds: ");
  // The unlisted initial value of w3 (0.2, from the scenario) outside w3's bound.
  ExpectError(Replace(kBounded, "w2: [-0.5, 0.5]", "w3: [-0.1, 0.1]"), "w3", " bounds: ");
  // A listed initial value.
  ExpectError(Replace(Replace(kBounded, "w2: [-0.5, 0.5]", "w1: [0.5, 1]"), "{w1: 0.0, R.x",
                      "{w1: 2.0, R.x"),
              "w1", " bounds: ");
  // A free end is no conflict.
  EXPECT_NO_THROW(
      ParseScenario(Replace(Replace(Replace(kBounded, "w2: [-0.5, 0.5]", "w1: [0.1, 0.5]"),
                                    "final: {w1: 0.0,", "final: {w1: free,"),
                            "{w1: 0.0, R.x", "{w1: free, R.x"),
                    "ok.yaml"));
}

TEST(OptimalControlBoundsFormat, SaveAndReloadKeepsBoundsHorizonAndMethod) {
  Scenario s = ParseScenario(kBounded, "b.yaml");
  for (int pass = 0; pass < 2; ++pass) {
    const std::string saved = SaveScenarioToString(s);
    SCOPED_TRACE(saved);
    const Scenario back = ParseScenario(saved, "back.yaml");
    const auto &a = s.optimal_control, &b = back.optimal_control;
    EXPECT_EQ(b.horizon_free, a.horizon_free);
    EXPECT_EQ(b.horizon, a.horizon);
    if (a.horizon_free) {
      EXPECT_EQ(b.horizon_min, a.horizon_min);
      EXPECT_EQ(b.horizon_max, a.horizon_max);
    }
    ASSERT_EQ(b.bounds.size(), a.bounds.size());
    for (std::size_t k = 0; k < a.bounds.size(); ++k) {
      EXPECT_EQ(b.bounds[k].name, a.bounds[k].name);
      EXPECT_EQ(b.bounds[k].min, a.bounds[k].min);
      EXPECT_EQ(b.bounds[k].max, a.bounds[k].max);
    }
    EXPECT_EQ(b.method, a.method);
    EXPECT_EQ(b.collocation.nodes, a.collocation.nodes);
    EXPECT_EQ(b.collocation.tolerance, a.collocation.tolerance);
    // Second pass: values needing 17 digits, a fixed horizon, method auto.
    ApplyOverride(s, "bounds.u1.max", 0.1 + 0.2);
    ApplyOverride(s, "horizon", 2.0 / 3.0);
    ApplyOverride(s, "optimal_control.method=auto");
  }
  EXPECT_FALSE(s.optimal_control.horizon_free);
}

TEST(OptimalControlBoundsFormat, EveryBoundIsASetName) {
  Scenario s = ParseScenario(kBounded, "b.yaml");
  EXPECT_EQ(CurrentValue(s, "bounds.u1.min"), -50.0);
  EXPECT_EQ(CurrentValue(s, "bounds.w2.max"), 0.5);
  EXPECT_EQ(CurrentValue(s, "horizon_bounds.min"), 0.5);
  EXPECT_EQ(CurrentValue(s, "horizon_bounds.max"), 6.0);
  EXPECT_EQ(CurrentValue(s, "horizon_guess"), 2.5);
  EXPECT_EQ(CurrentValue(s, "bounds.u3.min"), std::nullopt);  // not bounded
  ApplyOverrides(s, {"bounds.u1.min=-40", "bounds.w2.max=0.25", "horizon_bounds.max=5",
                     "horizon_guess=3", "bounds.u3.max=7"});
  const auto& oc = s.optimal_control;
  EXPECT_EQ(FindBound(oc, "u1")->min, -40.0);
  EXPECT_EQ(FindBound(oc, "w2")->max, 0.25);
  EXPECT_EQ(oc.horizon_max, 5.0);
  EXPECT_EQ(oc.horizon, 3.0);
  EXPECT_EQ(s.simulation.t_end, 3.0);
  ASSERT_NE(FindBound(oc, "u3"), nullptr);  // a new bound, its other side open
  EXPECT_EQ(FindBound(oc, "u3")->max, 7.0);
  EXPECT_EQ(FindBound(oc, "u3")->min, -std::numeric_limits<double>::infinity());
  // horizon=<value> fixes the horizon; horizon=free releases it again (same bounds).
  ApplyOverride(s, "horizon=2");
  EXPECT_FALSE(s.optimal_control.horizon_free);
  EXPECT_EQ(CurrentValue(s, "horizon_guess"), std::nullopt);
  ApplyOverride(s, "horizon=free");
  EXPECT_TRUE(s.optimal_control.horizon_free);
  EXPECT_EQ(s.optimal_control.horizon, 2.0);
  // t_end is the same T: setting it fixes the horizon too (dirac run --t-end 1 on the model).
  ApplyOverrides(s, {"t_end=1"});
  EXPECT_FALSE(s.optimal_control.horizon_free);
  EXPECT_EQ(s.optimal_control.horizon, 1.0);
}

TEST(OptimalControlBoundsFormat, BadOverridesChangeNothing) {
  const Scenario original = ParseScenario(kBounded, "b.yaml");
  auto expect_refused = [&](const std::vector<std::string>& sets, const std::string& symbol) {
    Scenario s = original;
    try {
      ApplyOverrides(s, sets);
      ADD_FAILURE() << sets.front();
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.symbol(), symbol) << e.what();
    }
    EXPECT_EQ(SaveScenarioToString(s), SaveScenarioToString(original)) << sets.front();
  };
  expect_refused({"bounds.u1.min=60"}, "bounds.u1");            // min > max
  expect_refused({"bounds.w1.min=0.1"}, "bounds.w1");           // final w1 = 0 outside
  expect_refused({"final.w2=0.7"}, "bounds.w2");                // a final value outside
  expect_refused({"horizon_bounds.min=4"}, "horizon_guess");    // guess 2.5 now outside
  expect_refused({"horizon_bounds.min=-1"}, "horizon_bounds");  // not > 0
  expect_refused({"bounds.k.min=1"}, "bounds.k");               // names nothing
  expect_refused({"optimal_control.method=fast"}, "optimal_control.method");
  // Single overrides are checked on the spot too.
  Scenario s = original;
  EXPECT_THROW(ApplyOverride(s, "bounds.u1.max", -60.0), ScenarioError);
  EXPECT_EQ(FindBound(s.optimal_control, "u1")->max, 50.0);
  // A fixed horizon cannot be released without finite bounds.
  Scenario fixed = ParseScenario(kSe2, "se2.yaml");
  EXPECT_THROW(ApplyOverride(fixed, "horizon=free"), ScenarioError);
  EXPECT_FALSE(fixed.optimal_control.horizon_free);
  ApplyOverrides(fixed, {"horizon_bounds.min=1", "horizon_bounds.max=5", "horizon=free"});
  EXPECT_TRUE(fixed.optimal_control.horizon_free);
}

}  // namespace
}  // namespace dirac
