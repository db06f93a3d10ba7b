// YAML syntax errors a user can act on (issue 23): three broken files, each reported at the
// line and column of the mistake (an unclosed brace where it was opened, not where yaml-cpp
// noticed it), in words rather than yaml-cpp's ("illegal block entry"), with the source line
// quoted and a caret under the column, and the file's path once.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

std::string BrokenFile(const std::string& name) {
  return std::string(DIRAC_SOURCE_DIR) + "/tests/core/scenario/broken_yaml/" + name;
}

std::string LineOf(const std::string& path, std::size_t line) {
  std::ifstream in(path);
  std::string text;
  for (std::size_t k = 0; k < line && std::getline(in, text); ++k) {
  }
  return text;
}

std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Loads `name`, expects a ScenarioError at `line`, `column` and checks the message's form.
void ExpectSyntaxError(const std::string& name, std::size_t line, std::size_t column,
                       const std::string& words) {
  const std::string path = BrokenFile(name);
  try {
    LoadScenario(path);
    FAIL() << name << " loaded";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    SCOPED_TRACE(what);
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(what.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u);
    EXPECT_NE(what.find("column " + std::to_string(column) + ": "), std::string::npos);
    EXPECT_NE(what.find(words), std::string::npos);
    EXPECT_EQ(Count(what, path), 1u);  // the path once
    for (const char* yaml_words : {"illegal block entry", "illegal flow end", "illegal map value"})
      EXPECT_EQ(what.find(yaml_words), std::string::npos);
    // The source line quoted, the caret under the column.
    const std::string source = LineOf(path, line);
    const std::string quoted = "  " + std::to_string(line) + " | " + source + "\n";
    const std::size_t at = what.find(quoted);
    ASSERT_NE(at, std::string::npos);
    const std::string caret_line = what.substr(at + quoted.size());
    EXPECT_EQ(caret_line, "  " + std::string(std::to_string(line).size(), ' ') + " | " +
                              std::string(column - 1, ' ') + "^");
  }
}

TEST(YamlSyntaxErrors, UnclosedBraceAtItsLineAndColumn) {
  // Line 9: "    - {title: "Position", series: [x]" (the '{' in column 7); yaml-cpp said
  // line 10, "illegal block entry".
  ExpectSyntaxError("unclosed_brace.yaml", 9, 7, "'{' is never closed");
}

TEST(YamlSyntaxErrors, WrongClosingBracket) {
  // Line 6: "view: {plots: [{title: "x", series: [x}]}": the '[' of [x closed by '}'.
  const std::string source = LineOf(BrokenFile("wrong_closer.yaml"), 6);
  ExpectSyntaxError("wrong_closer.yaml", 6, source.find("[x") + 1, "'[' is never closed");
}

TEST(YamlSyntaxErrors, ColonInAPlainValue) {
  // Line 5: "description: the energy: kinetic minus potential".
  const std::string source = LineOf(BrokenFile("map_value.yaml"), 5);
  ExpectSyntaxError("map_value.yaml", 5, source.find("energy:") + 7, "must be quoted");
}

}  // namespace
}  // namespace dirac
