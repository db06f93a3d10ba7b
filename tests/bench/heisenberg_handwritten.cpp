#include "heisenberg_handwritten.hpp"

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace dirac::bench {

namespace {

struct Stiffness {
  double kx, ky;
};

inline double Multiplier(double kx, double ky, double x, double y) {
  return (ky - kx) * x * y / (1.0 + x * x + y * y);
}

int Rhs(double, N_Vector state, N_Vector rate, void* data) {
  const auto* k = static_cast<const Stiffness*>(data);
  const double* s = N_VGetArrayPointer(state);
  double* d = N_VGetArrayPointer(rate);
  const double x = s[0], y = s[1];
  const double mu = Multiplier(k->kx, k->ky, x, y);
  d[0] = s[3];
  d[1] = s[4];
  d[2] = s[5];
  d[3] = -k->kx * x - mu * y;
  d[4] = -k->ky * y + mu * x;
  d[5] = mu;
  return 0;
}

void Check(int flag, const char* call) {
  if (flag < 0)
    throw std::runtime_error(std::string(call) + " failed with flag " + std::to_string(flag));
}

}  // namespace

HandWrittenRun RunHeisenbergHandWritten(const HandWrittenSettings& settings) {
  SUNContext context = nullptr;
  Check(SUNContext_Create(nullptr, &context), "SUNContext_Create");
  Stiffness k{settings.kx, settings.ky};
  N_Vector y = N_VNew_Serial(6, context);
  for (int i = 0; i < 6; ++i) NV_Ith_S(y, i) = settings.initial[i];
  void* cvode = CVodeCreate(CV_ADAMS, context);
  SUNNonlinearSolver nls = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  HandWrittenRun run;
  try {
    Check(CVodeInit(cvode, Rhs, 0.0, y), "CVodeInit");
    Check(CVodeSStolerances(cvode, settings.rtol, settings.atol), "CVodeSStolerances");
    Check(CVodeSetUserData(cvode, &k), "CVodeSetUserData");
    Check(CVodeSetMaxNumSteps(cvode, 1000000), "CVodeSetMaxNumSteps");
    if (settings.newton) {
      matrix = SUNDenseMatrix(6, 6, context);
      linear = SUNLinSol_Dense(y, matrix, context);
      Check(CVodeSetLinearSolver(cvode, linear, matrix), "CVodeSetLinearSolver");
    } else {
      nls = SUNNonlinSol_FixedPoint(y, 0, context);
      Check(CVodeSetNonlinearSolver(cvode, nls), "CVodeSetNonlinearSolver");
    }
    const long samples = std::lround(settings.t_end / settings.output_step);
    run.samples.reserve(static_cast<std::size_t>(samples + 1) * HandWrittenRun::kColumns);
    auto record = [&](double t) {
      const double* s = NV_DATA_S(y);
      const double x = s[0], yy = s[1], vx = s[3], vy = s[4], vz = s[5];
      const double energy =
          0.5 * (vx * vx + vy * vy + vz * vz) + 0.5 * (k.kx * x * x + k.ky * yy * yy);
      const double row[HandWrittenRun::kColumns] = {
          t, x, yy, s[2], vx, vy, vz, Multiplier(k.kx, k.ky, x, yy), energy, vz - yy * vx + x * vy};
      run.samples.insert(run.samples.end(), row, row + HandWrittenRun::kColumns);
    };
    record(0.0);
    double t = 0.0;
    for (long i = 1; i <= samples; ++i) {
      const double tout = i == samples ? settings.t_end : i * settings.output_step;
      Check(CVode(cvode, tout, y, &t, CV_NORMAL), "CVode");
      record(t);
    }
    Check(CVodeGetNumSteps(cvode, &run.steps), "CVodeGetNumSteps");
    Check(CVodeGetNumRhsEvals(cvode, &run.rhs_evaluations), "CVodeGetNumRhsEvals");
    Check(CVodeGetNumNonlinSolvIters(cvode, &run.nonlinear_iterations),
          "CVodeGetNumNonlinSolvIters");
  } catch (...) {
    CVodeFree(&cvode);
    if (nls) SUNNonlinSolFree(nls);
    if (linear) SUNLinSolFree(linear);
    if (matrix) SUNMatDestroy(matrix);
    N_VDestroy(y);
    SUNContext_Free(&context);
    throw;
  }
  CVodeFree(&cvode);
  if (nls) SUNNonlinSolFree(nls);
  if (linear) SUNLinSolFree(linear);
  if (matrix) SUNMatDestroy(matrix);
  N_VDestroy(y);
  SUNContext_Free(&context);
  return run;
}

}  // namespace dirac::bench
