#pragma once
// Internal to core/src/scenario/: a scenario file's text and YAML document, read within the
// bounds of the format (kMaxScenarioBytes, kMaxYamlDepth), with errors that name the file and
// line. Shared by the full reader (LoadScenario, ParseScenario) and the summary the scenario
// browser lists (ReadScenarioSummary), which must not touch GiNaC.

#include <yaml-cpp/yaml.h>

#include <string>

#include "dirac/error.hpp"

namespace dirac::scenario {

/// The bytes of the scenario file at `path`. Throws ScenarioError naming `path` for a
/// directory, a file that cannot be opened or read, or one longer than kMaxScenarioBytes
/// (devices and pipes included: at most kMaxScenarioBytes + 1 bytes are read).
std::string ReadScenarioFile(const std::string& path);

/// The YAML document of a scenario text. Throws ScenarioError naming `origin` (and the line)
/// for text longer than kMaxScenarioBytes, nested deeper than kMaxYamlDepth, or malformed
/// YAML (yaml_syntax_error.hpp: the line and column of the mistake, in words, the line quoted).
YAML::Node LoadScenarioDocument(const std::string& yaml_text, const std::string& origin);

/// A yaml-cpp exception as a ScenarioError "ORIGIN:LINE: PREFIX message".
ScenarioError FromYamlException(const YAML::Exception& e, const std::string& origin,
                                const std::string& prefix);

}  // namespace dirac::scenario
