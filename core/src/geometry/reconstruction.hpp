#pragma once
// Internal: reconstruction of a motion on SO(3) or SE(2) from its body velocity xi(t),
// g' = g xi^, with the fourth-order Magnus method, and the trajectory columns it produces.

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::geometry {

class GroupReconstruction {
 public:
  /// Inactive when spec.group is empty. Starts at spec.initial (identity if absent).
  explicit GroupReconstruction(const ReconstructionSpec& spec);

  bool active() const { return active_; }
  /// Column names: SE2 -> the three names; SO3 -> <prefix>11..33, orthogonality_error,
  /// spatial_momentum_x/y/z.
  static std::vector<std::string> Columns(const ReconstructionSpec& spec);
  std::size_t num_columns() const { return columns_; }

  /// Integrates from t0 to t1 with `substeps` Magnus steps; `xi(t)` must give the body
  /// velocity at increasing times (it may advance an integrator to get there).
  void Advance(double t0, double t1, const std::function<Eigen::Vector3d(double)>& xi,
               int substeps = 4);

  /// Writes the current columns; `body_momentum` (3 numbers, may be null) is mapped to space
  /// (SO3: spatial_momentum = R m).
  void Write(double* out, const double* body_momentum) const;

 private:
  bool active_ = false;
  MatrixGroup group_ = MatrixGroup::kSO3;
  Eigen::Matrix3d g_ = Eigen::Matrix3d::Identity();
  mutable double unwrapped_angle_ = 0.0;
  std::size_t columns_ = 0;
};

}  // namespace dirac::geometry
