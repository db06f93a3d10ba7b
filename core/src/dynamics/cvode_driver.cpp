#include "dynamics/cvode_driver.hpp"

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <sstream>

#include "dirac/error.hpp"
#include "dynamics/sparse_jacobian.hpp"

namespace dirac::dynamics {

struct CvodeDriver::Impl {
  SampledOde ode;
  MultistepMethod method = MultistepMethod::kAdams;
  double t_stop = 0.0;
  SUNContext context = nullptr;
  void* memory = nullptr;
  N_Vector y = nullptr;
  N_Vector atol_vector = nullptr;  // per-component tolerances (SampledOde::atol_vector)
  SUNNonlinearSolver fixed_point = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  bool sparse = false;  // KLU on `pattern` instead of dense LU
  SparsePattern pattern;
  std::vector<double> dense_jacobian;  // the caller's dense Jacobian, gathered into `pattern`
  std::string linear_algebra;
  std::string last_error;
  std::exception_ptr pending;  // thrown by a callback, rethrown after CVODES returns
  IdasStatistics finished;     // statistics of the solver memories already freed
  long finished_rhs = 0;

  ~Impl() {
    FreeSolver();
    if (y) N_VDestroy(y);
    if (atol_vector) N_VDestroy(atol_vector);
    if (context) SUNContext_Free(&context);
  }

  // Adds the counters of the current solver memory (about to be freed or re-initialised).
  void Accumulate() {
    if (!memory) return;
    const IdasStatistics st = Current();
    finished.steps += st.steps;
    finished.error_test_failures += st.error_test_failures;
    finished.nonlinear_failures += st.nonlinear_failures;
    long rhs = 0;
    CVodeGetNumRhsEvals(memory, &rhs);
    finished_rhs += rhs;
  }

  void FreeSolver() {
    if (memory) {
      Accumulate();
      CVodeFree(&memory);
    }
    if (fixed_point) SUNNonlinSolFree(fixed_point);
    if (linear) SUNLinSolFree(linear);
    if (matrix) SUNMatDestroy(matrix);
    memory = nullptr;
    fixed_point = nullptr;
    linear = nullptr;
    matrix = nullptr;
  }

  IdasStatistics Current() const {
    IdasStatistics st;
    if (!memory) return st;
    CVodeGetNumSteps(memory, &st.steps);
    CVodeGetNumErrTestFails(memory, &st.error_test_failures);
    CVodeGetNumNonlinSolvConvFails(memory, &st.nonlinear_failures);
    CVodeGetLastOrder(memory, &st.last_order);
    return st;
  }

  void Check(int flag, const char* call, double t) {
    if (pending) {
      std::exception_ptr e = pending;
      pending = nullptr;
      std::rethrow_exception(e);
    }
    if (flag >= 0) return;
    std::ostringstream out;
    char* name = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
    out << "CVODES (" << (method == MultistepMethod::kAdams ? "Adams" : "BDF") << ") " << call
        << " failed at t = " << t << " (" << (name ? name : "?") << ")";
    std::free(name);
    if (flag != CV_MEM_FAIL && flag != CV_ILL_INPUT && flag != CV_MEM_NULL) out << WorstRate(t);
    if (!last_error.empty()) out << ". CVODES says: " << last_error;
    throw NumericalError(out.str());
  }

  // The largest (or a non-finite) |f_i| at (t, y), with the name of equation i.
  std::string WorstRate(double t) {
    if (!ode.rates || !y) return "";
    std::vector<double> f(ode.size, 0.0);
    bool finite = false;
    try {
      finite = ode.rates(t, N_VGetArrayPointer(y), f.data());
    } catch (...) {
      return "";
    }
    if (f.empty()) return "";
    std::size_t worst = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (!std::isfinite(f[i])) {
        worst = i;
        break;
      }
      if (std::abs(f[i]) > std::abs(f[worst])) worst = i;
    }
    std::ostringstream out;
    out << "; " << (finite ? "largest" : "non-finite")
        << " rate there |y'| = " << std::abs(f[worst]) << " in the equation of "
        << (worst < ode.names.size() ? ode.names[worst] : "component " + std::to_string(worst));
    return out.str();
  }

  template <typename F>
  int Guard(F&& f) {
    try {
      return f();
    } catch (...) {
      pending = std::current_exception();
      return -1;
    }
  }

