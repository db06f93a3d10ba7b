#pragma once
// Internal to core/src/scenario/: a YAML syntax error as a user can act on it: the line and
// column where the mistake is (for a bracket left open, where it was opened, not where yaml-cpp
// noticed), the mistake in words, and the source line quoted with a caret under the column.

#include <yaml-cpp/yaml.h>

#include <string>

#include "dirac/error.hpp"

namespace dirac::scenario {

/// The line, column and words of a syntax error in `text`, as yaml-cpp's `error` reported it.
struct YamlSyntaxProblem {
  std::size_t line = 0;    ///< 1-based, 0 if unknown
  std::size_t column = 0;  ///< 1-based, 0 if unknown
  std::string message;     ///< in words ("'{' is never closed ...")
  /// The source line to quote and the column of its caret (the line above, or for an error
  /// yaml-cpp found at the end of the text, the line of the bracket left open); 0: none.
  std::size_t quoted_line = 0, quoted_column = 0;
};

/// Finds where the mistake behind `error` is in `text` (a flow bracket left open is reported
/// where it was opened; a closing bracket of the wrong kind where it stands). At the end of the
/// text yaml-cpp's line stays (the end is where the bracket should close) and the message and
/// the quote name the bracket's line and column.
YamlSyntaxProblem LocateYamlSyntaxError(const YAML::Exception& error, const std::string& text);

/// The ScenarioError of `error` in the file `origin` (its path once): "FILE:LINE: column C:
/// <words>", then the source line and a caret under column C.
ScenarioError YamlSyntaxError(const YAML::Exception& error, const std::string& text,
                              const std::string& origin);

}  // namespace dirac::scenario
