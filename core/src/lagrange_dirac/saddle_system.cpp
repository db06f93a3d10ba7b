#include "lagrange_dirac/saddle_system.hpp"

#include <algorithm>
#include <cmath>

namespace dirac::lagrange_dirac {

SaddleSystem::SaddleSystem(const CompiledDae& dae, const std::vector<double>& parameters)
    : dae_(dae),
      n_(dae.layout.n),
      k_(dae.layout.k),
      m_(dae.layout.m),
      N_(dae.layout.dae_size()),
      W_(k_, k_),
      A_(m_, k_),
      rho_(n_, k_),
      saddle_(k_ + m_, k_ + m_),
      jy_(N_, N_),
      jyp_(N_, N_),
      rhs_(k_ + m_),
      solution_(k_ + m_),
      lu_(k_ + m_) {
  const InputLayout& L = dae.layout;
  input_.assign(L.size(), 0.0);
  std::copy(parameters.begin(), parameters.end(), input_.begin() + L.parameters());
  input_[L.stabilization()] = 0.0;  // the physical system: no Baumgarte term
  std::size_t scratch = 0;
  for (const CompiledFunction* f : {&dae.residual, &dae.jacobian_y.values, &dae.jacobian_yp.values,
                                    &dae.energy, &dae.constraints, &dae.constraint_matrix,
                                    &dae.mass_matrix, &dae.anchor, &dae.body_velocity,
                                    &dae.fibre_momentum})
    scratch = std::max(scratch, f->scratch_size());
  scratch_.assign(scratch, 0.0);
  residual_.assign(N_, 0.0);
}

// (t, q, y) with mu = 0, q' = rho(q) y, y' = 0.
void SaddleSystem::Load(double t, const double* x) {
  const InputLayout& L = dae_.layout;
  input_[L.t()] = t;
  std::copy(x, x + n_ + k_, input_.begin() + L.q());
  std::fill(input_.begin() + L.mu(), input_.begin() + L.mu() + m_, 0.0);
  std::fill(input_.begin() + L.vdot(), input_.begin() + L.vdot() + k_, 0.0);
  dae_.anchor.Evaluate(input_.data(), rho_.data(), scratch_.data());
  for (std::size_t i = 0; i < n_; ++i) {
    double qdot = 0.0;
    for (std::size_t a = 0; a < k_; ++a) qdot += rho_(i, a) * x[n_ + a];
    input_[L.qdot() + i] = qdot;
  }
}

bool SaddleSystem::Rates(double t, const double* x, double* rates, double* mu) {
  const InputLayout& L = dae_.layout;
  Load(t, x);
  dae_.residual.Evaluate(input_.data(), residual_.data(), scratch_.data());
  dae_.mass_matrix.Evaluate(input_.data(), W_.data(), scratch_.data());
  if (m_ > 0) dae_.constraint_matrix.Evaluate(input_.data(), A_.data(), scratch_.data());
  saddle_.topLeftCorner(k_, k_) = W_;
  if (m_ > 0) {
    saddle_.topRightCorner(k_, m_) = -A_.transpose();
    saddle_.bottomLeftCorner(m_, k_) = A_;
    saddle_.bottomRightCorner(m_, m_).setZero();
  }
  for (std::size_t i = 0; i < k_ + m_; ++i) rhs_[i] = -residual_[n_ + i];
  lu_.compute(saddle_);
  // PartialPivLU does not report singularity: check the pivots (relative to the matrix scale).
  const double scale = saddle_.cwiseAbs().maxCoeff();
  const auto& lu = lu_.matrixLU();
  for (Eigen::Index i = 0; i < lu.rows(); ++i)
    if (!(std::abs(lu(i, i)) > 1e-14 * scale)) return false;
  solution_.noalias() = lu_.solve(rhs_);
  for (std::size_t i = 0; i < n_; ++i) rates[i] = input_[L.qdot() + i];
  for (std::size_t a = 0; a < k_; ++a) rates[n_ + a] = solution_[a];
  if (mu)
    for (std::size_t r = 0; r < m_; ++r) mu[r] = solution_[k_ + r];
  for (std::size_t i = 0; i < n_ + k_; ++i)
    if (!std::isfinite(rates[i])) return false;
  return true;
}

void SaddleSystem::DenseJacobian(const CompiledSparseMatrix& sparse, Eigen::MatrixXd& dense) {
  sparse_values_.resize(sparse.rows.size());
  sparse.values.Evaluate(input_.data(), sparse_values_.data(), scratch_.data());
  dense.setZero();
  for (std::size_t e = 0; e < sparse.rows.size(); ++e)
    dense(static_cast<Eigen::Index>(sparse.rows[e]), static_cast<Eigen::Index>(sparse.cols[e])) +=
        sparse_values_[e];
}

// With G = (F_y, F_mu) and w = (a, mu): dw/dx = -K^-1 (dG/dx + dG/dq' dq'/dx), K = dG/dw the
// saddle matrix, and dq'/dx = -(dF_q/dq, dF_q/dy) because F_q = q' - rho(q) y.
void SaddleSystem::Jacobian(double t, const double* x, double* jac) {
  const InputLayout& L = dae_.layout;
  // The DAE Jacobians at the solved point: mu and y' as solved, q' = rho y.
  Load(t, x);
  for (std::size_t r = 0; r < m_; ++r) input_[L.mu() + r] = solution_[k_ + r];
  for (std::size_t a = 0; a < k_; ++a) input_[L.vdot() + a] = solution_[a];
  DenseJacobian(dae_.jacobian_y, jy_);
  DenseJacobian(dae_.jacobian_yp, jyp_);
  const auto nk = static_cast<Eigen::Index>(n_ + k_);
  const auto n = static_cast<Eigen::Index>(n_), k = static_cast<Eigen::Index>(k_),
             m = static_cast<Eigen::Index>(m_);
  const Eigen::MatrixXd dqdot = -jy_.topLeftCorner(n, nk);
  Eigen::MatrixXd gx = jy_.block(n, 0, k + m, nk);
  gx.noalias() += jyp_.block(n, 0, k + m, n) * dqdot;
  Eigen::MatrixXd K(k + m, k + m);
  K.leftCols(k) = jyp_.block(n, n, k + m, k);
  if (m > 0) K.rightCols(m) = jy_.block(n, n + k, k + m, m);
  const Eigen::MatrixXd dw = -K.partialPivLu().solve(gx);
  Eigen::Map<Eigen::MatrixXd> J(jac, nk, nk);
  J.topRows(n) = dqdot;
  J.bottomRows(k) = dw.topRows(k);
}

bool SaddleSystem::Projection(double t, const double* x, double* corr) {
  std::fill(corr, corr + n_ + k_, 0.0);
  if (m_ == 0) return true;
  Load(t, x);
  dae_.mass_matrix.Evaluate(input_.data(), W_.data(), scratch_.data());
  dae_.constraint_matrix.Evaluate(input_.data(), A_.data(), scratch_.data());
  const Eigen::Map<const Eigen::VectorXd> y(x + n_, static_cast<Eigen::Index>(k_));
  const Eigen::MatrixXd WinvAt = Eigen::MatrixXd(W_).partialPivLu().solve(
      Eigen::MatrixXd(A_.transpose()));
  Eigen::FullPivLU<Eigen::MatrixXd> gram(A_ * WinvAt);
  if (!gram.isInvertible()) return false;
  const Eigen::VectorXd dy = -WinvAt * gram.solve(A_ * y);
  for (std::size_t a = 0; a < k_; ++a) corr[n_ + a] = dy[static_cast<Eigen::Index>(a)];
  return true;
}

double SaddleSystem::ConstraintResidual(double t, const double* x) {
  if (m_ == 0) return 0.0;
  Load(t, x);
  std::vector<double> g(m_);
  dae_.constraints.Evaluate(input_.data(), g.data(), scratch_.data());
  double worst = 0.0;
  for (double v : g) worst = std::max(worst, std::abs(v));
  return worst;
}

}  // namespace dirac::lagrange_dirac
