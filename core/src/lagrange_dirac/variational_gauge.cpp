// The exact Jacobian of one step of `method: variational` through its multipliers, the discrete
// constraint force two-form d beta_d, and the discrete gauge two-form accumulated along a run
// (lagrange_dirac/README.md, "The discrete gauge two-form"; seed D Remark 2.8).
#include <algorithm>

#include "lagrange_dirac/variational_step.hpp"

namespace dirac::lagrange_dirac {

namespace {

// d alpha for alpha = a . dy, a and y functions of x with Jacobians Da, Dy: the matrix M of
// (u, w) -> (Da u).(Dy w) - (Da w).(Dy u).
Eigen::MatrixXd ExteriorDerivative(const Eigen::MatrixXd& Da, const Eigen::MatrixXd& Dy) {
  const Eigen::MatrixXd P = Da.transpose() * Dy;
  return P - P.transpose();
}

}  // namespace

Eigen::MatrixXd VariationalIntegrator::ConstraintCurvature(double t, const double* q,
                                                           const Eigen::VectorXd& c) {
  // The constraints are linear in v, so d(A(q) e_i)/dq is column i of A's derivative.
  const auto n = static_cast<Eigen::Index>(n_);
  Eigen::MatrixXd A, gq, out(n, n);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    e.setZero();
    e[i] = 1.0;
    Constraints(t, q, e.data(), A, &gq);
    out.row(i) = c.transpose() * gq;
  }
  return out;
}

// One step from x = (q0, p0): (q1, lambda) solve R = 0, R1 = p0 + D1 L_d + (h/2) A(q0)^T lambda,
// R2 = A(qm) vm (nonholonomic rows) or f(q1)/h (holonomic rows); P = D2 L_d; (v1, mu) solve S = 0,
// S1 = L_v(q1, v1) - P - (h/2) A(q1)^T mu, S2 = A(q1) v1; p1 = L_v(q1, v1). Each solution's
// x-derivative by the implicit function theorem on the same Jacobians Newton used, plus the terms
// of dA/dq the Newton iterations do not need.
void VariationalIntegrator::StepJacobian(double t, double h, const double* q,
                                         const Eigen::VectorXd& z, const Eigen::VectorXd& w,
                                         Eigen::MatrixXd* flow_jacobian,
                                         Eigen::MatrixXd* force_two_form) {
  const auto n = static_cast<Eigen::Index>(n_), m = static_cast<Eigen::Index>(m_);
  const Eigen::Map<const Eigen::VectorXd> q0(q, n);
  const Eigen::VectorXd q1 = z.head(n), lambda = z.tail(m), v1 = w.head(n), mu = w.tail(m);
  const double tm = t + 0.5 * h;
  const Eigen::VectorXd qm = 0.5 * (q0 + q1), vm = (q1 - q0) / h;
  Eigen::VectorXd lq(n), lv(n);
  Eigen::MatrixXd H(2 * n, 2 * n), H1(2 * n, 2 * n);
  Gradient(tm, qm.data(), vm.data(), lq.data(), lv.data(), &H);
  const Eigen::MatrixXd Gqq = H.topLeftCorner(n, n), Gqv = H.topRightCorner(n, n),
                        Gvq = H.bottomLeftCorner(n, n), Gvv = H.bottomRightCorner(n, n);
  Gradient(t + h, q1.data(), v1.data(), lq.data(), lv.data(), &H1);
  const Eigen::MatrixXd Wvq = H1.bottomLeftCorner(n, n), Wvv = H1.bottomRightCorner(n, n);
  Eigen::MatrixXd A0 = Eigen::MatrixXd::Zero(m, n), Am = A0, A1 = A0, gqm, gq1;
  Eigen::MatrixXd T0 = Eigen::MatrixXd::Zero(n, n), T1 = T0;
  if (m > 0) {
    Constraints(t, q, v1.data(), A0, nullptr);
    Constraints(tm, qm.data(), vm.data(), Am, &gqm);
    Constraints(t + h, q1.data(), v1.data(), A1, &gq1);
    T0 = ConstraintCurvature(t, q, lambda);
    T1 = ConstraintCurvature(t + h, q1.data(), mu);
  }
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
  // (dq1, dlambda) = -J^-1 dR/dx, x = (q0, p0).
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n + m, n + m), Rx = Eigen::MatrixXd::Zero(n + m, 2 * n);
  J.topLeftCorner(n, n) = 0.25 * h * Gqq + 0.5 * Gqv - 0.5 * Gvq - Gvv / h;
  J.topRightCorner(n, m) = 0.5 * h * A0.transpose();
  Rx.topLeftCorner(n, n) = 0.25 * h * Gqq - 0.5 * Gqv - 0.5 * Gvq + Gvv / h + 0.5 * h * T0;
  Rx.topRightCorner(n, n) = I;
  if (m > 0) {
    J.bottomLeftCorner(m, n) = 0.5 * gqm + Am / h;
    Rx.bottomLeftCorner(m, n) = 0.5 * gqm - Am / h;
  }
  if (nh_ > 0) {  // the holonomic rows f(q1)/h: no q0 or p0 in them
    const auto nh = static_cast<Eigen::Index>(nh_);
    Eigen::VectorXd f1;
    Eigen::MatrixXd fq1;
    Holonomic(t + h, q1.data(), f1, fq1);
    J.bottomLeftCorner(nh, n) = fq1 / h;
    Rx.bottomRows(nh).setZero();
  }
  const Eigen::MatrixXd first = -J.partialPivLu().solve(Rx);
  const Eigen::MatrixXd Dq1 = first.topRows(n), Dlambda = first.bottomRows(m);
  // dP = dP/dq1 dq1 + dP/dq0 dq0.
  Eigen::MatrixXd DP = (0.25 * h * Gqq + 0.5 * Gqv + 0.5 * Gvq + Gvv / h) * Dq1;
  DP.leftCols(n) += 0.25 * h * Gqq - 0.5 * Gqv + 0.5 * Gvq - Gvv / h;
  // (dv1, dmu) = -K^-1 dS/dx.
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m), Sx(n + m, 2 * n);
  K.topLeftCorner(n, n) = Wvv;
  K.topRightCorner(n, m) = -0.5 * h * A1.transpose();
  K.bottomLeftCorner(m, n) = A1;
  Sx.topRows(n) = (Wvq - 0.5 * h * T1) * Dq1 - DP;
  if (m > 0) Sx.bottomRows(m) = gq1 * Dq1;
  const Eigen::MatrixXd second = -K.partialPivLu().solve(Sx);
  const Eigen::MatrixXd Dv1 = second.topRows(n), Dmu = second.bottomRows(m);
  if (flow_jacobian) {
    flow_jacobian->resize(2 * n, 2 * n);
    flow_jacobian->topRows(n) = Dq1;
    flow_jacobian->bottomRows(n) = Wvq * Dq1 + Wvv * Dv1;  // p1 = L_v(q1, v1)
  }
  if (force_two_form) {
    // beta_d = -(h/2) (a0 . dq0 + a1 . dq1), a0 = A(q0)^T lambda, a1 = A(q1)^T mu.
    Eigen::MatrixXd Dq0 = Eigen::MatrixXd::Zero(n, 2 * n), Da0 = Dq0;
    Dq0.leftCols(n) = I;
    Da0.leftCols(n) = T0;
    Da0 += A0.transpose() * Dlambda;
    const Eigen::MatrixXd Da1 = T1 * Dq1 + A1.transpose() * Dmu;
    *force_two_form = -0.5 * h * (ExteriorDerivative(Da0, Dq0) + ExteriorDerivative(Da1, Dq1));
  }
}

