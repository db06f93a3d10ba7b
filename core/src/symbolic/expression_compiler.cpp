#include "symbolic/expression_compiler.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/tape_lowering.hpp"

namespace dirac::symbolic {

namespace {

using GiNaC::ex;
using GiNaC::numeric;
using Op = TapeInstruction::Op;

std::string ToString(const ex& e) { return CanonicalString(e); }

[[noreturn]] void Fail(const std::string& message) {
  throw ModelError("CompileExpressions: " + message);
}

const std::unordered_map<unsigned, Op>& UnaryFunctionOps() {
  static const std::unordered_map<unsigned, Op> ops = {
      {GiNaC::sin_SERIAL::serial, Op::kSin},   {GiNaC::cos_SERIAL::serial, Op::kCos},
      {GiNaC::tan_SERIAL::serial, Op::kTan},   {GiNaC::exp_SERIAL::serial, Op::kExp},
      {GiNaC::log_SERIAL::serial, Op::kLog},   {GiNaC::asin_SERIAL::serial, Op::kAsin},
      {GiNaC::acos_SERIAL::serial, Op::kAcos}, {GiNaC::atan_SERIAL::serial, Op::kAtan},
      {GiNaC::sinh_SERIAL::serial, Op::kSinh}, {GiNaC::cosh_SERIAL::serial, Op::kCosh},
      {GiNaC::tanh_SERIAL::serial, Op::kTanh}, {GiNaC::abs_SERIAL::serial, Op::kAbs},
  };
  return ops;
}

bool IsNegativeRealNumeric(const ex& e) {
  return GiNaC::is_a<numeric>(e) && GiNaC::ex_to<numeric>(e).is_real() &&
         GiNaC::ex_to<numeric>(e).is_negative();
}

// Factor with a negative numeric exponent, i.e. one that belongs in a denominator.
bool IsDenominatorFactor(const ex& f) {
  return GiNaC::is_a<GiNaC::power>(f) && IsNegativeRealNumeric(f.op(1));
}

}  // namespace

// Named, not anonymous: CompileMemo::Tables holds them.
namespace compile_tables {

// GiNaC 1.8 ships no structural hash functor (std::hash<ex> is structural, but
// std::equal_to<ex> compares pointers), so pair gethash() with ex_is_equal explicitly.
struct ExHash {
  std::size_t operator()(const ex& e) const noexcept { return e.gethash(); }
};

template <typename V>
using ExMap = std::unordered_map<ex, V, ExHash, GiNaC::ex_is_equal>;

// One factor base^exponent. A sum base with an integer exponent is normalised and kept apart
// from its exponent, because GiNaC::pow would normalise it again its own way.
struct PowerFactor {
  ex base;
  ex exponent;
  ex AsEx() const { return GiNaC::pow(base, exponent); }  // the value, for memo keys only
  bool IsDenominator() const { return IsNegativeRealNumeric(exponent); }
  PowerFactor Inverse() const { return {base, -exponent}; }
};
struct Factorization {
  numeric coefficient = 1;
  std::vector<PowerFactor> factors;
};

// The memo tables of the canonical form: pure functions of an expression and of the inputs'
// order, so several compilations with the same inputs may share them (CompileMemo).
struct CompileTables {
  std::vector<GiNaC::symbol> inputs;
  ExMap<bool> is_constant;
  ExMap<std::uint64_t> stable_hash;
  ExMap<Factorization> factor;
};

}  // namespace compile_tables

namespace {

using namespace compile_tables;

class Compiler {
 public:
  Compiler(const std::vector<GiNaC::symbol>& inputs, CompileTables& tables) : tables_(tables) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      input_index_.emplace(inputs[k], static_cast<std::int32_t>(k));
    }
    input_value_.assign(inputs.size(), -1);
  }

  std::int32_t Compile(const ex& e) {
    if (auto it = memo_.find(e); it != memo_.end()) return it->second;
    CheckDerivationCancelled();
    std::int32_t slot = CompileUncached(e);
    memo_.emplace(e, slot);
    return slot;
  }

