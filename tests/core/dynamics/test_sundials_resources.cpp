// Every SUNDIALS object is owned by RAII and an exception thrown inside a SUNDIALS callback
// (IDAS residual or Jacobian, CVODES right-hand side, KINSOL residual) leaves the driver as it
// was thrown, after SUNDIALS has returned. The sanitizer build (scripts/sanitize.sh) runs these
// tests under LeakSanitizer, which fails the run on any leaked allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "dirac/error.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/kinsol_driver.hpp"

namespace dirac::dynamics {
namespace {

struct CallbackFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// y' = -y as a DAE F = y' + y, differential.
ImplicitDae Decay() {
  ImplicitDae dae;
  dae.size = 1;
  dae.residual = [](double, const double* y, const double* yp, double* r) {
    r[0] = yp[0] + y[0];
    return true;
  };
  dae.jacobian = [](double, double cj, const double*, const double*, double* jac) {
    jac[0] += 1.0 + cj;
  };
  dae.differential = {1.0};
  return dae;
}

TEST(SundialsResources, IdasDecayIsAccurate) {
  IdasDriver driver(Decay(), 0.0, {1.0}, {-1.0}, 1.0);
  EXPECT_DOUBLE_EQ(driver.Advance(1.0), 1.0);
  EXPECT_NEAR(driver.y()[0], std::exp(-1.0), 1e-8);
}

TEST(SundialsResources, IdasResidualExceptionIsRethrownUnchanged) {
  ImplicitDae dae = Decay();
  int calls = 0;
  auto residual = dae.residual;
  dae.residual = [&](double t, const double* y, const double* yp, double* r) {
    if (++calls == 7) throw CallbackFault("residual fault at call 7");
    return residual(t, y, yp, r);
  };
  IdasDriver driver(dae, 0.0, {1.0}, {-1.0}, 1.0);
  try {
    driver.Advance(1.0);
    FAIL() << "no exception";
  } catch (const CallbackFault& e) {
    EXPECT_STREQ(e.what(), "residual fault at call 7");
  }
  EXPECT_EQ(calls, 7) << "no callback runs once an exception is pending";
}

TEST(SundialsResources, IdasJacobianExceptionIsRethrownUnchanged) {
  ImplicitDae dae = Decay();
  dae.jacobian = [](double, double, const double*, const double*, double*) {
    throw CallbackFault("jacobian fault");
  };
  IdasDriver driver(dae, 0.0, {1.0}, {-1.0}, 1.0);
  EXPECT_THROW(driver.Advance(1.0), CallbackFault);
}

TEST(SundialsResources, CvodesRatesExceptionIsRethrownAndTheDriverStaysUsable) {
  ExplicitOde ode;
  ode.size = 1;
  bool fail = true;
  ode.rates = [&](double, const double* y, double* ydot) {
    if (fail) throw CallbackFault("rates fault");
    ydot[0] = -y[0];
    return true;
  };
  OdeDriver driver;
  double y = 1.0;
  EXPECT_THROW(driver.Integrate(ode, 0.0, 1.0, &y), CallbackFault);
  fail = false;
  y = 1.0;
  driver.Integrate(ode, 0.0, 1.0, &y);
  EXPECT_NEAR(y, std::exp(-1.0), 1e-9);
}

TEST(SundialsResources, KinsolSolvesAndRethrowsResidualExceptions) {
  NonlinearSystem system;
  system.size = 2;  // u0^2 = 2 and (1 - u0)(u1 + 1) = 0: the root (sqrt 2, -1)
  system.residual = [](const double* u, double* f) {
    f[0] = u[0] * u[0] - 2.0;
    f[1] = u[1] * (1.0 - u[0]) + 1.0 - u[0];
    return true;
  };
  system.residual_tolerance = 1e-12;
  const NonlinearSolveResult ok = SolveNonlinearSystem(system, {1.5, 0.0});
  ASSERT_GE(ok.flag, 0);
  EXPECT_NEAR(ok.u[0], std::sqrt(2.0), 1e-11);
  EXPECT_NEAR(ok.u[1], -1.0, 1e-10);

  int calls = 0;
  auto residual = system.residual;
  system.residual = [&](const double* u, double* f) {
    if (++calls == 4) throw CallbackFault("kinsol fault");
    return residual(u, f);
  };
  try {
    SolveNonlinearSystem(system, {1.5, 0.0});
    FAIL() << "no exception";
  } catch (const CallbackFault& e) {
    EXPECT_STREQ(e.what(), "kinsol fault");
  }
  EXPECT_EQ(calls, 4);
  // A dirac::Error keeps its type too.
  system.residual = [](const double*, double*) -> bool { throw ModelError("model fault"); };
  EXPECT_THROW(SolveNonlinearSystem(system, {1.5, 0.0}), ModelError);
}

}  // namespace
}  // namespace dirac::dynamics
