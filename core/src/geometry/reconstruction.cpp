#include "geometry/reconstruction.hpp"

#include <algorithm>
#include <cmath>

namespace dirac::geometry {

GroupReconstruction::GroupReconstruction(const ReconstructionSpec& spec)
    : active_(!spec.group.empty()), columns_(Columns(spec).size()) {
  if (!active_) return;
  group_ = spec.group == "SO3" ? MatrixGroup::kSO3 : MatrixGroup::kSE2;
  if (group_ == MatrixGroup::kSE2 && spec.initial.size() == 3) {
    g_ = Exp(group_, {0, 0, spec.initial[2]});
    g_(0, 2) = spec.initial[0];
    g_(1, 2) = spec.initial[1];
    unwrapped_angle_ = spec.initial[2];
  }
  if (group_ == MatrixGroup::kSO3 && spec.initial.size() == 9)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) g_(i, j) = spec.initial[3 * i + j];
}

std::vector<std::string> GroupReconstruction::Columns(const ReconstructionSpec& spec) {
  std::vector<std::string> columns;
  if (spec.group == "SE2") columns = spec.names;
  if (spec.group == "SO3") {
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j)
        columns.push_back(spec.names[0] + std::to_string(i) + std::to_string(j));
    for (const char* name :
         {"orthogonality_error", "spatial_momentum_x", "spatial_momentum_y", "spatial_momentum_z"})
      columns.push_back(name);
  }
  return columns;
}

void GroupReconstruction::Advance(double t0, double t1,
                                  const std::function<Eigen::Vector3d(double)>& xi) {
  if (!active_ || !(t1 > t0)) return;
  const double h_max = std::min(0.01, 0.02 / std::max(last_speed_, 1e-300));
  const int substeps = std::max(1, static_cast<int>(std::ceil((t1 - t0) / h_max - 1e-9)));
  const double h = (t1 - t0) / substeps;
  const double gauss = std::sqrt(15.0) / 10.0;  // Gauss–Legendre nodes 1/2 -+ sqrt(15)/10, 1/2
  for (int s = 0; s < substeps; ++s) {
    const double ts = t0 + s * h;
    const Eigen::Vector3d xi1 = xi(ts + (0.5 - gauss) * h);
    const Eigen::Vector3d xi2 = xi(ts + 0.5 * h);
    const Eigen::Vector3d xi3 = xi(ts + (0.5 + gauss) * h);
    g_ = MagnusStep6(group_, g_, xi1, xi2, xi3, h);
    last_speed_ = xi3.norm();
  }
}

void GroupReconstruction::Write(double* out, const double* body_momentum) const {
  if (!active_) return;
  if (group_ == MatrixGroup::kSE2) {
    const double angle = std::atan2(g_(1, 0), g_(0, 0));
    unwrapped_angle_ += std::remainder(angle - unwrapped_angle_, 2 * M_PI);
    out[0] = g_(0, 2);
    out[1] = g_(1, 2);
    out[2] = unwrapped_angle_;
    return;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[3 * i + j] = g_(i, j);
  out[9] = (g_.transpose() * g_ - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  Eigen::Vector3d spatial = Eigen::Vector3d::Zero();
  if (body_momentum) spatial = g_ * Eigen::Map<const Eigen::Vector3d>(body_momentum);
  for (int i = 0; i < 3; ++i) out[10 + i] = spatial[i];
}

}  // namespace dirac::geometry
