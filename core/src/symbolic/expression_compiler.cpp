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

#include "dirac/error.hpp"

namespace dirac::symbolic {

namespace {

using GiNaC::ex;
using GiNaC::numeric;
using Op = TapeInstruction::Op;

// GiNaC 1.8 ships no structural hash functor (std::hash<ex> is structural, but
// std::equal_to<ex> compares pointers), so pair gethash() with ex_is_equal explicitly.
struct ExHash {
  std::size_t operator()(const ex& e) const noexcept { return e.gethash(); }
};

template <typename V>
using ExMap = std::unordered_map<ex, V, ExHash, GiNaC::ex_is_equal>;

std::string ToString(const ex& e) {
  std::ostringstream os;
  os << e;
  return os.str();
}

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

class Compiler {
 public:
  explicit Compiler(const std::vector<GiNaC::symbol>& inputs) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      input_index_.emplace(inputs[k], static_cast<std::int32_t>(k));
    }
  }

  std::int32_t Compile(const ex& e) {
    if (auto it = memo_.find(e); it != memo_.end()) return it->second;
    std::int32_t slot = CompileUncached(e);
    memo_.emplace(e, slot);
    return slot;
  }

  // Maps the SSA slots (one per instruction) onto as few scratch slots as liveness allows.
  CompiledFunction Finish(std::size_t num_inputs, std::vector<std::int32_t> outputs) && {
    const std::size_t n = tape_.size();
    constexpr std::int64_t kNeverRead = -1;
    std::vector<std::int64_t> last_use(n, kNeverRead);
    for (std::size_t i = 0; i < n; ++i) {
      const TapeInstruction& in = tape_[i];
      if (ReadsA(in.op)) last_use[in.a] = static_cast<std::int64_t>(i);
      if (ReadsB(in.op)) last_use[in.b] = static_cast<std::int64_t>(i);
    }
    for (std::int32_t s : outputs) last_use[s] = static_cast<std::int64_t>(n);

    std::vector<std::int32_t> phys(n);
    std::vector<std::int32_t> free_slots;
    std::int32_t num_phys = 0;
    for (std::size_t i = 0; i < n; ++i) {
      TapeInstruction& in = tape_[i];
      const auto now = static_cast<std::int64_t>(i);
      // Operands are released before dst is allocated: Evaluate reads operands before writing.
      if (ReadsA(in.op)) {
        std::int32_t ssa = in.a;
        in.a = phys[ssa];
        if (last_use[ssa] == now) free_slots.push_back(in.a);
      }
      if (ReadsB(in.op)) {
        std::int32_t ssa = in.b;
        in.b = phys[ssa];
        const bool same_as_a = in.a == in.b;  // x op x: release the slot once
        if (last_use[ssa] == now && !same_as_a) free_slots.push_back(in.b);
      }
      std::int32_t dst;
      if (free_slots.empty()) {
        dst = num_phys++;
      } else {
        dst = free_slots.back();
        free_slots.pop_back();
      }
      phys[i] = dst;
      in.dst = dst;
      if (last_use[i] == kNeverRead) free_slots.push_back(dst);
    }
    for (std::int32_t& s : outputs) s = phys[s];
    return CompiledFunction(num_inputs, std::move(tape_), std::move(outputs),
                            static_cast<std::size_t>(num_phys));
  }

 private:
  static bool ReadsA(Op op) { return op != Op::kConst && op != Op::kInput; }
  static bool ReadsB(Op op) {
    return op == Op::kAdd || op == Op::kSub || op == Op::kMul || op == Op::kDiv || op == Op::kPow ||
           op == Op::kAtan2;
  }

