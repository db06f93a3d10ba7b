#include "model/algebroid_data.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "families/lie_algebra_family.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/generic_rank.hpp"

namespace dirac::model {

using GiNaC::ex;

namespace {

constexpr std::size_t kMaxDenseFamilyDimension = 64;

std::string Plain(const ex& e) { return symbolic::CanonicalString(e); }

std::size_t IndexOf(const std::string& name, const std::vector<std::string>& names) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// Zero: numbers directly; exact expressions after expand + normal; expressions with float
// coefficients (whose cancellation depends on GiNaC's term order) by evaluation at seeded
// points, relative to the size of their expanded terms.
bool IsZero(const ex& e, const symbolic::NominalValues& nominal) {
  if (GiNaC::is_a<GiNaC::numeric>(e)) return e.is_zero();
  if (!symbolic::HasFloat(e)) return GiNaC::normal(e.expand()).is_zero();
  const ex expanded = e.expand();
  std::vector<ex> terms;
  if (GiNaC::is_a<GiNaC::add>(expanded))
    for (std::size_t i = 0; i < expanded.nops(); ++i) terms.push_back(expanded.op(i));
  else
    terms.push_back(expanded);
  return symbolic::FirstNonVanishing({{expanded, terms}}, nominal) == 1;
}

// Seed L §2.1: sum_cyc (C^d_ab C^e_dc - rho^i_c d_i C^e_ab) = 0 (Jacobi) and
// rho^j_a d_j rho^i_b - rho^j_b d_j rho^i_a = C^c_ab rho^i_c (anchor homomorphism).
// Both sums run over the nonzero structure functions only (a bracket of a basis has few nonzero
// components: one for so(n)), so the check costs O(k^3) pairs of nonzero terms for a k-dimensional
// algebra instead of O(k^5) products.
void Check(const AlgebroidData& d, const Scenario& scenario, const std::vector<GiNaC::symbol>& q,
           const std::vector<std::string>& y) {
  const std::size_t n = q.size(), k = y.size();
  const std::string& file = scenario.source_file;
  const std::size_t line = scenario.algebroid.where.line;
  const auto& C = d.structure;
  const symbolic::NominalValues nominal = scenario::NominalValuesOf(scenario);
  std::vector<std::string> base;
  for (const auto& c : scenario.coordinates) base.push_back(c.name);
  auto rho_derivative = [&](std::size_t a, const ex& f) {
    ex out = 0;
    if (GiNaC::is_a<GiNaC::numeric>(f)) return out;
    for (std::size_t i = 0; i < n; ++i) out += d.anchor(i, a) * f.diff(q[i]);
    return out;
  };
  // nonzero[a][b]: the components (c, C^c_ab) of [X_a, X_b] that are not identically zero.
  std::vector<std::vector<std::vector<std::pair<std::size_t, ex>>>> nonzero(
      k, std::vector<std::vector<std::pair<std::size_t, ex>>>(k));
  // Cancellation is polled once per row: these loops are O(k^3) on a large written algebra.
  for (std::size_t a = 0; a < k; ++a) {
    CheckDerivationCancelled();
    for (std::size_t b = 0; b < k; ++b)
      for (std::size_t c = 0; c < k; ++c)
        if (!C[c][a][b].is_zero()) nonzero[a][b].emplace_back(c, C[c][a][b]);
  }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = a + 1; b < k; ++b)
      for (std::size_t i = 0; i < n; ++i) {
        ex lhs = rho_derivative(a, d.anchor(i, b)) - rho_derivative(b, d.anchor(i, a));
        for (const auto& [c, value] : nonzero[a][b]) lhs -= value * d.anchor(i, c);
        if (!IsZero(lhs, nominal))
          throw ScenarioError(
              file, line, "[" + y[a] + ", " + y[b] + "]",
              "the anchor is not a bracket homomorphism along " + base[i] +
                  ": rho([X_a, X_b]) - [rho X_a, rho X_b] = " + Plain(GiNaC::normal(-lhs)));
      }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = a + 1; b < k; ++b) {
      CheckDerivationCancelled();
      for (std::size_t c = b + 1; c < k; ++c) {
        std::map<std::size_t, ex> sum;  // component e -> value, in the order of the basis
        const std::size_t triple[3][3] = {{a, b, c}, {b, c, a}, {c, a, b}};
        for (const auto& t : triple) {
          for (const auto& [m, outer] : nonzero[t[0]][t[1]])
            for (const auto& [e, inner] : nonzero[m][t[2]]) sum[e] += outer * inner;
          for (const auto& [e, value] : nonzero[t[0]][t[1]]) sum[e] -= rho_derivative(t[2], value);
        }
        for (const auto& [e, value] : sum)
          if (!IsZero(value, nominal))
            throw ScenarioError(file, line, "[" + y[a] + ", " + y[b] + ", " + y[c] + "]",
                                "the bracket violates the Jacobi identity (component along " +
                                    y[e] + ": " + Plain(GiNaC::normal(value)) + ")");
      }
    }
}

