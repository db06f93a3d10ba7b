#include "scenario/scenario_document.hpp"

#include <filesystem>
#include <fstream>
#include <vector>

#include "dirac/scenario.hpp"
#include "scenario/yaml_syntax_error.hpp"

namespace dirac::scenario {
namespace {

// Throws ScenarioError at the first line where the YAML text nests deeper than kMaxYamlDepth:
// block indentation levels, sequence dashes at the start of a line and open flow brackets.
// yaml-cpp recurses once per level and says only "bad file" when it gives up.
void CheckYamlDepth(const std::string& text, const std::string& origin) {
  std::vector<std::size_t> indents;
  std::size_t flow = 0, line = 0, begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    ++line;
    std::size_t i = begin;
    while (i < end && text[i] == ' ') ++i;
    if (i < end && text[i] != '#' && text[i] != '\r') {
      if (flow == 0) {
        while (!indents.empty() && indents.back() > i - begin) indents.pop_back();
        if (indents.empty() || indents.back() < i - begin) indents.push_back(i - begin);
      }
      std::size_t dashes = 0;
      while (i + 1 < end && text[i] == '-' && (text[i + 1] == ' ' || text[i + 1] == '\t')) {
        ++dashes;
        i += 2;
        while (i < end && text[i] == ' ') ++i;
      }
      char quote = 0;
      for (; i < end; ++i) {
        const char c = text[i];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '#' && (i == begin || text[i - 1] == ' ')) {
          break;
        } else if (c == '[' || c == '{') {
          ++flow;
        } else if ((c == ']' || c == '}') && flow > 0) {
          --flow;
        }
        if (indents.size() + dashes + flow > kMaxYamlDepth) break;
      }
      if (indents.size() + dashes + flow > kMaxYamlDepth)
        throw ScenarioError(origin, line, "",
                            "YAML nested deeper than " + std::to_string(kMaxYamlDepth) +
                                " levels (indentation, '- ' and brackets)");
    }
    begin = end + 1;
  }
}

}  // namespace

ScenarioError FromYamlException(const YAML::Exception& e, const std::string& origin,
                                const std::string& prefix) {
  return ScenarioError(origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", prefix + e.msg);
}

YAML::Node LoadScenarioDocument(const std::string& yaml_text, const std::string& origin) {
  if (yaml_text.size() > kMaxScenarioBytes)
    throw ScenarioError(origin, 0, "",
                        "scenario text of " + std::to_string(yaml_text.size()) +
                            " bytes is larger than the " + std::to_string(kMaxScenarioBytes) +
                            " allowed");
  CheckYamlDepth(yaml_text, origin);
  try {
    return YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw YamlSyntaxError(e, yaml_text, origin);
  }
}

std::string ReadScenarioFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(status))
    throw ScenarioError(path, 0, "", "is a directory, not a scenario file");
  if (!ec && std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxScenarioBytes)
      throw ScenarioError(path, 0, "",
                          "scenario file of " + std::to_string(size) +
                              " bytes is larger than the " + std::to_string(kMaxScenarioBytes) +
                              " allowed");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "", "cannot open scenario file");
  // Devices and pipes have no size: read at most one byte past the limit.
  std::string text(kMaxScenarioBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw ScenarioError(path, 0, "", "cannot read scenario file");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioError(path, 0, "",
                        "scenario file is larger than the " + std::to_string(kMaxScenarioBytes) +
                            " bytes allowed (not a regular file?)");
  return text;
}

}  // namespace dirac::scenario