  // Lowers the SSA tape to the executable tape (see LowerSsaTape).
  CompiledFunction Finish(std::size_t num_inputs, const std::vector<std::int32_t>& outputs) && {
    return LowerSsaTape(std::move(tape_), num_inputs, outputs);
  }

 private:
  // GiNaC's order of add terms and mul factors follows hash values that mix in addresses, so
  // it changes from run to run, and so does the form of a product with a sum in it: GiNaC
  // divides such a sum by the coefficient of its first term, so x*(a-b) in one run is
  // -x*(b-a) in another. The compiler therefore works on a canonical form that depends only on
  // content: every sum factor is divided by the coefficient of its canonically first term (the
  // one whose term without coefficient has the smallest stable hash), operands are sorted by a
  // content-only hash, and the sign of a term is the sign of its canonical coefficient. The tape,
  // and hence every rounding error, is then the same in every run.
  // Scale of the sum `a` that Normalise divides out: the canonical coefficient of the term
  // whose coefficient-free part has the smallest stable hash (a constant term counts as c * 1).
  // Both come from the term's canonical factorisation, not from GiNaC's form of it: GiNaC may
  // hold the same term as -x*(b-a) or x*(a-b) depending on the address layout, and the raw
  // coefficients (-1 and 1) would then scale the sum differently from run to run. Ties (terms
  // equal up to their coefficient, which GiNaC has not combined) go to the larger coefficient.
  numeric LeadingCoefficient(const ex& a) {
    numeric lead = 1;
    std::uint64_t best = 0;
    bool first = true;
    for (std::size_t i = 0; i < a.nops(); ++i) {
      const ex t = a.op(i);
      numeric c;
      std::uint64_t h;
      if (GiNaC::is_a<numeric>(t)) {
        c = GiNaC::ex_to<numeric>(t);
        h = StableHash(ex(1));
      } else {
        Factorization f = Factor(t);
        c = f.coefficient;
        h = HashFactors(f);
      }
      if (first || h < best || (h == best && c.real() > lead.real())) {
        best = h;
        lead = c;
        first = false;
      }
    }
    return lead;
  }

  // `a` / c as a sum (GiNaC keeps a lone sum as it is given).
  static ex DivideTerms(const ex& a, const numeric& c) {
    GiNaC::exvector terms;
    terms.reserve(a.nops());
    for (std::size_t i = 0; i < a.nops(); ++i) terms.push_back(a.op(i) / c);
    return GiNaC::add(terms);
  }

  // e as coefficient * product of factors, with each sum factor normalised.
  // Memoised: a factor recurs in many products, and factoring a sum base sorts its terms.
  Factorization Factor(const ex& e) {
    if (auto it = tables_.factor.find(e); it != tables_.factor.end()) return it->second;
    Factorization f = FactorUncached(e);
    tables_.factor.emplace(e, f);
    return f;
  }

  Factorization FactorUncached(const ex& e) {
    Factorization f;
    auto add_factor = [&](const ex& factor) {
      ex base = factor;
      ex exponent = 1;
      if (GiNaC::is_a<GiNaC::power>(factor)) {
        base = factor.op(0);
        exponent = factor.op(1);
      }
      if (GiNaC::is_a<GiNaC::add>(base) && GiNaC::is_a<numeric>(exponent) &&
          GiNaC::ex_to<numeric>(exponent).is_integer()) {
        const numeric lead = LeadingCoefficient(base);
        if (!lead.is_zero()) {
          const numeric& k = GiNaC::ex_to<numeric>(exponent);
          if (!lead.is_equal(1)) {
            f.coefficient *= GiNaC::pow(lead, k);
            base = DivideTerms(base, lead);
          }
          f.factors.push_back({base, exponent});
          return;
        }
      }
      if (GiNaC::is_a<GiNaC::power>(factor) && IsNegativeRealNumeric(exponent)) {
        f.factors.push_back({base, exponent});
      } else {
        f.factors.push_back({factor, 1});
      }
    };
    if (GiNaC::is_a<GiNaC::mul>(e)) {
      for (std::size_t i = 0; i < e.nops(); ++i) {
        const ex factor = e.op(i);
        if (GiNaC::is_a<numeric>(factor)) {
          f.coefficient *= GiNaC::ex_to<numeric>(factor);
        } else {
          add_factor(factor);
        }
      }
    } else {
      add_factor(e);
    }
    return f;
  }

