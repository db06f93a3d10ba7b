#pragma once
// Internal: what every linearization path hands to the common finish: the full reduced
// Jacobian over the chart's independent states at one point, and what the finish does with it
// (ignorable coordinates checked and dropped, speeds conserved to first order dropped, the
// operating point checked, spectrum and modes). Also the sweep over any Linearizer.

#include <Eigen/Dense>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "dirac/linearization.hpp"

namespace dirac::linearization {

/// The reduced vector field's Jacobian over z = (independent coordinates, independent speeds).
struct ReducedPoint {
  std::string formulation;
  std::vector<std::string> names;   ///< of z
  std::size_t num_coordinates = 0;  ///< z's first entries are coordinates, the rest speeds
  Eigen::MatrixXd J;                ///< d z' / d z
  Eigen::VectorXd rates;            ///< z'
  Eigen::MatrixXd B;                ///< d z' / d u (controls), z.size() x controls
  Eigen::MatrixXd M;                ///< over the speeds of z (empty if none)
  std::vector<std::string> controls;
  std::vector<bool> ignorable;  ///< per coordinate of z: dropped
  std::vector<bool> named;      ///< per coordinate of z: named by the user (else found)
  Linearization report;         ///< the reduction's choices and the point, filled by the path
  /// Along a run (RunAlong): |constraint residual| of the row as read, and the chart's
  /// conditioning relative to the first row's.
  double manifold_residual = 0.0;
  double chart_quality = 1.0;
};

/// Drops ignorable coordinates (after checking that no kept rate depends on them) and the
/// speeds whose row vanishes, checks the rates (ModelError naming the state), and computes the
/// spectrum and modes. `check_rates` false: report them only (Newton's intermediate points).
/// `fixed_states` (a sweep's first point's states): keep exactly these instead of deciding.
Linearization Finish(ReducedPoint point, double tolerance, bool check_rates = true,
                     const std::vector<std::string>* fixed_states = nullptr);

/// Indices of z kept by Finish's rules (for Newton on the kept states).
std::vector<std::size_t> KeptStates(const ReducedPoint& point);

/// Throws ModelError unless `values` are at least 2, finite and strictly monotone (naming the
/// first that is not).
void CheckSweepValues(const std::string& name, const std::vector<double>& values);

/// The sweep of Linearizer::Sweep: `at(value)` linearizes at one value of `name` (with the
/// states of the first point kept throughout); SweepCancelled before any point once `*cancel`.
StabilitySweep RunStabilitySweep(const std::function<Linearization(double)>& at,
                                 const std::string& name, const std::vector<double>& values,
                                 const std::atomic<bool>* cancel);

/// The loop of Linearizer::LinearizeAlong: reads `columns` (the state x, by name) from each row
/// of `run`, calls `at(row, x)` for the reduced point there (the path's chart, projection and
/// checks; `ignorable` marks the named coordinates only), checks that no kept rate depends on an
/// ignorable coordinate, and keeps A and B over the rest. Errors from `at` are rethrown naming
/// `source`, the row and its time.
TrajectoryLinearization RunAlong(
    const Trajectory& run, const std::string& source, const std::vector<std::string>& columns,
    const std::function<ReducedPoint(std::size_t row, const Eigen::VectorXd& x)>& at);

/// Eigenvalues sorted by the report's rule (real part, then imaginary part, largest first).
std::vector<std::complex<double>> SortedEigenvalues(const Eigen::MatrixXd& A);

}  // namespace dirac::linearization
