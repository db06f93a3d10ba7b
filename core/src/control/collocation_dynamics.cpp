// CollocationDynamics: the controlled equations derived by the constraints layer, compiled to
// tapes; first derivatives by forward mode on the tapes (exact to rounding).
#include "control/collocation_dynamics.hpp"

#include <algorithm>

#include "constraints/presymplectic_data.hpp"
#include "dirac/simulation_types.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac::control {
namespace {

// d f_i / d inputs_c for every output i and the first `count` inputs (row-major).
std::vector<GiNaC::ex> FirstDerivatives(const std::vector<GiNaC::ex>& f,
                                        const std::vector<GiNaC::symbol>& inputs,
                                        std::size_t count) {
  std::vector<symbolic::Differentiator> d;
  for (std::size_t c = 0; c < count; ++c) d.emplace_back(inputs[c]);
  std::vector<GiNaC::ex> out;
  for (const auto& e : f)
    for (auto& dc : d) out.push_back(dc(e));
  return out;
}

}  // namespace

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
  // The first derivatives as tapes: forward mode on them gives the second derivatives.
  const std::size_t n = 1 + num_states() + num_controls();
  rates_d_ = symbolic::CompileExpressions(FirstDerivatives(eq.rates, inputs, n), inputs);
  cost_d_ = symbolic::CompileExpressions(FirstDerivatives({eq.cost}, inputs, n), inputs);
  path_d_ = symbolic::CompileExpressions(FirstDerivatives(eq.path, inputs, n), inputs);
  terminal_cost_d_ =
      symbolic::CompileExpressions(FirstDerivatives({eq.terminal_cost}, inputs, n), inputs);
  body_velocity_d_ =
      symbolic::CompileExpressions(FirstDerivatives(eq.body_velocity, inputs, n), inputs);
  for (std::size_t i = 0; i < num_states(); ++i) {
    bool reads = false;
    for (const auto& e : eq.body_velocity) reads = reads || e.has(inputs[1 + i]);
    body_velocity_reads_.push_back(reads);
  }
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

void CollocationDynamics::WeightedHessian(Function f, double t, const double* x, const double* u,
                                          const double* weights, double* hessian,
                                          double* gradient) const {
  const CompiledFunction* tape = f == Function::kRates          ? &rates_d_
                                 : f == Function::kCost         ? &cost_d_
                                 : f == Function::kPath         ? &path_d_
                                 : f == Function::kTerminalCost ? &terminal_cost_d_
                                                                : &body_velocity_d_;
  const std::size_t n = 1 + num_states() + num_controls(), outputs = tape->num_outputs() / n;
  std::fill(hessian, hessian + n * n, 0.0);
  if (gradient) std::fill(gradient, gradient + n, 0.0);
  if (outputs == 0) return;
  std::vector<double> first(outputs * n), second(outputs * n * n);
  if (f == Function::kBodyVelocity || f == Function::kTerminalCost) {
    const std::vector<double> zero(num_controls(), 0.0);
    Evaluate(*tape, f == Function::kBodyVelocity ? 0.0 : t, x, zero.data(), first.data(),
             second.data());
  } else {
    Evaluate(*tape, t, x, u, first.data(), second.data());
  }
  for (std::size_t i = 0; i < outputs; ++i) {
    if (weights[i] == 0.0) continue;
    for (std::size_t c = 0; c < n; ++c) {
      if (gradient) gradient[c] += weights[i] * first[i * n + c];
      for (std::size_t b = 0; b < n; ++b)
        hessian[c * n + b] += weights[i] * second[(i * n + c) * n + b];
    }
  }
}

}  // namespace dirac::control
