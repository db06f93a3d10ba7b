#pragma once
// Internal: the one CVODES wrapper. CvodeDriver integrates an explicit ODE with dense output at
// the caller's times (sampled runs) or between two times (OdeDriver, shooting): Adams–Moulton or
// BDF, with a Newton iteration on an exact Jacobian (or
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
#include "dynamics/integrator.hpp"

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
  /// Per-component absolute tolerances (empty: `atol` for all). Large values leave components
  /// out of the step-size control (e.g. sensitivities riding along).
  std::vector<double> atol_vector;
  /// Internal steps one Advance may take before it fails.
  long max_steps = 500000;
  /// Dense or sparse Newton linear algebra (only with `jacobian`; see LinearSolverMode).
  LinearSolverMode linear_solver = LinearSolverMode::kAuto;
  /// Names of the components (optional): a failure message names the equation with the
  /// largest or a non-finite rate at the time reached.
  std::vector<std::string> names;
};

/// The linear multistep family CVODES runs.
enum class MultistepMethod { kAdams, kBdf };

/// Drives CVODES for one sampled run (or the intervals of OdeDriver). Not copyable.
class CvodeDriver final : public Integrator {
 public:
  /// Sets up CVODES at t0 with state y0 and stop time t_stop. Throws NumericalError.
  CvodeDriver(SampledOde ode, MultistepMethod method, double t0, const std::vector<double>& y0,
              double t_stop);
  ~CvodeDriver();
  CvodeDriver(const CvodeDriver&) = delete;
  CvodeDriver& operator=(const CvodeDriver&) = delete;

  /// Advances to `tout` (interpolated output between steps); y() is then the state at tout.
  /// Throws NumericalError naming the time reached and what CVODES said.
  double Advance(double tout) override;
  /// Advance without the throw: returns CVODES' flag (negative on failure) and the time reached
  /// in `reached`; exceptions of the callbacks are rethrown unchanged.
  int TryAdvance(double tout, double* reached);
  /// The state at the last Advance (or the initial state).
  const double* y() const override;
  /// Restarts at (t, y): used after the caller moved the state (a projection between samples,
  /// or a switch of method). The step-size history is lost.
  void Restart(double t, const double* y, MultistepMethod method);
  /// Restarts at (t, y) with the same method and size but the callbacks, tolerances and step
  /// limit of `ode`, and the stop time `t_stop` (the next interval of a shooting problem).
  void Reset(SampledOde ode, double t, const double* y, double t_stop);
  /// The first step size CVODES tries after the next (re)start.
  void SetInitialStep(double h);
  /// The step size CVODES would try next (0 if unknown).
  double current_step() const;
  MultistepMethod method() const;
  /// Statistics summed over restarts.
  IdasStatistics statistics() const override;
  long rhs_evaluations() const override;
  /// Empty for dense LU or the fixed-point iteration; else the sparse solver and its pattern,
  /// e.g. "sparse LU (KLU), 2 980 nonzeros = 2.1 % of the Jacobian".
  const std::string& linear_algebra() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// y' = f(t, y) of size `size` between two times. `rates` returns false if f is not finite.
struct ExplicitOde {
  std::size_t size = 0;
  std::function<bool(double t, const double* y, double* ydot)> rates;
  double rtol = 1e-11, atol = 1e-12;
  /// Per-component absolute tolerances (empty: `atol` for all).
  std::vector<double> atol_vector;
  /// Steps one Integrate may take per method (Adams, then BDF) before it fails.
  long max_steps = 200000;
};

struct OdeStatistics {
  long steps = 0, rhs_evaluations = 0, error_test_failures = 0;
};

/// Intervals of a shooting problem on a CvodeDriver, where only end states are needed: Adams–
/// Moulton and fixed-point iteration (non-stiff: the shooting problems of mechanics, where the
/// variational equations ride along; measured faster than ARKODE's explicit Fehlberg 7(8) on
/// them: ~1.6 right-hand sides per step against 13); if that fails it retries the interval with
/// BDF and a dense Newton iteration (difference-quotient matrix). Each interval starts from the
/// step size the previous one ended with, and reuses the driver between intervals of the same
/// size. Not thread-safe; one per thread.
class OdeDriver {
 public:
  OdeDriver();
  ~OdeDriver();
  OdeDriver(const OdeDriver&) = delete;
  OdeDriver& operator=(const OdeDriver&) = delete;

  /// y(t0) -> y(t1) in place. Throws NumericalError naming the time reached and the flag.
  void Integrate(const ExplicitOde& ode, double t0, double t1, double* y);
  const OdeStatistics& statistics() const { return statistics_; }

 private:
  std::unique_ptr<CvodeDriver> driver_;
  std::size_t interval_size_ = 0;
  double last_step_ = 0.0;
  OdeStatistics statistics_;
};

}  // namespace dirac::dynamics