  static int Rates(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
    auto* self = static_cast<Impl*>(data);
    return self->Guard([&] {
      return self->ode.rates(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) ? 0 : 1;
    });
  }

  static int Jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix J, void* data, N_Vector,
                      N_Vector, N_Vector) {
    auto* self = static_cast<Impl*>(data);
    return self->Guard([&] {
      SUNMatZero(J);
      self->ode.jacobian(t, N_VGetArrayPointer(y), SUNDenseMatrix_Data(J));
      return 0;
    });
  }

  // The dense Jacobian gathered into the compressed-column matrix J (CVODES' saved Jacobian, a
  // clone without the pattern: it is written every time).
  static int SparseJacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix J, void* data, N_Vector,
                            N_Vector, N_Vector) {
    auto* self = static_cast<Impl*>(data);
    return self->Guard([&] {
      const SparsePattern& p = self->pattern;
      std::vector<double>& dense = self->dense_jacobian;
      std::fill(dense.begin(), dense.end(), 0.0);
      self->ode.jacobian(t, N_VGetArrayPointer(y), dense.data());
      sunindextype* starts = SUNSparseMatrix_IndexPointers(J);
      sunindextype* rows = SUNSparseMatrix_IndexValues(J);
      double* values = SUNSparseMatrix_Data(J);
      for (std::size_t j = 0; j <= p.size; ++j) starts[j] = p.column_starts[j];
      for (std::size_t j = 0; j < p.size; ++j)
        for (auto e = p.column_starts[j]; e < p.column_starts[j + 1]; ++e) {
          rows[e] = p.rows[static_cast<std::size_t>(e)];
          values[e] = dense[j * p.size + static_cast<std::size_t>(rows[e])];
        }
      return 0;
    });
  }

  static int Project(sunrealtype t, N_Vector y, N_Vector corr, sunrealtype, N_Vector err,
                     void* data) {
    auto* self = static_cast<Impl*>(data);
    return self->Guard([&] {
      return self->ode.project(t, N_VGetArrayPointer(y), N_VGetArrayPointer(corr),
                               err ? N_VGetArrayPointer(err) : nullptr)
                 ? 0
                 : 1;
    });
  }

  static void ErrorHandler(int code, const char* module, const char* function, char* message,
                           void* data) {
    std::ostringstream out;
    out << module << "." << function << " (flag " << code << "): " << message;
    static_cast<Impl*>(data)->last_error = out.str();
  }

  // Tolerances, step limit and stop time of `ode` (after CVodeInit or CVodeReInit).
  void SetLimits(double t0) {
    if (ode.atol_vector.size() == ode.size && ode.size > 0) {
      if (!atol_vector) {
        atol_vector = N_VNew_Serial(static_cast<sunindextype>(ode.size), context);
        if (!atol_vector) throw NumericalError("cannot allocate the CVODES tolerances");
      }
      std::copy(ode.atol_vector.begin(), ode.atol_vector.end(), N_VGetArrayPointer(atol_vector));
      Check(CVodeSVtolerances(memory, ode.rtol, atol_vector), "CVodeSVtolerances", t0);
    } else {
      Check(CVodeSStolerances(memory, ode.rtol, ode.atol), "CVodeSStolerances", t0);
    }
    Check(CVodeSetMaxNumSteps(memory, ode.max_steps), "CVodeSetMaxNumSteps", t0);
    Check(CVodeSetStopTime(memory, t_stop), "CVodeSetStopTime", t0);
  }

  void Create(double t0) {
    memory = CVodeCreate(method == MultistepMethod::kAdams ? CV_ADAMS : CV_BDF, context);
    if (!memory) throw NumericalError("CVodeCreate failed");
    CVodeSetErrHandlerFn(memory, ErrorHandler, this);
    Check(CVodeInit(memory, Rates, t0, y), "CVodeInit", t0);
    Check(CVodeSetUserData(memory, this), "CVodeSetUserData", t0);
    SetLimits(t0);
    const auto n = static_cast<sunindextype>(ode.size);
    // Adams without a Jacobian iterates to a fixed point; with one, both families use Newton
    // on the exact dense Jacobian (for Adams this keeps higher orders and longer steps: on the
    // Heisenberg particle 899 steps and 1013 right-hand sides against 1357 and 2159).
    if (method == MultistepMethod::kAdams && !ode.jacobian) {
      fixed_point = SUNNonlinSol_FixedPoint(y, 0, context);
      if (!fixed_point) throw NumericalError("cannot create the fixed-point solver");
      Check(CVodeSetNonlinearSolver(memory, fixed_point), "CVodeSetNonlinearSolver", t0);
    } else if (sparse) {
      const auto nonzeros = static_cast<sunindextype>(pattern.nonzeros());
      matrix = SUNSparseMatrix(n, n, nonzeros, CSC_MAT, context);
      linear = matrix ? SUNLinSol_KLU(y, matrix, context) : nullptr;
      if (!matrix || !linear) throw NumericalError("cannot create the sparse (KLU) linear solver");
      Check(CVodeSetLinearSolver(memory, linear, matrix), "CVodeSetLinearSolver", t0);
      Check(CVodeSetJacFn(memory, SparseJacobian), "CVodeSetJacFn", t0);
    } else {
      matrix = SUNDenseMatrix(n, n, context);
      linear = SUNLinSol_Dense(y, matrix, context);
      if (!matrix || !linear) throw NumericalError("cannot create the dense linear solver");
      Check(CVodeSetLinearSolver(memory, linear, matrix), "CVodeSetLinearSolver", t0);
      if (ode.jacobian) Check(CVodeSetJacFn(memory, Jacobian), "CVodeSetJacFn", t0);
    }
    if (matrix) {
      if (ode.project && method == MultistepMethod::kBdf) {
        Check(CVodeSetProjFn(memory, Project), "CVodeSetProjFn", t0);
        Check(CVodeSetProjErrEst(memory, SUNTRUE), "CVodeSetProjErrEst", t0);
      }
    }
  }
};

