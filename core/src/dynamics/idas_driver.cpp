#include "dynamics/idas_driver.hpp"

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "dirac/error.hpp"
#include "dynamics/sundials_handles.hpp"

namespace dirac::dynamics {

struct IdasDriver::Impl {
  ImplicitDae dae;
  // Declared in creation order: destroyed in reverse, the context last.
  sundials::Context sunctx;
  sundials::Vector yy, yp, id;
  sundials::Matrix A;
  sundials::LinearSolver LS;
  sundials::SolverMemory mem;
  sundials::CallbackGuard guard;
  std::string last_error;
  IdasStatistics finished;  // of the integrations before the last Restart
  long finished_residuals = 0;

  // What an IDAS flag means, and what usually causes it here.
  static const char* Explain(int flag) {
    switch (flag) {
      case IDA_TOO_MUCH_WORK:
        return "500000 internal steps did not reach the next output time: the solution may be "
               "blowing up, or t_end is very long for these tolerances";
      case IDA_TOO_MUCH_ACC:
        return "the tolerances cannot be met in double precision: raise rtol / atol";
      case IDA_ERR_FAIL:
        return "the error test failed repeatedly, down to the smallest step size (step-size "
               "underflow): usually a singularity near this time, e.g. the kinetic matrix "
               "W = d2L/dv2 or [W -omega^T; omega 0] becoming singular";
      case IDA_CONV_FAIL:
        return "the Newton iteration failed to converge repeatedly (diverged): the iteration "
               "matrix is near singular (singular W, dependent constraint rows) or the solution "
               "leaves the domain of the Lagrangian's functions";
      case IDA_LINIT_FAIL:
      case IDA_LSETUP_FAIL:
        return "the iteration matrix could not be factored: it is singular (singular W, or "
               "linearly dependent constraint rows)";
      case IDA_LSOLVE_FAIL:
        return "the linear solve with the iteration matrix failed (singular matrix)";
      case IDA_RES_FAIL:
        return "the residual could not be evaluated";
      case IDA_REP_RES_ERR:
        return "the residual was not finite, repeatedly (a division by zero, the log or sqrt of "
               "a negative number, an overflow) near this time";
      case IDA_FIRST_RES_FAIL:
        return "the residual is not finite at the initial values";
      case IDA_LINESEARCH_FAIL:
        return "consistent initial values: IDACalcIC's Newton line search could not reduce the "
               "residual to its own tolerance (0.0033 in the norm weighted by rtol and atol; "
               "with rtol, atol near rounding that test cannot be met even from a consistent "
               "state), or the constraints are unsatisfiable or dependent at these values";
      case IDA_NO_RECOVERY:
        return "consistent initial values: the residual was not finite and could not recover";
      case IDA_CONSTR_FAIL:
        return "an inequality constraint on the solution could not be met";
      case IDA_NLS_FAIL:
      case IDA_NLS_SETUP_FAIL:
      case IDA_NLS_INIT_FAIL:
        return "the nonlinear solver failed";
      case IDA_MEM_FAIL:
        return "out of memory";
      case IDA_ILL_INPUT:
        return "an input is illegal (settings or initial values)";
      case IDA_BAD_EWT:
        return "a component of the error weights became zero or negative (atol too small for a "
               "component that reached zero)";
      default:
        return nullptr;
    }
  }

  // The largest |F_i| at (t, y, y'), with the name of component i.
  std::string WorstResidual(double t, bool at_start) const {
    if (!dae.residual || !yy || !yp) return "";
    std::vector<double> r(dae.size, 0.0);
    const bool finite =
        dae.residual(t, N_VGetArrayPointer(yy.get()), N_VGetArrayPointer(yp.get()), r.data());
    std::size_t worst = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (!std::isfinite(r[i])) {
        worst = i;
        break;
      }
      if (std::abs(r[i]) > std::abs(r[worst])) worst = i;
    }
    if (r.empty()) return "";
    std::ostringstream out;
    out << "; " << (finite ? "largest" : "non-finite")
        << (at_start ? " residual at the starting values |F| = " : " residual there |F| = ")
        << std::abs(r[worst]) << " in the equation of "
        << (worst < dae.names.size() ? dae.names[worst] : "component " + std::to_string(worst));
    return out.str();
  }

