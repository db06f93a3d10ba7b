#include "scenario/yaml_syntax_error.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace dirac::scenario {
namespace {

struct Opener {
  char bracket;
  std::size_t line, column;  // 1-based
};

// yaml-cpp's words, said so that the fix is plain.
std::string InWords(const std::string& yaml_message) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"illegal map value",
       "':' where no value can start (a value that contains ': ' must be quoted)"},
      {"illegal block entry",
       "a '- ' list entry where none can stand (check this line's indentation and the lines "
       "above for a bracket left open)"},
      {"end of map not found",
       "this line's indentation matches no enclosing block (indent it like its neighbours)"},
      {"end of sequence not found",
       "this line's indentation matches no enclosing list (indent it like its neighbours)"},
      {"end of string not found", "a quoted string is never closed"},
      {"unknown escape character", "unknown escape sequence in a double-quoted string"},
      {"end of map flow not found", "a '{' is never closed"},
      {"end of sequence flow not found", "a '[' is never closed"},
      {"illegal flow end", "a closing bracket where none is open"},
  };
  for (const auto& [yaml, words] : kWords)
    if (yaml_message.find(yaml) != std::string::npos) return words;
  return yaml_message;
}

// The source line `line` (1-based) of `text`, without its line break.
std::string SourceLine(const std::string& text, std::size_t line) {
  std::size_t begin = 0;
  for (std::size_t l = 1; l < line && begin != std::string::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos || begin > text.size()) return {};
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

}  // namespace

YamlSyntaxProblem LocateYamlSyntaxError(const YAML::Exception& error, const std::string& text) {
  YamlSyntaxProblem problem;
  problem.line = error.mark.line >= 0 ? static_cast<std::size_t>(error.mark.line) + 1 : 0;
  problem.column = error.mark.column >= 0 ? static_cast<std::size_t>(error.mark.column) + 1 : 0;
  problem.message = InWords(error.msg);
  const std::size_t stop =
      error.mark.pos >= 0 && static_cast<std::size_t>(error.mark.pos) <= text.size()
          ? static_cast<std::size_t>(error.mark.pos)
          : text.size();
  // The flow brackets open at the error (quotes and comments skipped). A closing bracket of the
  // wrong kind is the mistake itself; else one opened on an earlier line and never closed is
  // (yaml-cpp notices it lines later, at the next entry).
  std::vector<Opener> open;
  std::size_t line = 1, column = 0;
  char quote = 0;
  bool comment = false;
  for (std::size_t i = 0; i < std::min(stop + 1, text.size()); ++i) {  // the mark's character too
    const char c = text[i];
    if (c == '\n') {
      ++line;
      column = 0;
      comment = false;
      continue;
    }
    ++column;
    if (comment) continue;
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '#' && (column == 1 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      comment = true;
    } else if ((c == '"' || c == '\'') && (column == 1 || text[i - 1] != '\\')) {
      // A quote starts a scalar only where one can start (after a space, a bracket, a comma,
      // a colon); inside a plain scalar it is a character ("it's").
      const char before = column == 1 ? ' ' : text[i - 1];
      if (before == ' ' || before == '\t' || before == '[' || before == '{' || before == ',' ||
          before == ':')
        quote = c;
    } else if (c == '{' || c == '[') {
      open.push_back({c, line, column});
    } else if (c == '}' || c == ']') {
      if (open.empty()) {
        problem = {line, column, std::string("'") + c + "' closes no bracket"};
        return problem;
      }
      if ((c == '}') != (open.back().bracket == '{')) {
        const Opener& o = open.back();
        problem = {o.line, o.column,
                   std::string("'") + o.bracket + "' is never closed: '" + c + "' on line " +
                       std::to_string(line) + " closes it instead of '" +
                       (o.bracket == '{' ? '}' : ']') + "'"};
        return problem;
      }
      open.pop_back();
    }
  }
  const bool at_end = text.find_first_not_of(" \t\r\n", stop) == std::string::npos;
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (it->line >= problem.line && problem.line != 0) continue;
    const std::string closer = it->bracket == '{' ? "map needs its '}'" : "list needs its ']'";
    if (at_end) {
      problem.message = std::string("the text ends, but the '") + it->bracket + "' on line " +
                        std::to_string(it->line) + ", column " + std::to_string(it->column) +
                        ", is never closed (a flow " + closer + ")";
      problem.column = 0;
      problem.quoted_line = it->line;
      problem.quoted_column = it->column;
      return problem;
    }
    problem = {it->line, it->column,
               std::string("'") + it->bracket + "' is never closed (a flow " + closer +
                   " before the next entry)"};
    break;
  }
  return problem;
}

ScenarioError YamlSyntaxError(const YAML::Exception& error, const std::string& text,
                              const std::string& origin) {
  YamlSyntaxProblem problem = LocateYamlSyntaxError(error, text);
  if (problem.quoted_line == 0) {
    problem.quoted_line = problem.line;
    problem.quoted_column = problem.column;
  }
  std::string message = "invalid YAML: ";
  if (problem.column > 0) message += "column " + std::to_string(problem.column) + ": ";
  message += problem.message;
  const std::size_t line = problem.quoted_line, column = problem.quoted_column;
  const std::string source = line > 0 ? SourceLine(text, line) : std::string();
  if (!source.empty() && source.size() <= 400) {
    const std::string number = std::to_string(line);
    message += "\n  " + number + " | " + source;
    if (column > 0 && column <= source.size() + 1) {
      std::string pad;
      for (std::size_t k = 0; k + 1 < column; ++k) pad += source[k] == '\t' ? '\t' : ' ';
      message += "\n  " + std::string(number.size(), ' ') + " | " + pad + "^";
    }
  }
  return ScenarioError(origin, problem.line, "", message);
}

}  // namespace dirac::scenario
