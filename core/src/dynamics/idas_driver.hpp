#pragma once
// Internal: one IDAS integration (BDF, dense direct linear solver, user Jacobian), with every
// SUNDIALS return value checked and turned into NumericalError: the time of failure, what the
// flag means with a hint (step-size underflow near a singular W, a singular iteration matrix
// from dependent constraint rows, a Newton iteration that diverged), and the largest residual
// component at the failure with its name.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/integrator.hpp"

namespace dirac::dynamics {

/// A fully implicit DAE F(t, y, y') = 0 of size `size` with its iteration matrix.
struct ImplicitDae {
  std::size_t size = 0;
  /// r = F(t, y, y'). Return false if F is not finite (IDAS then retries a smaller step).
  std::function<bool(double t, const double* y, const double* yp, double* r)> residual;
  /// Adds dF/dy + cj dF/dy' into the column-major dense matrix `jac` (size x size, zeroed).
  /// May be empty: IDAS then approximates the iteration matrix by difference quotients.
  std::function<void(double t, double cj, const double* y, const double* yp, double* jac)> jacobian;
  /// 1 for differential components, 0 for algebraic ones.
  std::vector<double> differential;
  double rtol = 1e-10, atol = 1e-12;
  /// Exclude algebraic components from the local error test (multipliers:
  /// core/src/lagrange_dirac/README.md).
  bool suppress_algebraic_error = true;
  /// Optional name of each component of y, for failure messages (empty: "component i").
  std::vector<std::string> names;
};

/// Drives IDAS for one run. Not copyable; frees all SUNDIALS memory on destruction.
class IdasDriver final : public Integrator {
 public:
  /// Sets up IDAS at t0 with the given guesses. Throws NumericalError.
  IdasDriver(ImplicitDae dae, double t0, const std::vector<double>& y0,
             const std::vector<double>& yp0, double t_stop);
  ~IdasDriver();
  IdasDriver(const IdasDriver&) = delete;
  IdasDriver& operator=(const IdasDriver&) = delete;

  /// IDACalcIC(IDA_YA_YDP_INIT): algebraic y and all y' from the differential y.
  void ComputeConsistentInitialValues(double first_output_time);
  /// Restarts at a consistent (t, y, y') after the caller moved the state (a projection at a
  /// sample): IDAReInit; the statistics keep counting across restarts.
  void Restart(double t, const double* y, const double* yp);
  /// Advances to `tout` (interpolated output); returns the time reached.
  double Advance(double tout) override;

  const double* y() const override;
  const double* yp() const;
  IdasStatistics statistics() const override;
  /// Residual evaluations summed over restarts.
  long rhs_evaluations() const override;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac::dynamics
