#pragma once
/// @file linearization.hpp
/// Linearization about an equilibrium or a steady motion, on the constraint manifold, and the
/// stability of it swept over a parameter (docs/linearization.md).
///
/// For a regular Lagrangian on TQ or a Lie algebroid with velocity constraints A(q) y = 0 (the
/// scenario's nonholonomic forms) and holonomic constraints f(q) = 0: the accelerations a(q, y)
/// solve the saddle system of the index-1 equations, and the exact Jacobian of x' = (rho y, a)
/// comes from the compiled tapes. At the operating point the engine chooses dependent
/// coordinates (pivoting on df/dq) and dependent speeds (pivoting on the velocity constraints),
/// charts the constraint manifold by the independent ones (implicit function theorem), drops the
/// ignorable coordinates of a steady motion and the speeds conserved to first order, and returns
/// the Jacobian of the reduced vector field: no multiplier is a state, so no spurious
/// eigenvalues. Models with an explicit flow on M_f (the constraint algorithm's) are linearized
/// with the flow's exact Jacobian. Derivatives are exact (tapes, forward mode), never finite
/// differences.
/// Layer: linearization.

#include <Eigen/Dense>
#include <atomic>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

/// How to linearize.
struct LinearizationOptions {
  /// Coordinates of a steady motion to drop (`--ignorable`); coordinates absent from the
  /// Lagrangian and every constraint are found and dropped as well (reported).
  std::vector<std::string> ignorable;
  /// Independent speeds named by the user (`--speeds`); the rest are chosen by pivoting.
  std::vector<std::string> speeds;
  /// Find an equilibrium or steady motion by Newton's method from the given state (`--find`).
  bool find = false;
  /// Largest |rate| of a kept state accepted at the operating point (units of the state per
  /// second).
  double tolerance = 1e-8;
  /// LinearizeAlong: largest |constraint residual| (f(q) and A(q) y, in the constraints' units)
  /// accepted at a row of the run before it is refused as off the constraint manifold.
  double manifold_tolerance = 1e-6;
};

/// One eigenvalue with its mode shape.
struct LinearMode {
  std::complex<double> eigenvalue;
  /// The eigenvector over Linearization::states, scaled so that its largest coordinate
  /// component (or speed component, if no coordinate moves) is 1.
  std::vector<std::complex<double>> shape;
  /// States whose |component| is at least half the largest, largest first: the mode's name.
  std::vector<std::string> dominant;
};

/// The linear system dx/dt = A x + B u about the operating point, with its spectrum.
struct Linearization {
  std::string formulation;                ///< which model was linearized
  std::vector<std::string> states;        ///< kept independent coordinates, then kept speeds
  std::size_t num_coordinate_states = 0;  ///< how many of `states` are coordinates
  std::vector<std::string> controls;      ///< the scenario's controls (optimal_control)
  Eigen::MatrixXd A;                      ///< states x states
  Eigen::MatrixXd B;                      ///< states x controls (u forces its velocity's row)
  /// N^T W N over the kept speeds (W = d2L/dy2, N the speeds' basis of the constraint
  /// distribution): the mass matrix of the second-order form; empty for an explicit flow.
  Eigen::MatrixXd mass_matrix;
  /// Eigenvalues, sorted by real part (largest first), then imaginary part (largest first).
  std::vector<std::complex<double>> eigenvalues;
  /// One mode per eigenvalue with imaginary part >= 0 (a conjugate pair is one mode).
  std::vector<LinearMode> modes;

  // What the reduction chose at the operating point (reported).
  std::vector<std::string> dependent_coordinates;  ///< fixed by f(q) = 0 (pivoting on df/dq)
  std::vector<std::string> independent_speeds;     ///< all independent speeds (before dropping)
  std::vector<std::string> dependent_speeds;       ///< fixed by the velocity constraints
  std::vector<std::string> ignorable_named;        ///< dropped as named by the user
  std::vector<std::string> ignorable_found;        ///< dropped: absent from L and every constraint
  /// Independent speeds conserved to first order (their row of the reduced matrix vanishes):
  /// dropped, each with the eigenvalue 0.
  std::vector<std::string> dropped_speeds;
  /// The operating point: every coordinate and velocity (fibre coordinate) by name, after the
  /// dependent ones were solved (and after Newton with `find`).
  std::vector<std::pair<std::string, double>> point;
  /// max |rate| over the kept states and dropped speeds, and the state where it occurs.
  double rate_residual = 0.0;
  std::string rate_residual_state;
  /// Largest change the engine made to the given state (dependent values solved, Newton).
  double state_change = 0.0;
  std::string state_change_name;
};

