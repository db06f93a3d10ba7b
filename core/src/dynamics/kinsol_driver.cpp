#include "dynamics/kinsol_driver.hpp"

#include <kinsol/kinsol.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <string>

#include "dirac/error.hpp"
#include "dynamics/sundials_handles.hpp"

namespace dirac::dynamics {
namespace {

struct Solve {
  const NonlinearSystem* system = nullptr;
  sundials::CallbackGuard guard;
};

int Residual(N_Vector u, N_Vector f, void* data) {
  auto* solve = static_cast<Solve*>(data);
  return solve->guard.Run([&] {
    return solve->system->residual(N_VGetArrayPointer(u), N_VGetArrayPointer(f)) ? 0 : 1;
  });
}

// KINSOL would print its errors to stderr; the caller gets the flag and the iterate instead.

}  // namespace

NonlinearSolveResult SolveNonlinearSystem(const NonlinearSystem& system, std::vector<double> u0) {
  const std::size_t n = system.size;
  if (u0.size() != n) throw NumericalError("SolveNonlinearSystem: u0 does not match the size");
  Solve solve;
  solve.system = &system;
  // Declared in creation order: destroyed in reverse, the context last.
  const sundials::Context context = sundials::MakeContext();
  const sundials::Vector u = sundials::MakeSerialVector(n, context.get());
  const sundials::Vector scale = sundials::MakeSerialVector(n, context.get());
  const auto size = static_cast<sunindextype>(n);
  const sundials::Matrix J(SUNDenseMatrix(size, size, context.get()));
  if (!J) throw NumericalError("SUNDenseMatrix failed");
  const sundials::LinearSolver LS(SUNLinSol_Dense(u.get(), J.get(), context.get()));
  if (!LS) throw NumericalError("SUNLinSol_Dense failed");
  const sundials::SolverMemory mem(KINCreate(context.get()), KINFree, "KINCreate");
  std::copy(u0.begin(), u0.end(), N_VGetArrayPointer(u.get()));
  N_VConst(1.0, scale.get());
  void* kin = mem.get();
  int flag = KINSetErrHandlerFn(kin, sundials::DiscardErrorMessage, nullptr);
  if (flag >= 0) flag = KINInit(kin, Residual, u.get());
  if (flag >= 0) flag = KINSetUserData(kin, &solve);
  if (flag >= 0) flag = KINSetLinearSolver(kin, LS.get(), J.get());  // difference quotients
  if (flag >= 0) flag = KINSetFuncNormTol(kin, system.residual_tolerance);
  if (flag >= 0) flag = KINSetScaledStepTol(kin, system.scaled_step_tolerance);
  if (flag >= 0) flag = KINSetNumMaxIters(kin, system.max_iterations);
  if (flag >= 0) flag = KINSetMaxSetupCalls(kin, 1);  // fresh Jacobian every Newton step
  if (flag >= 0) flag = KINSetMaxNewtonStep(kin, system.max_newton_step);
  if (flag >= 0) {
    flag = KINSol(kin, u.get(), KIN_LINESEARCH, scale.get(), scale.get());
    solve.guard.Rethrow();  // an exception from the residual, after KINSOL has unwound
  }
  NonlinearSolveResult result;
  KINGetNumNonlinSolvIters(kin, &result.iterations);
  result.flag = flag;
  result.u.assign(N_VGetArrayPointer(u.get()), N_VGetArrayPointer(u.get()) + n);
  return result;
}

}  // namespace dirac::dynamics
