#pragma once
// Internal: the grammar of scenario expressions, read by precedence climbing into GiNaC
// expressions (the meaning of Python and SymPy; docs/scenario-format.md#expressions):
//
//   sum     := product (('+' | '-') product)*          left-associative
//   product := unary (('*' | '/') unary)*              left-associative: a/b/c = a/(b*c)
//   unary   := ('+' | '-') unary | power               -x^2 = -(x^2), x*-y = x*(-y)
//   power   := primary ('^' unary)?                    right-associative: 2^3^2 = 2^9,
//                                                      2^-x^2 = 2^(-(x^2)), 2^-1*x = x/2
//   primary := number | name | function '(' sum (',' sum)* ')' | '(' sum ')'
//
// Every recursion is counted: parentheses, calls, unary signs and exponents together at most
// kMaxExpressionDepth deep, so no text can exhaust the stack.

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "symbolic/expression_tokens.hpp"

namespace dirac::symbolic {

/// Builds the expression of `tokens` (from Tokenize). Names are the literals Pi, Euler, Catalan
/// and I, or keys of `symbols`; functions are those of IsFunctionName with their arity (sqrt
/// and pow become powers). Throws ExpressionFault at the offending token for: a syntax error;
/// nesting deeper than kMaxExpressionDepth; an unknown symbol or function, a wrong number of
/// arguments or an empty one; the integers of one exponent longer than 4 digits in all; an
/// exact exponent above 9999 in absolute value; an exact power of more than 100 000 digits;
/// 0 raised to a non-constant power; a number outside the range of double; and any error GiNaC
/// raises while evaluating (1/0, log(0)).
GiNaC::ex BuildExpression(const std::vector<Token>& tokens, const GiNaC::symtab& symbols);

/// True if `name` followed by '(' is a function call the grammar accepts.
bool IsFunctionName(const std::string& name);

/// The functions, comma-separated, for messages and documentation.
std::string FunctionList();

}  // namespace dirac::symbolic
