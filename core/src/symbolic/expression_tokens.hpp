#pragma once
// Internal: the tokens of a scenario expression, and the fault the tokenizer and the grammar
// report (a position in the text and a message; ParseExpression adds file, line and key).

#include <cstddef>
#include <string>
#include <vector>

namespace dirac::symbolic {

/// A refusal at one place of the expression text.
struct ExpressionFault {
  std::size_t offset = 0;  ///< byte offset of the offending token in the text
  std::string symbol;      ///< the offending function or symbol, empty when there is none
  std::string message;
};

/// One token. Numbers keep GiNaC's spelling (`1e-3` is "1E-3", `1e5` is "1E+5"): the text
/// given to GiNaC::numeric, so that a number means what GiNaC's own parser made of it.
struct Token {
  enum class Kind { kNumber, kName, kOperator, kOpen, kClose, kComma, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;        ///< the number (GiNaC's spelling), the name, or the character
  std::size_t offset = 0;  ///< byte offset of the first character in the expression text
};

/// Splits `text` into tokens ending with one kEnd. Names are [A-Za-z_][A-Za-z0-9_]*; numbers
/// are digits with at most one '.', optionally followed by e or E, an optional sign and digits
/// (`3`, `2.5`, `.5`, `5.`, `1e-3`, `1.5E+2`); operators are + - * / ^. Throws ExpressionFault
/// for any other character and for a malformed number (`1.2.3`, `.`, `2e`, `1e+`).
std::vector<Token> Tokenize(const std::string& text);

/// Where `offset` is, for messages: "column C" (1-based), or "line L, column C" when the text
/// has several lines.
std::string DescribePosition(const std::string& text, std::size_t offset);

}  // namespace dirac::symbolic
