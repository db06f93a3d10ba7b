// ReadScenarioSummary: the name and description of a scenario file for listings, from its YAML
// document alone (scenario_document.hpp), without the expression checks of the full reader.
#include "dirac/scenario_io.hpp"
#include "scenario/scenario_document.hpp"

namespace dirac {
namespace {

std::string TextOf(const YAML::Node& root, const char* key, const std::string& path) {
  const YAML::Node node = root[key];
  if (!node) return {};
  if (!node.IsScalar())
    throw ScenarioError(path, node.Mark().line >= 0 ? node.Mark().line + 1 : 0, key,
                        std::string(key) + " must be text");
  return node.as<std::string>();
}

}  // namespace

ScenarioSummary ReadScenarioSummary(const std::string& path) {
  const YAML::Node root = scenario::LoadScenarioDocument(scenario::ReadScenarioFile(path), path);
  if (!root || !root.IsMap()) throw ScenarioError(path, 1, "", "a scenario is a YAML mapping");
  try {
    return {TextOf(root, "name", path), TextOf(root, "description", path)};
  } catch (const YAML::Exception& e) {
    throw scenario::FromYamlException(e, path, "");
  }
}

}  // namespace dirac
