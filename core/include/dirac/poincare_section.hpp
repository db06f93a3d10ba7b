#pragma once
/// @file poincare_section.hpp
/// Poincaré sections of a sampled trajectory: the states where a scalar function g of the
/// columns crosses zero in a chosen direction, each interpolated to the crossing time.
///
/// Interpolation: g is evaluated at every sample; where it changes sign between samples k and
/// k+1, the cubic through the four samples around the interval (k-1 .. k+2; one-sided at the
/// ends of the run, a quadratic or a line when the run has only three or two samples) is solved
/// for its zero in [t_k, t_{k+1}] (bracketed Newton), and every column is interpolated by the
/// same cubic at that time. For samples of a smooth motion taken at output step h, the error in
/// the values of the middle interval is at most (3/128) h^4 max|f''''| per column (the cubic
/// Lagrange remainder), and the crossing time's error is that of g divided by |dg/dt|: with
/// h = 0.01 s, about 2e-10 for a unit-frequency oscillation, far below the integrators' default
/// tolerances. Columns that jump between samples (an angle wrapped to (-pi, pi]) are not
/// smooth there and are interpolated across the jump as they are.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dirac/trajectory.hpp"

namespace dirac {

/// Which zero crossings of g count: g going from negative to >= 0 (kIncreasing, "+"), from
/// >= 0 to negative (kDecreasing, "-"), or either ("both"). A sample with g exactly 0 counts as
/// the non-negative side, so every crossing is found once.
enum class CrossingDirection { kIncreasing, kDecreasing, kBoth };

/// "+" (also "increasing"), "-" ("decreasing") or "both". Throws Error naming `what` (e.g.
/// "--direction") and the accepted words otherwise.
CrossingDirection ParseCrossingDirection(const std::string& text, const std::string& what);
/// "+", "-" or "both".
const char* CrossingDirectionName(CrossingDirection direction);

/// g: a scalar expression of a trajectory's columns (t, coordinates, velocities, multipliers,
/// E, ... by their column names; the functions and precedence of scenario expressions,
/// docs/scenario-format.md#expressions), compiled once to a tape. Immutable after construction;
/// evaluating it does not touch GiNaC.
class SectionFunction {
 public:
  /// Parses and compiles `expression` over `columns` (names that are no identifier, or that the
  /// parser reserves, cannot be used). Uses GiNaC: a multi-threaded program takes the
  /// SymbolicGuard around this constructor (dirac/symbolic_lock.hpp). Throws ScenarioError
  /// naming `file`, `line` and `key` (e.g. "--section", or "view.plots[2].section") with the
  /// offending symbol for an empty text, a syntax error or a name that is no column.
  SectionFunction(const std::string& expression, const std::vector<std::string>& columns,
                  const std::string& file = "", std::size_t line = 0,
                  const std::string& key = "section");
  ~SectionFunction();
  SectionFunction(SectionFunction&&) noexcept;
  SectionFunction& operator=(SectionFunction&&) noexcept;

  /// g at one row of num_columns() values (the columns given to the constructor, in order).
  double operator()(const double* row) const;
  std::size_t num_columns() const;
  const std::string& expression() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The section computed row by row, for a run whose rows are streamed (memory stays constant:
/// at most six rows are kept). Each crossing's interpolated row (same columns as the input, t
/// the crossing time) goes to `emit` as soon as the two samples after its interval have
/// arrived, or at Finish().
class SectionDetector {
 public:
  using RowSink = std::function<void(const double* row)>;
  SectionDetector(const SectionFunction& g, CrossingDirection direction, RowSink emit);
  ~SectionDetector();

  /// One sample (num_columns() values, times increasing). `emit` may throw; it is then not
  /// retried.
  void AddRow(const double* row);
  /// Emits the crossings still waiting for later samples, from the samples there are.
  void Finish();
  /// Crossings emitted so far.
  std::size_t crossings() const { return crossings_; }

 private:
  struct Sample {
    std::size_t index;
    double g;
    std::vector<double> row;
  };
  void Resolve(std::size_t k);
  void Trim();

  const SectionFunction& g_;
  CrossingDirection direction_;
  RowSink emit_;
  std::vector<Sample> samples_;       // the last few, oldest first
  std::vector<std::size_t> pending_;  // k of the crossings in (t_k, t_{k+1}] not yet emitted
  std::size_t next_index_ = 0;
  std::size_t crossings_ = 0;
};

/// The section of a whole trajectory: one row per crossing, in time order, with the columns of
/// `trajectory`. `g` must have been built over trajectory.columns() (else throws Error).
Trajectory ComputePoincareSection(const Trajectory& trajectory, const SectionFunction& g,
                                  CrossingDirection direction);

}  // namespace dirac
