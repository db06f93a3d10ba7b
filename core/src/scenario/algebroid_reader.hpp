#pragma once
// Internal to core/src/scenario/: the algebroid section of the file format (fibre coordinates,
// anchor, brackets).

#include <yaml-cpp/yaml.h>

#include "dirac/scenario.hpp"
#include "scenario/symbol_registry.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac::scenario {

/// Reads the algebroid block into s.algebroid and declares its fibre coordinates in `symbols`;
/// the anchor and brackets may name only the fibre coordinates and s's base coordinates, so
/// ReadCoordinates runs first. Throws ScenarioError naming the line and key of the first problem.
void ReadAlgebroid(const Reader& r, const YAML::Node& algebroid, SymbolRegistry& symbols,
                   Scenario& s);

}  // namespace dirac::scenario
