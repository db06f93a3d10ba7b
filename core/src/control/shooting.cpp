#include "dirac/shooting.hpp"

#include <ginac/ginac.h>
#include <kinsol/kinsol.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/simulation_types.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

struct ShootingContext {
  const Scenario* scenario = nullptr;
  std::shared_ptr<const Model> model;
  Scenario trial;
  long evaluations = 0;
  std::string failure;
};

// r(u) = column(t_end; u) - target. Returns false if the integration fails at u.
bool Residual(ShootingContext& ctx, const double* u, double* r, Trajectory* trajectory) {
  const auto& spec = ctx.scenario->boundary_value;
  ctx.trial = *ctx.scenario;
  for (std::size_t k = 0; k < spec.unknowns.size(); ++k)
    ApplyOverride(ctx.trial, spec.unknowns[k], u[k]);
  ++ctx.evaluations;
  try {
    Trajectory tr = ctx.model->Simulate(SimulationInput::FromScenario(ctx.trial));
    for (std::size_t k = 0; k < spec.targets.size(); ++k)
      r[k] =
          tr.at(tr.num_rows() - 1, tr.ColumnIndex(spec.targets[k].first)) - spec.targets[k].second;
    if (trajectory) *trajectory = std::move(tr);
    return true;
  } catch (const NumericalError& e) {
    ctx.failure = e.what();
    return false;
  }
}

int KinsolResidual(N_Vector u, N_Vector f, void* data) {
  auto* ctx = static_cast<ShootingContext*>(data);
  return Residual(*ctx, N_VGetArrayPointer(u), N_VGetArrayPointer(f), nullptr) ? 0 : 1;
}

// Initial value of an unknown, read from the scenario by its --set name (0 if unknown: the
// probe below reports unknown names).
double InitialValue(const Scenario& s, const std::string& name) {
  return CurrentValue(s, name).value_or(0.0);
}

// int_0^T L dt by composite Simpson (trapezoid on an odd last interval), L from the columns.
double Cost(const Scenario& s, const Trajectory& tr) {
  std::vector<std::string> names = tr.columns();
  for (const auto& p : s.parameters)
    if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  std::vector<GiNaC::symbol> inputs;
  const GiNaC::symtab table = scenario::TableOfNames(names, &inputs);
  GiNaC::ex L;
  try {
    L = symbolic::ParseExpression(s.lagrangian, table,
                                  {s.source_file, s.lagrangian_where.line, "lagrangian"});
  } catch (const ScenarioError&) {
    return std::numeric_limits<double>::quiet_NaN();  // L uses an eliminated symbol
  }
  const CompiledFunction f = symbolic::CompileExpressions({L}, inputs);
  std::vector<double> in(inputs.size());
  for (std::size_t k = tr.num_columns(); k < inputs.size(); ++k)
    in[k] = s.parameters[*s.FindParameter(inputs[k].get_name())].value;
  std::vector<double> values(tr.num_rows());
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    std::copy(tr.row(r), tr.row(r) + tr.num_columns(), in.begin());
    values[r] = f.Evaluate(in)[0];
  }
  double cost = 0.0;
  std::size_t r = 0;
  for (; r + 2 < tr.num_rows(); r += 2) {
    const double h = tr.at(r + 2, 0) - tr.at(r, 0);
    cost += h / 6.0 * (values[r] + 4 * values[r + 1] + values[r + 2]);
  }
  if (r + 1 < tr.num_rows())
    cost += 0.5 * (tr.at(r + 1, 0) - tr.at(r, 0)) * (values[r] + values[r + 1]);
  return cost;
}

}  // namespace

ShootingResult SolveBoundaryValueProblem(const Scenario& scenario, const ShootingOptions& options) {
  const auto& spec = scenario.boundary_value;
  if (!spec.present())
    throw ScenarioError(scenario.source_file, 0, "boundary_value",
                        "the scenario has no boundary_value block (unknowns and targets)");
  ShootingContext ctx;
  ctx.scenario = &scenario;
  ctx.model = BuildModel(scenario);
  const auto n = static_cast<sunindextype>(spec.unknowns.size());
  {
    Scenario probe = scenario;  // every unknown must be a --set name
    for (const auto& name : spec.unknowns) ApplyOverride(probe, name, InitialValue(scenario, name));
  }

  SUNContext sunctx = nullptr;
  if (SUNContext_Create(nullptr, &sunctx) != 0) throw NumericalError("SUNContext_Create failed");
  N_Vector u = N_VNew_Serial(n, sunctx), scale = N_VNew_Serial(n, sunctx);
  SUNMatrix J = SUNDenseMatrix(n, n, sunctx);
  SUNLinearSolver LS = SUNLinSol_Dense(u, J, sunctx);
  void* mem = KINCreate(sunctx);
  for (sunindextype k = 0; k < n; ++k)
    N_VGetArrayPointer(u)[k] = InitialValue(scenario, spec.unknowns[k]);
  N_VConst(1.0, scale);
  int flag = KINInit(mem, KinsolResidual, u);
  if (flag >= 0) flag = KINSetUserData(mem, &ctx);
  if (flag >= 0) flag = KINSetLinearSolver(mem, LS, J);  // dense difference-quotient Jacobian
  if (flag >= 0) flag = KINSetFuncNormTol(mem, options.residual_tolerance);
  if (flag >= 0) flag = KINSetScaledStepTol(mem, 1e-14);
  if (flag >= 0) flag = KINSetNumMaxIters(mem, options.max_iterations);
  if (flag >= 0) flag = KINSetMaxSetupCalls(mem, 1);  // fresh Jacobian every Newton step
  // The default bound is 1000 |u0|: zero for a zero initial guess (e.g. costates).
  if (flag >= 0) flag = KINSetMaxNewtonStep(mem, 1e12);
  if (flag >= 0) flag = KINSol(mem, u, KIN_LINESEARCH, scale, scale);
  long iterations = 0;
  KINGetNumNonlinSolvIters(mem, &iterations);
  ShootingResult result;
  result.unknowns.assign(N_VGetArrayPointer(u), N_VGetArrayPointer(u) + n);
  KINFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(J);
  N_VDestroy(u);
  N_VDestroy(scale);
  SUNContext_Free(&sunctx);

  std::vector<double> r(spec.targets.size());
  if (!Residual(ctx, result.unknowns.data(), r.data(), &result.trajectory))
    throw NumericalError("shooting: the integration fails at the final iterate: " + ctx.failure);
  for (double v : r) result.residual = std::max(result.residual, std::abs(v));
  if (flag < 0 || result.residual > options.residual_tolerance * 10) {
    std::ostringstream out;
    out << "shooting did not converge (KINSOL flag " << flag << " after " << iterations
        << " Newton iterations, max |residual| = " << result.residual << ")";
    if (!ctx.failure.empty()) out << "; last integration failure: " << ctx.failure;
    throw NumericalError(out.str());
  }
  result.solved = ctx.trial;
  result.newton_iterations = iterations;
  result.residual_evaluations = ctx.evaluations;
  result.cost = Cost(scenario, result.trajectory);
  return result;
}

}  // namespace dirac
