#pragma once
// Internal to core/src/scenario/: reading YAML nodes with errors that name file, line and key,
// the formulation names of the file format (shared by the reader, the writer and
// SetFormulation) and the quantities an optimal_control boundary condition may name (shared by
// the reader and the --set overrides).

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

namespace dirac::scenario {

// Reads YAML nodes while remembering the file, so every error says FILE:LINE: 'key': message.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  std::size_t Line(const YAML::Node& node) const {
    return node.Mark().line >= 0 ? static_cast<std::size_t>(node.Mark().line) + 1 : 0;
  }

  [[noreturn]] void Fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const {
    throw ScenarioError(file_, Line(node), key, message);
  }

  YAML::Node Required(const YAML::Node& map, const std::string& key) const {
    YAML::Node value = map[key];
    if (!value) Fail(map, key, "missing required key");
    return value;
  }

  std::string String(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) Fail(node, key, "expected a text value");
    return node.Scalar();
  }

  std::string OptionalString(const YAML::Node& map, const std::string& key,
                             const std::string& fallback) const {
    YAML::Node value = map[key];
    return value ? String(value, key) : fallback;
  }

  double Number(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) Fail(node, key, "expected a number");
    const std::string& text = node.Scalar();
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
      Fail(node, key, "expected a finite number, found \"" + text + "\"");
    return value;
  }

  double OptionalNumber(const YAML::Node& map, const std::string& key, double fallback) const {
    YAML::Node value = map[key];
    return value ? Number(value, key) : fallback;
  }

  void CheckKeys(const YAML::Node& map, const std::string& where,
                 const std::set<std::string>& allowed) const {
    if (!map.IsMap()) Fail(map, where, "expected a mapping");
    for (const auto& item : map) {
      const std::string key = item.first.Scalar();
      if (!allowed.count(key)) Fail(item.first, key, "unknown key in " + where);
    }
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// The `formulation:` names, in the order of the Formulation enum.
inline constexpr const char* kFormulationNames[] = {
    "auto",      "lagrange_dirac", "constraint_algorithm",
    "vakonomic", "second_order",   "optimal_control"};

// "auto, lagrange_dirac, ..." for messages.
inline std::string FormulationList() {
  std::string list;
  for (const char* name : kFormulationNames) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

static_assert(std::size(kFormulationNames) ==
                  static_cast<std::size_t>(Formulation::kOptimalControl) + 1,
              "one name per Formulation");

inline const char* FormulationName(Formulation f) { return kFormulationNames[static_cast<int>(f)]; }

inline std::optional<Formulation> FormulationFromName(const std::string& name) {
  for (std::size_t k = 0; k < std::size(kFormulationNames); ++k)
    if (name == kFormulationNames[k]) return static_cast<Formulation>(k);
  return std::nullopt;
}

// "a, b, c" for messages.
inline std::string JoinNames(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// The `optimal_control.method` names, in the order of the OptimalControlMethod enum.
inline constexpr const char* kOptimalControlMethodNames[] = {"auto", "shooting", "collocation"};

inline const char* OptimalControlMethodName(OptimalControlMethod m) {
  return kOptimalControlMethodNames[static_cast<int>(m)];
}

inline std::optional<OptimalControlMethod> OptimalControlMethodFromName(const std::string& name) {
  for (std::size_t k = 0; k < std::size(kOptimalControlMethodNames); ++k)
    if (name == kOptimalControlMethodNames[k]) return static_cast<OptimalControlMethod>(k);
  return std::nullopt;
}

// The quantities an `optimal_control` boundary condition may name, in this order: base
// coordinates, velocities (TQ) or fibre coordinates (algebroid), group components (SO3: the
// rotation vector <prefix>.x/.y/.z; SE2: the reconstruction's three names).
// The state quantities an `optimal_control` bound may name besides the controls: base
// coordinates, then velocities (TQ) or fibre coordinates (algebroid).
inline std::vector<std::string> BoundedQuantities(const Scenario& s) {
  std::vector<std::string> names;
  for (const auto& c : s.coordinates) names.push_back(c.name);
  if (s.algebroid.present)
    for (const auto& y : s.algebroid.fibre) names.push_back(y.name);
  else
    for (const auto& c : s.coordinates) names.push_back(c.velocity);
  return names;
}

inline std::vector<std::string> BoundaryQuantities(const Scenario& s) {
  std::vector<std::string> names = BoundedQuantities(s);
  const auto& rec = s.reconstruction;
  if (rec.group == "SO3" && !rec.names.empty())
    for (const char* axis : {".x", ".y", ".z"}) names.push_back(rec.names[0] + axis);
  if (rec.group == "SE2") names.insert(names.end(), rec.names.begin(), rec.names.end());
  return names;
}

// "a, b, c" of BoundaryQuantities, for messages.
inline std::string BoundaryQuantityList(const Scenario& s) {
  return JoinNames(BoundaryQuantities(s));
}

inline bool IsBoundaryQuantity(const Scenario& s, const std::string& name) {
  const std::vector<std::string> names = BoundaryQuantities(s);
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace dirac::scenario
