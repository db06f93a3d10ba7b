#pragma once
// Internal to control/: the tapes of the controlled equations for direct collocation, and their
// values with exact first derivatives (forward mode on the tapes).

#include <string>
#include <utility>
#include <vector>

#include "dirac/scenario.hpp"
#include "symbolic/compiled_function.hpp"

namespace dirac::control {

/// q' = rho(q) y, y' = z(t, q, y, u), the cost C(t, q, y, u), the terminal cost phi(t, q, y),
/// the path constraints g(t, q, y, u) <= 0 and the body velocity xi(q, y), compiled once per
/// scenario. Every tape reads [t, q (n), y (k), u (m), parameters].
class CollocationDynamics {
 public:
  /// Derives and compiles (GiNaC: one thread at a time). Throws ScenarioError / ModelError.
  explicit CollocationDynamics(const Scenario& scenario);

  std::size_t num_states() const { return base_.size() + fibre_.size(); }  ///< d = n + k
  std::size_t num_controls() const { return controls_.size(); }            ///< m
  const std::vector<std::string>& base() const { return base_; }
  const std::vector<std::string>& fibre() const { return fibre_; }
  const std::vector<std::string>& controls() const { return controls_; }
  bool has_body_velocity() const { return body_velocity_.num_outputs() == 3; }
  std::size_t num_path_constraints() const { return path_.num_outputs(); }
  bool has_terminal_cost() const { return has_terminal_cost_; }
  /// The same tapes at other parameter values (the scenario's order).
  void set_parameters(std::vector<double> values) { parameters_ = std::move(values); }

  /// Values at (t, x = (q, y), u) and, if `jacobian` is not null, the derivatives along
  /// [t, x, u] (row-major, outputs x (1 + d + m)).
  void Rates(double t, const double* x, const double* u, double* value, double* jacobian) const;
  void Cost(double t, const double* x, const double* u, double* value, double* gradient) const;
  void BodyVelocity(const double* x, double* value, double* jacobian) const;
  /// g (num_path_constraints() values) and its derivatives along [t, x, u].
  void Path(double t, const double* x, const double* u, double* value, double* jacobian) const;
  /// phi at (t, x) and its derivatives along [t, x, u] (zero along u).
  void TerminalCost(double t, const double* x, double* value, double* gradient) const;

  /// The functions whose second derivatives WeightedHessian gives.
  enum class Function { kRates, kCost, kPath, kTerminalCost, kBodyVelocity };
  /// sum_i weights_i d2 f_i along [t, x, u] ((1 + d + m)^2, row-major) and, if `gradient` is
  /// not null, sum_i weights_i d f_i: forward mode on a tape of the symbolic first derivatives
  /// (exact to rounding). BodyVelocity ignores t and u.
  void WeightedHessian(Function f, double t, const double* x, const double* u,
                       const double* weights, double* hessian, double* gradient) const;
  /// Which states the body velocity reads (structurally).
  const std::vector<bool>& body_velocity_reads() const { return body_velocity_reads_; }

 private:
  void Evaluate(const CompiledFunction& f, double t, const double* x, const double* u,
                double* value, double* jacobian) const;

  std::vector<std::string> base_, fibre_, controls_;
  std::vector<double> parameters_;
  CompiledFunction rates_, cost_, body_velocity_, path_, terminal_cost_;
  /// d f_i / d [t, x, u] for each of the above (outputs x (1 + d + m), row-major).
  CompiledFunction rates_d_, cost_d_, body_velocity_d_, path_d_, terminal_cost_d_;
  std::vector<bool> body_velocity_reads_;
  bool has_terminal_cost_ = false;
};

}  // namespace dirac::control
