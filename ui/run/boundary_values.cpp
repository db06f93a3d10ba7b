#include "run/boundary_values.hpp"

#include <algorithm>
#include <cmath>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

constexpr const char* kInitial = "initial.";
constexpr const char* kFinal = "final.";

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.size() > prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

// The unit of a coordinate or fibre coordinate ("" if none or not one).
std::string UnitOf(const dirac::Scenario& s, const std::string& quantity) {
  for (const dirac::Coordinate& c : s.coordinates)
    if (c.name == quantity) return c.unit;
  for (const dirac::FibreCoordinate& y : s.algebroid.fibre)
    if (y.name == quantity) return y.unit;
  const auto& rec = s.reconstruction;
  if (rec.group == "SO3" && !rec.names.empty() && StartsWith(quantity, rec.names[0] + "."))
    return "rad";
  if (rec.group == "SE2" && rec.names.size() == 3 && quantity == rec.names[2]) return "rad";
  return "";
}

// What a group component means (the names R.x or x, y, theta do not say it), else "".
std::string DescriptionOf(const dirac::Scenario& s, const std::string& quantity) {
  const auto& rec = s.reconstruction;
  if (rec.group == "SO3" && !rec.names.empty() && StartsWith(quantity, rec.names[0] + ".")) {
    const std::string& r = rec.names[0];
    return r + ".x, " + r + ".y, " + r + ".z: the attitude " + r + " as a rotation vector (log " +
           r + ": the rotation axis times the angle in rad, space frame); 0 is the identity.";
  }
  if (rec.group == "SE2" && rec.names.size() == 3)
    for (const std::string& name : rec.names)
      if (name == quantity)
        return rec.names[0] + ", " + rec.names[1] + ", " + rec.names[2] +
               ": the planar pose of the group element (position and heading angle).";
  return "";
}

// The quantities of an optimal_control block, in the order the panel lists them.
std::vector<std::string> OptimalControlQuantities(const dirac::Scenario& s) {
  std::vector<std::string> q;
  for (const dirac::Coordinate& c : s.coordinates) q.push_back(c.name);
  if (!s.algebroid.present)
    for (const dirac::Coordinate& c : s.coordinates) q.push_back(c.velocity);
  for (const dirac::FibreCoordinate& y : s.algebroid.fibre) q.push_back(y.name);
  const auto& rec = s.reconstruction;
  if (rec.group == "SO3" && !rec.names.empty()) {
    for (const char* axis : {".x", ".y", ".z"}) q.push_back(rec.names[0] + axis);
  } else if (rec.group == "SE2") {
    for (const std::string& name : rec.names) q.push_back(name);
  }
  return q;
}

bool IsUnknown(const dirac::Scenario& s, const std::string& name) {
  const auto& u = s.boundary_value.unknowns;
  return std::find(u.begin(), u.end(), name) != u.end();
}

// boundary_value: the initial values that are not unknowns (coordinates, velocities, fibre).
std::vector<std::string> BoundaryValueInitials(const dirac::Scenario& s) {
  std::vector<std::string> q;
  for (const dirac::Coordinate& c : s.coordinates) {
    if (!IsUnknown(s, c.name)) q.push_back(c.name);
    if (!s.algebroid.present && !IsUnknown(s, c.velocity)) q.push_back(c.velocity);
  }
  for (const dirac::FibreCoordinate& y : s.algebroid.fibre)
    if (!IsUnknown(s, y.name)) q.push_back(y.name);
  return q;
}

[[noreturn]] void Fail(const dirac::Scenario& s, const std::string& name,
                       const std::string& message) {
  throw dirac::ScenarioError(s.source_file, 0, name, message);
}

}  // namespace

bool PosesSolve(const dirac::Scenario& scenario) {
  return scenario.optimal_control.present || scenario.boundary_value.present();
}

std::vector<BoundaryValueInfo> ListBoundaryValues(const dirac::Scenario& s) {
  std::vector<BoundaryValueInfo> list;
  auto add = [&](const std::string& quantity, bool initial, bool can_free) {
    list.push_back({(initial ? kInitial : kFinal) + quantity, quantity, initial, false, can_free,
                    UnitOf(s, quantity), DescriptionOf(s, quantity)});
  };
  if (s.optimal_control.present) {
    const std::vector<std::string> quantities = OptimalControlQuantities(s);
    for (const std::string& q : quantities) add(q, true, true);
    for (const std::string& q : quantities) add(q, false, true);
    // A problem with horizon bounds may leave T free (minimum time): the solve finds it.
    const bool can_free = std::isfinite(s.optimal_control.horizon_max) &&
                          s.optimal_control.horizon_min > 0.0 &&
                          s.optimal_control.horizon_min < s.optimal_control.horizon_max;
    list.push_back({"horizon", "", false, true, can_free, "s",
                    can_free ? "T: the horizon of the problem, also the final time of the run; "
                               "free: the solve finds it within the horizon bounds."
                             : "T: the horizon of the problem, also the final time of the run."});
  } else if (s.boundary_value.present()) {
    for (const std::string& q : BoundaryValueInitials(s)) add(q, true, false);
    for (const auto& [column, value] : s.boundary_value.targets) add(column, false, false);
  }
  return list;
}

bool IsBoundaryValueName(const dirac::Scenario& scenario, const std::string& name) {
  for (const BoundaryValueInfo& info : ListBoundaryValues(scenario))
    if (info.name == name) return true;
  return false;
}

std::optional<double> GetBoundaryValue(const dirac::Scenario& s, const std::string& name) {
  if (s.optimal_control.present) {
    if (name == "horizon" && s.optimal_control.horizon_free) return std::nullopt;
    return dirac::CurrentValue(s, name);
  }
  if (!s.boundary_value.present()) return std::nullopt;
  if (StartsWith(name, kInitial)) return dirac::CurrentValue(s, name.substr(8));
  return dirac::CurrentValue(s, name);  // final.<column>: a target
}

void SetBoundaryValue(dirac::Scenario& s, const std::string& name, std::optional<double> value) {
  if (s.optimal_control.present) {
    if (value) {
      dirac::ApplyOverride(s, name, *value);
    } else {
      dirac::ApplyOverride(s, name + "=free");
    }
    return;
  }
  if (!IsBoundaryValueName(s, name)) Fail(s, name, "names no boundary value of the scenario");
  if (!value)
    Fail(s, name, "a boundary_value problem needs as many targets as unknowns: none can be freed");
  if (StartsWith(name, kInitial)) return dirac::ApplyOverride(s, name.substr(8), *value);
  dirac::ApplyOverride(s, name, *value);  // final.<column>: a target
}

}  // namespace dirac::ui
