#include "symbolic/expression_parser.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <vector>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "symbolic/expression_grammar.hpp"
#include "symbolic/expression_tokens.hpp"
#include "symbolic/parse_session.hpp"

namespace dirac::symbolic {
namespace {

constexpr std::array<std::string_view, 27> kReserved = {
    "sin",     "cos",  "tan",  "exp", "log",   "sqrt", "asin", "acos",   "atan",
    "sinh",    "cosh", "tanh", "abs", "atan2", "pow",  "Pi",   "I",      "Euler",
    "Catalan", "t",    "E",    "lst", "diff",  "sqr",  "zeta", "tgamma", "lgamma"};

// The text around `offset`, quoted, for messages: the whole text when short.
std::string Excerpt(const std::string& text, std::size_t offset) {
  constexpr std::size_t kShort = 80;
  constexpr std::size_t kSide = 30;
  if (text.size() <= kShort) return "\"" + text + "\"";
  const std::size_t from = offset > kSide ? offset - kSide : 0;
  const std::size_t to = std::min(text.size(), offset + kSide);
  return std::string("\"") + (from > 0 ? "..." : "") + text.substr(from, to - from) +
         (to < text.size() ? "..." : "") + "\"";
}

// Depth of the expression tree, with a ceiling: stops descending past `limit`.
std::size_t TreeDepth(const GiNaC::ex& e, std::size_t limit) {
  if (limit == 0) return 1;
  std::size_t deepest = 0;
  for (std::size_t k = 0; k < e.nops(); ++k)
    deepest = std::max(deepest, TreeDepth(e.op(k), limit - 1));
  return deepest + 1;
}

// Upper estimate of the terms of expand(e), capped far above any limit.
double ExpandedTermsImpl(const GiNaC::ex& e) {
  constexpr double kCap = 1e30;
  if (GiNaC::is_a<GiNaC::add>(e)) {
    double sum = 0;
    for (std::size_t k = 0; k < e.nops(); ++k) sum += ExpandedTermsImpl(e.op(k));
    return std::min(sum, kCap);
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    double product = 1;
    for (std::size_t k = 0; k < e.nops(); ++k) product *= ExpandedTermsImpl(e.op(k));
    return std::min(product, kCap);
  }
  if (GiNaC::is_a<GiNaC::power>(e)) {
    const double base = ExpandedTermsImpl(e.op(0));
    const GiNaC::ex exponent = e.op(1);
    if (base <= 1 || !GiNaC::is_a<GiNaC::numeric>(exponent) ||
        !GiNaC::ex_to<GiNaC::numeric>(exponent).is_integer())
      return base;
    // (a_1 + ... + a_m)^n has binomial(n + m - 1, m - 1) terms: bound it in log space.
    const double n = std::abs(GiNaC::ex_to<GiNaC::numeric>(exponent).to_double());
    const double log_terms = std::lgamma(n + base) - std::lgamma(n + 1) - std::lgamma(base);
    return log_terms > std::log(kCap) ? kCap : std::exp(log_terms);
  }
  return 1;
}

// Checks the parsed expression: every constant a finite real double, no 0^x, every function
// argument and the whole expression within kMaxExpandedTerms once expanded.
void CheckParsed(const GiNaC::ex& e, const std::string& text, const ExpressionOrigin& origin) {
  auto fail = [&](const std::string& message) {
    throw ScenarioError(origin.file, origin.line, origin.key, "\"" + text + "\": " + message);
  };
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
    std::ostringstream printed;
    printed << e;
    // An exact integer out of range has thousands of digits: its start and its length.
    const std::string shown = printed.str().size() <= 60
                                  ? printed.str()
                                  : printed.str().substr(0, 40) + "... (" +
                                        std::to_string(printed.str().size()) + " characters)";
    if (!n.is_real()) fail("constant " + shown + " is not real");
    if (!std::isfinite(n.to_double()))
      fail("constant " + shown + " is outside the range of double (about 1.8e308)");
    return;
  }
  if (GiNaC::is_a<GiNaC::power>(e) && GiNaC::is_a<GiNaC::numeric>(e.op(0)) &&
      GiNaC::ex_to<GiNaC::numeric>(e.op(0)).is_zero())
    fail("0 raised to a non-constant power is undefined");
  if (GiNaC::is_a<GiNaC::function>(e)) {
    for (std::size_t k = 0; k < e.nops(); ++k)
      if (ExpandedTermsImpl(e.op(k)) > kMaxExpandedTerms)
        fail("an argument of " + GiNaC::ex_to<GiNaC::function>(e).get_name() +
             " would expand to more than " + std::to_string(static_cast<long>(kMaxExpandedTerms)) +
             " terms");
  }
  for (std::size_t k = 0; k < e.nops(); ++k) CheckParsed(e.op(k), text, origin);
}

// The largest expansion estimate of one product or power in `e`. Sums are not counted as a
// whole: a Lagrangian of many small quadratic terms (an n-link chain) is never expanded by the
// derivation, but one power of a sum, (x + y + 1)^9999, would be by the constraint algorithm.
double LargestExpandingFactor(const GiNaC::ex& e) {
  double largest = 0;
  if (GiNaC::is_a<GiNaC::mul>(e) || GiNaC::is_a<GiNaC::power>(e)) largest = ExpandedTermsImpl(e);
  if (largest > kMaxExpandedTerms) return largest;
  for (std::size_t k = 0; k < e.nops(); ++k)
    largest = std::max(largest, LargestExpandingFactor(e.op(k)));
  return largest;
}

std::size_t CountNodes(const GiNaC::ex& e, std::size_t cap, std::size_t& count) {
  if (++count >= cap) return count;
  for (std::size_t k = 0; k < e.nops() && count < cap; ++k) CountNodes(e.op(k), cap, count);
  return count;
}

}  // namespace

