#pragma once
// Internal: one KINSOL solve of F(u) = 0 (Newton with line search, dense difference-quotient
// Jacobian refreshed every step), every SUNDIALS object owned by RAII and an exception thrown by
// F rethrown unchanged once KINSOL has returned (nothing leaks).

#include <cstddef>
#include <functional>
#include <vector>

namespace dirac::dynamics {

/// F: R^size -> R^size.
struct NonlinearSystem {
  std::size_t size = 0;
  /// f = F(u). Return false when F cannot be evaluated at u (recoverable: KINSOL backtracks).
  /// May throw: the exception leaves SolveNonlinearSystem as it was thrown.
  std::function<bool(const double* u, double* f)> residual;
  double residual_tolerance = 1e-10;  ///< stop when max |F_i| <= this
  double scaled_step_tolerance = 1e-14;
  long max_iterations = 50;
  double max_newton_step = 1e12;  ///< KINSOL's default (1000 |u0|) is 0 for a zero guess
};

/// Outcome of a solve: the last iterate whatever the flag.
struct NonlinearSolveResult {
  std::vector<double> u;
  int flag = 0;  ///< KINSOL's return flag (negative: failed)
  long iterations = 0;
};

/// Solves from `u0` (size entries). Throws NumericalError if SUNDIALS cannot set up the solver,
/// or whatever `system.residual` threw.
NonlinearSolveResult SolveNonlinearSystem(const NonlinearSystem& system, std::vector<double> u0);

}  // namespace dirac::dynamics
