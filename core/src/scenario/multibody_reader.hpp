#pragma once
// Internal to core/src/scenario/: the readers of `definitions:`, derived parameter defaults and
// the multibody sections (frames, points, bodies, gravity, ground, springs, rolling,
// knife_edges, velocity_constraints), and the generation of the Lagrangian, the constraint
// forms and the contact heights from them (docs/scenario-format.md, "Definitions", "Bodies").

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "scenario/symbol_registry.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac::scenario {

/// The keys of the multibody sections at the top level of a scenario.
const std::vector<std::string>& MultibodyKeys();

/// Reads `definitions:` (a list of {name, value}) into s.definitions, registering the names.
void ReadDefinitions(const Reader& r, const YAML::Node& node, SymbolRegistry& symbols, Scenario& s);

/// The value of a parameter's `default` written as an expression of constants and the
/// parameters in `earlier` (their current values). Throws ScenarioError at `node`.
double EvaluateParameterDefault(const Reader& r, const YAML::Node& node, const std::string& name,
                                const std::string& text, const std::vector<Parameter>& earlier);

/// Reads the multibody sections of `root` into s.multibody, checks their names (frames, points,
/// bodies, axes), then generates s.lagrangian (L = sum T_b - sum V + the `lagrangian:` term),
/// the rolling and velocity constraints (s.constraints) and the contact heights (s.holonomic),
/// registering the generated names and multipliers. Does nothing without the sections.
void ReadMultibody(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols, Scenario& s);

/// The checks that need the expressions (after every symbol is known): each body's mass >= 0
/// and inertia symmetric positive semidefinite at the initial state and parameters; the ground's
/// up direction from gravity; contact heights that hold identically are dropped. Throws
/// ScenarioError naming the body and key.
void CheckMultibody(const Reader& r, const YAML::Node& root, Scenario& s);

/// The names of the constraint and holonomic entries generated from the bodies.
std::set<std::string> GeneratedConstraintNames(const Scenario& s);

}  // namespace dirac::scenario

namespace YAML {
class Emitter;
}

namespace dirac::scenario {

/// Writes `definitions:` (nothing without definitions).
void EmitDefinitions(YAML::Emitter& out, const Scenario& s);

/// Writes the multibody sections and the `lagrangian:` term beside the bodies (nothing without
/// bodies); the generated Lagrangian, forms and contact heights are not written.
void EmitMultibody(YAML::Emitter& out, const Scenario& s);

}  // namespace dirac::scenario