double ExpandedTermsEstimate(const GiNaC::ex& e) { return ExpandedTermsImpl(e); }

std::size_t NodeCount(const GiNaC::ex& e, std::size_t cap) {
  std::size_t count = 0;
  return std::min(CountNodes(e, cap, count), cap);
}

bool IsWorkBoundError(const std::exception& e) {
  return std::string(e.what()).find(kWorkBoundExceeded) != std::string::npos;
}

std::size_t SymbolicWorkBound() {
  if (const char* text = std::getenv("DIRAC_SYMBOLIC_WORK_BOUND")) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (end != text && *end == '\0' && value >= 1000 && value <= 1000000000ULL)
      return static_cast<std::size_t>(value);
  }
  return kMaxIntermediateNodes;
}

void RequireBoundedSize(const GiNaC::ex& e, const std::string& step) {
  CheckDerivationCancelled();  // called before every exact simplification
  const std::size_t bound = SymbolicWorkBound();
  const bool too_many_nodes = NodeCount(e, bound + 1) > bound;
  if (too_many_nodes || ExpandedTermsImpl(e) > static_cast<double>(bound))
    throw ModelError(std::string(kWorkBoundExceeded) + " while " + step +
                     ": an intermediate expression of the exact symbolic elimination grew past " +
                     std::to_string(bound) + (too_many_nodes ? " nodes" : " terms once expanded") +
                     " (expand/normal on it could run for minutes); raise the bound with the "
                     "environment variable DIRAC_SYMBOLIC_WORK_BOUND=<nodes> (now " +
                     std::to_string(bound) + ")");
}

bool IsReservedName(const std::string& name) {
  for (auto r : kReserved)
    if (name == r) return true;
  return false;
}

bool IsValidIdentifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

