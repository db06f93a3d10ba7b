#include "symbolic/differentiate.hpp"

#include "dirac/derivation_control.hpp"

namespace dirac::symbolic {

using GiNaC::ex;

namespace {

// The node's class by its registered class info: a pointer comparison (is_a<> goes through
// dynamic_cast and typeid comparisons, which compare type names across shared libraries).
template <typename T>
bool IsExactly(const GiNaC::basic& node) {
  return &node.get_class_info() == &T::get_class_info_static();
}

// Sums with more terms than this are differentiated through the dependence index (below it,
// checking each term is as cheap as building the index).
constexpr std::size_t kIndexedSumTerms = 8;

}  // namespace

std::vector<Differentiator> MakeDifferentiators(const std::vector<GiNaC::symbol>& symbols,
                                                std::shared_ptr<SymbolDependence> dependence) {
  if (!dependence) dependence = std::make_shared<SymbolDependence>();
  std::vector<Differentiator> out;
  out.reserve(symbols.size());
  for (const GiNaC::symbol& s : symbols) out.emplace_back(s, dependence);
  return out;
}

ex Differentiator::operator()(const ex& e) {
  const GiNaC::basic& node = GiNaC::ex_to<GiNaC::basic>(e);
  if (IsExactly<GiNaC::numeric>(node) || IsExactly<GiNaC::constant>(node)) return 0;
  if (IsExactly<GiNaC::symbol>(node)) return e.is_equal(s_) ? ex(1) : ex(0);
  if (dependence_ && !dependence_->DependsOn(e, id_)) return 0;
  const auto found = memo_.find(e);
  if (found != memo_.end()) return found->second;
  CheckDerivationCancelled();
  ex d = Compute(e);
  memo_.emplace(e, d);
  return d;
}

ex Differentiator::ComputeSum(const ex& e) {
  // The terms' derivatives in the sum's order; the terms without s contribute nothing.
  GiNaC::exvector terms;
  const auto add_term = [&](std::size_t i) {
    ex d = (*this)(e.op(i));
    if (!d.is_zero()) terms.push_back(std::move(d));
  };
  if (dependence_ && e.nops() > kIndexedSumTerms) {
    for (const std::uint32_t i : dependence_->TermsDependingOn(e, id_)) add_term(i);
  } else {
    terms.reserve(e.nops());
    for (std::size_t i = 0; i < e.nops(); ++i) add_term(i);
  }
  if (terms.empty()) return 0;
  if (terms.size() == 1) return terms.front();
  return GiNaC::add(terms);
}

ex Differentiator::Compute(const ex& e) {
  using namespace GiNaC;
  const basic& node = ex_to<basic>(e);
  if (IsExactly<add>(node)) return ComputeSum(e);
  if (IsExactly<mul>(node)) {
    // Product rule: sum over factors of (the product with that factor differentiated).
    exvector factors(e.begin(), e.end());
    exvector terms;
    for (std::size_t i = 0; i < factors.size(); ++i) {
      ex d = (*this)(factors[i]);
      if (d.is_zero()) continue;
      exvector term(factors);
      term[i] = std::move(d);
      terms.push_back(mul(term));
    }
    if (terms.empty()) return 0;
    if (terms.size() == 1) return terms.front();
    return add(terms);
  }
  if (IsExactly<power>(node)) {
    const ex& base = e.op(0);
    const ex& exponent = e.op(1);
    const ex db = (*this)(base);
    const ex de = (*this)(exponent);
    if (de.is_zero()) {
      if (db.is_zero()) return 0;
      return exponent * pow(base, exponent - 1) * db;
    }
    // d(b^x) = b^x (x' log b + x b' / b)
    return e * (de * log(base) + exponent * db / base);
  }
  if (IsExactly<function>(node) && e.nops() == 1) {
    const ex& u = e.op(0);
    const ex du = (*this)(u);
    if (du.is_zero()) return 0;
    if (is_ex_the_function(e, sin)) return cos(u) * du;
    if (is_ex_the_function(e, cos)) return -sin(u) * du;
    if (is_ex_the_function(e, tan)) return (1 + pow(tan(u), 2)) * du;
    if (is_ex_the_function(e, exp)) return e * du;
    if (is_ex_the_function(e, log)) return du / u;
    if (is_ex_the_function(e, sinh)) return cosh(u) * du;
    if (is_ex_the_function(e, cosh)) return sinh(u) * du;
    if (is_ex_the_function(e, tanh)) return (1 - pow(tanh(u), 2)) * du;
    if (is_ex_the_function(e, asin)) return du / sqrt(1 - pow(u, 2));
    if (is_ex_the_function(e, acos)) return -du / sqrt(1 - pow(u, 2));
    if (is_ex_the_function(e, atan)) return du / (1 + pow(u, 2));
  }
  // Anything else (atan2, abs, ...): GiNaC's own rule.
  return e.diff(s_);
}

}  // namespace dirac::symbolic