VariationalIntegrator::DiscreteGauge VariationalIntegrator::AdvanceWithGauge(
    double tout, const Eigen::MatrixXd& basis) {
  const auto n = static_cast<Eigen::Index>(n_);
  const long whole = StepsTo(tout);
  const std::vector<double> fractions = Fractions();
  // U = D(FL) basis: the tangent vectors in (q, p), FL(q, v) = (q, L_v(q, v)).
  Eigen::VectorXd lq(n), lv(n);
  Eigen::MatrixXd H(2 * n, 2 * n);
  const double now = t0_ + static_cast<double>(steps_) * h_;
  Gradient(now, x_.data(), x_.data() + n_, lq.data(), lv.data(), &H);
  Eigen::MatrixXd U(2 * n, basis.cols());
  U.topRows(n) = basis.topRows(n);
  U.bottomRows(n) =
      H.bottomLeftCorner(n, n) * basis.topRows(n) + H.bottomRightCorner(n, n) * basis.bottomRows(n);
  Eigen::MatrixXd Jc = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  Jc.topRightCorner(n, n).setIdentity();
  Jc.bottomLeftCorner(n, n) = -Eigen::MatrixXd::Identity(n, n);
  const Eigen::MatrixXd omega0 = U.transpose() * Jc * U;
  DiscreteGauge gauge;
  gauge.accumulated = Eigen::MatrixXd::Zero(basis.cols(), basis.cols());
  std::vector<double> q1(n_), p1(n_), v1(n_);
  Eigen::MatrixXd DF, M;
  for (long s = 0; s < whole; ++s) {
    double t = t0_ + static_cast<double>(steps_) * h_;
    for (const double f : fractions) {
      const double h = f * h_;
      for (std::size_t i = 0; i < n_; ++i) q1[i] = x_[i] + h * x_[n_ + i];
      MidpointStep(t, h, x_.data(), p_.data(), q1.data(), p1.data(), v1.data(), &DF, &M);
      gauge.accumulated += U.transpose() * M * U;
      U = DF * U;
      std::copy(q1.begin(), q1.end(), x_.begin());
      std::copy(v1.begin(), v1.end(), x_.begin() + static_cast<long>(n_));
      p_ = p1;
      t += h;
    }
    ++steps_;
  }
  gauge.omega_change = U.transpose() * Jc * U - omega0;
  return gauge;
}

}  // namespace dirac::lagrange_dirac
