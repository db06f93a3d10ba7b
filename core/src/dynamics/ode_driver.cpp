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
#include "dynamics/sundials_handles.hpp"

namespace dirac::dynamics {

struct OdeDriver::Impl {
  // Declared in creation order: destroyed in reverse, the context last.
  sundials::Context context;
  sundials::Vector y, atol;
  sundials::NonlinearSolver fixed_point;
  sundials::Matrix matrix;
  sundials::LinearSolver linear;
  sundials::SolverMemory memory;
  sundials::CallbackGuard guard;
  std::size_t size = 0;
  int method = 0;
  double last_step = 0.0;
  const ExplicitOde* ode = nullptr;

  // Frees the solver objects (not the context), memory first: it refers to the others.
  void Free() {
    memory.reset();
    fixed_point.reset();
    linear.reset();
    matrix.reset();
    y.reset();
    atol.reset();
    size = 0;
    method = 0;
  }
  ~Impl() { Free(); }
};

namespace {

int Rates(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  auto* impl = static_cast<OdeDriver::Impl*>(data);
  // An exception is stored and rethrown by Integrate once CVode has returned.
  return impl->guard.Run(
      [&] { return impl->ode->rates(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) ? 0 : 1; });
}

// SUNDIALS would print its own errors to stderr; ours carry the flag and the time instead.

void Check(int flag, const char* what) {
  if (flag < 0)
    throw NumericalError(std::string("CVODES ") + what + " failed (flag " + std::to_string(flag) +
                         ")");
}

// (Re)creates the solver for `size` unknowns with Adams + fixed point or BDF + dense Newton.
void Setup(OdeDriver::Impl& s, int method, double t0, const double* y0, const ExplicitOde& ode) {
  const std::size_t size = ode.size;
  if (s.memory && s.size == size && s.method == method) {
    std::copy(y0, y0 + size, N_VGetArrayPointer(s.y.get()));
    Check(CVodeReInit(s.memory.get(), t0, s.y.get()), "CVodeReInit");
  } else {
    s.Free();
    s.size = size;
    s.method = method;
    s.y = sundials::MakeSerialVector(size, s.context.get());
    s.atol = sundials::MakeSerialVector(size, s.context.get());
    std::copy(y0, y0 + size, N_VGetArrayPointer(s.y.get()));
    s.memory =
        sundials::SolverMemory(CVodeCreate(method, s.context.get()), CVodeFree, "CVodeCreate");
    Check(CVodeInit(s.memory.get(), Rates, t0, s.y.get()), "CVodeInit");
    Check(CVodeSetUserData(s.memory.get(), &s), "CVodeSetUserData");
    Check(CVodeSetErrHandlerFn(s.memory.get(), sundials::DiscardErrorMessage, nullptr),
          "CVodeSetErrHandlerFn");
    if (method == CV_ADAMS) {
      s.fixed_point.reset(SUNNonlinSol_FixedPoint(s.y.get(), 0, s.context.get()));
      if (!s.fixed_point) throw NumericalError("SUNNonlinSol_FixedPoint failed");
      Check(CVodeSetNonlinearSolver(s.memory.get(), s.fixed_point.get()),
            "CVodeSetNonlinearSolver");
    } else {
      s.matrix.reset(SUNDenseMatrix(static_cast<sunindextype>(size),
                                    static_cast<sunindextype>(size), s.context.get()));
      if (s.matrix) s.linear.reset(SUNLinSol_Dense(s.y.get(), s.matrix.get(), s.context.get()));
      if (!s.matrix || !s.linear) throw NumericalError("cannot create the dense linear solver");
      Check(CVodeSetLinearSolver(s.memory.get(), s.linear.get(), s.matrix.get()),
            "CVodeSetLinearSolver");
    }
  }
  if (ode.atol_vector.size() == size) {
    std::copy(ode.atol_vector.begin(), ode.atol_vector.end(), N_VGetArrayPointer(s.atol.get()));
    Check(CVodeSVtolerances(s.memory.get(), ode.rtol, s.atol.get()), "CVodeSVtolerances");
  } else {
    Check(CVodeSStolerances(s.memory.get(), ode.rtol, ode.atol), "CVodeSStolerances");
  }
}

}  // namespace

OdeDriver::OdeDriver() : impl_(std::make_unique<Impl>()) {
  impl_->context = sundials::MakeContext();
}

OdeDriver::~OdeDriver() = default;

void OdeDriver::Integrate(const ExplicitOde& ode, double t0, double t1, double* y) {
  if (!(t1 > t0)) return;
  Impl& s = *impl_;
  s.ode = &ode;
  const std::vector<double> start(y, y + ode.size);
  int flag = 0;
  double reached = t0;
  for (const int method : {CV_ADAMS, CV_BDF}) {
    Setup(s, method, t0, start.data(), ode);
    Check(CVodeSetStopTime(s.memory.get(), t1), "CVodeSetStopTime");
    Check(CVodeSetMaxNumSteps(s.memory.get(), std::max(1L, ode.max_steps)), "CVodeSetMaxNumSteps");
    // Successive intervals of a shooting problem are alike: start from the step size the last
    // one ended with instead of CVODES' cautious first-step estimate and ramp-up.
    if (s.last_step > 0)
      Check(CVodeSetInitStep(s.memory.get(), std::min(s.last_step, t1 - t0)), "CVodeSetInitStep");
    sunrealtype t = t0;
    flag = CVode(s.memory.get(), t1, s.y.get(), &t, CV_NORMAL);
    s.guard.Rethrow();
    reached = t;
    long steps = 0, rhs = 0, fails = 0;
    CVodeGetNumSteps(s.memory.get(), &steps);
    CVodeGetNumRhsEvals(s.memory.get(), &rhs);
    CVodeGetNumErrTestFails(s.memory.get(), &fails);
    statistics_.steps += steps;
    statistics_.rhs_evaluations += rhs;
    statistics_.error_test_failures += fails;
    if (flag >= 0) {
      sunrealtype h = 0;
      if (CVodeGetCurrentStep(s.memory.get(), &h) >= 0 && h > 0) s.last_step = h;
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
  const double* out = N_VGetArrayPointer(s.y.get());
  std::copy(out, out + ode.size, y);
}

}  // namespace dirac::dynamics
