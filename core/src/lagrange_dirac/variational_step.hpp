#pragma once
// Internal: `simulation.method: variational`, the fixed-step variational integrator of a regular
// Lagrangian L(t, q, v) on TQ with nonholonomic constraints A(q) v = 0 and holonomic constraints
// f(q) = 0 (lagrange_dirac/README.md, "The variational integrator"; docs/references.md:
// Marsden–West 2001, Cortés–Martínez 2001, McLachlan–Perlmutter 2006, Andersen 1983,
// Leimkuhler–Skeel 1994, Yoshida 1990).
//
// One step of size h from (q0, p0), with the midpoint discrete Lagrangian
// L_d(q0, q1) = h L(t + h/2, (q0 + q1)/2, (q1 - q0)/h):
//   p0 + D1 L_d(q0, q1) + (h/2) A(q0)^T lambda = 0,   A(qm) (q1 - q0)/h = 0       (n + m, Newton)
//   L_v(q1, v1) = D2 L_d(q0, q1) + (h/2) A(q1)^T mu,   A(q1) v1 = 0               (n + m, Newton)
//   p1 = L_v(q1, v1)
// i.e. the discrete Lagrange–d'Alembert equations with the midpoint discrete constraint
// (Cortés–Martínez) in the position–momentum form of McLachlan–Perlmutter, the constraint force
// split half at each end of the step and the node velocity v1 on the distribution (so the
// sampled constraint A(q) v vanishes to the Newton tolerance). A holonomic constraint f(q) = 0
// has its differential df among the rows of A (the last ones); its row of the first system is
// f(q1)/h = 0 instead of the midpoint discrete constraint, and its row of the second system is
// df(q1) v1 = 0: RATTLE (Andersen; Leimkuhler–Skeel), the constrained discrete Euler–Lagrange
// equations of Marsden–West §3.5 with the momentum projected onto T*N at the nodes, symplectic on
// T*N, f = 0 and df v = 0 at every node to the Newton tolerance. Without constraints it is the
// midpoint variational integrator: symplectic, order 2. Order 4 composes three steps of sizes
// g1 h, g2 h, g1 h with g1 = 1/(2 - 2^(1/3)), g2 = 1 - 2 g1 (the triple jump). Both Newton
// iterations use exact Jacobians: the tangent-mode Jacobian of the compiled (dL/dq, dL/dv) and of
// the constraints.

#include <Eigen/Dense>

#include <vector>

#include "dynamics/integrator.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac::lagrange_dirac {

/// The discrete flow of `method: variational` (nonholonomic and holonomic constraints as above).
/// Its state at a node is (q, v) (the layout of the
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
  /// values). When `flow_jacobian` is given it receives d(q1, p1)/d(q, p) (2n x 2n) from the
  /// exact Jacobians of the step's equations (implicit function theorem, also through the
  /// multipliers lambda, mu); `force_two_form` receives d beta_d (2n x 2n, (u, w) -> u^T M w in
  /// (q, p)) of the discrete constraint force beta_d = -(h/2) (lambda^T A(q) dq + mu^T A(q1) dq1),
  /// for which F^* Omega = Omega + d beta_d, Omega = dq ^ dp (lagrange_dirac/README.md, "The
  /// discrete gauge two-form"). Throws NumericalError if Newton fails.
  void MidpointStep(double t, double h, const double* q, const double* p, double* q1, double* p1,
                    double* v1, Eigen::MatrixXd* flow_jacobian = nullptr,
                    Eigen::MatrixXd* force_two_form = nullptr);

  /// The discrete gauge two-form accumulated while advancing to `tout` (as Advance), on the
  /// tangent vectors `basis` (2n x d, in (q, v) at the current node, tangent to Delta_Q).
  struct DiscreteGauge {
    /// (D Phi U)^T J (D Phi U) - U^T J U, U = D(FL) basis: the failure of the discrete flow Phi
    /// over the interval to preserve Omega_L on the basis (d x d).
    Eigen::MatrixXd omega_change;
    /// sum over the steps k of (D Phi_k U)^T d beta_d (D Phi_k U), Phi_k the flow to step k: the
    /// discrete analogue of B_t = int phi_s^* d beta ds (d x d); equal to omega_change.
    Eigen::MatrixXd accumulated;
  };
  /// Advance with the discrete gauge two-form (above). Throws like Advance.
  DiscreteGauge AdvanceWithGauge(double tout, const Eigen::MatrixXd& basis);

 private:
  // (dL/dq, dL/dv) at (t, q, v) into lq, lv; with `hessian`, its 2n x 2n Jacobian in (q, v).
  void Gradient(double t, const double* q, const double* v, double* lq, double* lv,
                Eigen::MatrixXd* hessian);
  // A(q) (m x n) and, with `gq`, dg/dq of g(q, v) = A(q) v (m x n).
  void Constraints(double t, const double* q, const double* v, Eigen::MatrixXd& A,
                   Eigen::MatrixXd* gq);
  void Load(double t, const double* q, const double* v);
  // The holonomic constraints f(q) (nh values) and their Jacobian df/dq (nh x n).
  void Holonomic(double t, const double* q, Eigen::VectorXd& f, Eigen::MatrixXd& fq);
  // The step's Jacobian and force two-form (variational_gauge.cpp) at its converged solution:
  // (q1, lambda) in z, (v1, mu) in w.
  void StepJacobian(double t, double h, const double* q, const Eigen::VectorXd& z,
                    const Eigen::VectorXd& w, Eigen::MatrixXd* flow_jacobian,
                    Eigen::MatrixXd* force_two_form);
  // sum_r c_r dA_r(q)/dq (n x n, entry (i, j) = sum_r c_r dA_ri/dq_j).
  Eigen::MatrixXd ConstraintCurvature(double t, const double* q, const Eigen::VectorXd& c);
  // The step's substep fractions: {1} (order 2) or the triple jump (order 4).
  std::vector<double> Fractions() const;
  // The number of whole steps to tout; throws if it is not whole.
  long StepsTo(double tout) const;

  const CompiledDae& dae_;
  std::size_t n_ = 0, m_ = 0;
  std::size_t nh_ = 0;  // holonomic constraints: the last nh_ of the m_ constraint rows
  double h_ = 0.0, t0_ = 0.0;
  int order_ = 2;
  long steps_ = 0, iterations_ = 0;
  CompiledSparseMatrix hessian_, constraint_jacobian_;
  std::vector<double> input_, scratch_, values_, x_, p_;
};

}  // namespace dirac::lagrange_dirac
