#pragma once
// Internal: exact linear algebra over rational functions (GiNaC), for the constraint algorithm.

#include <ginac/ginac.h>

#include <vector>

namespace dirac::constraints {

/// Result of Gauss–Jordan elimination over the field of rational functions of the symbols.
struct RowEchelon {
  GiNaC::matrix reduced;                ///< reduced row echelon form
  std::vector<unsigned> pivot_columns;  ///< one per nonzero row
  std::vector<GiNaC::ex> pivots;        ///< the pivot values before normalisation (generic
                                        ///< rank holds where all are nonzero)
  unsigned rank() const { return static_cast<unsigned>(pivot_columns.size()); }
};

/// Simplifies an expression to a canonical rational form (numerator/denominator expanded).
GiNaC::ex Simplify(const GiNaC::ex& e);

/// Gauss–Jordan elimination with symbolic pivots (a pivot is accepted if it is not identically
/// zero after Simplify). Prefers constant pivots so that validity conditions stay few.
RowEchelon ReduceRows(const GiNaC::matrix& m);

/// Columns spanning the (generic) null space of `m` (cols x k matrix, k = cols - rank).
GiNaC::matrix NullSpace(const GiNaC::matrix& m, RowEchelon* echelon = nullptr);

/// Applies `substitution` to every entry and simplifies.
GiNaC::matrix Substitute(const GiNaC::matrix& m, const GiNaC::exmap& substitution);

/// Jacobian d f_i / d z_j.
GiNaC::matrix Jacobian(const std::vector<GiNaC::ex>& f, const std::vector<GiNaC::symbol>& z);

/// Matrix product helpers (GiNaC's mul() with dimension checks).
GiNaC::matrix Transpose(const GiNaC::matrix& m);

/// True if expression depends on none of `symbols`.
bool IsFreeOf(const GiNaC::ex& e, const std::vector<GiNaC::symbol>& symbols);

}  // namespace dirac::constraints
