#pragma once
// Internal: what every run of a compiled Lagrange–Dirac system shares, whatever its integrator
// (lagrange_dirac_simulation.cpp, fixed_step_simulation.cpp): the sample rows (SampleRecorder)
// and the projection back onto the constraints (ConstraintProjector).

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"
#include "dynamics/divergence_monitor.hpp"
#include "geometry/reconstruction.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/saddle_system.hpp"

namespace dirac::lagrange_dirac {

// One sample row from the state x = (q, y): t, q, y, the exact multipliers (the saddle system at
// x: the physical constraint force, without any stabilisation term), E, the constraint values
// and the reconstructed group element. Shared by the IDAS and CVODES paths.
class SampleRecorder {
 public:
  SampleRecorder(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                 const std::vector<std::string>& columns, const SimulationInput& input,
                 bool conservative, SimulationReport& report)
      : dae_(dae),
        saddle_(dae, input.parameters),
        reconstruction_(reconstruction),
        trajectory_(columns),
        report_(report),
        row_(trajectory_.num_columns()),
        rates_(dae.layout.n + dae.layout.k),
        constraint_values_(dae.layout.m),
        momentum_(dae.layout.k),
        holonomic_values_(dae.holonomic.num_outputs()),
        monitor_(input.spec, conservative) {
    trajectory_.StreamTo(input.row_sink);
    std::size_t scratch = 0;
    for (const CompiledFunction* f :
         {&dae.energy, &dae.constraints, &dae.body_velocity, &dae.fibre_momentum, &dae.holonomic})
      scratch = std::max(scratch, f->scratch_size());
    scratch_.assign(scratch, 0.0);
  }

  // Appends the row of (t, x); returns max_r |g^r| of the row (the velocity constraints; the
  // position residual max_h |f^h| is position_residual()).
  double Record(double t, const double* x) {
    const std::size_t n = dae_.layout.n, k = dae_.layout.k, m = dae_.layout.m;
    row_[0] = t;
    std::copy(x, x + n + k, row_.begin() + 1);
    // The multipliers are only defined where the saddle matrix is regular; NaN marks a state
    // where it is not (the integrator stops there anyway).
    if (!saddle_.Rates(t, x, rates_.data(), row_.data() + 1 + n + k))
      std::fill(row_.begin() + 1 + n + k, row_.begin() + 1 + n + k + m,
                std::numeric_limits<double>::quiet_NaN());
    const double* in = saddle_.input().data();
    double energy = 0.0;
    dae_.energy.Evaluate(in, &energy, scratch_.data());
    dae_.constraints.Evaluate(in, constraint_values_.data(), scratch_.data());
    if (trajectory_.empty()) {
      e0_ = energy;
      report_.initial_energy = energy;
      monitor_.SetScales(x, n + k, energy);
    }
    std::size_t c = 1 + n + k + m;
    row_[c++] = energy;
    double worst = 0.0;
    for (std::size_t r = 0; r < m; ++r) {
      row_[c++] = constraint_values_[r];
      // NaN-aware: a non-finite residual is the worst.
      const double size = std::abs(constraint_values_[r]);
      worst = std::isfinite(size) ? std::max(worst, size) : size;
    }
    dae_.holonomic.Evaluate(in, holonomic_values_.data(), scratch_.data());
    position_residual_ = 0.0;
    for (double f : holonomic_values_) {
      row_[c++] = f;
      position_residual_ = std::max(position_residual_, std::abs(f));
    }
    report_.max_constraint_residual =
        std::max({report_.max_constraint_residual, worst, position_residual_});
    report_.max_energy_drift = std::max(report_.max_energy_drift, std::abs(energy - e0_));
    monitor_.Observe(t, std::max(worst, position_residual_), std::abs(energy - e0_), report_);
    if (reconstruction_.active()) {
      dae_.fibre_momentum.Evaluate(in, momentum_.data(), scratch_.data());
      reconstruction_.Write(row_.data() + c, k == 3 ? momentum_.data() : nullptr);
    }
    trajectory_.AppendRow(row_.data());
    return worst;
  }

  Eigen::Vector3d BodyVelocity(double t, const double* x) {
    saddle_.LoadState(t, x);  // xi depends on (q, y) only: no saddle solve
    Eigen::Vector3d xi;
    dae_.body_velocity.Evaluate(saddle_.input().data(), xi.data(), scratch_.data());
    return xi;
  }