GiNaC::ex ParseExpression(const std::string& text, const GiNaC::symtab& symbols,
                          const ExpressionOrigin& origin) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ScenarioError(origin.file, origin.line, origin.key, "empty expression");
  if (text.size() > kMaxExpressionLength)
    throw ScenarioError(origin.file, origin.line, origin.key,
                        "expression of " + std::to_string(text.size()) +
                            " characters is longer than the " +
                            std::to_string(kMaxExpressionLength) + " allowed");
  auto shown = [&] {
    return text.size() <= 200 ? "\"" + text + "\"" : "\"" + text.substr(0, 200) + "...\"";
  };
  if (auto parsed = FindParsed(text, symbols)) return *parsed;
  GiNaC::ex result;
  std::vector<Token> tokens;
  try {
    tokens = Tokenize(text);
    NoteParse(text, tokens);
    result = BuildExpression(tokens, symbols);
  } catch (const ExpressionFault& fault) {
    const std::string where = DescribePosition(text, fault.offset) + " of " +
                              Excerpt(text, fault.offset) + ": " + fault.message;
    if (fault.symbol.empty()) throw ScenarioError(origin.file, origin.line, origin.key, where);
    throw ScenarioError(origin.file, origin.line, fault.symbol, "in " + origin.key + ", " + where);
  }
  if (TreeDepth(result, 4 * kMaxExpressionDepth) > 4 * kMaxExpressionDepth)
    throw ScenarioError(origin.file, origin.line, origin.key,
                        "the expression tree is deeper than " +
                            std::to_string(4 * kMaxExpressionDepth) + " levels");
  try {
    CheckParsed(result, text.size() <= 200 ? text : text.substr(0, 200) + "...", origin);
    if (LargestExpandingFactor(result) > kMaxExpandedTerms)
      throw ScenarioError(origin.file, origin.line, origin.key,
                          shown() + ": a product or power in it would expand to more than " +
                              std::to_string(static_cast<long>(kMaxExpandedTerms)) + " terms");
  } catch (const ScenarioError&) {
    throw;
  } catch (const std::exception& e) {
    throw ScenarioError(origin.file, origin.line, origin.key,
                        "cannot evaluate " + shown() + ": " + e.what());
  }
  StoreParsed(text, tokens, symbols, result);
  return result;
}

namespace {
thread_local bool exact_decimals = false;
}  // namespace

ScopedExactDecimals::ScopedExactDecimals() : previous_(exact_decimals) { exact_decimals = true; }
ScopedExactDecimals::~ScopedExactDecimals() { exact_decimals = previous_; }
bool ExactDecimalsInScope() { return exact_decimals; }

std::optional<GiNaC::numeric> ExactDecimal(const std::string& literal) {
  const std::size_t e = literal.find_first_of("eE");
  const std::string mantissa = literal.substr(0, e);
  long exponent = 0;
  if (e != std::string::npos) {
    const std::string digits = literal.substr(e + 1);
    // At most a few digits matter: beyond 400 in magnitude the value is outside double anyway.
    const std::size_t first = digits.find_first_not_of("+-0");
    if (first != std::string::npos && digits.size() - first > 4) return std::nullopt;
    exponent = std::stol(digits);
  }
  std::string integer;
  long fraction_digits = 0;
  bool after_point = false;
  for (const char c : mantissa) {
    if (c == '.') {
      after_point = true;
      continue;
    }
    integer.push_back(c);
    fraction_digits += after_point;
  }
  const std::size_t first_digit = integer.find_first_not_of('0');
  integer = first_digit == std::string::npos ? "0" : integer.substr(first_digit);
  const long scale = exponent - fraction_digits;
  const long magnitude = scale + static_cast<long>(integer.size());
  if (integer != "0" && (magnitude > 400 || magnitude < -400)) return std::nullopt;
  const GiNaC::numeric digits(integer.c_str());
  const GiNaC::numeric ten(10);
  return scale >= 0 ? digits * ten.power(scale) : digits / ten.power(-scale);
}

}  // namespace dirac::symbolic
