// CollocationDynamics: the controlled equations derived by the constraints layer, compiled to
// tapes; first derivatives by forward mode on the tapes (exact to rounding).
#include "control/collocation_dynamics.hpp"

#include <algorithm>

#include "constraints/presymplectic_data.hpp"
#include "dirac/simulation_types.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac::control {

CollocationDynamics::CollocationDynamics(const Scenario& scenario) {
  const constraints::ControlledEquations eq = constraints::BuildControlledEquations(scenario);
  std::vector<GiNaC::symbol> inputs{eq.data.t};
  inputs.insert(inputs.end(), eq.q.begin(), eq.q.end());
  inputs.insert(inputs.end(), eq.y.begin(), eq.y.end());
  inputs.insert(inputs.end(), eq.u.begin(), eq.u.end());
  inputs.insert(inputs.end(), eq.data.parameters.begin(), eq.data.parameters.end());
  base_ = eq.base_names;
  fibre_ = eq.fibre_names;
  for (const auto& u : eq.u) controls_.push_back(u.get_name());
  parameters_ = SimulationInput::FromScenario(scenario).parameters;
  rates_ = symbolic::CompileExpressions(eq.rates, inputs);
  cost_ = symbolic::CompileExpressions({eq.cost}, inputs);
  body_velocity_ = symbolic::CompileExpressions(eq.body_velocity, inputs);
  path_ = symbolic::CompileExpressions(eq.path, inputs);
  terminal_cost_ = symbolic::CompileExpressions({eq.terminal_cost}, inputs);
  has_terminal_cost_ = !eq.terminal_cost.is_zero();
}

void CollocationDynamics::Evaluate(const CompiledFunction& f, double t, const double* x,
                                   const double* u, double* value, double* jacobian) const {
  const std::size_t d = num_states(), m = num_controls();
  std::vector<double> in(1 + d + m + parameters_.size());
  in[0] = t;
  std::copy(x, x + d, in.begin() + 1);
  std::copy(u, u + m, in.begin() + 1 + static_cast<long>(d));
  std::copy(parameters_.begin(), parameters_.end(), in.begin() + 1 + static_cast<long>(d + m));
  if (!jacobian) {
    std::vector<double> scratch(f.scratch_size());
    f.Evaluate(in.data(), value, scratch.data());
    return;
  }
  const std::size_t directions = 1 + d + m;
  std::vector<double> seeds(in.size() * directions, 0.0);
  for (std::size_t p = 0; p < directions; ++p) seeds[p * directions + p] = 1.0;
  std::vector<double> work(f.tangent_work_size(directions));
  f.EvaluateTangents(in.data(), seeds.data(), directions, jacobian, work.data());
  std::vector<double> scratch(f.scratch_size());
  f.Evaluate(in.data(), value, scratch.data());
}

void CollocationDynamics::Rates(double t, const double* x, const double* u, double* value,
                                double* jacobian) const {
  Evaluate(rates_, t, x, u, value, jacobian);
}

void CollocationDynamics::Cost(double t, const double* x, const double* u, double* value,
                               double* gradient) const {
  Evaluate(cost_, t, x, u, value, gradient);
}

void CollocationDynamics::BodyVelocity(const double* x, double* value, double* jacobian) const {
  const std::vector<double> u(num_controls(), 0.0);
  Evaluate(body_velocity_, 0.0, x, u.data(), value, jacobian);
}

void CollocationDynamics::Path(double t, const double* x, const double* u, double* value,
                               double* jacobian) const {
  if (num_path_constraints() > 0) Evaluate(path_, t, x, u, value, jacobian);
}

void CollocationDynamics::TerminalCost(double t, const double* x, double* value,
                                       double* gradient) const {
  const std::vector<double> u(num_controls(), 0.0);
  Evaluate(terminal_cost_, t, x, u.data(), value, gradient);
}

}  // namespace dirac::control
