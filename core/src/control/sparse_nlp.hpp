#pragma once
// Internal to control/: a sparse nonlinear program min f(x) s.t. g_l <= g(x) <= g_u,
// x_l <= x <= x_u, and its solve by IPOPT (ipopt_solver.cpp, the one file that sees IPOPT).

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dirac::control {

/// The problem as the interior-point method sees it. The Jacobian pattern is fixed (built once
/// when the problem is built); values come in the pattern's order.
class SparseNlp {
 public:
  virtual ~SparseNlp() = default;
  virtual int num_variables() const = 0;
  virtual int num_constraints() const = 0;
  virtual void Bounds(double* x_l, double* x_u, double* g_l, double* g_u) const = 0;
  virtual void StartingPoint(double* x) const = 0;
  virtual double Objective(const double* x) const = 0;
  virtual void ObjectiveGradient(const double* x, double* gradient) const = 0;
  virtual void Constraints(const double* x, double* g) const = 0;
  /// (row, column) of every structurally nonzero Jacobian entry, 0-based.
  virtual const std::vector<std::pair<int, int>>& JacobianPattern() const = 0;
  virtual void JacobianValues(const double* x, double* values) const = 0;
  /// (row, column), row >= column, of every structurally nonzero entry of the lower triangle of
  /// the Hessian of the Lagrangian; empty when the problem gives no Hessian.
  virtual const std::vector<std::pair<int, int>>& HessianPattern() const { return no_hessian_; }
  /// sigma * Hess f(x) + sum_r lambda_r Hess g_r(x), in HessianPattern's order.
  virtual void HessianValues(const double* /*x*/, double /*sigma*/, const double* /*lambda*/,
                             double* /*values*/) const {}

 private:
  std::vector<std::pair<int, int>> no_hessian_;
};

/// One interior-point iteration, as reported to a progress callback.
struct NlpIterate {
  int iteration = 0;
  double objective = 0.0;
  double primal_infeasibility = 0.0;  ///< max constraint violation (IPOPT's inf_pr)
  double dual_infeasibility = 0.0;
};

/// A primal-dual point of the interior-point method: the unknowns x, the multipliers z_L, z_U of
/// their lower and upper bounds and lambda of the constraints (IPOPT's convention: the
/// Lagrangian is f + lambda . g - z_L . (x - x_l) + z_U . (x - x_u)).
struct NlpPoint {
  std::vector<double> x, z_lower, z_upper, lambda;
  /// Sized for a problem with n unknowns and m constraints.
  bool Fits(int n, int m) const {
    const auto size = [](const std::vector<double>& v) { return static_cast<int>(v.size()); };
    return size(x) == n && size(z_lower) == n && size(z_upper) == n && size(lambda) == m;
  }
};

struct NlpSettings {
  int max_iterations = 3000;
  double tolerance = 1e-9;  ///< IPOPT tol and constr_viol_tol
  /// The problem's exact Hessian of the Lagrangian (when it gives one); false: IPOPT's
  /// limited-memory (L-BFGS) approximation.
  bool exact_hessian = true;
  const std::atomic<bool>* cancel = nullptr;
  std::function<bool(const NlpIterate&)> progress;  ///< false stops the solve
  /// The optimum of a problem of the same structure (same unknowns and rows; other bounds or
  /// values): the solve starts from it (projected into the new bounds; IPOPT's warm-start
  /// initialisation with its multipliers and a small barrier parameter) and, if that does not
  /// converge, once more from the problem's own starting point. Ignored unless it Fits the problem.
  const NlpPoint* warm_start = nullptr;
};

struct NlpResult {
  bool converged = false;
  std::string message;  ///< IPOPT's status in words (empty on success)
  std::vector<double> x;
  NlpPoint solution;  ///< x and the multipliers where IPOPT stopped (a warm start's point)
  double objective = 0.0;
  double constraint_violation = 0.0;  ///< max over g outside [g_l, g_u] at x
  int iterations = 0;                 ///< in all (a failed warm start's and the cold solve's)
  bool warm_started = false;          ///< converged from NlpSettings::warm_start
  int warm_iterations = 0;            ///< spent from the warm start (all of them when warm_started)
  bool cancelled = false;
};

/// Solves `nlp` with IPOPT (MUMPS linear solver, the exact or the limited-memory Hessian as
/// settings say, output silenced).
/// Never throws for a problem IPOPT cannot solve: `converged` is false and `message` says why.
NlpResult SolveNlp(const SparseNlp& nlp, const NlpSettings& settings);

}  // namespace dirac::control
