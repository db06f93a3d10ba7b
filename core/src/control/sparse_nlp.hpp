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
};

/// One interior-point iteration, as reported to a progress callback.
struct NlpIterate {
  int iteration = 0;
  double objective = 0.0;
  double primal_infeasibility = 0.0;  ///< max constraint violation (IPOPT's inf_pr)
  double dual_infeasibility = 0.0;
};

struct NlpSettings {
  int max_iterations = 3000;
  double tolerance = 1e-9;  ///< IPOPT tol and constr_viol_tol
  /// IPOPT's limited-memory (L-BFGS) Hessian of the Lagrangian: no exact Hessian is supplied.
  const std::atomic<bool>* cancel = nullptr;
  std::function<bool(const NlpIterate&)> progress;  ///< false stops the solve
};

struct NlpResult {
  bool converged = false;
  std::string message;  ///< IPOPT's status in words (empty on success)
  std::vector<double> x;
  double objective = 0.0;
  double constraint_violation = 0.0;  ///< max over g outside [g_l, g_u] at x
  int iterations = 0;
  bool cancelled = false;
};

/// Solves `nlp` with IPOPT (MUMPS linear solver, limited-memory Hessian, output silenced).
/// Never throws for a problem IPOPT cannot solve: `converged` is false and `message` says why.
NlpResult SolveNlp(const SparseNlp& nlp, const NlpSettings& settings);

}  // namespace dirac::control
