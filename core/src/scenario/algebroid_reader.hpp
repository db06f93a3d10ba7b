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

/// For a Lie algebra named by a family with an `inertia`: generates the Lagrangian
/// L = ½ Σ I_a y_a² (s.lagrangian, s.lagrangian_generated) and sets the fibre initial values
/// from `initial_momentum` (y_a = p_a / I_a). Runs after the parameters are read (an inertia
/// entry may name one). Refuses a written `lagrangian` beside `inertia`.
void GenerateAlgebraLagrangian(const Reader& r, const YAML::Node& root, Scenario& s);

}  // namespace dirac::scenario