  double position_residual() const { return position_residual_; }
  geometry::GroupReconstruction& reconstruction() { return reconstruction_; }
  const Trajectory& trajectory() const { return trajectory_; }
  Trajectory Take() { return std::move(trajectory_); }

 private:
  const CompiledDae& dae_;
  lagrange_dirac::SaddleSystem saddle_;
  geometry::GroupReconstruction reconstruction_;
  Trajectory trajectory_;
  SimulationReport& report_;
  std::vector<double> row_, rates_, constraint_values_, momentum_, holonomic_values_, scratch_;
  dynamics::DivergenceMonitor monitor_;
  double e0_ = 0.0, position_residual_ = 0.0;
};

// Moves a state x = (q, y) onto the holonomic constraints f(q) = 0 (Gauss-Newton steps of least
// length, q -= J^T (J J^T)^-1 f) and then y onto A(q) y = 0 (least kinetic change, the saddle
// system's projection): what the runs do at a sample where the drift left the tolerance.
class ConstraintProjector {
 public:
  ConstraintProjector(const CompiledDae& dae, const std::vector<double>& parameters)
      : dae_(dae),
        saddle_(dae, parameters),
        input_(dae.layout.size(), 0.0),
        scratch_(std::max(dae.holonomic.scratch_size(), dae.holonomic_jacobian.scratch_size())),
        f_(dae.holonomic.num_outputs()),
        jacobian_(dae.holonomic_jacobian.num_outputs()),
        corr_(dae.layout.n + dae.layout.k) {
    std::copy(parameters.begin(), parameters.end(), input_.begin() + dae.layout.parameters());
  }

  bool holonomic() const { return !f_.empty(); }

  // max_h |f^h(q)| at (t, q).
  double PositionResidual(double t, const double* q) {
    Load(t, q);
    double worst = 0.0;
    for (double f : f_) worst = std::max(worst, std::abs(f));
    return worst;
  }

  // The name-free index of the largest |f^h| at the last evaluation.
  std::size_t WorstConstraint() const {
    std::size_t worst = 0;
    for (std::size_t h = 1; h < f_.size(); ++h)
      if (std::abs(f_[h]) > std::abs(f_[worst])) worst = h;
    return worst;
  }

  // x (n + k) projected in place; false if the velocity projection's matrix is singular.
  bool Project(double t, double* x) {
    const std::size_t n = dae_.layout.n, k = dae_.layout.k, h = f_.size();
    double residual = holonomic() ? PositionResidual(t, x) : 0.0;
    for (int iteration = 0; iteration < 8 && residual > 0.0; ++iteration) {
      dae_.holonomic_jacobian.Evaluate(input_.data(), jacobian_.data(), scratch_.data());
      const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
          J(jacobian_.data(), static_cast<Eigen::Index>(h), static_cast<Eigen::Index>(n));
      const Eigen::Map<const Eigen::VectorXd> f(f_.data(), static_cast<Eigen::Index>(h));
      const Eigen::VectorXd step = J.transpose() * (J * J.transpose()).ldlt().solve(f);
      if (!step.allFinite()) break;
      std::vector<double> trial(x, x + n);
      for (std::size_t i = 0; i < n; ++i) trial[i] -= step[static_cast<Eigen::Index>(i)];
      const double next = PositionResidual(t, trial.data());
      if (!(next < residual)) break;
      std::copy(trial.begin(), trial.end(), x);
      residual = next;
    }
    for (int pass = 0; pass < 2; ++pass) {
      if (!saddle_.Projection(t, x, corr_.data())) return false;
      for (std::size_t a = 0; a < k; ++a) x[n + a] += corr_[n + a];
    }
    return true;
  }

 private:
  void Load(double t, const double* q) {
    input_[0] = t;
    std::copy(q, q + dae_.layout.n, input_.begin() + dae_.layout.q());
    dae_.holonomic.Evaluate(input_.data(), f_.data(), scratch_.data());
  }

  const CompiledDae& dae_;
  lagrange_dirac::SaddleSystem saddle_;
  std::vector<double> input_, scratch_, f_, jacobian_, corr_;
};

}  // namespace dirac::lagrange_dirac