/// Eigenvalues along a parameter (columns are continuous branches) with the critical values.
struct StabilitySweep {
  std::string parameter;
  std::vector<double> values;
  std::vector<std::string> states;
  /// values.size() x states.size(): row i the eigenvalues at values[i], column j one branch
  /// (matched to the previous point, so that each column is a continuous curve).
  Eigen::MatrixXcd eigenvalues;
  /// A real part crossing zero on a branch, refined to 1e-12 (bracket + Brent).
  struct Critical {
    double value = 0.0;
    std::size_t branch = 0;
    std::complex<double> eigenvalue;  ///< on the branch at `value` (real part ~ 0)
    bool oscillatory = false;         ///< a complex pair (Hopf) rather than a real eigenvalue
    bool stabilizing = false;         ///< the real part goes from > 0 to < 0 as the value grows
    /// No transversal crossing: eigenvalues meet on the imaginary axis and leave it (a
    /// conservative system's loss of stability); found by bisection on the stability verdict.
    bool collision = false;
  };
  std::vector<Critical> critical;
  /// Maximal intervals [from, to] of the swept range with no eigenvalue of positive real part
  /// (beyond 1e-9 of the spectrum's size), ends refined to the critical values.
  std::vector<std::pair<double, double>> stable_intervals;
};

/// A(t), B(t) along a computed trajectory (Linearizer::LinearizeAlong): at each row of the run
/// the exact Jacobian of the flow reduced to the constraint manifold with the chart chosen at the
/// first row. No equilibrium check (the rates do not vanish) and nothing dropped but the
/// ignorable coordinates the user named (checked at every row).
struct TrajectoryLinearization {
  std::string formulation;
  std::vector<std::string> states;        ///< independent coordinates (named ignorable ones
                                          ///< dropped), then independent speeds: A's rows
  std::size_t num_coordinate_states = 0;  ///< how many of `states` are coordinates
  std::vector<std::string> controls;      ///< B's columns
  std::vector<std::string> dependent_coordinates;  ///< the first row's chart (pivoting)
  std::vector<std::string> dependent_speeds;       ///< the first row's chart (pivoting)
  std::vector<std::string> ignorable_named;        ///< dropped (checked at every row)
  std::vector<double> t;                           ///< the run's times [s]
  std::vector<Eigen::MatrixXd> A;                  ///< per row: states x states [1/s]
  std::vector<Eigen::MatrixXd> B;                  ///< per row: states x controls
  /// Largest |constraint residual| of the run's rows as read (before projection), and its row
  /// (0-based data row).
  double manifold_residual = 0.0;
  std::size_t manifold_residual_row = 0;
  /// The chart's conditioning: min over rows of sigma_min(C_D) / |C|_F (C = [f_q 0; 0 A(q)]
  /// the constraints' Jacobian in (q, y) without velocity terms, C_D its columns of the
  /// dependent values) relative to the first row's (1 there; rows below kAlongChartRatio are
  /// refused), and the row where it is smallest.
  double chart_quality = 1.0;
  std::size_t chart_quality_row = 0;
};

/// LinearizeAlong refuses a row where the first row's chart has lost this factor of its
/// conditioning (TrajectoryLinearization::chart_quality).
inline constexpr double kAlongChartRatio = 1e-2;

/// Thrown by Linearizer::Sweep when its cancel flag is set (what(): "the stability sweep was
/// cancelled"). Not a ModelError: nothing catches it as a failed point.
class SweepCancelled : public Error {
 public:
  SweepCancelled() : Error("the stability sweep was cancelled") {}
};

/// A scenario's linearization, derived once: Linearize evaluates compiled tapes only, so any
/// number of operating points and parameter values cost no new derivation.
class Linearizer {
 public:
  /// Derives the model (GiNaC: one thread at a time, as BuildModel) and the holonomic
  /// constraints' tapes. Throws ScenarioError for bad expressions or unknown names in `options`
  /// (naming them), ModelError if the scenario has no regular Lagrangian and no explicit flow.
  static std::shared_ptr<const Linearizer> Derive(const Scenario& scenario,
                                                  const LinearizationOptions& options = {});
  /// The same as Derive, reusing `model` (BuildModel(scenario)'s) when it is the regular
  /// Lagrange-Dirac system or explicit flow Derive would make, so that a window or script that
  /// has the model derives only the holonomic constraints' tapes again; otherwise Derive. Call
  /// under the symbolic lock; throws as Derive.
  static std::shared_ptr<const Linearizer> FromModel(const Scenario& scenario,
                                                     const LinearizationOptions& options,
                                                     std::shared_ptr<const Model> model);
  virtual ~Linearizer() = default;

