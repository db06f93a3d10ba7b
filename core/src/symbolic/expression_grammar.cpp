#include "symbolic/expression_grammar.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string_view>

#include "symbolic/expression_parser.hpp"

namespace dirac::symbolic {
namespace {

using GiNaC::ex;
using GiNaC::numeric;
using TokenKind = Token::Kind;

// The functions an expression may call, with their number of arguments: exactly those the tape
// compiler evaluates (sqrt and pow become powers).
struct FunctionSpec {
  std::string_view name;
  std::size_t arguments;
  ex (*build)(const GiNaC::exvector& a);
};
const std::array<FunctionSpec, 15> kFunctions = {{
    {"sin", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::sin(a[0]); }},
    {"cos", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::cos(a[0]); }},
    {"tan", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::tan(a[0]); }},
    {"exp", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::exp(a[0]); }},
    {"log", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::log(a[0]); }},
    {"sqrt", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::sqrt(a[0]); }},
    {"asin", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::asin(a[0]); }},
    {"acos", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::acos(a[0]); }},
    {"atan", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::atan(a[0]); }},
    {"sinh", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::sinh(a[0]); }},
    {"cosh", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::cosh(a[0]); }},
    {"tanh", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::tanh(a[0]); }},
    {"abs", 1, [](const GiNaC::exvector& a) -> ex { return GiNaC::abs(a[0]); }},
    {"atan2", 2, [](const GiNaC::exvector& a) -> ex { return GiNaC::atan2(a[0], a[1]); }},
    {"pow", 2, [](const GiNaC::exvector& a) -> ex { return GiNaC::pow(a[0], a[1]); }},
}};

const FunctionSpec* FindFunction(const std::string& name) {
  const auto f = std::find_if(kFunctions.begin(), kFunctions.end(),
                              [&](const FunctionSpec& s) { return s.name == name; });
  return f == kFunctions.end() ? nullptr : &*f;
}

// GiNaC evaluates numeric powers exactly (CLN integers are unbounded): 9^999999999 or
// 2^(1000*1000*1000) would compute for minutes. The integer literals of one exponent may have
// this many digits in all; an exact exponent (whatever it is made of: 2^3^2, pow(9, 99^9)) may
// not exceed kMaxExactExponent; an exact power of exact numbers may not have more than
// kMaxExactPowerDigits digits ((9999^9999)^9999 is refused, not computed).
constexpr std::size_t kMaxExponentDigits = 4;
constexpr long kMaxExactExponent = 9999;
constexpr double kMaxExactPowerDigits = 100000;

std::string Shown(const ex& e) {
  std::ostringstream out;
  out << e;
  const std::string s = out.str();
  return s.size() <= 40 ? s : s.substr(0, 40) + "...";
}

// Bits of the largest numerator or denominator of an exact (complex) rational.
double ExactBits(const numeric& n) {
  double bits = 0;
  for (const numeric& part : {n.real(), n.imag()})
    bits = std::max({bits, static_cast<double>(part.numer().int_length()),
                     static_cast<double>(part.denom().int_length())});
  return bits;
}

class Grammar {
 public:
  Grammar(const std::vector<Token>& tokens, const GiNaC::symtab& symbols)
      : tokens_(tokens), symbols_(symbols) {}

  ex Read() {
    if (Peek().kind == TokenKind::kEnd) Fail(Peek(), "empty expression");
    const ex e = Sum();
    if (Peek().kind != TokenKind::kEnd) Unexpected(Peek(), nullptr);
    return e;
  }

 private:
  // One open parenthesis or call, for the messages about ')' and ','.
  struct Group {
    const Token* open;
    std::string function;  // empty for a plain parenthesis
  };

  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() { return tokens_[pos_++]; }
  bool IsOperator(const Token& t, char c) const {
    return t.kind == TokenKind::kOperator && t.text[0] == c;
  }

  [[noreturn]] static void Fail(const Token& at, const std::string& message,
                                const std::string& symbol = "") {
    throw ExpressionFault{at.offset, symbol, message};
  }

  // One more level of nesting; refused past kMaxExpressionDepth before any recursion.
  void Enter(const Token& at) {
    if (++depth_ > kMaxExpressionDepth)
      Fail(at, "nested deeper than " + std::to_string(kMaxExpressionDepth) +
                   " levels (parentheses, function calls, unary signs and exponents)");
  }

  // GiNaC evaluates as it builds: its errors (1/0, log(0)) become a fault at `at`.
  template <class F>
  static ex Evaluate(const Token& at, F&& build) {
    try {
      return build();
    } catch (const ExpressionFault&) {
      throw;
    } catch (const std::exception& e) {
      Fail(at, std::string("cannot evaluate: ") + e.what());
    }
  }

