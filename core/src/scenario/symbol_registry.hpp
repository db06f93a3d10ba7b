#pragma once
// Internal to core/src/scenario/: the names a scenario declares (coordinates, velocities,
// parameters, multipliers, controls, ...), shared by the section readers (scenario_reader.cpp,
// optimal_control_reader.cpp).

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>

#include "scenario/yaml_reader.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::scenario {

/// Checks that symbol names are identifiers, unique and not reserved, and keeps the names.
class SymbolRegistry {
 public:
  explicit SymbolRegistry(const Reader& reader) : reader_(reader) {}
  void Add(const std::string& name, const YAML::Node& node, const std::string& role) {
    if (!symbolic::IsValidIdentifier(name))
      reader_.Fail(node, name, role + " name must be an identifier (letters, digits, _)");
    if (symbolic::IsReservedName(name))
      reader_.Fail(node, name, role + " name is reserved (a function, constant, t or E)");
    if (!names_.insert(name).second) reader_.Fail(node, name, "symbol defined twice");
  }
  const std::set<std::string>& names() const { return names_; }

 private:
  const Reader& reader_;
  std::set<std::string> names_;
};

}  // namespace dirac::scenario
