#pragma once
// Internal to core/src/scenario/: the optional `stability:` section of the file format (the
// operating point and sweep of the window's Stability view).

#include <yaml-cpp/yaml.h>

#include "dirac/scenario.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac::scenario {

/// Reads the `stability:` block into s.stability once the rest of `s` is read (its names are
/// checked against the coordinates, velocities and --set names). Throws ScenarioError naming
/// the line and key of the first problem.
void ReadStability(const Reader& r, const YAML::Node& node, Scenario& s);

}  // namespace dirac::scenario
