#include "symbolic/symbol_dependence.hpp"

#include <algorithm>
#include <iterator>

namespace dirac::symbolic {

using GiNaC::ex;

std::uint32_t SymbolDependence::IdOf(const ex& s) {
  const auto [it, inserted] = ids_.emplace(s, static_cast<std::uint32_t>(ids_.size()));
  return it->second;
}

const SymbolDependence::Ids& SymbolDependence::SymbolsOf(const ex& e) {
  const GiNaC::basic* key = &GiNaC::ex_to<GiNaC::basic>(e);
  if (const auto found = nodes_.find(key); found != nodes_.end()) return found->second.symbols;
  Ids symbols;
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    symbols.push_back(IdOf(e));
  } else {
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const Ids& below = SymbolsOf(e.op(i));
      if (below.empty()) continue;
      Ids merged;
      merged.reserve(symbols.size() + below.size());
      std::set_union(symbols.begin(), symbols.end(), below.begin(), below.end(),
                     std::back_inserter(merged));
      symbols = std::move(merged);
    }
  }
  return nodes_.emplace(key, Node{e, std::move(symbols)}).first->second.symbols;
}

bool SymbolDependence::DependsOn(const ex& e, std::uint32_t symbol_id) {
  const Ids& symbols = SymbolsOf(e);
  return std::binary_search(symbols.begin(), symbols.end(), symbol_id);
}

const std::vector<std::uint32_t>& SymbolDependence::TermsDependingOn(const ex& sum,
                                                                     std::uint32_t symbol_id) {
  const GiNaC::basic* key = &GiNaC::ex_to<GiNaC::basic>(sum);
  auto found = sums_.find(key);
  if (found == sums_.end()) {
    SumIndex index{sum, {}};
    for (std::size_t i = 0; i < sum.nops(); ++i)
      for (const std::uint32_t id : SymbolsOf(sum.op(i)))
        index.terms[id].push_back(static_cast<std::uint32_t>(i));
    found = sums_.emplace(key, std::move(index)).first;
  }
  const auto terms = found->second.terms.find(symbol_id);
  return terms == found->second.terms.end() ? none_ : terms->second;
}

}  // namespace dirac::symbolic
