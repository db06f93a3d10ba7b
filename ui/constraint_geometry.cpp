#include "constraint_geometry.hpp"

#include <cmath>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

std::vector<std::size_t> ColumnsOf(const std::vector<std::string>& names,
                                   const std::vector<std::string>& columns) {
  std::vector<std::size_t> indices;
  for (const std::string& name : names) {
    std::size_t i = 0;
    while (i < columns.size() && columns[i] != name) ++i;
    if (i == columns.size()) throw dirac::Error("trajectory has no column '" + name + "'");
    indices.push_back(i);
  }
  return indices;
}

}  // namespace

ConstraintFormEvaluator::ConstraintFormEvaluator(const dirac::LagrangeDiracSystem& system,
                                                 const std::vector<std::string>& columns)
    : dae_(system.dae()),
      q_columns_(ColumnsOf(system.coordinate_names(), columns)),
      v_columns_(ColumnsOf(system.velocity_names(), columns)),
      mu_columns_(ColumnsOf(system.multiplier_names(), columns)),
      inputs_(dae_.layout.size(), 0.0),
      outputs_(dae_.constraint_matrix.num_outputs(), 0.0),
      scratch_(dae_.constraint_matrix.scratch_size(), 0.0) {}

const std::vector<double>& ConstraintFormEvaluator::Evaluate(
    const double* row, const std::vector<double>& parameters) {
  const dirac::InputLayout& layout = dae_.layout;
  inputs_[layout.t()] = row[0];
  for (std::size_t i = 0; i < q_columns_.size(); ++i) inputs_[layout.q() + i] = row[q_columns_[i]];
  for (std::size_t i = 0; i < v_columns_.size(); ++i) inputs_[layout.v() + i] = row[v_columns_[i]];
  for (std::size_t r = 0; r < mu_columns_.size(); ++r)
    inputs_[layout.mu() + r] = row[mu_columns_[r]];
  // q' = v; v' is not needed by omega(q) and stays 0.
  for (std::size_t i = 0; i < v_columns_.size(); ++i)
    inputs_[layout.qdot() + i] = row[v_columns_[i]];
  for (std::size_t k = 0; k < layout.num_parameters && k < parameters.size(); ++k)
    inputs_[layout.parameters() + k] = parameters[k];
  dae_.constraint_matrix.Evaluate(inputs_.data(), outputs_.data(), scratch_.data());
  return outputs_;
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
