#include "plots/column_units.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace dirac::ui {
namespace {

// unit per second: "m" -> "m/s", "m/s" -> "m/s^2", "1" -> "1/s".
std::string PerSecond(const std::string& unit) {
  if (unit.empty()) return {};
  if (unit.size() >= 2 && unit.compare(unit.size() - 2, 2, "/s") == 0) return unit + "^2";
  return unit + "/s";
}

// The quantity a unit measures, where the unit says it ("" if it does not).
std::string WordsOfUnit(const std::string& unit) {
  static const std::map<std::string, std::string> words{
      {"m", "position"},         {"rad", "angle"},
      {"m/s", "velocity"},       {"rad/s", "angular velocity"},
      {"m/s^2", "acceleration"}, {"rad/s^2", "angular acceleration"},
      {"C", "charge"},           {"C/s", "current"},
      {"A", "current"},          {"V", "voltage"},
      {"J", "energy"},           {"N", "force"},
      {"N m", "torque"},         {"kg m^2/s", "angular momentum"},
      {"kg m/s", "momentum"},    {"s", "time"}};
  const auto it = words.find(unit);
  return it == words.end() ? std::string() : it->second;
}

// The words of a name made of words: "spatial_momentum_x" -> "spatial momentum" (the last part
// is a component when it is short), "kinetic_energy" -> "kinetic energy"; "" for "E", "B_t".
std::string WordsOfName(std::string name) {
  const auto last = name.rfind('_');
  if (last != std::string::npos && name.size() - last - 1 <= 2) name.resize(last);
  std::string out;
  bool word = false;
  std::size_t letters = 0, longest = 0;
  for (const char c : name) {
    if (c == '_') {
      out += ' ';
      letters = 0;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) return "";
    out += c;
    longest = std::max(longest, ++letters);
    word = true;
  }
  return word && longest >= 4 && out.find(' ') != std::string::npos ? out : std::string();
}

// The words of a column from its kind (and the formulation: an optimal control's E is its
// Pontryagin Hamiltonian).
std::string WordsOfKind(dirac::ColumnKind kind, const dirac::Scenario& scenario) {
  using K = dirac::ColumnKind;
  switch (kind) {
    case K::kEnergy:
      return scenario.optimal_control.present || scenario.boundary_value.present()
                 ? "Pontryagin Hamiltonian"
                 : "energy";
    case K::kConstraintResidual:
      return "constraint residual";
    case K::kHiddenConstraintResidual:
      return "hidden-constraint residual";
    case K::kDynamicsResidual:
      return "dynamics residual";
    case K::kGroup:
      return scenario.reconstruction.group == "SO3" ? "attitude matrix entry" : "group element";
    case K::kDiagnostic:
      return "";
    default:
      return ColumnKindLabel(kind);
  }
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
  for (const dirac::ControlSpec& u : scenario.optimal_control.controls)
    if (!u.unit.empty()) units[u.name] = u.unit;
  for (const dirac::ConstraintSpec& c : scenario.constraints)
    if (!c.unit.empty()) units[c.multiplier] = c.unit;
  for (const dirac::HolonomicSpec& h : scenario.holonomic)
    if (!h.unit.empty()) units[h.multiplier] = h.unit;
  // The energy E in the unit of L (given or inferred by the reader); an optimal control's or
  // a boundary-value problem's E is the Pontryagin Hamiltonian, in the cost's unit: none said.
  const bool pontryagin = scenario.optimal_control.present || scenario.boundary_value.present();
  const std::string energy_unit = pontryagin ? std::string() : scenario.EnergyUnit();
  if (!energy_unit.empty()) units["E"] = energy_unit;
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
      if (column.kind == dirac::ColumnKind::kEnergy && !energy_unit.empty()) q.unit = energy_unit;
      q.words = WordsOfUnit(q.unit);
      if (q.words.empty()) q.words = WordsOfKind(column.kind, scenario);
      if (q.words.empty()) q.words = column.words;  // a diagnostic the model describes
      if (q.words.empty()) q.words = WordsOfName(column.name);
    }
    if (model->offers_gauge_two_form()) {
      // dirac::GaugeTwoForm::Compute's columns: largest entries, in units of Omega.
      const char* const unit = "units of Ω";
      out["B_norm"] = {unit, "gauge two-form", "gauge two-form",
                       "B_norm: the largest entry of B_t on the admissible subbundle K"};
      out["B_full_norm"] = {unit, "gauge two-form", "gauge two-form",
                            "B_full_norm: the largest entry of B_t on T Delta_Q"};
      out["omega_change"] = {unit, "gauge two-form", "gauge two-form",
                             "omega_change: the largest entry of Phi_t* Omega - Omega, how far "
                             "the flow is from preserving Omega"};
      out["identity_residual"] = {unit, "residual", "identity residual",
                                  "identity_residual: the largest entry of Phi_t* Omega - Omega "
                                  "- B_t (zero up to the integration error)"};
    }
  } else {
    for (const auto& [name, unit] : units) {
      out[name].unit = unit;
      out[name].words = WordsOfUnit(unit);
    }
  }
  return out;
}

}  // namespace dirac::ui