CvodeDriver::CvodeDriver(SampledOde ode, MultistepMethod method, double t0,
                         const std::vector<double>& y0, double t_stop)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.ode = std::move(ode);
  s.method = method;
  s.t_stop = t_stop;
  if (y0.size() != s.ode.size) throw NumericalError("CvodeDriver: y0 does not match the size");
  if (SUNContext_Create(nullptr, &s.context) != 0) throw NumericalError("SUNContext_Create failed");
  s.y = N_VNew_Serial(static_cast<sunindextype>(s.ode.size), s.context);
  if (!s.y) throw NumericalError("cannot allocate the CVODES state");
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(s.y));
  if (s.ode.jacobian && MayUseSparse(s.ode.linear_solver, s.ode.size)) {
    s.pattern = DetectPattern(s.ode.jacobian, s.ode.size, t0, y0.data());
    s.sparse = UseSparse(s.ode.linear_solver, s.pattern);
    if (s.sparse) {
      s.dense_jacobian.assign(s.ode.size * s.ode.size, 0.0);
      std::ostringstream out;
      out.precision(2);
      out << "sparse LU (KLU), " << s.pattern.nonzeros()
          << " nonzeros = " << 100.0 * s.pattern.density() << " % of the Jacobian";
      s.linear_algebra = out.str();
    }
  }
  s.Create(t0);
}

CvodeDriver::~CvodeDriver() = default;

double CvodeDriver::Advance(double tout) {
  double t = tout;
  const int flag = TryAdvance(tout, &t);
  impl_->Check(flag, "CVode", t);
  return t;
}

int CvodeDriver::TryAdvance(double tout, double* reached) {
  Impl& s = *impl_;
  sunrealtype t = tout;
  const int flag = CVode(s.memory, tout, s.y, &t, CV_NORMAL);
  *reached = t;
  s.Check(0, "CVode", t);  // rethrows an exception of a callback, unchanged
  return flag;
}

void CvodeDriver::Reset(SampledOde ode, double t, const double* y, double t_stop) {
  Impl& s = *impl_;
  if (ode.size != s.ode.size) throw NumericalError("CvodeDriver::Reset: the size changed");
  s.ode = std::move(ode);
  s.t_stop = t_stop;
  std::copy(y, y + s.ode.size, N_VGetArrayPointer(s.y));
  s.Accumulate();
  s.Check(CVodeReInit(s.memory, t, s.y), "CVodeReInit", t);
  s.SetLimits(t);
}

void CvodeDriver::SetInitialStep(double h) {
  impl_->Check(CVodeSetInitStep(impl_->memory, h), "CVodeSetInitStep", 0.0);
}

double CvodeDriver::current_step() const {
  sunrealtype h = 0;
  if (!impl_->memory || CVodeGetCurrentStep(impl_->memory, &h) < 0) return 0.0;
  return h;
}

