#pragma once
// Internal: `simulation.method: variational`, the fixed-step variational integrator of a regular
// Lagrangian L(t, q, v) on TQ with nonholonomic constraints A(q) v = 0 (lagrange_dirac/README.md,
// "The variational integrator"; docs/references.md: Marsden–West 2001, Cortés–Martínez 2001,
// McLachlan–Perlmutter 2006, Yoshida 1990).
//
// One step of size h from (q0, p0), with the midpoint discrete Lagrangian
// L_d(q0, q1) = h L(t + h/2, (q0 + q1)/2, (q1 - q0)/h):
//   p0 + D1 L_d(q0, q1) + (h/2) A(q0)^T lambda = 0,   A(qm) (q1 - q0)/h = 0       (n + m, Newton)
//   L_v(q1, v1) = D2 L_d(q0, q1) + (h/2) A(q1)^T mu,   A(q1) v1 = 0               (n + m, Newton)
//   p1 = L_v(q1, v1)
// i.e. the discrete Lagrange–d'Alembert equations with the midpoint discrete constraint
// (Cortés–Martínez) in the position–momentum form of McLachlan–Perlmutter, the constraint force
// split half at each end of the step and the node velocity v1 on the distribution (so the
// sampled constraint A(q) v vanishes to the Newton tolerance). Without constraints it is the
// midpoint variational integrator: symplectic, order 2. Order 4 composes three steps of sizes
// g1 h, g2 h, g1 h with g1 = 1/(2 - 2^(1/3)), g2 = 1 - 2 g1 (the triple jump). Both Newton
// iterations use exact Jacobians: the tangent-mode Jacobian of the compiled (dL/dq, dL/dv) and of
// the constraints.

#include <Eigen/Dense>

#include <vector>

#include "lagrange_dirac/compiled_dae.hpp"
#include "dynamics/integrator.hpp"

namespace dirac::lagrange_dirac {

/// The discrete flow of `method: variational`. Its state at a node is (q, v) (the layout of the
/// ODE path's state) and the discrete momentum p = dL/dv(q, v). Not copyable.
class VariationalIntegrator final : public dynamics::Integrator {
 public:
  /// Starts at t0 from x0 = (q0, v0) (v0 on the distribution) with step `step` [s] and `order`
  /// 2 or 4. Throws ModelError if `dae` has no (dL/dq, dL/dv) tape (an algebroid) or the order is
  /// neither 2 nor 4.
  VariationalIntegrator(const CompiledDae& dae, const std::vector<double>& parameters, double step,
                        int order, double t0, const std::vector<double>& x0);

  /// Takes whole steps up to `tout`, which must be a whole number of steps away (to 1e-9 of
  /// a step); returns tout. Throws NumericalError naming the time if Newton fails.
  double Advance(double tout) override;
  const double* y() const override { return x_.data(); }
  /// steps = steps taken (a composed step counts its three substeps), nonlinear_failures = 0,
  /// last_order = the order.
  dynamics::IdasStatistics statistics() const override;
  /// Newton iterations of both systems, summed.
  long rhs_evaluations() const override { return iterations_; }
  /// The discrete momentum p = dL/dv at the current node.
  const std::vector<double>& momentum() const { return p_; }

  /// One midpoint step of size h from (t, q, p) to (q1, p1), node velocity v1 (each of n
  /// values). When `flow_jacobian` is given and there are no constraints, it receives
  /// d(q1, p1)/d(q, p) (2n x 2n) from the exact Jacobians of the step's equations (implicit
  /// function theorem). Throws NumericalError if Newton fails.
  void MidpointStep(double t, double h, const double* q, const double* p, double* q1, double* p1,
                    double* v1, Eigen::MatrixXd* flow_jacobian = nullptr);

 private:
  // (dL/dq, dL/dv) at (t, q, v) into lq, lv; with `hessian`, its 2n x 2n Jacobian in (q, v).
  void Gradient(double t, const double* q, const double* v, double* lq, double* lv,
                Eigen::MatrixXd* hessian);
  // A(q) (m x n) and, with `gq`, dg/dq of g(q, v) = A(q) v (m x n).
  void Constraints(double t, const double* q, const double* v, Eigen::MatrixXd& A,
                   Eigen::MatrixXd* gq);
  void Load(double t, const double* q, const double* v);

  const CompiledDae& dae_;
  std::size_t n_ = 0, m_ = 0;
  double h_ = 0.0, t0_ = 0.0;
  int order_ = 2;
  long steps_ = 0, iterations_ = 0;
  CompiledSparseMatrix hessian_, constraint_jacobian_;
  std::vector<double> input_, scratch_, values_, x_, p_;
};

}  // namespace dirac::lagrange_dirac
