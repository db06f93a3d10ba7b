#pragma once
/// @file scenario_io.hpp
/// Reading and writing scenario files: LoadScenario / ParseScenario (every error a
/// ScenarioError naming the file, the line and the key or symbol), the summary a file listing
/// shows, and the writer (IoError naming the path). Declares `Scenario` only: include
/// dirac/scenario_spec.hpp (or dirac/scenario.hpp) to use the scenarios these functions return.
/// Sizes in bytes. Layer: scenario.

#include <cstddef>
#include <string>

namespace dirac {

struct Scenario;

/// Largest scenario file accepted [bytes]; a longer file (or stream) is refused before it is read
/// whole.
inline constexpr std::size_t kMaxScenarioBytes = 1 << 20;
/// Deepest YAML nesting accepted (block indentation levels, sequence dashes and flow brackets
/// counted together); deeper text is refused before the YAML parser recurses into it.
inline constexpr std::size_t kMaxYamlDepth = 64;

/// Reads and validates a scenario file. Throws ScenarioError ("FILE:LINE: ...", naming the key
/// or symbol) on malformed YAML, missing keys, duplicate or reserved symbol names, bad numbers.
/// Expressions are checked for syntax, unknown symbols and the limits of the expression parser
/// (length, depth, arity, finite constants). A directory, or a file or stream longer than
/// kMaxScenarioBytes (e.g. /dev/zero), is refused with ScenarioError after reading at most
/// kMaxScenarioBytes + 1 bytes.
Scenario LoadScenario(const std::string& path);

/// What a listing of scenario files shows: the `name:` and `description:` of a file, read
/// without checking its expressions (no GiNaC: safe on any thread while a derivation runs).
struct ScenarioSummary {
  std::string name;         ///< `name:`, "" if absent
  std::string description;  ///< `description:`, "" if absent
};

/// Reads the summary of the scenario file at `path`. Throws ScenarioError as LoadScenario for a
/// file that cannot be read, is too long, nests too deep or is not valid YAML, and for a
/// document that is not a map or whose name or description is not text. Expressions and
/// everything else are checked only by LoadScenario.
ScenarioSummary ReadScenarioSummary(const std::string& path);

/// Parses a scenario from YAML text; `origin` is used as the file name in messages. Throws
/// ScenarioError as LoadScenario, also for text longer than kMaxScenarioBytes or nested deeper
/// than kMaxYamlDepth (naming the line).
Scenario ParseScenario(const std::string& yaml_text, const std::string& origin);

/// Serialises a scenario back to YAML (with current parameter values as defaults);
/// ParseScenario(SaveScenarioToString(s)) gives the same problem.
std::string SaveScenarioToString(const Scenario& scenario);

/// Writes SaveScenarioToString(scenario) to `path` atomically (temporary file + rename).
/// Throws IoError naming the path.
void SaveScenario(const Scenario& scenario, const std::string& path);

}  // namespace dirac
