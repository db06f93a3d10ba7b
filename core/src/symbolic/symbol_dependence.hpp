#pragma once
// Internal: which symbols the nodes of GiNaC expression DAGs depend on, so that differentiation
// visits only the terms that contain the variable.
//
// Differentiating a sum of many terms by every variable in turn visits every term once per
// variable: a 40-link chain's Lagrangian has ~800 terms of which one variable's derivative reads
// 40, and its 80 derivatives walked all 800 each. SymbolDependence records, once per node, the
// sorted set of symbols below it and, for large sums, an index from each symbol to the terms that
// contain it; the Differentiators of one derivation share it.

#include <ginac/ginac.h>

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace dirac::symbolic {

/// The symbols below each node of expression DAGs, computed once per node and shared by the
/// Differentiators of one derivation. Nodes are keyed by address and kept alive by the cache, so
/// an address is never reused while the cache lives. Not thread-safe (GiNaC is not).
class SymbolDependence {
 public:
  /// A dense id for the symbol `s` (the same for every copy of it).
  std::uint32_t IdOf(const GiNaC::ex& s);
  /// Whether `e` contains the symbol with id `symbol_id`.
  bool DependsOn(const GiNaC::ex& e, std::uint32_t symbol_id);
  /// The indices of the operands of the sum `sum` that contain the symbol, in increasing order
  /// (empty if none).
  const std::vector<std::uint32_t>& TermsDependingOn(const GiNaC::ex& sum, std::uint32_t symbol_id);

 private:
  using Ids = std::vector<std::uint32_t>;  // sorted, distinct
  const Ids& SymbolsOf(const GiNaC::ex& e);
  struct Node {
    GiNaC::ex keep;  // holds the address
    Ids symbols;
  };
  struct SumIndex {
    GiNaC::ex keep;
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> terms;
  };
  std::unordered_map<const GiNaC::basic*, Node> nodes_;
  std::unordered_map<const GiNaC::basic*, SumIndex> sums_;
  std::map<GiNaC::ex, std::uint32_t, GiNaC::ex_is_less> ids_;
  const std::vector<std::uint32_t> none_{};
};

}  // namespace dirac::symbolic
