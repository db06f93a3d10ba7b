#pragma once
// Internal: one CVODES integration of an explicit ODE y' = f(t, y) between two times, every
// SUNDIALS return value checked and turned into NumericalError. Used by shooting, where only
// end states are needed (no dense output).

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace dirac::dynamics {

/// y' = f(t, y) of size `size`. `rates` returns false if f is not finite at (t, y).
struct ExplicitOde {
  std::size_t size = 0;
  std::function<bool(double t, const double* y, double* ydot)> rates;
  double rtol = 1e-11, atol = 1e-12;
  /// Per-component absolute tolerances (empty: `atol` for all). Large values leave components
  /// out of the step-size control (e.g. sensitivities riding along).
  std::vector<double> atol_vector;
  /// Steps one Integrate may take per method (Adams, then BDF) before it fails.
  long max_steps = 200000;
};

struct OdeStatistics {
  long steps = 0, rhs_evaluations = 0, error_test_failures = 0;
};

/// Integrates with CVODES Adams–Moulton and fixed-point iteration (non-stiff: the shooting
/// problems of mechanics, where the variational equations ride along; measured faster than
/// ARKODE's explicit Fehlberg 7(8) on them: ~1.6 right-hand sides per step against 13); if that
/// fails it retries the interval with BDF and a dense Newton iteration (difference-quotient
/// matrix). Each run starts from the step size the previous one ended with. Reuses its SUNDIALS
/// memory between calls of the same size. Not thread-safe; one per thread.
class OdeDriver {
 public:
  OdeDriver();
  ~OdeDriver();
  OdeDriver(const OdeDriver&) = delete;
  OdeDriver& operator=(const OdeDriver&) = delete;

  /// y(t0) -> y(t1) in place. Throws NumericalError naming the time reached and the flag.
  void Integrate(const ExplicitOde& ode, double t0, double t1, double* y);
  const OdeStatistics& statistics() const { return statistics_; }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  OdeStatistics statistics_;
};

}  // namespace dirac::dynamics