  // sum := product (('+' | '-') product)*, built as one GiNaC sum.
  ex Sum() {
    GiNaC::exvector terms{Product()};
    const Token* last = nullptr;
    while (IsOperator(Peek(), '+') || IsOperator(Peek(), '-')) {
      last = &Next();
      const ex term = Product();
      terms.push_back(last->text == "-" ? Evaluate(*last, [&] { return -term; }) : term);
    }
    if (terms.size() == 1) return terms[0];
    return Evaluate(*last, [&] { return ex(GiNaC::add(terms)); });
  }

  // product := unary (('*' | '/') unary)*, built as one GiNaC product: a/b/c = a*b^-1*c^-1.
  ex Product() {
    GiNaC::exvector factors{Unary()};
    const Token* last = nullptr;
    while (IsOperator(Peek(), '*') || IsOperator(Peek(), '/')) {
      last = &Next();
      const ex factor = Unary();
      factors.push_back(last->text == "/" ? Evaluate(*last, [&] { return GiNaC::pow(factor, -1); })
                                          : factor);
    }
    if (factors.size() == 1) return factors[0];
    return Evaluate(*last, [&] { return ex(GiNaC::mul(factors)); });
  }

  // unary := ('+' | '-') unary | power: the signs apply to the power that follows them.
  ex Unary() {
    const std::size_t depth = depth_;
    const Token* minus = nullptr;
    bool negative = false;
    while (IsOperator(Peek(), '+') || IsOperator(Peek(), '-')) {
      const Token& sign = Next();
      Enter(sign);
      if (sign.text == "-") {
        negative = !negative;
        minus = &sign;
      }
    }
    const ex operand = Power();
    depth_ = depth;
    return negative ? Evaluate(*minus, [&] { return -operand; }) : operand;
  }

  // power := primary ('^' unary)?: right-associative, and the exponent may carry signs.
  ex Power() {
    const ex base = Primary();
    if (!IsOperator(Peek(), '^')) return base;
    const Token& caret = Next();
    Enter(caret);
    if (exponent_level_++ == 0) exponent_digits_ = 0;
    const ex exponent = Unary();
    --exponent_level_;
    --depth_;
    return MakePower(base, exponent, caret);
  }

