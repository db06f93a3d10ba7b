#pragma once
/// @file constraint_geometry.hpp
/// Geometry of the constraint distribution Delta(q) evaluated from the compiled system, for
/// drawing (no Qt, no VTK).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/trajectory.hpp"

namespace dirac::ui {

/// Evaluates the one-forms omega^r(q) of a system at trajectory samples. Construction resolves
/// names once; Evaluate() is cheap (one tape evaluation, no allocation after the first call).
class ConstraintFormEvaluator {
 public:
  /// @param system     the derived system (must outlive this object)
  /// @param columns    trajectory column names the samples are laid out by
  /// Throws dirac::Error if a coordinate, velocity or multiplier column is missing.
  ConstraintFormEvaluator(const dirac::LagrangeDiracSystem& system,
                          const std::vector<std::string>& columns);

  /// omega (m x n, row-major) at the sample `row` (num_columns values) with `parameters` in the
  /// system's parameter order.
  const std::vector<double>& Evaluate(const double* row, const std::vector<double>& parameters);

 private:
  const dirac::CompiledDae& dae_;
  std::vector<std::size_t> q_columns_, v_columns_, mu_columns_;
  std::vector<double> inputs_, outputs_, scratch_;
};

/// Normal of the plane Delta(q) restricted to three coordinates: the row `constraint` of omega
/// restricted to the coordinate indices `axes`. Returns nothing if that vector is (numerically)
/// zero, i.e. the constraint does not involve those coordinates at q.
std::optional<std::array<double, 3>> PlaneNormal(const std::vector<double>& omega,
                                                 std::size_t num_coordinates,
                                                 std::size_t constraint,
                                                 const std::array<std::size_t, 3>& axes);

}  // namespace dirac::ui