  std::uint64_t HashFactor(const PowerFactor& f) {
    if (f.exponent.is_equal(1)) return StableHash(f.base);
    return Combine(Combine(6, StableHash(f.base)), StableHash(f.exponent));
  }

  // The hash of f's factors alone, without its coefficient.
  std::uint64_t HashFactors(const Factorization& f) {
    std::vector<std::uint64_t> children;
    for (const PowerFactor& factor : f.factors) children.push_back(HashFactor(factor));
    std::sort(children.begin(), children.end());
    if (children.size() == 1) return children[0];
    std::uint64_t h = 10;
    for (std::uint64_t child : children) h = Combine(h, child);
    return h;
  }

  std::uint64_t HashFactorization(const Factorization& f, bool with_sign) {
    std::vector<std::uint64_t> children;
    for (const PowerFactor& factor : f.factors) children.push_back(HashFactor(factor));
    std::sort(children.begin(), children.end());
    const numeric c = with_sign ? f.coefficient : GiNaC::abs(f.coefficient);
    if (c.is_equal(1) && children.size() == 1) return children[0];
    std::uint64_t h = Combine(5, StableHash(c));
    for (std::uint64_t child : children) h = Combine(h, child);
    return h;
  }

  std::uint64_t StableHash(const ex& e) {
    if (auto it = tables_.stable_hash.find(e); it != tables_.stable_hash.end()) return it->second;
    std::uint64_t h;
    if (GiNaC::is_a<numeric>(e)) {
      const numeric& n = GiNaC::ex_to<numeric>(e);
      h = Combine(Combine(1, std::bit_cast<std::uint64_t>(n.real().to_double())),
                  std::bit_cast<std::uint64_t>(n.imag().to_double()));
    } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = input_index_.find(e);
      h = it != input_index_.end()
              ? Combine(2, static_cast<std::uint64_t>(it->second))
              : Combine(3, HashString(GiNaC::ex_to<GiNaC::symbol>(e).get_name()));
    } else if (GiNaC::is_a<GiNaC::add>(e)) {
      std::vector<std::uint64_t> children;
      for (std::size_t i = 0; i < e.nops(); ++i) children.push_back(StableHash(e.op(i)));
      std::sort(children.begin(), children.end());
      h = 4;
      for (std::uint64_t c : children) h = Combine(h, c);
    } else if (GiNaC::is_a<GiNaC::mul>(e)) {
      h = HashFactorization(Factor(e), true);
    } else if (GiNaC::is_a<GiNaC::power>(e)) {
      Factorization f = Factor(e);
      if (f.factors.size() == 1 && f.factors[0].exponent.is_equal(1)) {  // not normalised
        h = Combine(Combine(6, StableHash(e.op(0))), StableHash(e.op(1)));
      } else {
        h = HashFactorization(f, true);
      }
    } else if (GiNaC::is_a<GiNaC::function>(e)) {
      h = Combine(GiNaC::is_a<GiNaC::fderivative>(e) ? 7 : 8,
                  HashString(GiNaC::ex_to<GiNaC::function>(e).get_name()));
      for (std::size_t i = 0; i < e.nops(); ++i) h = Combine(h, StableHash(e.op(i)));
    } else {
      h = Combine(9, HashString(ToString(e)));  // constants and anything rarer
    }
    tables_.stable_hash.emplace(e, h);
    return h;
  }

  // The hash of a sum term without its sign, and whether its canonical coefficient is negative.
  std::uint64_t MagnitudeHash(const ex& term) { return HashFactorization(Factor(term), false); }
  bool IsNegativeTerm(const ex& term) { return Factor(term).coefficient.is_negative(); }

  static std::uint64_t Combine(std::uint64_t h, std::uint64_t v) {
    // splitmix64 finaliser over a boost-style combine.
    std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  static std::uint64_t HashString(const std::string& s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    return h;
  }

  // Stable on ties, so equal-hash operands keep GiNaC's order.
  void SortStably(std::vector<ex>& items) {
    SortByKey(items, [this](const ex& e) { return StableHash(e); });
  }

  // Stable sort by a key computed once per item (not once per comparison).
  template <typename T, typename KeyOf>
  static void SortByKey(std::vector<T>& items, KeyOf key_of) {
    std::vector<std::pair<std::uint64_t, std::size_t>> keys(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) keys[i] = {key_of(items[i]), i};
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    std::vector<T> sorted;
    sorted.reserve(items.size());
    for (const auto& key : keys) sorted.push_back(std::move(items[key.second]));
    items = std::move(sorted);
  }

  std::int32_t Emit(Op op, std::int32_t a, std::int32_t b = -1, double constant = 0.0) {
    auto dst = static_cast<std::int32_t>(tape_.size());
    tape_.push_back(TapeInstruction{op, dst, a, b, -1, -1, constant});
    return dst;
  }

  std::int32_t EmitConst(double value) {
    auto bits = std::bit_cast<std::uint64_t>(value);
    if (auto it = const_slot_.find(bits); it != const_slot_.end()) return it->second;
    std::int32_t slot = Emit(Op::kConst, -1, -1, value);
    const_slot_.emplace(bits, slot);
    return slot;
  }

  static double ToDouble(const numeric& n) {
    if (!n.is_real()) Fail("constant " + ToString(n) + " is not real");
    return n.to_double();
  }

  // True if `e` contains no symbols, so it can be folded to a number with evalf().
  bool IsConstant(const ex& e) {
    if (GiNaC::is_a<numeric>(e) || GiNaC::is_a<GiNaC::constant>(e)) return true;
    if (!GiNaC::is_a<GiNaC::add>(e) && !GiNaC::is_a<GiNaC::mul>(e) &&
        !GiNaC::is_a<GiNaC::power>(e) && !GiNaC::is_a<GiNaC::function>(e)) {
      return false;
    }
    if (auto it = tables_.is_constant.find(e); it != tables_.is_constant.end()) return it->second;
    bool constant = true;
    for (std::size_t i = 0; i < e.nops() && constant; ++i) constant = IsConstant(e.op(i));
    tables_.is_constant.emplace(e, constant);
    return constant;
  }

  std::int32_t CompileUncached(const ex& e) {
    if (GiNaC::is_a<numeric>(e)) return EmitConst(ToDouble(GiNaC::ex_to<numeric>(e)));
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = input_index_.find(e);
      if (it == input_index_.end()) {
        Fail("symbol '" + GiNaC::ex_to<GiNaC::symbol>(e).get_name() + "' is not an input");
      }
      // One SSA value per input (Finish gives it the input's own slot).
      std::int32_t& value = input_value_[it->second];
      if (value < 0) value = Emit(Op::kInput, it->second);
      return value;
    }
    if (IsConstant(e)) {
      ex value = e.evalf();
      if (!GiNaC::is_a<numeric>(value)) Fail("cannot evaluate constant " + ToString(e));
      return EmitConst(ToDouble(GiNaC::ex_to<numeric>(value)));
    }
    if (GiNaC::is_a<GiNaC::add>(e)) return CompileAdd(e);
    if (GiNaC::is_a<GiNaC::mul>(e)) return CompileMul(e);
    if (GiNaC::is_a<GiNaC::power>(e)) return CompilePower(e.op(0), e.op(1));
    if (GiNaC::is_a<GiNaC::fderivative>(e)) {
      Fail("derivative of function '" + GiNaC::ex_to<GiNaC::function>(e).get_name() +
           "' is not supported: " + ToString(e));
    }
    if (GiNaC::is_a<GiNaC::function>(e)) return CompileFunction(e);
    Fail("unsupported expression of type " +
         std::string(GiNaC::ex_to<GiNaC::basic>(e).class_name()) + ": " + ToString(e));
  }

  // Numeric coefficient of an add term (GiNaC stores -2*x*y as mul(x, y, -2)).
  static numeric CoefficientOf(const ex& term) {
    if (GiNaC::is_a<GiNaC::mul>(term)) {
      const ex last = term.op(term.nops() - 1);
      if (GiNaC::is_a<numeric>(last)) {
        numeric c = GiNaC::ex_to<numeric>(last);
        if (!c.is_real()) Fail("coefficient " + ToString(c) + " is not real in " + ToString(term));
        return c;
      }
    }
    return numeric(1);
  }

  std::int32_t CompileAdd(const ex& e) {
    bool has_constant = false;
    double constant = 0.0;
    std::vector<ex> positive_terms;  // by sign of the numeric coefficient
    std::vector<ex> negative_terms;

    for (std::size_t i = 0; i < e.nops(); ++i) {
      const ex term = e.op(i);
      if (GiNaC::is_a<numeric>(term)) {
        has_constant = true;
        constant += ToDouble(GiNaC::ex_to<numeric>(term));
        continue;
      }
      (IsNegativeTerm(term) ? negative_terms : positive_terms).push_back(term);
    }
    const auto magnitude = [this](const ex& term) { return MagnitudeHash(term); };
    SortByKey(positive_terms, magnitude);
    SortByKey(negative_terms, magnitude);

    std::int32_t acc = -1;
    for (const ex& term : positive_terms) {
      std::int32_t s = Compile(term);
      acc = acc < 0 ? s : Emit(Op::kAdd, acc, s);
    }

    for (const ex& term : negative_terms) {
      if (acc < 0 && !has_constant) {
        acc = Compile(term);  // leading negative term: the mul path emits kNeg or c*rest
        continue;
      }
      // a - |c|*rest; |c|*rest is hash-consed so it is shared with +|c|*rest elsewhere.
      std::int32_t magnitude = Compile(-term);
      if (acc < 0) {
        acc = Emit(Op::kSub, EmitConst(constant), magnitude);
        has_constant = false;
      } else {
        acc = Emit(Op::kSub, acc, magnitude);
      }
    }
    if (has_constant && constant != 0.0) acc = Emit(Op::kAdd, acc, EmitConst(constant));
    return acc;
  }

  std::int32_t EmitProductChain(const std::vector<ex>& factors) {
    std::int32_t acc = Compile(factors[0]);
    for (std::size_t i = 1; i < factors.size(); ++i) acc = Emit(Op::kMul, acc, Compile(factors[i]));
    return acc;
  }

  // Product of `factors` memoised under the product expression, so e.g. a denominator shared
  // by several fractions is computed once.
  std::int32_t CompileProduct(const std::vector<ex>& factors) {
    if (factors.size() == 1) return Compile(factors[0]);
    ex product = 1;
    for (const ex& f : factors) product *= f;
    if (auto it = memo_.find(product); it != memo_.end()) return it->second;
    std::int32_t slot = EmitProductChain(factors);
    memo_.emplace(product, slot);
    return slot;
  }

  std::int32_t CompileMul(const ex& e) { return CompileFactorization(Factor(e)); }

  std::int32_t CompileFactorization(const Factorization& f) {
    if (f.factors.empty()) return EmitConst(ToDouble(f.coefficient));
    const bool all_denominator = std::all_of(
        f.factors.begin(), f.factors.end(), [](const PowerFactor& p) { return p.IsDenominator(); });
    if (!f.coefficient.is_equal(1)) {
      const double cd = ToDouble(f.coefficient);
      // c/D: divide the constant directly instead of computing 1/D first.
      if (all_denominator) {
        std::vector<PowerFactor> denominator;
        for (const PowerFactor& p : f.factors) denominator.push_back(p.Inverse());
        SortFactors(denominator);
        return Emit(Op::kDiv, EmitConst(cd), CompileProduct(denominator));
      }
      const std::int32_t s = CompileFactors(f.factors);
      return f.coefficient.is_equal(-1) ? Emit(Op::kNeg, s) : Emit(Op::kMul, EmitConst(cd), s);
    }
    return CompileFactors(f.factors);
  }

  void SortFactors(std::vector<PowerFactor>& factors) {
    SortByKey(factors, [this](const PowerFactor& f) { return HashFactor(f); });
  }

  // base^exponent, memoised under its value; a normalised sum base is not normalised again.
  std::int32_t CompileFactor(const PowerFactor& p) {
    if (p.exponent.is_equal(1)) return Compile(p.base);
    if (!GiNaC::is_a<GiNaC::add>(p.base)) return Compile(p.AsEx());
    const ex key = p.AsEx();
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const std::int32_t slot = CompilePowerAsIs(p.base, p.exponent);
    memo_.emplace(key, slot);
    return slot;
  }

  std::int32_t EmitProductChain(const std::vector<PowerFactor>& factors) {
    std::int32_t acc = CompileFactor(factors[0]);
    for (std::size_t i = 1; i < factors.size(); ++i) {
      acc = Emit(Op::kMul, acc, CompileFactor(factors[i]));
    }
    return acc;
  }

  // Product of `factors` memoised under the product expression, so e.g. a denominator shared
  // by several fractions is computed once.
  std::int32_t CompileProduct(const std::vector<PowerFactor>& factors) {
    if (factors.size() == 1) return CompileFactor(factors[0]);
    ex product = 1;
    for (const PowerFactor& f : factors) product *= f.AsEx();
    if (auto it = memo_.find(product); it != memo_.end()) return it->second;
    std::int32_t slot = EmitProductChain(factors);
    memo_.emplace(product, slot);
    return slot;
  }

  // The product of non-numeric factors: numerator / denominator, each a chain in stable order.
  std::int32_t CompileFactors(const std::vector<PowerFactor>& factors) {
    if (factors.size() == 1) return CompileFactor(factors[0]);
    std::vector<PowerFactor> numerator;
    std::vector<PowerFactor> denominator;
    for (const PowerFactor& f : factors) {
      (f.IsDenominator() ? denominator : numerator).push_back(f.IsDenominator() ? f.Inverse() : f);
    }
    SortFactors(numerator);
    SortFactors(denominator);
    if (denominator.empty()) return CompileProduct(numerator);
    std::int32_t den = CompileProduct(denominator);
    std::int32_t num = numerator.empty() ? EmitConst(1.0) : CompileProduct(numerator);
    return Emit(Op::kDiv, num, den);
  }

  std::int32_t CompileIntPower(const ex& base, std::int64_t k) {
    if (k == 0) return EmitConst(1.0);
    if (k < 0) return Emit(Op::kDiv, EmitConst(1.0), CompileFactor({base, numeric(-k)}));
    if (k == 1) return Compile(base);
    if (k == 2) return Emit(Op::kSquare, Compile(base));
    if (k <= std::numeric_limits<std::int32_t>::max()) {
      return Emit(Op::kPowInt, Compile(base), static_cast<std::int32_t>(k));
    }
    return Emit(Op::kPow, Compile(base), EmitConst(static_cast<double>(k)));
  }

  std::int32_t CompilePower(const ex& base, const ex& exponent) {
    if (GiNaC::is_a<GiNaC::add>(base) && GiNaC::is_a<numeric>(exponent) &&
        GiNaC::ex_to<numeric>(exponent).is_integer()) {
      return CompileFactorization(Factor(GiNaC::pow(base, exponent)));
    }
    return CompilePowerAsIs(base, exponent);
  }

  std::int32_t CompilePowerAsIs(const ex& base, const ex& exponent) {
    if (!GiNaC::is_a<numeric>(exponent)) {
      return Emit(Op::kPow, Compile(base), Compile(exponent));
    }
    const numeric& n = GiNaC::ex_to<numeric>(exponent);
    const double d = ToDouble(n);
    constexpr double kIntRange = 1e9;
    if (n.is_integer()) {
      if (std::abs(d) < kIntRange) return CompileIntPower(base, n.to_long());
      return Emit(Op::kPow, Compile(base), EmitConst(d));
    }
    if (n.is_rational() && n.denom().is_equal(2) && std::abs(d) < kIntRange) {
      // base^(k/2) with odd k: sqrt(base) times an integer power, both hash-consed.
      if (n.is_negative()) return Emit(Op::kDiv, EmitConst(1.0), CompileFactor({base, -n}));
      const long whole = (n.numer().to_long() - 1) / 2;
      if (whole == 0) return Emit(Op::kSqrt, Compile(base));
      std::int32_t root = CompileFactor({base, numeric(1, 2)});
      return Emit(Op::kMul, CompileFactor({base, numeric(whole)}), root);
    }
    if (!n.is_rational() && std::abs(d) < kIntRange &&
        d == static_cast<double>(static_cast<std::int64_t>(d))) {
      return CompileIntPower(base, static_cast<std::int64_t>(d));  // e.g. x^2.0
    }
    return Emit(Op::kPow, Compile(base), EmitConst(d));
  }

  std::int32_t CompileFunction(const ex& e) {
    const auto& fn = GiNaC::ex_to<GiNaC::function>(e);
    const unsigned serial = fn.get_serial();
    if (serial == GiNaC::atan2_SERIAL::serial) {
      std::int32_t y = Compile(e.op(0));
      return Emit(Op::kAtan2, y, Compile(e.op(1)));
    }
    const auto& ops = UnaryFunctionOps();
    auto it = ops.find(serial);
    if (it == ops.end() || e.nops() != 1) {
      Fail("function '" + fn.get_name() + "' is not supported: " + ToString(e));
    }
    return Emit(it->second, Compile(e.op(0)));
  }

  ExMap<std::int32_t> input_index_;
  std::vector<std::int32_t> input_value_;  // SSA value of each input, -1 until read
  ExMap<std::int32_t> memo_;
  CompileTables& tables_;
  std::unordered_map<std::uint64_t, std::int32_t> const_slot_;
  std::vector<TapeInstruction> tape_;  // SSA: instruction v defines value v
};

}  // namespace

struct CompileMemo::Tables : compile_tables::CompileTables {};

CompileMemo::CompileMemo() : tables_(std::make_unique<Tables>()) {}
CompileMemo::~CompileMemo() = default;

CompiledFunction CompileExpressions(const std::vector<GiNaC::ex>& outputs,
                                    const std::vector<GiNaC::symbol>& inputs, CompileMemo* memo) {
  compile_tables::CompileTables local;
  compile_tables::CompileTables* tables = &local;
  if (memo) {
    compile_tables::CompileTables& shared = *memo->tables_;
    const bool same =
        shared.inputs.size() == inputs.size() &&
        std::equal(inputs.begin(), inputs.end(), shared.inputs.begin(),
                   [](const GiNaC::symbol& a, const GiNaC::symbol& b) { return a.is_equal(b); });
    if (!same) shared = compile_tables::CompileTables{inputs, {}, {}, {}};
    tables = &shared;
  }
  Compiler compiler(inputs, *tables);
  std::vector<std::int32_t> output_slots;
  output_slots.reserve(outputs.size());
  for (const ex& e : outputs) output_slots.push_back(compiler.Compile(e));
  return std::move(compiler).Finish(inputs.size(), output_slots);
}

}  // namespace dirac::symbolic
