// The Whipple bicycle written with bodies (scenarios/whipple_bicycle.yaml) against the
// independent SymPy KanesMethod reference (tests/reference/whipple_bicycle_README.md): the
// motion, the energy, the front contact's normal force, and the size of what is printed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "scenario/scenario_symbols.hpp"

namespace dirac {
namespace {

using testing::SourcePath;

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<double> Column(const std::string& name) const {
    std::vector<double> out;
    const auto k = std::find(header.begin(), header.end(), name) - header.begin();
    for (const auto& row : rows) out.push_back(row[static_cast<std::size_t>(k)]);
    return out;
  }
};

Csv ReadCsv(const std::string& path) {
  std::ifstream in(path);
  Csv csv;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream cells(line);
    std::string cell;
    std::vector<std::string> items;
    while (std::getline(cells, cell, ',')) items.push_back(cell);
    if (csv.header.empty()) {
      csv.header = items;
      continue;
    }
    std::vector<double> row;
    for (const auto& item : items) row.push_back(std::stod(item));
    csv.rows.push_back(row);
  }
  return csv;
}

Scenario Bicycle() { return LoadScenario(SourcePath("scenarios/whipple_bicycle.yaml")); }

TEST(Bicycle, TheModelIsWhatThePaperDescribes) {
  const Scenario s = Bicycle();
  EXPECT_EQ(s.coordinates.size(), 8u);
  ASSERT_EQ(s.constraints.size(), 4u);  // the no-slip forms of both wheels
  ASSERT_EQ(s.holonomic.size(), 1u) << "the rear contact height holds by construction";
  EXPECT_EQ(s.holonomic[0].name, "front_contact");
  EXPECT_NEAR(s.parameters[*s.FindParameter("lambda")].value, M_PI / 10, 1e-16);
  EXPECT_NEAR(s.coordinates[6].initial_velocity, -5 / 0.3, 1e-14);
}

TEST(Bicycle, MotionMatchesTheKanesMethodReference) {
  const Scenario s = Bicycle();
  const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
  const Csv ref = ReadCsv(SourcePath("tests/reference/whipple_bicycle_reference.csv"));
  ASSERT_EQ(tr.num_rows(), ref.rows.size());
  const std::map<std::string, std::string> columns{{"x", "x"},
                                                   {"y", "y"},
                                                   {"psi", "psi"},
                                                   {"phi", "phi"},
                                                   {"theta", "theta"},
                                                   {"delta", "delta"},
                                                   {"thetaR", "thetaR"},
                                                   {"thetaF", "thetaF"},
                                                   {"x_dot", "vx"},
                                                   {"y_dot", "vy"},
                                                   {"psi_dot", "vpsi"},
                                                   {"phi_dot", "vphi"},
                                                   {"theta_dot", "vtheta"},
                                                   {"delta_dot", "vdelta"},
                                                   {"thetaR_dot", "vthetaR"},
                                                   {"thetaF_dot", "vthetaF"},
                                                   {"energy", "E"}};
  for (const auto& [theirs, ours] : columns) {
    const auto a = ref.Column(theirs), b = tr.Column(ours);
    double worst = 0;
    for (std::size_t r = 0; r < a.size(); ++r) worst = std::max(worst, std::abs(a[r] - b[r]));
    // Coordinates and rates to 1e-9; the energy (~2024 J) relative.
    EXPECT_LT(worst, theirs == "energy" ? 1e-9 * 2024.5 : 1e-9) << ours;
  }
  const auto E = tr.Column("E");
  double drift = 0;
  for (double e : E) drift = std::max(drift, std::abs(e - E.front()) / std::abs(E.front()));
  EXPECT_LT(drift, 1e-8);
  const auto residual = tr.Column("position_residual_front_contact");
  double worst_residual = 0;
  for (double r : residual) worst_residual = std::max(worst_residual, std::abs(r));
  EXPECT_LT(worst_residual, 1e-10);
  std::printf("bicycle: energy drift %.3g relative, front contact residual %.3g m\n", drift,
              worst_residual);
}

// The front contact is held at position level over a long run (issue 37): 200 s at v = 5, the
// bicycle weaving out and running on turned (x passes 900 m), its pitch never drifting off the
// contact height: the position residual stays at the tolerance (measured 1.0e-11 m), and the
// run report's constraint residual includes it.
TEST(Bicycle, FrontContactHoldsOver200Seconds) {
  Scenario s = Bicycle();
  ApplyOverride(s, "t_end=200");
  ApplyOverride(s, "output_step=0.05");
  const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
  ASSERT_NEAR(tr.Column("t").back(), 200.0, 1e-9);
  EXPECT_GT(tr.Column("x").back(), 500.0) << "the bicycle ran on";
  double worst = 0;
  for (double r : tr.Column("position_residual_front_contact"))
    worst = std::max(worst, std::abs(r));
  EXPECT_LE(worst, 1e-10);
  EXPECT_GT(worst, 0.0) << "the column is computed, not filled";
  const auto E = tr.Column("E");
  EXPECT_LT(std::abs(E.back() - E.front()), 1e-8 * std::abs(E.front()));
  std::printf("bicycle, 200 s: front contact residual %.3g m\n", worst);
}

