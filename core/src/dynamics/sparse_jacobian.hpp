#pragma once
// Internal: dense or sparse linear algebra for CVODES' Newton iteration. The sparsity pattern of
// an ODE's Jacobian df/dy is found by evaluation (the exact Jacobian at the initial state and at
// two points near it, drawn from a fixed seed: an entry that is a nonzero analytic function of
// the state vanishes at all three with probability zero), and the rule below picks KLU when the
// system is large and its Jacobian sparse. The pattern only shapes the Newton iteration matrix,
// never the equations: an entry it missed would slow Newton's convergence, not move the
// solution, which CVODES' error test controls either way.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "dirac/scenario.hpp"

namespace dirac::dynamics {

/// `linear_solver: auto` uses sparse LU from this many unknowns ...
inline constexpr std::size_t kSparseMinUnknowns = 100;
/// ... when the Jacobian's pattern (with its diagonal) fills at most this fraction of it.
inline constexpr double kSparseMaxDensity = 0.25;

/// A compressed-column pattern of a square matrix, rows ascending within each column.
struct SparsePattern {
  std::size_t size = 0;
  std::vector<std::int64_t> column_starts;  ///< size + 1 offsets into rows
  std::vector<std::int64_t> rows;
  std::size_t nonzeros() const { return rows.size(); }
  /// nonzeros / size^2 (1 for an empty matrix).
  double density() const;
};

/// df/dy at (t, y) into the column-major dense `jac` (size x size, zeroed by the caller).
using DenseJacobian = std::function<void(double t, const double* y, double* jac)>;

/// The union of the nonzero entries of `jacobian` at y0 and at two points near it (each
/// component moved by up to 1e-3 (1 + |y0_i|), fixed seed), with the diagonal (CVODES adds the
/// identity to the Jacobian in place). A point where the Jacobian throws or is not finite is
/// skipped; the one at y0 is required.
SparsePattern DetectPattern(const DenseJacobian& jacobian, std::size_t size, double t0,
                            const double* y0);

/// Whether `mode` with this pattern calls for the sparse solver (see LinearSolverMode).
bool UseSparse(LinearSolverMode mode, const SparsePattern& pattern);

/// Whether a system of `size` unknowns might use it under `mode` (auto: from
/// kSparseMinUnknowns), i.e. whether its pattern is worth detecting.
bool MayUseSparse(LinearSolverMode mode, std::size_t size);

}  // namespace dirac::dynamics
