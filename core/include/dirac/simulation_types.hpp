#pragma once
/// @file simulation_types.hpp
/// Inputs, progress callback and diagnostics shared by every model's Simulate. Layer: dynamics.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dirac/scenario_spec.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

/// Numeric values for one run: parameters in the system's parameter order, initial state.
struct SimulationInput {
  std::vector<double> parameters;
  std::vector<double> q0, v0;
  /// Initial momenta p0 (one per coordinate; used by the vakonomic / Skinner–Rusk formulation).
  std::vector<double> p0;
  /// Other named initial values (accelerations and costates of a second-order problem).
  std::vector<std::pair<std::string, double>> named;
  SimulationSpec spec;
  /// Initial group element of the reconstruction (SO3: 9 entries row-major; SE2: x, y, theta);
  /// empty: the scenario's `reconstruction.initial`.
  std::vector<double> group_initial;
  /// Initial state of the model's explicit flow (Model::explicit_flow()), in its state order;
  /// when given it replaces q0, v0, p0 and `named` for models that have a flow.
  std::vector<double> flow_state;
  /// When set, Simulate streams every sample to it as it is computed (Trajectory::StreamTo) and
  /// returns a trajectory holding only the last sample; without it the whole run is held in
  /// memory, and a run of more than kMaxTrajectoryBytes is refused before it starts.
  Trajectory::RowSink row_sink;
  /// Names of the initial values the scenario layer solved (coordinates marked `solve: true`,
  /// dependent velocities; docs/scenario-format.md), copied into the run's report.
  std::vector<std::string> solved_initial_values;
  /// Values taken from a scenario (current parameter values, initial conditions, settings).
  static SimulationInput FromScenario(const Scenario& scenario);
};

/// Diagnostics of a finished (or cancelled) run.
struct SimulationReport {
  bool cancelled = false;
  std::string method;  ///< the integrator used, e.g. "CVODES Adams (ODE, ...)"
  std::string tape;    ///< how the tapes ran, e.g. "native (cached)", "interpreter (...)"
  long internal_steps = 0;
  long rhs_evaluations = 0;         ///< right-hand sides (ODE path; 0 for IDAS)
  long projections = 0;             ///< restarts after projecting a drifted state (Adams)
  long error_test_failures = 0;     ///< local error test failures
  long nonlinear_failures = 0;      ///< nonlinear (Newton / fixed-point) convergence failures
  int last_order = 0;               ///< method order of the last step
  double initial_projection = 0.0;  ///< |v0 change| made to put v0 on Delta(q0)
  /// Initial values solved from the constraints before the run (SimulationInput's list):
  /// coordinates from the holonomic constraints, dependent velocities from the constraint forms.
  std::vector<std::string> solved_initial_values;
  /// max over samples of |g^r(q, v)| and of the holonomic |f^h(q)| (position residuals)
  double max_constraint_residual = 0.0;
  double max_energy_drift = 0.0;  ///< max |E(t) - E(0)|
  double initial_energy = 0.0;
  /// Trust verdict (docs/robustness.md, "Diverged runs"): the first sample time at which the
  /// constraint residual or the energy drift left the bound derived from the tolerances, or at
  /// which the integrator's error control collapsed; empty when the run can be trusted.
  std::optional<double> diverged_at;
  /// What left its bound at diverged_at, e.g. "constraint residual 3.2e-3 > bound 1e-5"; empty
  /// when the run can be trusted.
  std::string divergence;
};

/// Called with the trajectory so far after each batch of new samples; return false to cancel.
using SimulationProgress = std::function<bool(const Trajectory& so_far)>;

}  // namespace dirac