  void Check(int flag, const char* call, double t) const {
    if (flag >= 0) return;
    std::ostringstream out;
    out << "IDAS " << call << " failed at t = " << t;
    if (const char* meaning = Explain(flag))
      out << ": " << meaning << " (IDAS flag " << flag << ")";
    else
      out << " (IDAS flag " << flag << ")";
    if (flag != IDA_MEM_FAIL && flag != IDA_ILL_INPUT && flag != IDA_MEM_NULL)
      out << WorstResidual(t, std::string(call) == "IDACalcIC");
    if (!last_error.empty()) out << ". IDAS says: " << last_error;
    // What blew up: a non-finite component, else the largest one, of the last state reached.
    if (yy && !dae.names.empty()) {
      const double* y = N_VGetArrayPointer(yy.get());
      std::size_t worst = 0;
      for (std::size_t i = 0; i < dae.size && i < dae.names.size(); ++i) {
        if (!std::isfinite(y[i])) {
          worst = i;
          break;
        }
        if (std::abs(y[i]) > std::abs(y[worst])) worst = i;
      }
      if (worst < dae.names.size())
        out << "; largest state component there: " << dae.names[worst] << " = " << y[worst];
    }
    throw NumericalError(out.str());
  }

  static int Residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* data) {
    auto* self = static_cast<Impl*>(data);
    return self->guard.Run([&] {
      return self->dae.residual(t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp),
                                N_VGetArrayPointer(rr))
                 ? 0
                 : 1;  // positive: recoverable, IDAS cuts the step
    });
  }

  static int Jacobian(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector yp, N_Vector,
                      SUNMatrix J, void* data, N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<Impl*>(data);
    return self->guard.Run([&] {
      SUNMatZero(J);
      self->dae.jacobian(t, cj, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp),
                         SUNDenseMatrix_Data(J));
      return 0;
    });
  }

  static void ErrorHandler(int code, const char* module, const char* function, char* message,
                           void* data) {
    auto* self = static_cast<Impl*>(data);
    self->guard.Run([&] {
      std::ostringstream out;
      out << module << "." << function << " (flag " << code << "): " << message;
      self->last_error = out.str();
      return 0;
    });
  }
};

IdasDriver::IdasDriver(ImplicitDae dae, double t0, const std::vector<double>& y0,
                       const std::vector<double>& yp0, double t_stop)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.dae = std::move(dae);
  const auto N = static_cast<sunindextype>(s.dae.size);
  if (y0.size() != s.dae.size || yp0.size() != s.dae.size ||
      s.dae.differential.size() != s.dae.size)
    throw NumericalError("IdasDriver: vector sizes do not match the DAE size");
  s.sunctx = sundials::MakeContext();
  s.yy = sundials::MakeSerialVector(s.dae.size, s.sunctx.get());
  s.yp = sundials::MakeSerialVector(s.dae.size, s.sunctx.get());
  s.id = sundials::MakeSerialVector(s.dae.size, s.sunctx.get());
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(s.yy.get()));
  std::copy(yp0.begin(), yp0.end(), N_VGetArrayPointer(s.yp.get()));
  std::copy(s.dae.differential.begin(), s.dae.differential.end(), N_VGetArrayPointer(s.id.get()));
  s.mem = sundials::SolverMemory(IDACreate(s.sunctx.get()), IDAFree, "IDACreate");
  IDASetErrHandlerFn(s.mem.get(), Impl::ErrorHandler, &s);
  s.Check(IDAInit(s.mem.get(), Impl::Residual, t0, s.yy.get(), s.yp.get()), "IDAInit", t0);
  s.Check(IDASStolerances(s.mem.get(), s.dae.rtol, s.dae.atol), "IDASStolerances", t0);
  s.Check(IDASetUserData(s.mem.get(), &s), "IDASetUserData", t0);
  s.A.reset(SUNDenseMatrix(N, N, s.sunctx.get()));
  if (s.A) s.LS.reset(SUNLinSol_Dense(s.yy.get(), s.A.get(), s.sunctx.get()));
  if (!s.A || !s.LS) throw NumericalError("cannot create the dense linear solver");
  s.Check(IDASetLinearSolver(s.mem.get(), s.LS.get(), s.A.get()), "IDASetLinearSolver", t0);
  // Without a Jacobian function IDAS uses its difference-quotient approximation.
  if (s.dae.jacobian) s.Check(IDASetJacFn(s.mem.get(), Impl::Jacobian), "IDASetJacFn", t0);
  s.Check(IDASetId(s.mem.get(), s.id.get()), "IDASetId", t0);
  bool any_algebraic = false;
  for (double d : s.dae.differential) any_algebraic |= d == 0.0;
  if (any_algebraic && s.dae.suppress_algebraic_error)
    s.Check(IDASetSuppressAlg(s.mem.get(), SUNTRUE), "IDASetSuppressAlg", t0);
  s.Check(IDASetMaxNumSteps(s.mem.get(), 500000), "IDASetMaxNumSteps", t0);
  s.Check(IDASetStopTime(s.mem.get(), t_stop), "IDASetStopTime", t0);
}

