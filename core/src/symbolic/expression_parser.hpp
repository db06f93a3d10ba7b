#pragma once
// Internal: parsing scenario expressions with GiNaC, with errors that name file, line, symbol.
//
// The text is checked before GiNaC sees it (GiNaC's recursive-descent parser overflows the stack
// on deep nesting and dereferences null for a built-in function called with no argument), and
// the parsed expression is checked after (every constant finite and real, no 0^x, a bounded
// expanded size), so that the derivation only ever sees expressions it can finish with.

#include <ginac/ginac.h>

#include <cstddef>
#include <string>

namespace dirac::symbolic {

/// Longest expression text accepted [characters].
inline constexpr std::size_t kMaxExpressionLength = 65536;
/// Deepest nesting accepted: parentheses and function calls, plus runs of unary signs, counted
/// together; also the deepest expression tree GiNaC may build from the text.
inline constexpr std::size_t kMaxExpressionDepth = 32;
/// Most terms the expression may have once products and integer powers of sums are expanded
/// (an upper estimate computed without expanding): `(x+1)^100000` is refused, not expanded.
inline constexpr double kMaxExpandedTerms = 20000;

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

/// Parses `text` with the symbols in `symbols` (and the functions sin, cos, tan, exp, log,
/// sqrt, asin, acos, atan, sinh, cosh, tanh, abs of one argument, atan2 and pow of two, and the
/// constant Pi). Throws ScenarioError (file, line, key or offending symbol) for: text longer
/// than kMaxExpressionLength or nested deeper than kMaxExpressionDepth; a call of another
/// function, or with the wrong number of arguments or an empty one; a syntax error; an unknown
/// symbol; a constant that is not a finite real double (1e400, I); 0 raised to a non-constant
/// power; an expansion estimated above kMaxExpandedTerms terms; any exception GiNaC throws while
/// evaluating the text (1/0).
GiNaC::ex ParseExpression(const std::string& text, const GiNaC::symtab& symbols,
                          const ExpressionOrigin& origin);

/// Upper estimate of the number of terms of expand(e), computed without expanding (products
/// multiply, sums add, (a_1 + ... + a_m)^n counts binomial(n + m - 1, m - 1)); capped at 1e30.
double ExpandedTermsEstimate(const GiNaC::ex& e);

/// Most nodes (and most terms once expanded) an intermediate expression of the constraint
/// algorithm may have (counted on the expression tree, shared subtrees counted each time). The
/// work of GiNaC's expand and normal grows with it; the largest in the shipped scenarios is
/// 803 nodes (suslov), 104 terms (elroys_beanie_ocp).
inline constexpr std::size_t kMaxIntermediateNodes = 50000;

/// The work bound in force: kMaxIntermediateNodes, or the environment variable
/// DIRAC_SYMBOLIC_WORK_BOUND (an integer in [1000, 1e9]) when set.
std::size_t SymbolicWorkBound();

/// Nodes of the tree of `e`, counting at most `cap` (the cost is bounded by `cap`).
std::size_t NodeCount(const GiNaC::ex& e, std::size_t cap);

/// The work bound of the symbolic steps: throws ModelError "the expressions grew past ... while
/// STEP" if `e` has more than kMaxIntermediateNodes nodes or would expand to more terms.
void RequireBoundedSize(const GiNaC::ex& e, const std::string& step);

}  // namespace dirac::symbolic
