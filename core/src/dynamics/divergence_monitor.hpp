#pragma once
// Internal: the trust verdict of a run (SimulationReport::diverged_at / ::divergence), one rule
// for every model path. The rule and its constants are documented in docs/robustness.md,
// "Diverged runs".

#include <string>

#include "dirac/simulation_types.hpp"

namespace dirac::dynamics {

/// Safety factor on the constraint-residual bound K_g (atol + rtol * s).
inline constexpr double kResidualSafety = 1e4;
/// Safety factor on the energy-drift bound K_E (atol + rtol * s_E) (1 + t / T).
inline constexpr double kEnergySafety = 1e4;
/// The fixed-step methods (`variational`, `isospectral`, `lie_variational`) have no error control:
/// their energy error is O(step^order) and bounded for a stable run, so the bound is this multiple
/// of s_E instead.
inline constexpr double kFixedStepEnergyFraction = 1.0;

/// Watches the samples of one run and fills report.diverged_at and report.divergence the first
/// time the constraint residual or (for a conservative system) the energy drift leaves its
/// bound, or a sample is not finite. Later samples do not change the verdict.
class DivergenceMonitor {
 public:
  /// `spec` gives rtol, atol and t_end; `conservative`: the energy must be conserved (an
  /// autonomous Lagrangian or Hamiltonian with ideal constraints and no forcing).
  DivergenceMonitor(const SimulationSpec& spec, bool conservative);

  /// The scales of the bounds, from the initial state x0 (all coordinates and velocities,
  /// s = max(1, max |x0_i|)) and the initial energy E0 (s_E = max(1, |E0|)).
  void SetScales(const double* x0, std::size_t size, double energy0);

  /// One sample at time t: the largest |constraint residual| of the sample (0 without
  /// constraints) and |E(t) - E(0)|.
  void Observe(double t, double residual, double energy_drift, SimulationReport& report) const;

  /// The integrator's error control collapsed at time t (the step could not be continued);
  /// `what` says how.
  static void MarkCollapse(double t, const std::string& what, SimulationReport& report);

  double residual_bound() const { return residual_bound_; }
  double energy_bound(double t) const;

 private:
  SimulationSpec spec_;
  bool conservative_;
  double residual_bound_ = 0.0;
  double energy_scale_ = 1.0;
};

}  // namespace dirac::dynamics