  /// About the scenario's state and parameters (as loaded, with its --set values). Throws
  /// ModelError when the point is not an equilibrium or steady motion (by how much, in which
  /// state's equation), a named coordinate is not ignorable (which rate depends on it), a
  /// constraint Jacobian is singular at the point (which constraints), or Newton fails.
  virtual Linearization Linearize() const = 0;
  /// The same with one `--set` value changed (a parameter, a coordinate's initial value or an
  /// initial velocity / fibre coordinate). Throws ScenarioError for an unknown name.
  virtual Linearization Linearize(const std::string& name, double value) const = 0;
  /// The same derivation at the values of `scenario` (parameters, initial values and
  /// velocities), which must be the derived scenario with other --set values: no new
  /// derivation, and the chart of ReducedRates chosen again there. Throws ModelError when the
  /// constraint Jacobians are singular at the new point. Destroy it as the original (it shares
  /// the derived model).
  virtual std::shared_ptr<const Linearizer> WithValues(const Scenario& scenario) const = 0;
  /// Linearizes at each of `values` of `name` in the order given (at least 2, strictly
  /// monotone), matches the eigenvalues to the previous point and refines every zero crossing
  /// of a real part. Throws as Linearize, naming the value where it failed; ModelError for
  /// fewer than 2 or non-monotone values; SweepCancelled once `*cancel` (if given) is set.
  virtual StabilitySweep Sweep(const std::string& name, const std::vector<double>& values,
                               const std::atomic<bool>* cancel = nullptr) const = 0;
  /// The sweep at `count` evenly spaced values of `name` from `start` to `stop` (the last
  /// exactly `stop`; count >= 2): SweepValues(start, stop, count).
  StabilitySweep Sweep(const std::string& name, double start, double stop,
                       std::size_t count) const {
    return Sweep(name, SweepValues(start, stop, count));
  }
  /// `count` evenly spaced values from `start` to `stop`, the last exactly `stop` (the points
  /// of `dirac linearize --vary NAME=START:STOP:COUNT`).
  static std::vector<double> SweepValues(double start, double stop, std::size_t count);

  /// A(t), B(t) at every row of `run` (a CSV of `dirac run --csv` read with ReadCsv, or any
  /// table with a "t" column and the columns StateColumns() names; other columns ignored) at
  /// the scenario's parameters (with its --set values). The chart is chosen at the first row
  /// and kept; each row's state is projected onto the constraint manifold by solving the
  /// dependent values. `source` (the file) names the run in errors. Throws ModelError naming
  /// `source`: missing state columns (named), no rows, a non-finite value, a row off the
  /// constraint manifold beyond options.manifold_tolerance (row, t, constraint, by how much), a
  /// row where the chart's pivots are ill-conditioned (below kAlongChartRatio; names the row
  /// and suggests --speeds), a named coordinate that is not ignorable at a row. A model
  /// linearized as an explicit flow on M_f reads the flow's states and checks the run's other
  /// coordinates against their values on M_f (the same tolerance); its chart is M_f's own.
  virtual TrajectoryLinearization LinearizeAlong(const Trajectory& run,
                                                 const std::string& source) const;
  /// The run's columns LinearizeAlong reads: the coordinates, then the velocities (fibre
  /// coordinates on a Lie algebroid), by name; an explicit flow's states.
  virtual std::vector<std::string> StateColumns() const;

  /// The reduced vector field at the chart point z (the independent coordinates, then the
  /// independent speeds, as chosen at the scenario's operating point, ignorable ones included),
  /// evaluated nonlinearly: dependent values solved, rates from the saddle system. For checks of
  /// the Jacobian against difference quotients. Names of z in `names` if given.
  virtual Eigen::VectorXd ReducedRates(const Eigen::VectorXd& z,
                                       std::vector<std::string>* names = nullptr) const = 0;
  /// The full reduced Jacobian at the scenario's operating point over the same z (nothing
  /// dropped), and z there.
  virtual Eigen::MatrixXd ReducedJacobian(Eigen::VectorXd* z = nullptr) const = 0;
};

/// The report as text: operating point, the reduction's choices, A (and B), the eigenvalues and
/// the modes.
std::string LinearizationText(const Linearization& lin);
/// {"eigenvalues": [{"re", "im"}], "A", "B", "M", "states", "controls", "modes", ...} in full
/// precision (17 significant digits).
std::string LinearizationJson(const Linearization& lin);
/// Writes LinearizeAlong's result to `writer` (the caller Finish()es it): "# " comment lines
/// (the states and controls numbered from 1, the chart), the header t, A_i_j (row-major, 1-based
/// over the states), B_i_k, then one row per time. Throws IoError as CsvWriter.
void WriteTrajectoryLinearization(const TrajectoryLinearization& along, CsvWriter& writer);
/// {"states", "controls", "dependent_coordinates", "dependent_speeds", "ignorable",
/// "rows": [{"t", "A", "B"}]} in 17 digits.
std::string TrajectoryLinearizationJson(const TrajectoryLinearization& along);
/// The sweep as CSV: the parameter, then re_<k> and im_<k> of each branch k (17 digits).
std::string StabilitySweepCsv(const StabilitySweep& sweep);
/// The sweep's summary: critical values and stable intervals.
std::string StabilitySweepText(const StabilitySweep& sweep);

}  // namespace dirac
