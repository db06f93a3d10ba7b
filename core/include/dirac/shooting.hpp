#pragma once
/// @file shooting.hpp
/// Two-point boundary-value problems by single shooting (`dirac solve`): the scenario's
/// `boundary_value` block names unknown initial values (e.g. the costates of a second-order
/// problem, or initial velocities and multipliers of a vakonomic one) and target values of
/// trajectory columns at t_end. KINSOL (Newton with line search, dense difference-quotient
/// Jacobian) adjusts the unknowns; every residual evaluation is one integration of the model.

#include <string>
#include <vector>

#include "dirac/scenario_spec.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

struct ShootingOptions {
  double residual_tolerance = 1e-10;  ///< max |column(t_end) - target| accepted
  int max_iterations = 50;
};

struct ShootingResult {
  Scenario solved;               ///< the scenario with the unknowns set to the solution
  Trajectory trajectory;         ///< the motion from the solved initial values
  std::vector<double> unknowns;  ///< in the order of boundary_value.unknowns
  double residual = 0.0;         ///< max |column(t_end) - target|
  long newton_iterations = 0;
  long residual_evaluations = 0;
  /// int_0^T L dt along the trajectory (composite Simpson on the samples); NaN when L uses a
  /// symbol that is not a trajectory column.
  double cost = 0.0;
};

/// Solves the scenario's boundary-value problem. Throws ScenarioError (no boundary_value block,
/// an unknown that is no --set name), NumericalError (KINSOL fails or does not reach the
/// tolerance; the message gives the residual reached), ModelError from the model.
ShootingResult SolveBoundaryValueProblem(const Scenario& scenario,
                                         const ShootingOptions& options = {});

}  // namespace dirac
