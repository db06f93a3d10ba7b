#pragma once
// Internal: parsing scenario expressions into GiNaC, with errors that name file, line, key or
// symbol, and the column of the offending token.
//
// The text is read by our own precedence-climbing grammar (expression_tokens.*,
// expression_grammar.*: the meaning of Python and SymPy, `x*-y` = -x*y, `2^-1*x` = x/2,
// `2^3^2` = 2^9), which counts its nesting, so no text can exhaust the stack, and refuses
// exact numeric powers GiNaC could not finish; the parsed expression is checked after (every
// constant finite and real, no 0^x, a bounded expanded size), so that the derivation only ever
// sees expressions it can finish with.

#include <ginac/ginac.h>

#include <optional>

#include <cstddef>
#include <string>

namespace dirac::symbolic {

/// Longest expression text accepted [characters].
inline constexpr std::size_t kMaxExpressionLength = 65536;
/// Deepest nesting accepted: parentheses, function calls, unary signs and exponents, counted
/// together; four times it bounds the depth of the expression tree GiNaC may build.
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
/// constants Pi, Euler, Catalan), with the precedence of Python and SymPy (docs/scenario-format.md
/// #expressions). Throws ScenarioError (file, line, key or offending symbol, and the column of
/// the offending token where there is one) for: text longer than kMaxExpressionLength or nested
/// deeper than kMaxExpressionDepth (parentheses, calls, unary signs and exponents together); a
/// call of another function, or with the wrong number of arguments or an empty one; a syntax
/// error; an unknown symbol; a constant that is not a finite real double (1e400, I); the
/// integers of one exponent longer than 4 digits in all, an exact exponent above 9999 in
/// absolute value, an exact power of more than 100 000 digits; 0 raised to a non-constant power;
/// an expansion estimated above kMaxExpandedTerms terms; any exception GiNaC throws while
/// evaluating the text (1/0, log(0)).
GiNaC::ex ParseExpression(const std::string& text, const GiNaC::symtab& symbols,
                          const ExpressionOrigin& origin);

/// While alive on this thread, ParseExpression reads decimal literals ("0.1", "1.69e-21") as
/// the exact rationals they spell (1/10, 169/10^23) instead of floating-point numbers, so that
/// symbolic eliminations cancel exactly whatever GiNaC's term order (a float cancellation
/// leaves a residue such as 1.6e-19*q1 that an exact zero test takes for a term). Used by the
/// constraint algorithm (ConstrainedSystem::Analyze); the compiled tapes evaluate the rational
/// to the same double the literal denotes. Literals whose exponent is beyond the range of double
/// stay as they are (and are refused as before). Scopes nest.
class ScopedExactDecimals {
 public:
  ScopedExactDecimals();
  ~ScopedExactDecimals();
  ScopedExactDecimals(const ScopedExactDecimals&) = delete;
  ScopedExactDecimals& operator=(const ScopedExactDecimals&) = delete;

 private:
  bool previous_;
};

/// True inside a ScopedExactDecimals on this thread.
bool ExactDecimalsInScope();

/// The exact rational spelled by a decimal literal of the tokenizer (digits, at most one '.',
/// optionally [eE][+-]?digits); std::nullopt when its decimal exponent exceeds 400 in
/// magnitude (the caller reads it as a float and applies the range check).
std::optional<GiNaC::numeric> ExactDecimal(const std::string& literal);

/// Upper estimate of the number of terms of expand(e), computed without expanding (products
/// multiply, sums add, (a_1 + ... + a_m)^n counts binomial(n + m - 1, m - 1)); capped at 1e30.
double ExpandedTermsEstimate(const GiNaC::ex& e);

/// Most nodes (and most terms once expanded) an intermediate expression of the constraint
/// algorithm may have (counted on the expression tree, shared subtrees counted each time). The
/// work of GiNaC's expand and normal grows with it; the largest in the shipped scenarios is
/// 803 nodes (suslov), 104 terms (elroys_beanie_ocp).
inline constexpr std::size_t kMaxIntermediateNodes = 50000;

/// The start of every work-bound message, and whether an error is one: callers with a method
/// that needs no symbolic elimination fall back to it.
inline constexpr const char* kWorkBoundExceeded = "the symbolic work bound was exceeded";
bool IsWorkBoundError(const std::exception& e);

/// The work bound in force: kMaxIntermediateNodes, or the environment variable
/// DIRAC_SYMBOLIC_WORK_BOUND (an integer in [1000, 1e9]) when set.
std::size_t SymbolicWorkBound();

/// Nodes of the tree of `e`, counting at most `cap` (the cost is bounded by `cap`).
std::size_t NodeCount(const GiNaC::ex& e, std::size_t cap);

/// The work bound of the symbolic steps: throws ModelError "the expressions grew past ... while
/// STEP" if `e` has more than kMaxIntermediateNodes nodes or would expand to more terms.
void RequireBoundedSize(const GiNaC::ex& e, const std::string& step);

}  // namespace dirac::symbolic