// `dirac analyze` (AnalyzeChain) counts the front contact among the bicycle's constraints and
// names it by its given name; before, the chain left holonomic constraints out.
TEST(Bicycle, AnalyzeNamesTheFrontContact) {
  const ConstraintChain chain = AnalyzeChain(Bicycle());
  ASSERT_EQ(chain.final_constraints.size(), 5u) << "four no-slip forms and the front contact";
  EXPECT_EQ(chain.final_constraints.back(), "front_contact_rate = 0");
  bool named = false;
  for (const auto& d : chain.decisions)
    named = named || d.rfind("holonomic constraint front_contact: ", 0) == 0;
  EXPECT_TRUE(named) << FormatChain(chain);
}

TEST(Bicycle, FrontNormalForceAtStraightRunningIsTheStaticLoad) {
  Scenario s = Bicycle();
  ApplyOverride(s, "vphi=0");
  ApplyOverride(s, "t_end=0.1");
  const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
  auto p = [&](const char* name) { return s.parameters[*s.FindParameter(name)].value; };
  const double load = p("g") * (p("mB") * p("xB") + p("mH") * p("xH") + p("mF") * p("w")) / p("w");
  EXPECT_NEAR(load, 309.30352941176477, 1e-9);
  // The multiplier of the contact height u.P = 0 (u up, against gravity): the ground pushes the
  // wheel up with the static front load.
  for (double mu : tr.Column("mu_front_contact")) EXPECT_NEAR(std::abs(mu), load, 1e-8);
}

TEST(Bicycle, EquationsPrintTheDefinitionsInUnder100KB) {
  const std::string command = std::string(DIRAC_CLI) + " equations " +
                              SourcePath("scenarios/whipple_bicycle.yaml") + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0);
  EXPECT_LT(text.size(), 100000u);
  EXPECT_NE(text.find("definition steer_x: c+w"), std::string::npos) << text.substr(0, 500);
  EXPECT_NE(text.find("definition front_contact"), std::string::npos);
  EXPECT_NE(text.find("L: T_fork+T_front_wheel+T_rear_frame+T_rear_wheel-V_fork"),
            std::string::npos);
  EXPECT_NE(text.find("omitted"), std::string::npos) << "says what it leaves out";
}

// Same input, same bytes (docs/robustness.md): the expressions the bodies generate hold exact
// numbers only. A floating-point 1.0 from an axis spreads to every coefficient it meets, and
// GiNaC then rounds when it combines terms in its address-dependent order: the bicycle's CSV
// differed between processes by up to 1.9e-10 before the axes became exact.
bool HoldsAFloat(const GiNaC::ex& e) {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::numeric>(*it) && !GiNaC::ex_to<GiNaC::numeric>(*it).is_rational())
      return true;
  return false;
}

TEST(Bicycle, GeneratedExpressionsHoldExactNumbersOnly) {
  const Scenario s = Bicycle();
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kTangent});
  std::map<std::string, bool> seen{{"T_fork", false},
                                   {"T_front_wheel", false},
                                   {"front_long", false},
                                   {"front_lat", false},
                                   {"front_contact", false}};
  for (const auto& [name, value] : symbols.definition_values()) {
    EXPECT_FALSE(HoldsAFloat(value)) << name;
    if (seen.count(name)) seen[name] = true;
  }
  for (const auto& [name, found] : seen) EXPECT_TRUE(found) << name << " is generated";
}

// Decimals in a body model (an offset of 0.25, a knife edge across the axis (0.6, 0.8, 0)) enter
// the generated expressions as the rationals they spell, not as floats (a knife edge's numeric
// axis was once written with std::to_string, six decimals).
TEST(Bicycle, DecimalsOfABodyModelStayExact) {
  std::ifstream in(std::string(DIRAC_SOURCE_DIR) + "/scenarios/chaplygin_sleigh.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const std::string axis = "axis: y, multiplier";
  const std::string offset = "offset: [-a, 0, 0]";
  ASSERT_NE(yaml.find(axis), std::string::npos);
  ASSERT_NE(yaml.find(offset), std::string::npos);
  yaml.replace(yaml.find(axis), axis.size(), "axis: [0.6, 0.8, 0], multiplier");
  yaml.replace(yaml.find(offset), offset.size(), "offset: [-a, 0.25, 0]");
  const Scenario s = ParseScenario(yaml, "sleigh_decimals.yaml");
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kTangent});
  bool knife_edge = false;
  for (const auto& [name, value] : symbols.definition_values()) {
    EXPECT_FALSE(HoldsAFloat(value)) << name << " = " << value;
    if (name == "knife_edge") {
      knife_edge = true;
      // The blade's velocity along the axis, exactly: (vx, vy) . (3/5, 4/5) at theta = 0.
      // (A copy: clang 14 cannot capture a structured binding.)
      const GiNaC::ex form = value;
      auto at = [&form](int vx, int vy) {
        GiNaC::exmap point;
        for (auto it = form.preorder_begin(); it != form.preorder_end(); ++it)
          if (GiNaC::is_a<GiNaC::symbol>(*it)) {
            const std::string n = GiNaC::ex_to<GiNaC::symbol>(*it).get_name();
            point[*it] = n == "vx" ? vx : (n == "vy" ? vy : 0);
          }
        return form.subs(point);
      };
      EXPECT_TRUE(at(1, 0).is_equal(GiNaC::numeric(3, 5))) << at(1, 0);
      EXPECT_TRUE(at(0, 1).is_equal(GiNaC::numeric(4, 5))) << at(0, 1);
    }
  }
  EXPECT_TRUE(knife_edge);
}

}  // namespace
}  // namespace dirac
