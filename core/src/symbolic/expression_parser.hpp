#pragma once
// Internal: parsing scenario expressions with GiNaC, with errors that name file, line, symbol.

#include <ginac/ginac.h>

#include <string>

namespace dirac::symbolic {

/// Where an expression comes from, for error messages.
struct ExpressionOrigin {
  std::string file;
  std::size_t line = 0;
  std::string key;  ///< e.g. "lagrangian" or "constraints[heisenberg].form"
};

/// Names the parser treats as functions or constants; scenario symbols may not use them.
bool IsReservedName(const std::string& name);

/// True if `name` is a valid identifier for a scenario symbol.
bool IsValidIdentifier(const std::string& name);

/// Parses `text` with the symbols in `symbols` (and the usual functions sin, cos, exp, log,
/// sqrt, ..., and Pi). Throws ScenarioError naming the unknown symbol or the syntax error.
GiNaC::ex ParseExpression(const std::string& text, const GiNaC::symtab& symbols,
                          const ExpressionOrigin& origin);

}  // namespace dirac::symbolic
