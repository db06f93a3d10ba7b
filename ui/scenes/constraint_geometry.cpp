#include "scenes/constraint_geometry.hpp"

#include <cmath>
#include <exception>
#include <mutex>
#include <utility>

#include "dirac/error.hpp"

namespace dirac::ui {

ConstraintCovectorSampler::ConstraintCovectorSampler(std::shared_ptr<const dirac::Model> model,
                                                     const std::vector<std::string>& coordinates,
                                                     const std::vector<std::string>& columns)
    : model_(std::move(model)), q_(coordinates.size(), 0.0) {
  if (!model_) throw dirac::Error("no model to evaluate the constraint forms of");
  for (const std::string& name : coordinates) {
    std::size_t i = 0;
    while (i < columns.size() && columns[i] != name) ++i;
    if (i == columns.size()) throw dirac::Error("trajectory has no column '" + name + "'");
    q_columns_.push_back(i);
  }
}

std::optional<std::vector<double>> ConstraintCovectorSampler::Evaluate(
    const double* row, const std::vector<double>& parameters) {
  for (std::size_t i = 0; i < q_columns_.size(); ++i) q_[i] = row[q_columns_[i]];
  // ConstraintCovectors evaluates a compiled tape (no GiNaC): safe while the worker derives.
  try {
    return model_->ConstraintCovectors(row[0], q_, parameters);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::array<double, 3>> PlaneNormal(const std::vector<double>& omega,
                                                 std::size_t num_coordinates,
                                                 std::size_t constraint,
                                                 const std::array<std::size_t, 3>& axes) {
  std::array<double, 3> normal{};
  double norm2 = 0.0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t index = constraint * num_coordinates + axes[k];
    normal[k] = index < omega.size() ? omega[index] : 0.0;
    norm2 += normal[k] * normal[k];
  }
  if (!(norm2 > 1e-24) || !std::isfinite(norm2)) return std::nullopt;
  const double norm = std::sqrt(norm2);
  for (double& c : normal) c /= norm;
  return normal;
}

}  // namespace dirac::ui
