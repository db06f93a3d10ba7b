// The energy's unit (issue 40, "energy axes without units"): the unit texts the reader knows
// (scenario/energy_unit.hpp), the unit of L found from its symbols' units in every shipped
// scenario that gives them (worked out by hand: an inductance times a current squared is a
// joule, a stiffness per unit mass times a length squared is m^2/s^2), and `energy_unit:` in the
// file taking precedence and surviving a save.
#include <gtest/gtest.h>

#include <string>

#include "canonical_problems.hpp"
#include "dirac/scenario.hpp"
#include "scenario/energy_unit.hpp"

namespace dirac {
namespace {

using scenario::Dimension;
using scenario::FormatDimension;
using scenario::ParseUnit;

std::string Shipped(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name + ".yaml")).EnergyUnit();
}

TEST(EnergyUnit, UnitTextsReadAsSiDimensions) {
  EXPECT_EQ(ParseUnit("kg m^2"), (Dimension{1, 2, 0, 0, 0, 0, 0}));
  EXPECT_EQ(ParseUnit("1/s^2"), (Dimension{0, 0, -2, 0, 0, 0, 0}));
  EXPECT_EQ(ParseUnit("V/m"), (Dimension{1, 1, -3, -1, 0, 0, 0}));
  EXPECT_EQ(ParseUnit("kg m^2/s"), (Dimension{1, 2, -1, 0, 0, 0, 0}));
  EXPECT_EQ(ParseUnit("J/(kg K)"), (Dimension{0, 2, -2, 0, -1, 0, 0}));
  EXPECT_EQ(ParseUnit("N*m"), ParseUnit("J"));
  EXPECT_EQ(ParseUnit("H"), ParseUnit("V s/A"));
  EXPECT_EQ(ParseUnit("F"), ParseUnit("C/V"));
  EXPECT_EQ(ParseUnit("rad/s"), ParseUnit("Hz"));
  for (const char* unknown : {"", "cm", "deg", "units of Ω", "m/s/s", "m^x", "kg^1.5"})
    EXPECT_FALSE(ParseUnit(unknown)) << unknown;
}

TEST(EnergyUnit, DimensionsPrintAsUnits) {
  EXPECT_EQ(FormatDimension(*ParseUnit("kg m^2/s^2")), "J");
  EXPECT_EQ(FormatDimension(*ParseUnit("m^2/s^2")), "m^2/s^2");
  EXPECT_EQ(FormatDimension(*ParseUnit("kg m/s")), "kg m/s");
  EXPECT_EQ(FormatDimension(*ParseUnit("1/(A s)")), "1/(s A)");
  EXPECT_EQ(FormatDimension(*ParseUnit("rad")), "1");
}

TEST(EnergyUnit, InferredFromTheShippedScenariosUnits) {
  // m (v^2)/2, I w^2/2 with w in rad/s, L i^2/2 - q^2/(2C), e A.v - e phi: joules.
  for (const char* name : {"rolling_disk", "chaplygin_sleigh", "rigid_body", "suslov", "lc_circuit",
                           "charged_particle"})
    EXPECT_EQ(Shipped(name), "J") << name;
  // Unit mass: (v^2)/2 - k x^2/2 with k in 1/s^2 is an energy per kilogram.
  EXPECT_EQ(Shipped("heisenberg"), "m^2/s^2");
  // No units given: nothing said.
  EXPECT_EQ(Shipped("degenerate"), "");
  EXPECT_EQ(Shipped("point_vortices"), "");
}

TEST(EnergyUnit, GivenUnitWinsAndRoundTrips) {
  const std::string text =
      "name: oscillator\n"
      "coordinates:\n"
      "  - {name: x, velocity: vx, initial: 1, unit: m}\n"
      "parameters:\n"
      "  - {name: k, default: 1, unit: N/m}\n"
      "lagrangian: \"vx^2/2 - k*x^2/2\"\n";  // terms of different units: none inferred
  const Scenario inferred = ParseScenario(text, "a.yaml");
  EXPECT_EQ(inferred.EnergyUnit(), "");
  EXPECT_EQ(SaveScenarioToString(inferred).find("energy_unit"), std::string::npos);
  const Scenario given = ParseScenario(text + "energy_unit: J/kg\n", "b.yaml");
  EXPECT_EQ(given.EnergyUnit(), "J/kg");
  EXPECT_EQ(ParseScenario(SaveScenarioToString(given), "c.yaml").EnergyUnit(), "J/kg");
  const Scenario consistent = ParseScenario(
      "name: spring\n"
      "coordinates:\n"
      "  - {name: x, velocity: vx, initial: 1, unit: m}\n"
      "parameters:\n"
      "  - {name: m, default: 2, unit: kg}\n"
      "  - {name: k, default: 1, unit: N/m}\n"
      "lagrangian: \"m*vx^2/2 - k*x^2/2 + m*sin(x/vx/t)\"\n",
      "d.yaml");
  EXPECT_EQ(consistent.EnergyUnit(), "");  // m*sin(...) is in kg, not J: terms disagree
}

}  // namespace
}  // namespace dirac
