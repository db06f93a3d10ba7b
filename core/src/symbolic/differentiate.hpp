#pragma once
// Internal: differentiation of GiNaC expressions without expanding, memoised on shared
// subexpressions.
//
// GiNaC's own ex::diff re-differentiates a shared subexpression every time it is reached (the
// expression DAG is walked as a tree) and, for every function node (sin, cos, ...), first tries
// an explicit derivative that throws and is caught before it applies the chain rule: on a
// 20-link pendulum that exception path alone was a third of the derivation. Differentiator keeps
// one derivative per distinct node and applies the chain rule of the elementary functions
// directly; the result equals ex::diff's mathematically (the same rules; GiNaC's automatic
// evaluation orders the terms).

#include <ginac/ginac.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symbolic/symbol_dependence.hpp"

namespace dirac::symbolic {

/// d/ds of expressions that share subexpressions: construct once per symbol and differentiate
/// every expression with the same instance, so that shared nodes are differentiated once.
/// Differentiators of one derivation should share one SymbolDependence (see MakeDifferentiators):
/// then subexpressions without s are never visited and a sum's derivative reads only the terms
/// that contain s, so differentiating by every variable costs about one pass over the
/// expressions instead of one per variable. The derivative is the same expression either way.
/// Not thread-safe (GiNaC is not).
class Differentiator {
 public:
  explicit Differentiator(GiNaC::symbol s, std::shared_ptr<SymbolDependence> dependence = nullptr)
      : s_(std::move(s)), dependence_(std::move(dependence)) {
    if (dependence_) id_ = dependence_->IdOf(s_);
  }
  /// The derivative of `e` with respect to the symbol.
  GiNaC::ex operator()(const GiNaC::ex& e);

 private:
  GiNaC::ex Compute(const GiNaC::ex& e);
  GiNaC::ex ComputeSum(const GiNaC::ex& e);
  GiNaC::symbol s_;
  std::shared_ptr<SymbolDependence> dependence_;
  std::uint32_t id_ = 0;
  // Keyed by structure (GiNaC's cached hash, then comparison): equal subexpressions that the
  // parser or GiNaC built as separate objects are differentiated once.
  struct Hash {
    std::size_t operator()(const GiNaC::ex& e) const noexcept { return e.gethash(); }
  };
  std::unordered_map<GiNaC::ex, GiNaC::ex, Hash, GiNaC::ex_is_equal> memo_;
};

/// One Differentiator per symbol, sharing `dependence` (a new one when null).
std::vector<Differentiator> MakeDifferentiators(
    const std::vector<GiNaC::symbol>& symbols,
    std::shared_ptr<SymbolDependence> dependence = nullptr);

/// d e / d s with a fresh Differentiator (for one-off derivatives).
inline GiNaC::ex Diff(const GiNaC::ex& e, const GiNaC::symbol& s) { return Differentiator(s)(e); }

}  // namespace dirac::symbolic
