#pragma once
/// @file simulation_snapshot.hpp
/// An immutable result of one simulation run, published by SimulationController to the GUI.

#include <QMetaType>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dirac/optimal_control.hpp"
#include "dirac/scenario_spec.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"

namespace dirac::ui {

/// The solve behind a snapshot of a scenario that poses one (optimal_control: or
/// boundary_value:, see dirac::SolveOptimalControl).
struct SolveResult {
  bool converged = false;     ///< the trajectory is the optimum (else the unsolved initial guess)
  dirac::SolveReport report;  ///< iterations, residual (max |F| of the boundary conditions), ...
  double cost = 0.0;          ///< int_0^T C dt of the optimum
  double hamiltonian_drift = 0.0;  ///< max |E(t) - E(0)| along the sampled optimum
};

/// What the GUI reads: never mutated after publication, so it may be shared freely.
struct SimulationSnapshot {
  std::uint64_t run = 0;       ///< id of the run that produced it (increases with each restart)
  std::uint64_t scenario = 0;  ///< id of the loaded scenario (increases with each load)
  std::shared_ptr<const dirac::Trajectory> trajectory;  ///< samples computed so far
  std::vector<double> parameters;  ///< parameter values of the run, in the system's order
  double t_end = 0.0;              ///< requested final time [s]
  bool complete = false;           ///< true once the whole span [0, t_end] is computed
  dirac::SimulationReport report;  ///< diagnostics; meaningful when complete
  double wall_seconds = 0.0;       ///< wall-clock time the run took so far [s]

  /// The same scenario and values in the comparison formulation (SimulationController::
  /// SetComparison), computed after the main run: set only on complete snapshots, null if no
  /// comparison was asked for or it failed (then comparison_error says why).
  std::shared_ptr<const dirac::Trajectory> comparison;
  std::string comparison_label;  ///< e.g. "nonholonomic (Lagrange–Dirac)"
  std::string comparison_error;  ///< why the comparison is missing, "" if it is not

  /// Set for scenarios that pose a solve: the run solved it (converged: the trajectory is the
  /// sampled optimum; else the solve failed before any optimum of this scenario was found and
  /// the trajectory is the simulated initial guess).
  std::optional<SolveResult> solve;
  /// The scenario with the values of this run (its boundary values, parameters, ...).
  std::shared_ptr<const dirac::Scenario> run_scenario;

  /// True if this run also computes the gauge two-form (SimulationController::
  /// SetGaugeTwoForm): a GaugeResult of the same run follows the complete snapshot.
  bool gauge_pending = false;

  /// Last sampled time, 0 for an empty trajectory [s].
  double last_time() const {
    return trajectory && !trajectory->empty() ? trajectory->at(trajectory->num_rows() - 1, 0) : 0.0;
  }
};

using SnapshotPtr = std::shared_ptr<const SimulationSnapshot>;

/// The gauge two-form B_t of a run (Model::gauge_two_form()->Compute with the run's values),
/// computed after the main run and published separately; immutable like a snapshot.
struct GaugeResult {
  std::uint64_t run = 0;       ///< the run whose values it used (SimulationSnapshot::run)
  std::uint64_t scenario = 0;  ///< id of the loaded scenario
  /// Columns t, q..., v..., B_i_j..., B_norm, B_full_norm, omega_change, identity_residual;
  /// null if the computation failed (then `error` says why).
  std::shared_ptr<const dirac::Trajectory> trajectory;
  std::string error;          ///< "" on success
  double wall_seconds = 0.0;  ///< wall-clock time of the gauge computation [s]
  /// Cancelled (SimulationController::Cancel) at model time `reached` [s]: no trajectory.
  bool cancelled = false;
  double reached = 0.0;
};

using GaugeResultPtr = std::shared_ptr<const GaugeResult>;

}  // namespace dirac::ui

Q_DECLARE_METATYPE(dirac::ui::SnapshotPtr)
Q_DECLARE_METATYPE(dirac::ui::GaugeResultPtr)
