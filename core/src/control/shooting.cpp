#include "dirac/shooting.hpp"

#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/simulation_types.hpp"
#include "dynamics/kinsol_driver.hpp"
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
  {
    Scenario probe = scenario;  // every unknown must be a --set name
    for (const auto& name : spec.unknowns) ApplyOverride(probe, name, InitialValue(scenario, name));
  }

  dynamics::NonlinearSystem system;
  system.size = spec.unknowns.size();
  system.residual = [&ctx](const double* u, double* f) { return Residual(ctx, u, f, nullptr); };
  system.residual_tolerance = options.residual_tolerance;
  system.max_iterations = options.max_iterations;
  std::vector<double> u0(spec.unknowns.size());
  for (std::size_t k = 0; k < u0.size(); ++k) u0[k] = InitialValue(scenario, spec.unknowns[k]);
  dynamics::NonlinearSolveResult newton = dynamics::SolveNonlinearSystem(system, std::move(u0));
  const int flag = newton.flag;
  const long iterations = newton.iterations;
  ShootingResult result;
  result.unknowns = std::move(newton.u);

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