  ex Primary() {
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kNumber:
        return Number(Next());
      case TokenKind::kName: {
        const Token& name = Next();
        if (Peek().kind == TokenKind::kOpen) return Call(name);
        return Name(name);
      }
      case TokenKind::kOpen: {
        const Token& open = Next();
        Enter(open);
        groups_.push_back({&open, ""});
        const ex inside = Sum();
        if (Peek().kind != TokenKind::kClose) Unexpected(Peek(), &groups_.back());
        Next();
        groups_.pop_back();
        --depth_;
        return inside;
      }
      default:
        MissingOperand(t);
    }
  }

  ex Number(const Token& t) {
    const ex n = Evaluate(t, [&] {
      if (ExactDecimalsInScope() && t.text.find_first_of(".eE") != std::string::npos)
        if (const auto exact = ExactDecimal(t.text)) return ex(*exact);
      return ex(numeric(t.text.c_str()));
    });
    if (!std::isfinite(GiNaC::ex_to<numeric>(n).to_double()))
      Fail(t, "constant " + t.text + " is outside the range of double (about 1.8e308)");
    if (exponent_level_ > 0 && t.text.find_first_not_of("0123456789") == std::string::npos) {
      exponent_digits_ += t.text.size();
      if (exponent_digits_ > kMaxExponentDigits)
        Fail(t, "integer exponent too large: the integers of an exponent may have at most " +
                    std::to_string(kMaxExponentDigits) + " digits in all");
    }
    return n;
  }

  // GiNaC's literals first (as its lexer does), then the symbol table.
  ex Name(const Token& t) {
    if (t.text == "Pi") return GiNaC::Pi;
    if (t.text == "Euler") return GiNaC::Euler;
    if (t.text == "Catalan") return GiNaC::Catalan;
    if (t.text == "I") return GiNaC::I;
    const auto found = symbols_.find(t.text);
    if (found == symbols_.end())
      Fail(t, "unknown symbol (not a coordinate, velocity, parameter or t)", t.text);
    return found->second;
  }

  ex Call(const Token& name) {
    const std::string& f = name.text;
    const FunctionSpec* spec = FindFunction(f);
    if (!spec) Fail(name, "'" + f + "' is not a function (functions: " + FunctionList() + ")", f);
    const Token& open = Next();
    Enter(open);
    if (Peek().kind == TokenKind::kClose) Fail(name, f + "() is called with no argument", f);
    groups_.push_back({&open, f});
    GiNaC::exvector arguments;
    while (true) {
      arguments.push_back(Sum());
      const Token& t = Next();
      if (t.kind == TokenKind::kClose) break;
      if (t.kind != TokenKind::kComma) {
        --pos_;
        Unexpected(t, &groups_.back());
      }
    }
    groups_.pop_back();
    --depth_;
    if (arguments.size() != spec->arguments)
      Fail(name,
           f + " takes " + std::to_string(spec->arguments) +
               (spec->arguments == 1 ? " argument" : " arguments") + ", found " +
               std::to_string(arguments.size()),
           f);
    if (spec->name == "pow") return MakePower(arguments[0], arguments[1], name);
    return Evaluate(name, [&] { return spec->build(arguments); });
  }

  // base^exponent, refusing what GiNaC could not finish or what is undefined.
  ex MakePower(const ex& base, const ex& exponent, const Token& at) {
    const bool numeric_base = GiNaC::is_a<numeric>(base);
    if (numeric_base && GiNaC::ex_to<numeric>(base).is_zero() && !GiNaC::is_a<numeric>(exponent))
      Fail(at, "0 raised to a non-constant power is undefined");
    if (GiNaC::is_a<numeric>(exponent) && GiNaC::ex_to<numeric>(exponent).is_rational()) {
      const numeric magnitude = GiNaC::abs(GiNaC::ex_to<numeric>(exponent));
      if (magnitude > numeric(kMaxExactExponent))
        Fail(at, "integer exponent too large: the exponent is " + Shown(exponent) +
                     ", and an exact exponent (a power inside an exponent included) may be at "
                     "most " +
                     std::to_string(kMaxExactExponent) + " in absolute value");
      if (numeric_base && GiNaC::ex_to<numeric>(base).is_crational()) {
        const double digits =
            magnitude.to_double() * ExactBits(GiNaC::ex_to<numeric>(base)) * std::log10(2.0);
        if (digits > kMaxExactPowerDigits)
          Fail(at, "exact power too large: " + Shown(base) + "^" + Shown(exponent) +
                       " would have about " + std::to_string(static_cast<long>(digits)) +
                       " digits, more than the " +
                       std::to_string(static_cast<long>(kMaxExactPowerDigits)) + " allowed");
      }
    }
    return Evaluate(at, [&] { return GiNaC::pow(base, exponent); });
  }

  // An operand was expected at `t`.
  [[noreturn]] void MissingOperand(const Token& t) {
    const Token* before = pos_ > 0 ? &tokens_[pos_ - 1] : nullptr;
    if (t.kind == TokenKind::kOperator) Fail(t, "'" + t.text + "' lacks its left operand");
    if (t.kind == TokenKind::kEnd) {
      if (before && before->kind == TokenKind::kOpen)
        Fail(*before, "'(' without a matching ')'", groups_.back().function);
      Fail(t, "the expression ends with an operator");
    }
    if (before && before->kind == TokenKind::kOperator)
      Fail(t, "'" + before->text + "' lacks its right operand");
    if (!groups_.empty() && !groups_.back().function.empty())
      Fail(t, "empty argument in a call of " + groups_.back().function, groups_.back().function);
    if (t.kind == TokenKind::kClose) {
      if (before && before->kind == TokenKind::kOpen) Fail(t, "empty parentheses '()'");
      Fail(t, "')' without a matching '('");
    }
    Fail(t, "',' outside a function's argument list");
  }

  // A complete operand is followed by `t`, which neither continues it nor closes `group` (null
  // at the top level).
  [[noreturn]] static void Unexpected(const Token& t, const Group* group) {
    switch (t.kind) {
      case TokenKind::kEnd:
        Fail(*group->open, "'(' without a matching ')'", group->function);
      case TokenKind::kClose:
        Fail(t, "')' without a matching '('");
      case TokenKind::kComma:
        Fail(t, "',' outside a function's argument list");
      case TokenKind::kOpen:
        Fail(t, "'(' after an operand (missing operator?)");
      default:
        Fail(t, "missing operator before '" + t.text + "'");
    }
  }

  const std::vector<Token>& tokens_;
  const GiNaC::symtab& symbols_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;           // open parentheses, calls, unary signs and exponents
  std::vector<Group> groups_;       // open parentheses and calls
  std::size_t exponent_level_ = 0;  // > 0 inside an exponent
  std::size_t exponent_digits_ = 0;
};

}  // namespace

bool IsFunctionName(const std::string& name) { return FindFunction(name) != nullptr; }

std::string FunctionList() {
  std::string list;
  for (const auto& f : kFunctions) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

GiNaC::ex BuildExpression(const std::vector<Token>& tokens, const GiNaC::symtab& symbols) {
  return Grammar(tokens, symbols).Read();
}

}  // namespace dirac::symbolic
