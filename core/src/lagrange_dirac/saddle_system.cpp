#include "lagrange_dirac/saddle_system.hpp"

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>

#include "dynamics/sparse_jacobian.hpp"

namespace dirac::lagrange_dirac {

SaddleSystem::SaddleSystem(const CompiledDae& dae, const std::vector<double>& parameters)
    : dae_(dae),
      n_(dae.layout.n),
      k_(dae.layout.k),
      m_(dae.layout.m),
      N_(dae.layout.dae_size()),
      jy_(N_, N_),
      jyp_(N_, N_) {
  const InputLayout& L = dae.layout;
  input_.assign(L.size(), 0.0);
  std::copy(parameters.begin(), parameters.end(), input_.begin() + L.parameters());
  input_[L.stabilization()] = 0.0;  // the physical system: no Baumgarte term
  std::size_t scratch = 0;
  for (const CompiledFunction* f :
       {&dae.residual, &dae.energy, &dae.constraints, &dae.constraint_matrix, &dae.mass_matrix,
        &dae.anchor, &dae.body_velocity, &dae.fibre_momentum})
    scratch = std::max(scratch, f->scratch_size());
  scratch = std::max({scratch, dae.jacobian_y.work_size(), dae.jacobian_yp.work_size()});
  scratch_.assign(scratch, 0.0);
  residual_.assign(N_, 0.0);
  constraint_values_.assign(m_, 0.0);
  W_.assign(k_ * k_, 0.0);
  A_.assign(m_ * k_, 0.0);
  rho_.assign(n_ * k_, 0.0);
  saddle_.assign((k_ + m_) * (k_ + m_), 0.0);
  solution_.assign(k_ + m_, 0.0);
  pivot_.assign(k_ + m_, 0);
}

// (t, q, y) with mu = 0, q' = rho(q) y, y' = 0.
void SaddleSystem::Load(double t, const double* x) {
  const InputLayout& L = dae_.layout;
  double* in = input_.data();
  in[L.t()] = t;
  std::copy(x, x + n_ + k_, in + L.q());
  std::fill(in + L.mu(), in + L.mu() + m_, 0.0);
  std::fill(in + L.vdot(), in + L.vdot() + k_, 0.0);
  dae_.anchor.Evaluate(in, rho_.data(), scratch_.data());
  for (std::size_t i = 0; i < n_; ++i) {
    double qdot = 0.0;
    const double* row = rho_.data() + i * k_;
    for (std::size_t a = 0; a < k_; ++a) qdot += row[a] * x[n_ + a];
    in[L.qdot() + i] = qdot;
  }
}

void SaddleSystem::EvaluateMatrices() {
  dae_.mass_matrix.Evaluate(input_.data(), W_.data(), scratch_.data());
  if (m_ > 0) dae_.constraint_matrix.Evaluate(input_.data(), A_.data(), scratch_.data());
}

bool SaddleSystem::Rates(double t, const double* x, double* rates, double* mu) {
  const InputLayout& L = dae_.layout;
  Load(t, x);
  dae_.residual.Evaluate(input_.data(), residual_.data(), scratch_.data());
  EvaluateMatrices();
  // K = [W -A^T; A 0] (row-major), b = -(F_y, F_mu).
  const std::size_t s = k_ + m_;
  double* K = saddle_.data();
  double* b = solution_.data();
  double scale = 0.0;
  for (std::size_t i = 0; i < k_; ++i) {
    for (std::size_t j = 0; j < k_; ++j) K[i * s + j] = W_[i * k_ + j];
    for (std::size_t r = 0; r < m_; ++r) K[i * s + k_ + r] = -A_[r * k_ + i];
  }
  for (std::size_t r = 0; r < m_; ++r) {
    for (std::size_t j = 0; j < k_; ++j) K[(k_ + r) * s + j] = A_[r * k_ + j];
    for (std::size_t c = 0; c < m_; ++c) K[(k_ + r) * s + k_ + c] = 0.0;
  }
  for (std::size_t e = 0; e < s * s; ++e) scale = std::max(scale, std::abs(K[e]));
  for (std::size_t i = 0; i < s; ++i) b[i] = -residual_[n_ + i];
  // Gaussian elimination with partial pivoting, in place; a pivot below 1e-14 of the largest
  // entry means the saddle matrix is singular (index > 1 or a degenerate Lagrangian).
  for (std::size_t c = 0; c < s; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < s; ++r)
      if (std::abs(K[r * s + c]) > std::abs(K[p * s + c])) p = r;
    if (!(std::abs(K[p * s + c]) > 1e-14 * scale)) return false;
    if (p != c) {
      for (std::size_t j = c; j < s; ++j) std::swap(K[c * s + j], K[p * s + j]);
      std::swap(b[c], b[p]);
    }
    const double inv = 1.0 / K[c * s + c];
    for (std::size_t r = c + 1; r < s; ++r) {
      const double f = K[r * s + c] * inv;
      if (f == 0.0) continue;
      for (std::size_t j = c + 1; j < s; ++j) K[r * s + j] -= f * K[c * s + j];
      b[r] -= f * b[c];
    }
  }
  for (std::size_t c = s; c-- > 0;) {
    double v = b[c];
    for (std::size_t j = c + 1; j < s; ++j) v -= K[c * s + j] * b[j];
    b[c] = v / K[c * s + c];
  }
  for (std::size_t i = 0; i < n_; ++i) rates[i] = input_[L.qdot() + i];
  for (std::size_t a = 0; a < k_; ++a) rates[n_ + a] = b[a];
  if (mu)
    for (std::size_t r = 0; r < m_; ++r) mu[r] = b[k_ + r];
  for (std::size_t i = 0; i < n_ + k_; ++i)
    if (!std::isfinite(rates[i])) return false;
  return true;
}

