#include "symbolic/canonical_print.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace dirac::symbolic {

namespace {

using GiNaC::ex;
using GiNaC::numeric;
using GiNaC::print_dflt;
using GiNaC::print_latex;

// Contexts whose add and mul printers sort; everything else prints as in the parent context.
class print_canonical : public print_dflt {
  GINAC_DECLARE_PRINT_CONTEXT(print_canonical, print_dflt)
 public:
  explicit print_canonical(std::ostream& os, unsigned options = 0) : print_dflt(os, options) {}
};
GINAC_IMPLEMENT_PRINT_CONTEXT(print_canonical, print_dflt)
print_canonical::print_canonical() : print_dflt(std::cout) {}

class print_canonical_latex : public print_latex {
  GINAC_DECLARE_PRINT_CONTEXT(print_canonical_latex, print_latex)
 public:
  explicit print_canonical_latex(std::ostream& os, unsigned options = 0)
      : print_latex(os, options) {}
};
GINAC_IMPLEMENT_PRINT_CONTEXT(print_canonical_latex, print_latex)
print_canonical_latex::print_canonical_latex() : print_latex(std::cout) {}

constexpr unsigned kAddPrecedence = 40;
constexpr unsigned kMulPrecedence = 50;

template <typename Context>
std::string Text(const ex& e, unsigned level) {
  std::ostringstream os;
  Context c(os);
  e.print(c, level);
  return os.str();
}

// Sorted by the text without a leading sign first, so x and -x sit next to each other.
void SortTexts(std::vector<std::string>& texts) {
  const auto unsigned_part = [](const std::string& s) {
    return s.empty() || s[0] != '-' ? std::string_view(s) : std::string_view(s).substr(1);
  };
  std::sort(texts.begin(), texts.end(), [&](const std::string& l, const std::string& r) {
    const auto ul = unsigned_part(l);
    const auto ur = unsigned_part(r);
    return ul != ur ? ul < ur : l < r;
  });
}

numeric CoefficientOf(const ex& term) {
  if (GiNaC::is_a<numeric>(term)) return GiNaC::ex_to<numeric>(term);
  if (GiNaC::is_a<GiNaC::mul>(term) && GiNaC::is_a<numeric>(term.op(term.nops() - 1))) {
    return GiNaC::ex_to<numeric>(term.op(term.nops() - 1));
  }
  return 1;
}

// GiNaC divides a sum inside a product by the coefficient of its first term, and that term
// depends on addresses (x*(a-b) in one run, -x*(b-a) in another). Products are printed after
// dividing each such sum by the coefficient of its canonically first term instead: the term
// whose text without coefficient is smallest. Returns the coefficient and the factors.
// base^exponent, kept apart because GiNaC::pow would normalise a sum base again its own way.
struct Factor {
  ex base;
  ex exponent;
};

template <typename Context>
std::string FactorText(const Factor& f, unsigned level) {
  if (f.exponent.is_equal(1)) return Text<Context>(f.base, level);
  constexpr unsigned kPowerPrecedence = 60;
  if constexpr (std::is_same_v<Context, print_canonical_latex>) {
    return "{" + Text<Context>(f.base, kPowerPrecedence) + "}^{" + Text<Context>(f.exponent, 0) +
           "}";
  } else {
    return Text<Context>(f.base, kPowerPrecedence) + "^" +
           Text<Context>(f.exponent, kPowerPrecedence);
  }
}

// One factor base^exponent of a product into `factors`, its numeric part into `coefficient`;
// a sum base with an integer exponent is divided by the coefficient of its canonically first
// term (see above).
template <typename Context>
void NormaliseFactor(const ex& f, numeric& coefficient, std::vector<Factor>& factors) {
  if (GiNaC::is_a<numeric>(f)) {
    coefficient *= GiNaC::ex_to<numeric>(f);
    return;
  }
  ex base = f;
  ex exponent = 1;
  if (GiNaC::is_a<GiNaC::power>(f)) {
    base = f.op(0);
    exponent = f.op(1);
  }
  if (GiNaC::is_a<GiNaC::add>(base) && GiNaC::is_a<numeric>(exponent) &&
      GiNaC::ex_to<numeric>(exponent).is_integer()) {
    numeric lead = 1;
    std::string best;
    for (std::size_t j = 0; j < base.nops(); ++j) {
      const numeric c = CoefficientOf(base.op(j));
      std::string key = Text<Context>(c.is_zero() ? base.op(j) : base.op(j) / c, 0);
      // A sign hidden in a nested sum (R*(a - b) stored as -R*(b - a)) shows in the text.
      numeric sign = 1;
      if (!key.empty() && key[0] == '-') {
        sign = -1;
        key.erase(0, 1);
      }
      if (j == 0 || key < best) {
        best = key;
        lead = c * sign;
      }
    }
    if (!lead.is_zero() && !lead.is_equal(1)) {
      GiNaC::exvector terms;
      for (std::size_t j = 0; j < base.nops(); ++j) terms.push_back(base.op(j) / lead);
      const numeric& k = GiNaC::ex_to<numeric>(exponent);
      coefficient *= GiNaC::pow(lead, k);
      factors.push_back({GiNaC::add(terms), k});
      return;
    }
    factors.push_back({base, exponent});
    return;
  }
  factors.push_back({f, 1});
}

template <typename Context>
numeric NormaliseFactors(const ex& e, std::vector<Factor>& factors) {
  numeric coefficient = 1;
  for (std::size_t i = 0; i < e.nops(); ++i)
    NormaliseFactor<Context>(e.op(i), coefficient, factors);
  return coefficient;
}

// A term of a sum: a power of a sum standing alone, e.g. (a - b)^2, is printed with its base
// normalised as in a product ((b - a)^2 in another run otherwise).
template <typename Context>
std::string TermText(const ex& term, unsigned level) {
  if (GiNaC::is_a<GiNaC::power>(term) && GiNaC::is_a<GiNaC::add>(term.op(0))) {
    numeric coefficient = 1;
    std::vector<Factor> factors;
    NormaliseFactor<Context>(term, coefficient, factors);
    if (factors.size() == 1 && coefficient.is_equal(1))
      return FactorText<Context>(factors[0], level);
    if (factors.size() == 1 && coefficient.is_equal(-1))
      return "-" + FactorText<Context>(factors[0], kMulPrecedence);
  }
  return Text<Context>(term, level);
}

template <typename Context>
void PrintAdd(const GiNaC::add& a, const Context& c, unsigned level) {
  constexpr bool kLatex = std::is_same_v<Context, print_canonical_latex>;
  if (kAddPrecedence <= level) c.s << (kLatex ? "{(" : "(");
  const ex e = a;
  std::size_t n = e.nops();
  bool first = true;
  if (n > 0 && GiNaC::is_a<numeric>(e.op(n - 1))) {  // the overall constant, printed first
    e.op(n - 1).print(c, 0);
    first = false;
    --n;
  }
  std::vector<std::string> terms;
  terms.reserve(n);
  for (std::size_t i = 0; i < n; ++i) terms.push_back(TermText<Context>(e.op(i), kAddPrecedence));
  SortTexts(terms);
  for (const std::string& term : terms) {
    if (!first && (term.empty() || term[0] != '-')) c.s << '+';
    c.s << term;
    first = false;
  }
  if (kAddPrecedence <= level) c.s << (kLatex ? ")}" : ")");
}

// As GiNaC's mul::print_overall_coeff.
template <typename Context>
void PrintCoefficient(const numeric& coeff, const Context& c, const char* mul_sym) {
  if (coeff.csgn() == -1) c.s << '-';
  if (!coeff.is_equal(1) && !coeff.is_equal(-1)) {
    if (coeff.is_rational()) {
      (coeff.is_negative() ? -coeff : coeff).print(c);
    } else {
      (coeff.csgn() == -1 ? -coeff : coeff).print(c, kMulPrecedence);
    }
    c.s << mul_sym;
  }
}

void PrintMul(const GiNaC::mul& m, const print_canonical& c, unsigned level) {
  if (kMulPrecedence <= level) c.s << '(';
  std::vector<Factor> normalised;
  const numeric coefficient = NormaliseFactors<print_canonical>(m, normalised);
  PrintCoefficient(coefficient, c, "*");
  std::vector<std::string> factors;
  factors.reserve(normalised.size());
  for (const Factor& f : normalised) {
    factors.push_back(FactorText<print_canonical>(f, kMulPrecedence));
  }
  std::sort(factors.begin(), factors.end());
  for (std::size_t i = 0; i < factors.size(); ++i) {
    if (i > 0) c.s << '*';
    c.s << factors[i];
  }
  if (kMulPrecedence <= level) c.s << ')';
}

// A product of factors in sorted order, as GiNaC prints the numerator or denominator of \frac
// (without rebuilding a GiNaC product, which would undo the normalisation of its sums).
void PrintLatexFactors(const std::vector<Factor>& factors, const print_canonical_latex& c) {
  if (factors.empty()) {
    c.s << "1";
    return;
  }
  if (factors.size() == 1) {
    c.s << FactorText<print_canonical_latex>(factors[0], 0);
    return;
  }
  std::vector<std::string> texts;
  for (const Factor& f : factors) {
    texts.push_back(FactorText<print_canonical_latex>(f, kMulPrecedence));
  }
  std::sort(texts.begin(), texts.end());
  for (std::size_t i = 0; i < texts.size(); ++i) c.s << (i > 0 ? " " : "") << texts[i];
}

// As GiNaC's mul::do_print_latex: factors with a negative exponent go into a \frac.
void PrintMulLatex(const GiNaC::mul& m, const print_canonical_latex& c, unsigned level) {
  if (kMulPrecedence <= level) c.s << "{(";
  std::vector<Factor> normalised;
  const numeric coefficient = NormaliseFactors<print_canonical_latex>(m, normalised);
  PrintCoefficient(coefficient, c, " ");
  std::vector<Factor> numerator, denominator;
  for (const Factor& f : normalised) {
    if (GiNaC::is_a<numeric>(f.exponent) && GiNaC::ex_to<numeric>(f.exponent).is_negative()) {
      denominator.push_back({f.base, -f.exponent});
    } else if (GiNaC::is_a<GiNaC::power>(f.base) && GiNaC::is_a<numeric>(f.base.op(1)) &&
               GiNaC::ex_to<numeric>(f.base.op(1)).is_negative()) {
      denominator.push_back({GiNaC::pow(f.base.op(0), -f.base.op(1)), 1});
    } else {
      numerator.push_back(f);
    }
  }
  if (!denominator.empty()) {
    c.s << "\\frac{";
    PrintLatexFactors(numerator, c);
    c.s << "}{";
    PrintLatexFactors(denominator, c);
    c.s << "}";
  } else {
    std::vector<std::string> factors;
    for (const Factor& f : numerator) {
      factors.push_back(FactorText<print_canonical_latex>(f, kMulPrecedence));
    }
    std::sort(factors.begin(), factors.end());
    for (const std::string& f : factors) c.s << ' ' << f;
  }
  if (kMulPrecedence <= level) c.s << ")}";
}

void RegisterPrinters() {
  // Registered once, before the first canonical print; GiNaC's tables are not changed after.
  static std::once_flag once;
  std::call_once(once, [] {
    GiNaC::set_print_func<GiNaC::add, print_canonical>(&PrintAdd<print_canonical>);
    GiNaC::set_print_func<GiNaC::mul, print_canonical>(&PrintMul);
    GiNaC::set_print_func<GiNaC::add, print_canonical_latex>(&PrintAdd<print_canonical_latex>);
    GiNaC::set_print_func<GiNaC::mul, print_canonical_latex>(&PrintMulLatex);
  });
}

// Static registration, so no thread is printing while the tables change.
[[maybe_unused]] const bool kRegistered = (RegisterPrinters(), true);

}  // namespace

std::string CanonicalString(const ex& e) {
  RegisterPrinters();
  return Text<print_canonical>(e, 0);
}

std::string CanonicalLatex(const ex& e) {
  RegisterPrinters();
  return Text<print_canonical_latex>(e, 0);
}

}  // namespace dirac::symbolic
