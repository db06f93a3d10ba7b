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

namespace dirac::symbolic {
namespace {

constexpr std::array<std::string_view, 27> kReserved = {
    "sin",     "cos",  "tan",  "exp", "log",   "sqrt", "asin", "acos",   "atan",
    "sinh",    "cosh", "tanh", "abs", "atan2", "pow",  "Pi",   "I",      "Euler",
    "Catalan", "t",    "E",    "lst", "diff",  "sqr",  "zeta", "tgamma", "lgamma"};

// The functions an expression may call, with their number of arguments: exactly those the tape
// compiler evaluates (sqrt and pow become powers).
struct FunctionArity {
  std::string_view name;
  std::size_t arguments;
};
constexpr std::array<FunctionArity, 15> kFunctions = {{{"sin", 1},
                                                       {"cos", 1},
                                                       {"tan", 1},
                                                       {"exp", 1},
                                                       {"log", 1},
                                                       {"sqrt", 1},
                                                       {"asin", 1},
                                                       {"acos", 1},
                                                       {"atan", 1},
                                                       {"sinh", 1},
                                                       {"cosh", 1},
                                                       {"tanh", 1},
                                                       {"abs", 1},
                                                       {"atan2", 2},
                                                       {"pow", 2}}};

std::string FunctionList() {
  std::string list;
  for (const auto& f : kFunctions) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

// One open parenthesis of the pre-scan.
struct Frame {
  std::string name;             // the function called, empty for a plain parenthesis
  std::size_t arguments = 0;    // completed arguments
  bool argument_empty = true;   // nothing seen yet in the current argument
  std::size_t outer_unary = 0;  // pending unary signs of the enclosing level
  bool exponent = false;        // the group is (inside) an exponent
};

// GiNaC evaluates numeric powers exactly (CLN integers are unbounded): 9^999999999 or
// 2^(1000*1000*1000) would compute for minutes. Integer literals in an exponent are limited to
// this many digits in all, and an exponent may not contain a power.
constexpr std::size_t kMaxExponentDigits = 4;

// Checks the text before GiNaC parses it: allowed characters, balanced parentheses, nesting
// depth (GiNaC's parser recurses once per parenthesis, call and unary sign), function names,
// arity and empty arguments. Throws ScenarioError naming the origin.
void PreScan(const std::string& text, const ExpressionOrigin& origin) {
  auto fail = [&](const std::string& symbol, const std::string& message) {
    throw ScenarioError(origin.file, origin.line, symbol.empty() ? origin.key : symbol,
                        (symbol.empty() ? "" : "in " + origin.key + ": ") + message);
  };
  if (text.size() > kMaxExpressionLength)
    fail("", "expression of " + std::to_string(text.size()) + " characters is longer than the " +
                 std::to_string(kMaxExpressionLength) + " allowed");
  std::vector<Frame> frames;
  std::size_t unary = 0;        // pending unary signs at the current level
  std::size_t unary_total = 0;  // pending unary signs over all open levels
  enum class Last { kStart, kOperand, kOperator, kOpen, kComma } last = Last::kStart;
  auto depth = [&] { return frames.size() + unary_total; };
  auto check_depth = [&] {
    if (depth() > kMaxExpressionDepth)
      fail("", "nested deeper than " + std::to_string(kMaxExpressionDepth) +
                   " levels (parentheses, function calls and unary signs)");
  };
  auto mark_operand = [&] {
    if (!frames.empty()) frames.back().argument_empty = false;
  };
  bool after_caret = false;         // the next operand is an exponent
  std::size_t exponent_frames = 0;  // open groups that are (inside) an exponent
  std::size_t exponent_digits = 0;  // integer digits in the current exponent
  auto open_frame = [&](const std::string& name) {
    const bool exponent = after_caret || exponent_frames > 0;
    if (after_caret && exponent_frames == 0) exponent_digits = 0;
    frames.push_back({name, 0, true, unary, exponent});
    exponent_frames += exponent;
    after_caret = false;
    unary = 0;
    check_depth();
    last = Last::kOpen;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      const std::string name = text.substr(i, j - i);
      std::size_t k = j;
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
      mark_operand();
      if (k < text.size() && text[k] == '(') {
        const auto f = std::find_if(kFunctions.begin(), kFunctions.end(),
                                    [&](const FunctionArity& a) { return a.name == name; });
        if (f == kFunctions.end())
          fail(name, "'" + name + "' is not a function (functions: " + FunctionList() + ")");
        open_frame(name);
        i = k + 1;
        continue;
      }
      after_caret = false;
      last = Last::kOperand;
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      std::size_t j = i;
      while (j < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.'))
        ++j;
      const std::size_t mantissa_end = j;
      if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
        if (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) {
          j = k;
          while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        }
      }
      const bool integer = j == mantissa_end && text.find('.', i) >= mantissa_end;
      if (integer && (after_caret || exponent_frames > 0)) {
        const std::size_t digits = mantissa_end - i;
        if (after_caret && exponent_frames == 0) exponent_digits = 0;
        exponent_digits += digits;
        if (exponent_digits > kMaxExponentDigits)
          fail("", "integer exponent too large: the integers of an exponent may have at most " +
                       std::to_string(kMaxExponentDigits) + " digits in all");
      }
      after_caret = false;
      mark_operand();
      last = Last::kOperand;
      i = j;
      continue;
    }
    switch (c) {
      case '+':
      case '-':
        if (last == Last::kOperand) {  // binary: the pending unary signs are done
          unary_total -= unary;
          unary = 0;
        } else {
          ++unary;
          ++unary_total;
          check_depth();
        }
        mark_operand();
        last = Last::kOperator;
        break;
      case '*':
      case '/':
      case '^':
        if (last != Last::kOperand) fail("", std::string("'") + c + "' lacks its left operand");
        if (c == '^') {
          if (exponent_frames > 0) fail("", "a power inside an exponent is not allowed");
          after_caret = true;
        }
        unary_total -= unary;
        unary = 0;
        last = Last::kOperator;
        break;
      case '(':
        mark_operand();
        if (last == Last::kOperand) fail("", "'(' after an operand (missing operator?)");
        open_frame("");
        break;
      case ',':
        if (frames.empty() || frames.back().name.empty())
          fail("", "',' outside a function's argument list");
        if (frames.back().argument_empty || last != Last::kOperand)
          fail(frames.back().name, "empty argument in a call of " + frames.back().name);
        ++frames.back().arguments;
        frames.back().argument_empty = true;
        unary_total -= unary;
        unary = 0;
        last = Last::kComma;
        break;
      case ')': {
        if (frames.empty()) fail("", "')' without a matching '('");
        const Frame frame = frames.back();
        if (last != Last::kOperand) {
          if (frame.name.empty()) fail("", "empty parentheses '()'");
          fail(frame.name, frame.argument_empty && frame.arguments == 0
                               ? frame.name + "() is called with no argument"
                               : "empty argument in a call of " + frame.name);
        }
        if (!frame.name.empty()) {
          const auto f = std::find_if(kFunctions.begin(), kFunctions.end(),
                                      [&](const FunctionArity& a) { return a.name == frame.name; });
          const std::size_t found = frame.arguments + 1;
          if (found != f->arguments)
            fail(frame.name, frame.name + " takes " + std::to_string(f->arguments) +
                                 (f->arguments == 1 ? " argument" : " arguments") + ", found " +
                                 std::to_string(found));
        }
        unary_total -= unary;
        unary = frame.outer_unary;
        exponent_frames -= frame.exponent;
        frames.pop_back();
        last = Last::kOperand;
        break;
      }
      default:
        fail("", std::string("unexpected character '") + c + "'");
    }
    ++i;
  }
  if (!frames.empty()) fail(frames.back().name, "'(' without a matching ')'");
  if (last != Last::kOperand) fail("", "the expression ends with an operator");
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
    std::ostringstream shown;
    shown << e;
    if (!n.is_real()) fail("constant " + shown.str() + " is not real");
    if (!std::isfinite(n.to_double()))
      fail("constant " + shown.str() + " is outside the range of double (about 1.8e308)");
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
  PreScan(text, origin);
  GiNaC::parser reader(symbols, /*strict=*/false);
  GiNaC::ex result;
  auto shown = [&] {
    return text.size() <= 200 ? "\"" + text + "\"" : "\"" + text.substr(0, 200) + "...\"";
  };
  try {
    result = reader(text);
  } catch (const std::exception& e) {
    // parse_error, and GiNaC's evaluation errors (1/0 is "power::eval(): division by zero").
    throw ScenarioError(origin.file, origin.line, origin.key,
                        "cannot parse " + shown() + ": " + e.what());
  }
  // The non-strict parser adds unknown names to its table: any addition is an unknown symbol.
  for (const auto& [name, value] : reader.get_syms()) {
    if (symbols.find(name) == symbols.end())
      throw ScenarioError(origin.file, origin.line, name,
                          "unknown symbol in " + origin.key + " " + shown() +
                              " (not a coordinate, velocity, parameter or t)");
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
  return result;
}

}  // namespace dirac::symbolic