void SaddleSystem::DenseJacobian(const CompiledSparseMatrix& sparse, Eigen::MatrixXd& dense) {
  sparse_values_.resize(sparse.rows.size());
  sparse.Evaluate(input_.data(), sparse_values_.data(), scratch_.data());
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
  const Eigen::MatrixXd dw = -SolveSaddle(K, gx);
  Eigen::Map<Eigen::MatrixXd> J(jac, nk, nk);
  J.topRows(n) = dqdot;
  J.bottomRows(k) = dw.topRows(k);
}

// K^-1 B: sparse LU (Eigen's, COLAMD ordering) when K is large and sparse under the same rule
// as the integrator's Newton matrix (dynamics/sparse_jacobian.hpp), else dense partial pivoting.
Eigen::MatrixXd SaddleSystem::SolveSaddle(const Eigen::MatrixXd& K, const Eigen::MatrixXd& B) {
  const auto s = static_cast<std::size_t>(K.rows());
  if (dynamics::MayUseSparse(linear_solver_, s)) {
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index j = 0; j < K.cols(); ++j)
      for (Eigen::Index i = 0; i < K.rows(); ++i)
        if (K(i, j) != 0.0 || i == j) entries.emplace_back(i, j, K(i, j));
    const double density = static_cast<double>(entries.size()) / static_cast<double>(s * s);
    if (linear_solver_ == LinearSolverMode::kSparse || density <= dynamics::kSparseMaxDensity) {
      Eigen::SparseMatrix<double> sparse(K.rows(), K.cols());
      sparse.setFromTriplets(entries.begin(), entries.end());
      Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(sparse);
      if (lu.info() == Eigen::Success) return lu.solve(B);
    }
  }
  return K.partialPivLu().solve(B);
}

bool SaddleSystem::Projection(double t, const double* x, double* corr) {
  std::fill(corr, corr + n_ + k_, 0.0);
  if (m_ == 0) return true;
  Load(t, x);
  EvaluateMatrices();
  const auto k = static_cast<Eigen::Index>(k_), m = static_cast<Eigen::Index>(m_);
  const Eigen::MatrixXd W = Eigen::Map<const RowMajor>(W_.data(), k, k);
  const Eigen::MatrixXd A = Eigen::Map<const RowMajor>(A_.data(), m, k);
  const Eigen::Map<const Eigen::VectorXd> y(x + n_, k);
  const Eigen::MatrixXd WinvAt = W.partialPivLu().solve(Eigen::MatrixXd(A.transpose()));
  Eigen::FullPivLU<Eigen::MatrixXd> gram(A * WinvAt);
  if (!gram.isInvertible()) return false;
  const Eigen::VectorXd dy = -WinvAt * gram.solve(A * y);
  for (std::size_t a = 0; a < k_; ++a) corr[n_ + a] = dy[static_cast<Eigen::Index>(a)];
  return true;
}

double SaddleSystem::ConstraintResidual(double t, const double* x) {
  if (m_ == 0) return 0.0;
  Load(t, x);
  dae_.constraints.Evaluate(input_.data(), constraint_values_.data(), scratch_.data());
  double worst = 0.0;
  for (double v : constraint_values_) worst = std::max(worst, std::abs(v));
  return worst;
}

}  // namespace dirac::lagrange_dirac
