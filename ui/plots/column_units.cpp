#include "plots/column_units.hpp"

#include <string>

namespace dirac::ui {
namespace {

// unit per second: "m" -> "m/s", "m/s" -> "m/s^2", "1" -> "1/s".
std::string PerSecond(const std::string& unit) {
  if (unit.empty()) return {};
  if (unit.size() >= 2 && unit.compare(unit.size() - 2, 2, "/s") == 0) return unit + "^2";
  return unit + "/s";
}

}  // namespace

std::string ColumnKindLabel(dirac::ColumnKind kind) {
  using K = dirac::ColumnKind;
  switch (kind) {
    case K::kTime:
      return "time";
    case K::kCoordinate:
      return "coordinate";
    case K::kVelocity:
      return "velocity";
    case K::kMomentum:
      return "momentum";
    case K::kCostate:
      return "costate";
    case K::kAcceleration:
      return "acceleration";
    case K::kRate:
      return "rate";
    case K::kControl:
      return "control";
    case K::kMultiplier:
      return "multiplier";
    case K::kEnergy:
      return "energy";
    case K::kConstraintResidual:
      return "residual";
    case K::kHiddenConstraintResidual:
      return "residual";
    case K::kDynamicsResidual:
      return "residual";
    case K::kGroup:
      return "group";
    case K::kDiagnostic:
      return "diagnostic";
  }
  return "diagnostic";
}

std::map<std::string, ColumnQuantity> DescribeColumns(const dirac::Model* model,
                                                      const dirac::Scenario& scenario) {
  std::map<std::string, std::string> units{{"t", "s"}};
  for (const dirac::Coordinate& c : scenario.coordinates) {
    units[c.name] = c.unit;
    units[c.velocity] = PerSecond(c.unit);
    units[c.name + "_dot"] = PerSecond(c.unit);
  }
  for (const dirac::FibreCoordinate& y : scenario.algebroid.fibre) units[y.name] = y.unit;
  const dirac::ReconstructionSpec& rec = scenario.reconstruction;
  if (rec.group == "SO3" && !rec.names.empty()) {
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j)
        units[rec.names[0] + std::to_string(i) + std::to_string(j)] = "1";
  } else if (rec.group == "SE2" && rec.names.size() == 3) {
    units[rec.names[2]] = "rad";
  }

  std::map<std::string, ColumnQuantity> out;
  if (model) {
    for (const dirac::ColumnInfo& column : model->columns()) {
      ColumnQuantity& q = out[column.name];
      q.kind = ColumnKindLabel(column.kind);
      if (const auto it = units.find(column.name); it != units.end()) q.unit = it->second;
    }
  } else {
    for (const auto& [name, unit] : units) out[name].unit = unit;
  }
  return out;
}

}  // namespace dirac::ui
