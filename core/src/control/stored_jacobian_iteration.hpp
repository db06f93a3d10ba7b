#pragma once
// Internal: quasi-Newton iterations of a shooting system on a stored inverse Jacobian.
//
// A re-solve after a small edit (a boundary value dragged, an inertia nudged) starts next to
// the previous optimum, where the shooting Jacobian has barely changed. A Newton iterate
// integrates the variational equations (a d x (d + 3) sensitivity matrix per interval, most of
// the cost of a solve); an iterate here integrates the motion alone:
//   w <- w - H F(w),
// H the previous solution's inverse Jacobian, Broyden-updated after every step (the "good"
// update in inverse form, Sherman-Morrison). From the old optimum the first step is the
// tangent predictor of the edit. The iteration ends when max |F| meets the tolerance at the
// tight integration tolerance (the same acceptance as Newton's), and gives up as soon as a step
// fails to halve |F|_2 or an integration fails: Newton then goes on from the point reached.

#include <Eigen/Dense>

#include "control/multiple_shooting.hpp"
#include "dirac/optimal_control.hpp"

namespace dirac::control {

/// Iterates from `point` (updated to the last accepted iterate) with the inverse Jacobian `H`
/// (Broyden-updated in place). Every accepted step is recorded in `report` (iterations,
/// stored_jacobian_iterations, history, residual) and passed to `options.progress`. Returns true
/// once max |F| <= `tolerance`; false if H does not fit, a step does not contract, an
/// integration fails or `max_iterations` pass. Throws Cancelled (options.cancel, or progress
/// returning false) and WorkLimitExceeded (the step budget of `ms`).
bool IterateOnStoredJacobian(MultipleShooting& ms, Eigen::MatrixXd& H, ShootingPoint& point,
                             double tolerance, int max_iterations, const SolveOptions& options,
                             SolveReport& report);

}  // namespace dirac::control