IdasDriver::~IdasDriver() = default;

void IdasDriver::ComputeConsistentInitialValues(double first_output_time) {
  Impl& s = *impl_;
  double t0 = 0.0;
  IDAGetCurrentTime(s.mem.get(), &t0);
  const int flag = IDACalcIC(s.mem.get(), IDA_YA_YDP_INIT, first_output_time);
  s.guard.Rethrow();
  s.Check(flag, "IDACalcIC", t0);
  s.Check(IDAGetConsistentIC(s.mem.get(), s.yy.get(), s.yp.get()), "IDAGetConsistentIC", 0.0);
}

void IdasDriver::Restart(double t, const double* y, const double* yp) {
  Impl& s = *impl_;
  const IdasStatistics current = statistics();
  s.finished = current;
  s.finished_residuals = rhs_evaluations();
  std::copy(y, y + s.dae.size, N_VGetArrayPointer(s.yy.get()));
  std::copy(yp, yp + s.dae.size, N_VGetArrayPointer(s.yp.get()));
  s.Check(IDAReInit(s.mem.get(), t, s.yy.get(), s.yp.get()), "IDAReInit", t);
}

double IdasDriver::Advance(double tout) {
  Impl& s = *impl_;
  double tret = 0.0;
  // tret is the time reached, also on failure: read it after the call.
  const int flag = IDASolve(s.mem.get(), tout, &tret, s.yy.get(), s.yp.get(), IDA_NORMAL);
  s.guard.Rethrow();
  if (flag < 0) {
    double reached = tret;
    if (IDAGetCurrentTime(s.mem.get(), &reached) != IDA_SUCCESS) reached = tret;
    s.Check(flag, "IDASolve", reached);
  }
  return tret;
}

const double* IdasDriver::y() const { return N_VGetArrayPointer(impl_->yy.get()); }
const double* IdasDriver::yp() const { return N_VGetArrayPointer(impl_->yp.get()); }

IdasStatistics IdasDriver::statistics() const {
  IdasStatistics st;
  IDAGetNumSteps(impl_->mem.get(), &st.steps);
  IDAGetNumErrTestFails(impl_->mem.get(), &st.error_test_failures);
  IDAGetNumNonlinSolvConvFails(impl_->mem.get(), &st.nonlinear_failures);
  IDAGetLastOrder(impl_->mem.get(), &st.last_order);
  st.steps += impl_->finished.steps;
  st.error_test_failures += impl_->finished.error_test_failures;
  st.nonlinear_failures += impl_->finished.nonlinear_failures;
  return st;
}

long IdasDriver::rhs_evaluations() const {
  long residuals = 0;
  IDAGetNumResEvals(impl_->mem.get(), &residuals);
  return residuals + impl_->finished_residuals;
}

}  // namespace dirac::dynamics