  // GiNaC's order of add terms and mul factors follows hash values that mix in addresses, so
  // it changes from run to run. Sorting operands by a content-only hash makes the tape, and
  // hence every rounding error, reproducible across runs.
  std::uint64_t StableHash(const ex& e) {
    if (auto it = stable_hash_.find(e); it != stable_hash_.end()) return it->second;
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
    } else if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e)) {
      std::vector<std::uint64_t> children;
      for (std::size_t i = 0; i < e.nops(); ++i) children.push_back(StableHash(e.op(i)));
      std::sort(children.begin(), children.end());
      h = GiNaC::is_a<GiNaC::add>(e) ? 4 : 5;
      for (std::uint64_t c : children) h = Combine(h, c);
    } else if (GiNaC::is_a<GiNaC::power>(e)) {
      h = Combine(Combine(6, StableHash(e.op(0))), StableHash(e.op(1)));
    } else if (GiNaC::is_a<GiNaC::function>(e)) {
      h = Combine(GiNaC::is_a<GiNaC::fderivative>(e) ? 7 : 8,
                  HashString(GiNaC::ex_to<GiNaC::function>(e).get_name()));
      for (std::size_t i = 0; i < e.nops(); ++i) h = Combine(h, StableHash(e.op(i)));
    } else {
      h = Combine(9, HashString(ToString(e)));  // constants and anything rarer
    }
    stable_hash_.emplace(e, h);
    return h;
  }

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
    std::stable_sort(items.begin(), items.end(),
                     [this](const ex& l, const ex& r) { return StableHash(l) < StableHash(r); });
  }

  std::int32_t Emit(Op op, std::int32_t a, std::int32_t b = -1, double constant = 0.0) {
    auto dst = static_cast<std::int32_t>(tape_.size());
    tape_.push_back(TapeInstruction{op, dst, a, b, constant});
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
    if (auto it = is_constant_.find(e); it != is_constant_.end()) return it->second;
    bool constant = true;
    for (std::size_t i = 0; i < e.nops() && constant; ++i) constant = IsConstant(e.op(i));
    is_constant_.emplace(e, constant);
    return constant;
  }

  std::int32_t CompileUncached(const ex& e) {
    if (GiNaC::is_a<numeric>(e)) return EmitConst(ToDouble(GiNaC::ex_to<numeric>(e)));
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = input_index_.find(e);
      if (it == input_index_.end()) {
        Fail("symbol '" + GiNaC::ex_to<GiNaC::symbol>(e).get_name() + "' is not an input");
      }
      return Emit(Op::kInput, it->second);
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
      const bool negative = CoefficientOf(term).is_negative();
      (negative ? negative_terms : positive_terms).push_back(term);
    }
    SortStably(positive_terms);
    SortStably(negative_terms);

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

  std::int32_t CompileMul(const ex& e) {
    const ex last = e.op(e.nops() - 1);
    if (GiNaC::is_a<numeric>(last)) {
      const numeric& c = GiNaC::ex_to<numeric>(last);
      const double cd = ToDouble(c);
      const ex rest = e / c;
      // c/D: divide the constant directly instead of computing 1/D first.
      bool pure_denominator = true;
      if (GiNaC::is_a<GiNaC::mul>(rest)) {
        for (std::size_t i = 0; i < rest.nops(); ++i) {
          pure_denominator = pure_denominator && IsDenominatorFactor(rest.op(i));
        }
      } else {
        pure_denominator = IsDenominatorFactor(rest);
      }
      if (pure_denominator) return Emit(Op::kDiv, EmitConst(cd), Compile(GiNaC::pow(rest, -1)));
      std::int32_t s = Compile(rest);
      return c.is_equal(-1) ? Emit(Op::kNeg, s) : Emit(Op::kMul, EmitConst(cd), s);
    }

    std::vector<ex> numerator;
    std::vector<ex> denominator;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const ex f = e.op(i);
      if (IsDenominatorFactor(f)) {
        denominator.push_back(GiNaC::pow(f.op(0), -f.op(1)));
      } else {
        numerator.push_back(f);
      }
    }
    SortStably(numerator);
    SortStably(denominator);
    // e itself is memoised by the caller, so a plain product needs no extra memo entry.
    if (denominator.empty()) return EmitProductChain(numerator);
    std::int32_t den = CompileProduct(denominator);
    std::int32_t num = numerator.empty() ? EmitConst(1.0) : CompileProduct(numerator);
    return Emit(Op::kDiv, num, den);
  }

  std::int32_t CompileIntPower(const ex& base, std::int64_t k) {
    if (k == 0) return EmitConst(1.0);
    if (k < 0) return Emit(Op::kDiv, EmitConst(1.0), Compile(GiNaC::pow(base, numeric(-k))));
    if (k == 1) return Compile(base);
    if (k == 2) return Emit(Op::kSquare, Compile(base));
    if (k <= std::numeric_limits<std::int32_t>::max()) {
      return Emit(Op::kPowInt, Compile(base), static_cast<std::int32_t>(k));
    }
    return Emit(Op::kPow, Compile(base), EmitConst(static_cast<double>(k)));
  }

  std::int32_t CompilePower(const ex& base, const ex& exponent) {
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
      if (n.is_negative()) return Emit(Op::kDiv, EmitConst(1.0), Compile(GiNaC::pow(base, -n)));
      const long whole = (n.numer().to_long() - 1) / 2;
      if (whole == 0) return Emit(Op::kSqrt, Compile(base));
      std::int32_t root = Compile(GiNaC::pow(base, numeric(1, 2)));
      return Emit(Op::kMul, Compile(GiNaC::pow(base, numeric(whole))), root);
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
  ExMap<std::int32_t> memo_;
  ExMap<bool> is_constant_;
  ExMap<std::uint64_t> stable_hash_;
  std::unordered_map<std::uint64_t, std::int32_t> const_slot_;
  std::vector<TapeInstruction> tape_;
};

}  // namespace

CompiledFunction CompileExpressions(const std::vector<GiNaC::ex>& outputs,
                                    const std::vector<GiNaC::symbol>& inputs) {
  Compiler compiler(inputs);
  std::vector<std::int32_t> output_slots;
  output_slots.reserve(outputs.size());
  for (const ex& e : outputs) output_slots.push_back(compiler.Compile(e));
  return std::move(compiler).Finish(inputs.size(), std::move(output_slots));
}

}  // namespace dirac::symbolic
