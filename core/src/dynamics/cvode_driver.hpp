#pragma once
// Internal: one CVODES integration of an explicit ODE with dense output at the caller's times
// (sampled runs): Adams–Moulton or BDF, with a Newton iteration on an exact Jacobian (or
// fixed-point iteration for Adams without one), and for BDF CVODES' projection onto an
// invariant manifold. The Newton iteration matrix is dense (LU) or, for large systems with a
// sparse Jacobian, compressed-column with KLU (dynamics/sparse_jacobian.hpp). Every SUNDIALS object
// is owned here and freed on destruction; exceptions thrown by the callbacks are caught at the C
// boundary and rethrown once CVODES has returned.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "dynamics/idas_driver.hpp"

namespace dirac::dynamics {

/// y' = f(t, y) of size `size`, with what the BDF path may use.
struct SampledOde {
  std::size_t size = 0;
  /// ydot = f(t, y). Return false if f is not finite (CVODES then retries a smaller step).
  std::function<bool(double t, const double* y, double* ydot)> rates;
  /// df/dy into the column-major dense matrix `jac` (size x size, zeroed). Empty: Adams iterates
  /// to a fixed point, BDF uses CVODES' difference quotients.
  std::function<void(double t, const double* y, double* jac)> jacobian;
  /// Projection onto the invariant manifold (BDF only, CVodeSetProjFn): writes into `corr` the
  /// correction that moves y onto it and, when `err` is not null, projects the error estimate
  /// in place. Return false if the projection failed (CVODES then retries a smaller step).
  std::function<bool(double t, const double* y, double* corr, double* err)> project;
  double rtol = 1e-10, atol = 1e-12;
  /// Dense or sparse Newton linear algebra (only with `jacobian`; see LinearSolverMode).
  LinearSolverMode linear_solver = LinearSolverMode::kAuto;
  /// Names of the components (optional): a failure message names the equation with the
  /// largest or a non-finite rate at the time reached.
  std::vector<std::string> names;
};

/// The linear multistep family CVODES runs.
enum class MultistepMethod { kAdams, kBdf };

/// Drives CVODES for one sampled run. Not copyable.
class CvodeDriver {
 public:
  /// Sets up CVODES at t0 with state y0 and stop time t_stop. Throws NumericalError.
  CvodeDriver(SampledOde ode, MultistepMethod method, double t0, const std::vector<double>& y0,
              double t_stop);
  ~CvodeDriver();
  CvodeDriver(const CvodeDriver&) = delete;
  CvodeDriver& operator=(const CvodeDriver&) = delete;

  /// Advances to `tout` (interpolated output between steps); y() is then the state at tout.
  /// Throws NumericalError naming the time reached and what CVODES said.
  double Advance(double tout);
  /// The state at the last Advance (or the initial state).
  const double* y() const;
  /// Restarts at (t, y): used after the caller moved the state (a projection between samples,
  /// or a switch of method). The step-size history is lost.
  void Restart(double t, const double* y, MultistepMethod method);
  MultistepMethod method() const;
  /// Statistics summed over restarts.
  IdasStatistics statistics() const;
  long rhs_evaluations() const;
  /// Empty for dense LU or the fixed-point iteration; else the sparse solver and its pattern,
  /// e.g. "sparse LU (KLU), 2 980 nonzeros = 2.1 % of the Jacobian".
  const std::string& linear_algebra() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac::dynamics