void CvodeDriver::Restart(double t, const double* y, MultistepMethod method) {
  Impl& s = *impl_;
  std::copy(y, y + s.ode.size, N_VGetArrayPointer(s.y));
  if (method == s.method) {
    s.Accumulate();
    s.Check(CVodeReInit(s.memory, t, s.y), "CVodeReInit", t);
    return;
  }
  s.FreeSolver();
  s.method = method;
  s.Create(t);
}

const std::string& CvodeDriver::linear_algebra() const { return impl_->linear_algebra; }

const double* CvodeDriver::y() const { return N_VGetArrayPointer(impl_->y); }
MultistepMethod CvodeDriver::method() const { return impl_->method; }

IdasStatistics CvodeDriver::statistics() const {
  IdasStatistics st = impl_->Current();
  st.steps += impl_->finished.steps;
  st.error_test_failures += impl_->finished.error_test_failures;
  st.nonlinear_failures += impl_->finished.nonlinear_failures;
  return st;
}

long CvodeDriver::rhs_evaluations() const {
  long rhs = 0;
  if (impl_->memory) CVodeGetNumRhsEvals(impl_->memory, &rhs);
  return rhs + impl_->finished_rhs;
}

OdeDriver::OdeDriver() = default;
OdeDriver::~OdeDriver() = default;

namespace {

// What a failed interval's flag most likely means.
const char* IntervalHint(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK:
      return ": too many internal steps before the end of the interval (the solution may be "
             "blowing up)";
    case CV_TOO_MUCH_ACC:
      return ": the tolerances cannot be met in double precision";
    case CV_ERR_FAILURE:
      return ": the error test failed down to the smallest step size (step-size underflow): "
             "usually a singularity of the flow near this time";
    case CV_CONV_FAILURE:
      return ": the Newton iteration diverged repeatedly (near-singular Jacobian)";
    case CV_RHSFUNC_FAIL:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
    case CV_FIRST_RHSFUNC_ERR:
      return ": the rates were not finite (a division by zero, log or sqrt of a negative "
             "number, an overflow)";
    default:
      return "";
  }
}

}  // namespace

void OdeDriver::Integrate(const ExplicitOde& ode, double t0, double t1, double* y) {
  if (!(t1 > t0)) return;
  const std::vector<double> start(y, y + ode.size);
  int flag = 0;
  double reached = t0;
  for (const MultistepMethod method : {MultistepMethod::kAdams, MultistepMethod::kBdf}) {
    SampledOde interval;
    interval.size = ode.size;
    interval.rates = ode.rates;
    interval.rtol = ode.rtol;
    interval.atol = ode.atol;
    interval.atol_vector = ode.atol_vector;
    interval.max_steps = std::max(1L, ode.max_steps);
    if (driver_ && driver_->method() == method && interval_size_ == ode.size) {
      driver_->Reset(std::move(interval), t0, start.data(), t1);
    } else {
      driver_.reset();
      driver_ = std::make_unique<CvodeDriver>(std::move(interval), method, t0, start, t1);
      interval_size_ = ode.size;
    }
    // Successive intervals of a shooting problem are alike: start from the step size the last
    // one ended with instead of CVODES' cautious first-step estimate and ramp-up.
    if (last_step_ > 0) driver_->SetInitialStep(std::min(last_step_, t1 - t0));
    const IdasStatistics before = driver_->statistics();
    const long rhs_before = driver_->rhs_evaluations();
    flag = driver_->TryAdvance(t1, &reached);
    const IdasStatistics after = driver_->statistics();
    statistics_.steps += after.steps - before.steps;
    statistics_.rhs_evaluations += driver_->rhs_evaluations() - rhs_before;
    statistics_.error_test_failures += after.error_test_failures - before.error_test_failures;
    if (flag >= 0) {
      const double h = driver_->current_step();
      if (h > 0) last_step_ = h;
      break;
    }
    last_step_ = 0.0;
  }
  if (flag < 0) {
    char* name = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
    const std::string text = name ? name : "?";
    std::free(name);
    throw NumericalError("CVODES failed at t = " + std::to_string(reached) + IntervalHint(flag) +
                         " (flag " + std::to_string(flag) + ": " + text + ")");
  }
  std::copy(driver_->y(), driver_->y() + ode.size, y);
}

}  // namespace dirac::dynamics
