#include "dynamics/ode_driver.hpp"

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "dirac/error.hpp"

namespace dirac::dynamics {

struct OdeDriver::Impl {
  SUNContext context = nullptr;
  void* memory = nullptr;
  N_Vector y = nullptr, atol = nullptr;
  SUNNonlinearSolver fixed_point = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  std::size_t size = 0;
  int method = 0;
  double last_step = 0.0;
  const ExplicitOde* ode = nullptr;

  ~Impl() { Free(); }
  void Free() {
    if (memory) CVodeFree(&memory);
    if (fixed_point) SUNNonlinSolFree(fixed_point);
    if (linear) SUNLinSolFree(linear);
    if (matrix) SUNMatDestroy(matrix);
    if (y) N_VDestroy(y);
    if (atol) N_VDestroy(atol);
    memory = nullptr;
    fixed_point = nullptr;
    linear = nullptr;
    matrix = nullptr;
    y = atol = nullptr;
    size = 0;
    method = 0;
  }
};

namespace {

int Rates(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  const auto* impl = static_cast<const OdeDriver::Impl*>(data);
  try {
    return impl->ode->rates(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) ? 0 : 1;
  } catch (...) {
    return -1;  // never let an exception cross SUNDIALS' C frames
  }
}

// SUNDIALS would print its own errors to stderr; ours carry the flag and the time instead.
void Silent(int, const char*, const char*, char*, void*) {}

void Check(int flag, const char* what) {
  if (flag < 0)
    throw NumericalError(std::string("CVODES ") + what + " failed (flag " + std::to_string(flag) +
                         ")");
}

// (Re)creates the solver for `size` unknowns with Adams + fixed point or BDF + dense Newton.
void Setup(OdeDriver::Impl& s, int method, double t0, const double* y0, const ExplicitOde& ode) {
  const std::size_t size = ode.size;
  if (s.memory && s.size == size && s.method == method) {
    std::copy(y0, y0 + size, N_VGetArrayPointer(s.y));
    Check(CVodeReInit(s.memory, t0, s.y), "CVodeReInit");
  } else {
    s.Free();
    s.size = size;
    s.method = method;
    s.y = N_VNew_Serial(static_cast<sunindextype>(size), s.context);
    s.atol = N_VNew_Serial(static_cast<sunindextype>(size), s.context);
    std::copy(y0, y0 + size, N_VGetArrayPointer(s.y));
    s.memory = CVodeCreate(method, s.context);
    if (!s.memory) throw NumericalError("CVodeCreate failed");
    Check(CVodeInit(s.memory, Rates, t0, s.y), "CVodeInit");
    Check(CVodeSetUserData(s.memory, &s), "CVodeSetUserData");
    Check(CVodeSetErrHandlerFn(s.memory, Silent, nullptr), "CVodeSetErrHandlerFn");
    Check(CVodeSetMaxNumSteps(s.memory, 200000), "CVodeSetMaxNumSteps");
    if (method == CV_ADAMS) {
      s.fixed_point = SUNNonlinSol_FixedPoint(s.y, 0, s.context);
      Check(CVodeSetNonlinearSolver(s.memory, s.fixed_point), "CVodeSetNonlinearSolver");
    } else {
      s.matrix = SUNDenseMatrix(static_cast<sunindextype>(size), static_cast<sunindextype>(size),
                                s.context);
      s.linear = SUNLinSol_Dense(s.y, s.matrix, s.context);
      Check(CVodeSetLinearSolver(s.memory, s.linear, s.matrix), "CVodeSetLinearSolver");
    }
  }
  if (ode.atol_vector.size() == size) {
    std::copy(ode.atol_vector.begin(), ode.atol_vector.end(), N_VGetArrayPointer(s.atol));
    Check(CVodeSVtolerances(s.memory, ode.rtol, s.atol), "CVodeSVtolerances");
  } else {
    Check(CVodeSStolerances(s.memory, ode.rtol, ode.atol), "CVodeSStolerances");
  }
}

}  // namespace

OdeDriver::OdeDriver() : impl_(std::make_unique<Impl>()) {
  if (SUNContext_Create(nullptr, &impl_->context) != 0)
    throw NumericalError("SUNContext_Create failed");
}

OdeDriver::~OdeDriver() {
  impl_->Free();
  SUNContext_Free(&impl_->context);
}

void OdeDriver::Integrate(const ExplicitOde& ode, double t0, double t1, double* y) {
  if (!(t1 > t0)) return;
  Impl& s = *impl_;
  s.ode = &ode;
  const std::vector<double> start(y, y + ode.size);
  int flag = 0;
  double reached = t0;
  for (const int method : {CV_ADAMS, CV_BDF}) {
    Setup(s, method, t0, start.data(), ode);
    Check(CVodeSetStopTime(s.memory, t1), "CVodeSetStopTime");
    // Successive intervals of a shooting problem are alike: start from the step size the last
    // one ended with instead of CVODES' cautious first-step estimate and ramp-up.
    if (s.last_step > 0)
      Check(CVodeSetInitStep(s.memory, std::min(s.last_step, t1 - t0)), "CVodeSetInitStep");
    sunrealtype t = t0;
    flag = CVode(s.memory, t1, s.y, &t, CV_NORMAL);
    reached = t;
    long steps = 0, rhs = 0, fails = 0;
    CVodeGetNumSteps(s.memory, &steps);
    CVodeGetNumRhsEvals(s.memory, &rhs);
    CVodeGetNumErrTestFails(s.memory, &fails);
    statistics_.steps += steps;
    statistics_.rhs_evaluations += rhs;
    statistics_.error_test_failures += fails;
    if (flag >= 0) {
      sunrealtype h = 0;
      if (CVodeGetCurrentStep(s.memory, &h) >= 0 && h > 0) s.last_step = h;
      break;
    }
    s.last_step = 0.0;
  }
  if (flag < 0) {
    char* name = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
    const std::string text = name ? name : "?";
    std::free(name);
    const char* hint = "";
    switch (flag) {
      case CV_TOO_MUCH_WORK:
        hint =
            ": too many internal steps before the end of the interval (the solution may be "
            "blowing up)";
        break;
      case CV_TOO_MUCH_ACC:
        hint = ": the tolerances cannot be met in double precision";
        break;
      case CV_ERR_FAILURE:
        hint =
            ": the error test failed down to the smallest step size (step-size underflow): "
            "usually a singularity of the flow near this time";
        break;
      case CV_CONV_FAILURE:
        hint = ": the Newton iteration diverged repeatedly (near-singular Jacobian)";
        break;
      case CV_RHSFUNC_FAIL:
      case CV_REPTD_RHSFUNC_ERR:
      case CV_UNREC_RHSFUNC_ERR:
      case CV_FIRST_RHSFUNC_ERR:
        hint =
            ": the rates were not finite (a division by zero, log or sqrt of a negative "
            "number, an overflow)";
        break;
      default:
        break;
    }
    throw NumericalError("CVODES failed at t = " + std::to_string(reached) + hint + " (flag " +
                         std::to_string(flag) + ": " + text + ")");
  }
  const double* out = N_VGetArrayPointer(s.y);
  std::copy(out, out + ode.size, y);
}

}  // namespace dirac::dynamics
