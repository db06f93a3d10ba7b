#pragma once
// Internal to core/src/scenario/: the optimal_control section of the file format (horizon,
// controls, cost, boundary conditions, shooting settings) and the names its cost may use.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "scenario/symbol_registry.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac::scenario {

/// Reads root's optimal_control block into s.optimal_control, declares the controls in
/// `symbols`, and sets the formulation and simulation.t_end from it (the horizon is the one T).
/// Throws ScenarioError naming the line and key of the first problem.
void ReadOptimalControl(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols,
                        Scenario& s);

/// The names the cost may use: t, coordinates, velocities or fibre coordinates, parameters and
/// the controls.
std::vector<std::string> CostNames(const Scenario& s);
/// The names the terminal cost may use: those of the cost but the controls (t is T there).
std::vector<std::string> TerminalCostNames(const Scenario& s);

}  // namespace dirac::scenario
