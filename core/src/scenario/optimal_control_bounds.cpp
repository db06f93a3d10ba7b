// The check of an optimal-control problem's bounds and free horizon (CheckOptimalControlBounds),
// shared by the reader, the --set overrides and the solvers.
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac {
namespace {

std::string Interval(double min, double max) {
  std::ostringstream out;
  out.precision(17);
  out << "[" << min << ", " << max << "]";
  return out.str();
}

std::optional<SettingProblem> CheckHorizon(const OptimalControlSpec& spec) {
  if (!spec.horizon_free) return std::nullopt;
  if (!(spec.horizon_min > 0) || !std::isfinite(spec.horizon_max) ||
      !(spec.horizon_min < spec.horizon_max))
    return SettingProblem{"horizon_bounds",
                          "a free horizon needs finite bounds 0 < min < max, found " +
                              Interval(spec.horizon_min, spec.horizon_max)};
  if (!(spec.horizon >= spec.horizon_min && spec.horizon <= spec.horizon_max))
    return SettingProblem{"horizon_guess", "lies outside horizon_bounds " +
                                               Interval(spec.horizon_min, spec.horizon_max)};
  return std::nullopt;
}

// A fixed end value of the bounded quantity outside its bound.
std::optional<SettingProblem> CheckEnds(const Scenario& s, const VariableBound& b) {
  const std::string key = "bounds." + b.name;
  auto outside = [&](double v) { return v < b.min || v > b.max; };
  // The fixed end values, listed or (initial) the scenario's own.
  const std::optional<double> initial = CurrentValue(s, "initial." + b.name);
  if (initial && outside(*initial))
    return SettingProblem{key, "the fixed initial value " + std::to_string(*initial) + " of " +
                                   b.name + " lies outside its bound " + Interval(b.min, b.max) +
                                   ": no motion meets both"};
  const std::optional<double> final_value = CurrentValue(s, "final." + b.name);
  if (final_value && outside(*final_value))
    return SettingProblem{key, "the final value " + std::to_string(*final_value) + " of " +
                                   b.name + " lies outside its bound " + Interval(b.min, b.max) +
                                   ": no motion meets both"};
  return std::nullopt;
}

}  // namespace

std::optional<SettingProblem> CheckOptimalControlBounds(const Scenario& s) {
  const auto& spec = s.optimal_control;
  if (!spec.present) return std::nullopt;
  if (auto problem = CheckHorizon(spec)) return problem;
  const std::vector<std::string> states = scenario::BoundedQuantities(s);
  for (std::size_t k = 0; k < spec.bounds.size(); ++k) {
    const VariableBound& b = spec.bounds[k];
    const std::string key = "bounds." + b.name;
    bool known = false;
    for (const auto& name : states) known = known || name == b.name;
    for (const auto& u : spec.controls) known = known || u.name == b.name;
    if (!known)
      return SettingProblem{key,
                            "names no control, base coordinate or " +
                                std::string(s.algebroid.present ? "fibre coordinate" : "velocity")};
    for (std::size_t j = 0; j < k; ++j)
      if (spec.bounds[j].name == b.name) return SettingProblem{key, "bound given twice"};
    if (std::isnan(b.min) || std::isnan(b.max) || !(b.min <= b.max))
      return SettingProblem{key, "expected min <= max, found " + Interval(b.min, b.max)};
    if (auto problem = CheckEnds(s, b)) return problem;
  }
  return std::nullopt;
}

}  // namespace dirac
