#pragma once
/// @file constraint_geometry.hpp
/// Geometry of the constraint distribution Delta(q) at trajectory samples, for drawing (no Qt,
/// no VTK): omega^r(q) from dirac::Model::ConstraintCovectors, plane normals.

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dirac/model.hpp"

namespace dirac::ui {

/// Evaluates the one-forms omega^r(q) of a model at trajectory samples. Construction resolves
/// the coordinate columns once.
class ConstraintCovectorSampler {
 public:
  /// @param model        the derived model (kept alive by this object)
  /// @param coordinates  names of the scenario's coordinates q^1..q^n, in order
  /// @param columns      trajectory column names the samples are laid out by
  /// Throws dirac::Error if a coordinate has no column.
  ConstraintCovectorSampler(std::shared_ptr<const dirac::Model> model,
                            const std::vector<std::string>& coordinates,
                            const std::vector<std::string>& columns);

  /// omega (m x n, row-major) at the sample `row` (t first, then the columns) with `parameters`
  /// in the scenario's order (a compiled tape: safe while the worker derives). Nothing if the
  /// evaluation failed.
  std::optional<std::vector<double>> Evaluate(const double* row,
                                              const std::vector<double>& parameters);

  std::size_t num_coordinates() const { return q_columns_.size(); }

 private:
  std::shared_ptr<const dirac::Model> model_;
  std::vector<std::size_t> q_columns_;
  std::vector<double> q_;
};

/// Normal of the plane Delta(q) restricted to three coordinates: the row `constraint` of omega
/// restricted to the coordinate indices `axes`. Returns nothing if that vector is (numerically)
/// zero, i.e. the constraint does not involve those coordinates at q.
std::optional<std::array<double, 3>> PlaneNormal(const std::vector<double>& omega,
                                                 std::size_t num_coordinates,
                                                 std::size_t constraint,
                                                 const std::array<std::size_t, 3>& axes);

}  // namespace dirac::ui
