#pragma once
// Internal: the generic rank of a matrix of expressions, decided by evaluation at points in
// general position, with an exact symbolic confirmation when the matrix is small.
//
// Why evaluation decides: every minor of the matrix is an analytic function of the symbols; a
// minor that is not identically zero vanishes only on a set of measure zero, so at a point drawn
// from a continuous distribution it is nonzero with probability one (the Schwartz–Zippel idea).
// The generic rank is therefore the rank at a random point, up to rounding; taking the largest
// rank over several independent points and a tolerance scaled to the matrix's size and
// magnitude makes a wrong verdict require a minor that is tiny at every point. The points come
// from a fixed seed, so the same input gives the same verdict on every run and machine.

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace dirac::symbolic {

/// Values near which the sample points are drawn, by symbol name (a scenario's initial values
/// and parameter values, so that the points lie where the expressions are defined); symbols not
/// listed are drawn near 0.
using NominalValues = std::map<std::string, double>;

/// The rank of a matrix of expressions at points in general position, and how it was decided.
struct GenericRank {
  std::size_t rank = 0;
  std::size_t rows = 0;
  std::size_t cols = 0;
  /// True when the full-rank question was settled by an exact symbolic determinant (square
  /// matrices with small entries); false when by evaluation alone.
  bool exact = false;
  /// Points at which the matrix was evaluated (0 if it was decided symbolically only).
  int points = 0;
  /// Relative pivot tolerance used for the numeric rank.
  double tolerance = 0.0;

  bool full() const { return rank == (rows < cols ? rows : cols); }
  /// One phrase for reports: "exact (symbolic determinant)" or "numeric (rank at 3 random
  /// points, relative tolerance 2e-13)".
  std::string How() const;
};

/// Number of points evaluated and their fixed seed.
inline constexpr int kGenericRankPoints = 3;

/// Largest total of expression nodes of a square matrix of at most kExactRankMaxSize rows for
/// which the determinant is also computed symbolically (normal(det)); above either bound the
/// verdict is numeric only, so the cost stays polynomial in the size of the matrix.
inline constexpr std::size_t kExactRankMaxNodes = 600;
inline constexpr std::size_t kExactRankMaxSize = 4;

/// The generic rank of `m`. Throws ModelError if the entries cannot be evaluated at any of the
/// sample points (non-finite everywhere) and the matrix is too large to decide symbolically.
/// The symbolic determinant is used only when every number in `m` is exact (rational): with
/// floating-point coefficients its cancellation depends on GiNaC's term order.
GenericRank ComputeGenericRank(const GiNaC::matrix& m, const NominalValues& nominal);

/// True when `e` contains a floating-point (inexact) number.
bool HasFloat(const GiNaC::ex& e);

/// One identity to decide: does `value` vanish identically? `scale_terms` set the size it is
/// compared with: at each point |value| <= kVanishingTolerance * sum |scale_terms|.
struct VanishingTest {
  GiNaC::ex value;
  std::vector<GiNaC::ex> scale_terms;
};

/// Relative tolerance of VanishesIdentically (rounding of float coefficients and of the
/// evaluation, with a wide margin; a nonzero analytic function is far above it at points in
/// general position).
inline constexpr double kVanishingTolerance = 1e-9;

/// The index of the first test whose value does not vanish identically, or tests.size() when all
/// do. A value that is structurally zero vanishes; otherwise the decision is made at
/// kGenericRankPoints seeded points drawn near `nominal` (the same points in every run), never
/// by GiNaC's term order, so the verdict is the same on every launch. Throws ModelError when a
/// value cannot be evaluated (non-finite) at any point.
std::size_t FirstNonVanishing(const std::vector<VanishingTest>& tests,
                              const NominalValues& nominal);

}  // namespace dirac::symbolic
