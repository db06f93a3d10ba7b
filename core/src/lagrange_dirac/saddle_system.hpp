#pragma once
// Internal: the accelerations and multipliers of a regular index-1 Lagrange–Dirac system solved
// from its saddle-point system at a state x = (q, y), the explicit ODE they define, its exact
// Jacobian, and the projection onto the constraint distribution. Shared by the CVODES path and
// the exact multipliers the IDAS path reports.

#include <Eigen/Dense>
#include <cstddef>
#include <vector>

#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac::lagrange_dirac {

/// Evaluation state for one thread (owns its buffers; the CompiledDae is shared, immutable).
///
/// With F the residual of the index-1 DAE (lagrange_dirac/lagrange_dirac_system.hpp), F is affine in
/// (q', y', mu); at q' = rho(q) y and without the Baumgarte term the accelerations a = y' and
/// the multipliers solve
///   [W  -A^T] [a ]     [F_y ]
///   [A   0  ] [mu] = - [F_mu] (t, q, y, q' = rho y, y' = 0, mu = 0, alpha = 0),
/// whose matrix is nonsingular exactly when the DAE has index 1. Then x' = (rho(q) y, a(x)).
class SaddleSystem {
 public:
  /// `parameters` in the system's order. Does not keep a reference to it.
  SaddleSystem(const CompiledDae& dae, const std::vector<double>& parameters);

  std::size_t state_size() const { return n_ + k_; }

  /// x' = f(t, x) into `rates` (n + k) and the multipliers into `mu` (m; may be null).
  /// Returns false if the saddle matrix is singular or a value is not finite.
  bool Rates(double t, const double* x, double* rates, double* mu = nullptr);

  /// df/dx at (t, x), column-major into `jac` ((n+k) x (n+k)), by the chain rule through the
  /// saddle system from the DAE's exact Jacobians. Call after Rates at the same point.
  void Jacobian(double t, const double* x, double* jac);

  /// The correction dy that moves y onto A(q) y = 0 with the least kinetic change (metric W),
  /// dy = -W^-1 A^T (A W^-1 A^T)^-1 A y; written into `corr` (n + k entries, q part zero).
  /// Returns false if A W^-1 A^T is singular.
  bool Projection(double t, const double* x, double* corr);

  /// max_r |<A^r(q), y>| at (t, x).
  double ConstraintResidual(double t, const double* x);

  /// Loads (t, q, y) and q' = rho(q) y into input() without solving (for functions of the state
  /// only, such as the body velocity).
  void LoadState(double t, const double* x) { Load(t, x); }

  /// Dense or sparse LU for the saddle matrix in Jacobian (LinearSolverMode; default auto).
  void set_linear_solver(LinearSolverMode mode) { linear_solver_ = mode; }

  /// The DAE input vector at the last evaluated point (t, q, y, mu, q', y', parameters, alpha=0).
  const std::vector<double>& input() const { return input_; }

 private:
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  void Load(double t, const double* x);
  void DenseJacobian(const CompiledSparseMatrix& sparse, Eigen::MatrixXd& dense);
  void EvaluateMatrices();
  Eigen::MatrixXd SolveSaddle(const Eigen::MatrixXd& K, const Eigen::MatrixXd& B);

  const CompiledDae& dae_;
  std::size_t n_, k_, m_, N_;
  // Small dense blocks as plain row-major arrays: the right-hand side is the hot path, and a
  // (k + m)-square elimination on raw arrays costs a fraction of a general LU's bookkeeping.
  std::vector<double> input_, scratch_, residual_, sparse_values_, constraint_values_;
  std::vector<double> W_, A_, rho_, saddle_, solution_;
  std::vector<std::size_t> pivot_;
  Eigen::MatrixXd jy_, jyp_;
  LinearSolverMode linear_solver_ = LinearSolverMode::kAuto;
};

}  // namespace dirac::lagrange_dirac
