#pragma once
// Internal: a Lie algebroid's anchor and structure functions read from a scenario, checked.

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "dirac/scenario.hpp"

namespace dirac::model {

/// Anchor rho^i_A(q) (n x k) and structure functions C[c][a][b] = C^c_ab(q) of a Lie algebroid
/// in a basis of sections; for TQ (no `algebroid:` block) rho = I and C = 0.
struct AlgebroidData {
  GiNaC::matrix anchor;
  std::vector<std::vector<std::vector<GiNaC::ex>>> structure;
  bool present = false;
};

/// Reads the scenario's algebroid block with the given base and fibre symbols (in `table`) and
/// checks the Jacobi identity and that the anchor is a bracket homomorphism. Throws
/// ScenarioError naming the offending triple / pair (and the scenario's algebroid line).
AlgebroidData ReadAlgebroid(const Scenario& scenario, const GiNaC::symtab& table,
                            const std::vector<GiNaC::symbol>& q,
                            const std::vector<std::string>& fibre_names);

}  // namespace dirac::model
