#include "symbolic/trig_reduce.hpp"

#include <set>
#include <string>

#include "symbolic/expression_parser.hpp"

namespace dirac::symbolic {

using GiNaC::ex;

namespace {

// The names of the symbols in `e` (a set ordered by name, not by address).
void CollectSymbols(const ex& e, std::set<std::string>& out) {
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    out.insert(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
    return;
  }
  for (std::size_t k = 0; k < e.nops(); ++k) CollectSymbols(e.op(k), out);
}

bool HasTrig(const ex& e) {
  return e.has(GiNaC::sin(GiNaC::wild())) || e.has(GiNaC::cos(GiNaC::wild()));
}

// sin(u)^k -> (1 - cos(u)^2)^(k/2) sin(u)^(k mod 2), expanded, until no sine is squared
// (`algebraic` matches every k >= 2). Expanding a product of sums can square a sine again,
// (1 + sin u)(1 - sin u); each pass lowers the highest power, so this ends.
ex ExpandAndReplaceSines(const ex& e) {
  const ex rule = pow(sin(GiNaC::wild()), 2) == 1 - pow(cos(GiNaC::wild()), 2);
  ex out = e.expand();
  for (int pass = 0; pass < 16; ++pass) {
    const ex next = out.subs(rule, GiNaC::subs_options::algebraic).expand();
    if (next.is_equal(out)) break;
    out = next;
  }
  return out;
}

// (c f1^(2 j1) ... fn^(2 jn))^(k/2), c > 0 rational, k odd, with known signs s_i of the f_i:
// c^(k/2) (s1 f1)^(j1 k) ... (sn fn)^(jn k). Anything else unchanged.
class RootsOfSquares : public GiNaC::map_function {
 public:
  explicit RootsOfSquares(const std::function<int(const ex&)>& sign) : sign_(sign) {}
  ex operator()(const ex& e) override {
    const ex mapped = e.map(*this);
    if (!GiNaC::is_a<GiNaC::power>(mapped) || !GiNaC::is_a<GiNaC::numeric>(mapped.op(1)))
      return mapped;
    const ex exponent = mapped.op(1);
    const GiNaC::numeric k = GiNaC::ex_to<GiNaC::numeric>(exponent) * 2;
    if (!k.is_integer() || k.is_even()) return mapped;
    const ex base = mapped.op(0);
    ex result = 1;
    auto root = [&](const ex& factor) {  // multiplies in the root of one factor, or false
      if (GiNaC::is_a<GiNaC::numeric>(factor)) {
        const auto& c = GiNaC::ex_to<GiNaC::numeric>(factor);
        if (!c.is_rational() || !c.is_positive()) return false;
        result *= pow(factor, exponent);
        return true;
      }
      if (!GiNaC::is_a<GiNaC::power>(factor) || !GiNaC::is_a<GiNaC::numeric>(factor.op(1)))
        return false;
      const auto& n = GiNaC::ex_to<GiNaC::numeric>(factor.op(1));
      if (!n.is_even() || !n.is_positive()) return false;
      const int s = sign_(factor.op(0));
      if (s != 1 && s != -1) return false;
      result *= pow(s * factor.op(0), n / 2 * k);
      return true;
    };
    if (GiNaC::is_a<GiNaC::mul>(base)) {
      for (std::size_t i = 0; i < base.nops(); ++i)
        if (!root(base.op(i))) return mapped;
    } else if (!root(base)) {
      return mapped;
    }
    return result;
  }

 private:
  const std::function<int(const ex&)>& sign_;
};

// Accepted when no larger, or when a symbol cancelled (a symmetric disk's spin angle) and it is
// at most twice as large: content-only criteria (node counts and symbol names).
bool Better(const ex& reduced, const ex& original) {
  constexpr std::size_t kCap = 1 << 20;
  const std::size_t after_nodes = NodeCount(reduced, kCap);
  const std::size_t before_nodes = NodeCount(original, kCap);
  if (after_nodes <= before_nodes) return true;
  if (after_nodes > 2 * before_nodes) return false;
  std::set<std::string> before, after;
  CollectSymbols(original, before);
  CollectSymbols(reduced, after);
  return after.size() < before.size();
}

}  // namespace

GiNaC::ex ReducePythagorean(const GiNaC::ex& e, const PythagoreanOptions& options) {
  if (!HasTrig(e) || ExpandedTermsEstimate(e) > options.max_terms) return e;
  ex out = ExpandAndReplaceSines(e);
  if (options.sign) {
    RootsOfSquares roots(options.sign);
    // Resolving a root can leave a sine squared again, (s sin(u))^2.
    for (int pass = 0; pass < 4; ++pass) {
      const ex resolved = roots(out);
      if (resolved.is_equal(out)) break;
      out = ExpandAndReplaceSines(resolved);
    }
  }
  return Better(out, e) ? out : e;
}

}  // namespace dirac::symbolic