// A family-named Lie algebra on the dense path (with constraints, or a Lagrangian whose Hessian
// depends on y): the generated and checked constants, for small algebras only.
AlgebroidData FromFamily(const Scenario& scenario, AlgebroidData d) {
  const LieAlgebraSpec& spec = scenario.algebroid.algebra;
  const std::size_t k = d.structure.size();
  if (k > kMaxDenseFamilyDimension)
    throw ModelError(scenario.source_file + ": the Lie algebra " + spec.family + "(" +
                     std::to_string(spec.size) + ") has dimension " + std::to_string(k) +
                     "; with constraints or a non-quadratic Lagrangian the engine handles at "
                     "most " +
                     std::to_string(kMaxDenseFamilyDimension));
  try {
    const auto basis = families::LieAlgebraBasisOf(spec.family, spec.size);
    for (const auto& c : families::StructureConstants(basis)) {
      d.structure[c.c][c.a][c.b] = c.value;
      d.structure[c.c][c.b][c.a] = -c.value;
    }
  } catch (const FamilyError& e) {
    throw ScenarioError(scenario.source_file, spec.where.line, spec.family, e.what());
  }
  return d;
}

}  // namespace

AlgebroidData ReadAlgebroid(const Scenario& scenario, const GiNaC::symtab& table,
                            const std::vector<GiNaC::symbol>& q,
                            const std::vector<std::string>& fibre_names) {
  const std::size_t n = q.size(), k = fibre_names.size();
  AlgebroidData d;
  d.present = scenario.algebroid.present;
  d.anchor = GiNaC::matrix(static_cast<unsigned>(n), static_cast<unsigned>(k));
  // k^3 entries (54 million at k = 378): built row by row, polling cancellation.
  d.structure.clear();
  d.structure.reserve(k);
  for (std::size_t c = 0; c < k; ++c) {
    CheckDerivationCancelled();
    d.structure.emplace_back(k, std::vector<ex>(k, ex(0)));
  }
  if (!d.present) {
    for (std::size_t i = 0; i < n && i < k; ++i) d.anchor(i, i) = 1;
    return d;
  }
  const std::string& file = scenario.source_file;
  if (scenario.algebroid.algebra.present) return FromFamily(scenario, std::move(d));
  std::vector<std::string> base;
  for (const auto& c : scenario.coordinates) base.push_back(c.name);
  for (const auto& a : scenario.algebroid.anchor)
    for (const auto& [coordinate, text] : a.components)
      d.anchor(IndexOf(coordinate, base), IndexOf(a.section, fibre_names)) =
          symbolic::ParseExpression(text, table, {file, a.where.line, "anchor[" + a.section + "]"});
  for (const auto& b : scenario.algebroid.brackets) {
    CheckDerivationCancelled();
    const std::size_t ia = IndexOf(b.a, fibre_names), ib = IndexOf(b.b, fibre_names);
    for (const auto& [section, text] : b.value) {
      const ex value = symbolic::ParseExpression(
          text, table, {file, b.where.line, "[" + b.a + ", " + b.b + "]." + section});
      const std::size_t ic = IndexOf(section, fibre_names);
      d.structure[ic][ia][ib] = value;
      d.structure[ic][ib][ia] = -value;  // antisymmetry
    }
  }
  EnterDerivationStage("checking the brackets (anchor homomorphism, Jacobi identity)");
  Check(d, scenario, q, fibre_names);
  return d;
}

}  // namespace dirac::model
