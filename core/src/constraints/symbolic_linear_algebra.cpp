#include "constraints/symbolic_linear_algebra.hpp"

#include "dirac/error.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::constraints {

using GiNaC::ex;
using GiNaC::matrix;

// Bounded: the input, its expansion and the result must stay within the symbolic work bound
// (expand and normal cannot be interrupted, so the size is checked before each).
ex Simplify(const ex& e) {
  symbolic::RequireBoundedSize(e, "simplifying");
  const ex expanded = e.expand();
  symbolic::RequireBoundedSize(expanded, "simplifying");
  ex result = GiNaC::normal(expanded);
  symbolic::RequireBoundedSize(result, "simplifying");
  return result;
}

RowEchelon ReduceRows(const matrix& input) {
  RowEchelon out;
  matrix m = input;
  const unsigned rows = m.rows(), cols = m.cols();
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j) m(i, j) = Simplify(m(i, j));
  unsigned row = 0;
  for (unsigned col = 0; col < cols && row < rows; ++col) {
    // Choose a pivot in this column: a numeric one if possible, else the simplest nonzero.
    int best = -1;
    std::size_t best_size = 0;
    for (unsigned r = row; r < rows; ++r) {
      if (m(r, col).is_zero()) continue;
      const bool numeric = GiNaC::is_a<GiNaC::numeric>(m(r, col));
      // Size by canonical text: nops() of GiNaC's form depends on its address-dependent
      // normalisation (-(a-b)*c has three operands, (b-a)*c two), the text does not.
      const std::size_t size = numeric ? 0 : symbolic::CanonicalString(m(r, col)).size();
      if (best < 0 || size < best_size) {
        best = static_cast<int>(r);
        best_size = size;
      }
      if (numeric) break;
    }
    if (best < 0) continue;
    if (static_cast<unsigned>(best) != row)
      for (unsigned j = 0; j < cols; ++j) std::swap(m(row, j), m(static_cast<unsigned>(best), j));
    const ex pivot = m(row, col);
    out.pivots.push_back(pivot);
    for (unsigned j = 0; j < cols; ++j) m(row, j) = Simplify(m(row, j) / pivot);
    for (unsigned r = 0; r < rows; ++r) {
      if (r == row || m(r, col).is_zero()) continue;
      const ex factor = m(r, col);
      for (unsigned j = 0; j < cols; ++j) m(r, j) = Simplify(m(r, j) - factor * m(row, j));
    }
    out.pivot_columns.push_back(col);
    ++row;
  }
  out.reduced = m;
  return out;
}

matrix NullSpace(const matrix& m, RowEchelon* echelon) {
  RowEchelon e = ReduceRows(m);
  const unsigned cols = m.cols();
  std::vector<bool> is_pivot(cols, false);
  for (unsigned c : e.pivot_columns) is_pivot[c] = true;
  std::vector<unsigned> free;
  for (unsigned c = 0; c < cols; ++c)
    if (!is_pivot[c]) free.push_back(c);
  matrix basis(cols, static_cast<unsigned>(free.size()));
  for (unsigned k = 0; k < free.size(); ++k) {
    basis(free[k], k) = 1;
    for (unsigned r = 0; r < e.pivot_columns.size(); ++r)
      basis(e.pivot_columns[r], k) = Simplify(-e.reduced(r, free[k]));
  }
  if (echelon) *echelon = std::move(e);
  return basis;
}

matrix Substitute(const matrix& m, const GiNaC::exmap& substitution) {
  matrix out(m.rows(), m.cols());
  for (unsigned i = 0; i < m.rows(); ++i)
    for (unsigned j = 0; j < m.cols(); ++j) out(i, j) = Simplify(m(i, j).subs(substitution));
  return out;
}

matrix Jacobian(const std::vector<ex>& f, const std::vector<GiNaC::symbol>& z) {
  matrix out(static_cast<unsigned>(f.size()), static_cast<unsigned>(z.size()));
  for (unsigned i = 0; i < f.size(); ++i)
    for (unsigned j = 0; j < z.size(); ++j) out(i, j) = f[i].diff(z[j]);
  return out;
}

matrix Transpose(const matrix& m) { return m.transpose(); }

bool IsFreeOf(const ex& e, const std::vector<GiNaC::symbol>& symbols) {
  for (const auto& s : symbols)
    if (e.has(s)) return false;
  return true;
}

}  // namespace dirac::constraints
