// The attitude rows of CollocationNlp: the increments Phi_k over the intervals, the attitudes
// R_{k+1} = R_k Exp(Phi_k), the rows Log(R_N^T R*) = 0, their exact Jacobian, and their part of
// the Hessian of the Lagrangian: the curvature in Phi by central differences of its exact
// gradient, the second derivatives of Phi and of the body velocity exactly.
#include "control/collocation_group.hpp"

#include <algorithm>
#include <vector>

#include "geometry/lie_group.hpp"

namespace dirac::control {
namespace {

using geometry::MatrixGroup;
using Function = CollocationDynamics::Function;

Eigen::Matrix3d Hat(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0;
  return m;
}

bool HasCommutator(const CollocationFormula& formula) { return formula.points == 3; }

// d (lambda . Log(R_N^T R*)) / d phi_k for R_N = R_0 E_0 ... E_{N-1}, E_k = Exp(phi_k), with
// J_r(phi_k) given: M_k^T lambda, M_k = -J_l(e)^-1 P_k^T J_r(phi_k), P_k = E_{k+1} ... E_{N-1}.
void AttitudeIncrementGradient(const Eigen::Matrix3d& R0, const Eigen::Matrix3d& target,
                               const std::vector<Eigen::Matrix3d>& E,
                               const std::vector<Eigen::Matrix3d>& Jr,
                               const Eigen::Vector3d& lambda, Eigen::VectorXd& gradient) {
  const int N = static_cast<int>(E.size());
  Eigen::Matrix3d RN = R0;
  for (const auto& Ek : E) RN = RN * Ek;
  const Eigen::Vector3d err = geometry::Log(MatrixGroup::kSO3, RN.transpose() * target);
  const Eigen::Vector3d Al =
      -geometry::LeftJacobian(MatrixGroup::kSO3, err).inverse().transpose() * lambda;
  gradient.resize(3 * N);
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity();
  for (int k = N - 1; k >= 0; --k) {
    gradient.segment<3>(3 * k) = Jr[k].transpose() * (P * Al);
    P = E[k] * P;
  }
}

}  // namespace

Eigen::Vector3d So3Increment(const CollocationFormula& formula, double h,
                             const Eigen::Vector3d* xi) {
  Eigen::Vector3d phi = Eigen::Vector3d::Zero();
  for (int l = 0; l < formula.points; ++l) phi += h * formula.weight[l] * xi[l];
  if (HasCommutator(formula)) phi += h * h / 12 * xi[0].cross(xi[2]);
  return phi;
}

void So3IncrementJacobian(const CollocationFormula& formula, double h, const Eigen::Vector3d* xi,
                          Eigen::Matrix3d* d_xi, Eigen::Vector3d& d_h) {
  d_h.setZero();
  for (int l = 0; l < formula.points; ++l) {
    d_xi[l] = h * formula.weight[l] * Eigen::Matrix3d::Identity();
    d_h += formula.weight[l] * xi[l];
  }
  if (!HasCommutator(formula)) return;
  d_xi[0] -= h * h / 12 * Hat(xi[2]);  // d (a x b) / da = -[b]x
  d_xi[2] += h * h / 12 * Hat(xi[0]);  // d (a x b) / db = [a]x
  d_h += h / 6 * xi[0].cross(xi[2]);
}

Eigen::MatrixXd So3IncrementCurvature(const CollocationFormula& formula, double h,
                                      const Eigen::Vector3d* xi, const Eigen::Vector3d& G) {
  const int L = formula.points, H = 3 * L;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(H + 1, H + 1);
  for (int l = 0; l < L; ++l) C.block<3, 1>(3 * l, H) = formula.weight[l] * G;
  if (HasCommutator(formula)) {
    // G . (a x b) = -a^T [G]x b; d/dh of G . h^2/12 (a x b): h/6 (b x G) in a, h/6 (G x a) in b.
    C.block<3, 3>(0, 6) = -h * h / 12 * Hat(G);
    C.block<3, 3>(6, 0) = h * h / 12 * Hat(G);
    C.block<3, 1>(0, H) += h / 6 * xi[2].cross(G);
    C.block<3, 1>(6, H) += h / 6 * G.cross(xi[0]);
    C(H, H) = G.dot(xi[0].cross(xi[2])) / 6;
  }
  C.block(H, 0, 1, H) = C.block(0, H, H, 1).transpose();
  return C;
}

void CollocationNlp::Increments(const double* w, std::vector<Eigen::Vector3d>& xi,
                                std::vector<Eigen::Vector3d>& phi) const {
  const double T = FinalTime(w);
  xi.resize(P_);
  phi.resize(N_);
  for (int p = 0; p < P_; ++p) dynamics_.BodyVelocity(w + PointIndex(p, 0), xi[p].data(), nullptr);
  for (int k = 0; k < N_; ++k)
    phi[k] = So3Increment(formula_, T * (mesh_[k + 1] - mesh_[k]), &xi[LocalPoint(k, 0)]);
}

std::vector<Eigen::Matrix3d> CollocationNlp::Attitudes(const double* w) const {
  std::vector<Eigen::Matrix3d> R{R0_};
  if (!dynamics_.has_body_velocity()) return std::vector<Eigen::Matrix3d>(N_ + 1, R0_);
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  for (int k = 0; k < N_; ++k) R.push_back(R.back() * geometry::Exp(MatrixGroup::kSO3, phi[k]));
  return R;
}

void CollocationNlp::GroupJacobian(const double* w, double* values) const {
  const double T = FinalTime(w);
  const int cols = 1 + d_ + m_, L = formula_.points;
  // de = -J_l(e)^-1 eta, eta = sum_k P_k^T J_r(phi_k) dphi_k, P_k = E_{k+1} ... E_{N-1},
  // dphi_k = sum_l dPhi/dxi_l Dxi dx_{p_l} + dPhi/dh delta_k dT.
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  Eigen::Matrix3d RN = R0_;
  std::vector<Eigen::Matrix3d> E(N_);
  for (int k = 0; k < N_; ++k) {
    E[k] = geometry::Exp(MatrixGroup::kSO3, phi[k]);
    RN = RN * E[k];
  }
  const Eigen::Vector3d err = geometry::Log(MatrixGroup::kSO3, RN.transpose() * target_);
  const Eigen::Matrix3d A = -geometry::LeftJacobian(MatrixGroup::kSO3, err).inverse();
  std::vector<Eigen::Matrix3d> per_point(P_, Eigen::Matrix3d::Zero());
  Eigen::Vector3d dT = Eigen::Vector3d::Zero();
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity(), d_xi[3];
  Eigen::Vector3d d_h;
  for (int k = N_ - 1; k >= 0; --k) {
    const Eigen::Matrix3d M =
        A * P.transpose() * geometry::RightJacobian(MatrixGroup::kSO3, phi[k]);
    P = E[k] * P;
    const double delta = mesh_[k + 1] - mesh_[k];
    So3IncrementJacobian(formula_, T * delta, &xi[LocalPoint(k, 0)], d_xi, d_h);
    dT += M * d_h * delta;
    for (int l = 0; l < L; ++l) per_point[LocalPoint(k, l)] += M * d_xi[l];
  }
  std::vector<Eigen::MatrixXd> node(P_);
  std::vector<double> jac(3 * cols), value(3);
  for (int p = 0; p < P_; ++p) {
    dynamics_.BodyVelocity(w + PointIndex(p, 0), value.data(), jac.data());
    Eigen::MatrixXd Dxi(3, d_);
    for (int r = 0; r < 3; ++r)
      for (int i = 0; i < d_; ++i) Dxi(r, i) = jac[r * cols + 1 + i];
    node[p] = per_point[p] * Dxi;
  }
  std::size_t e = 0;
  for (int r = 0; r < 3; ++r) {
    if (free_time_) values[e++] = dT[r];
    for (int p = 0; p < P_; ++p)
      for (int i = 0; i < d_; ++i) values[e++] = node[p](r, i);
  }
}

// lambda . e(Phi(xi(w), T)) in the variables v = (xi_0, ..., xi_{P-1}, T):
// M = JPhi^T H_Phi JPhi + sum_k d2 (G_k . Phi_k), with G = d/dPhi, H_Phi = d2/dPhi2 (central
// differences of G: G is exact, the differences are accurate to ~1e-9 relative); then in w:
// Dxi^T M Dxi + sum_p (JPhi^T G)_p . d2 xi(x_p) (the body velocity's tape).
void CollocationNlp::GroupHessian(const double* w, const double* lambda, double* values) const {
  const double T = FinalTime(w);
  const int s = d_ + m_, n = 1 + s, S = static_cast<int>(group_states_.size());
  const int L = formula_.points, V = 3 * P_ + 1, tv = 3 * P_;
  const Eigen::Vector3d lam(lambda[0], lambda[1], lambda[2]);
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  std::vector<Eigen::Matrix3d> E(N_), Jr(N_);
  for (int k = 0; k < N_; ++k) {
    E[k] = geometry::Exp(MatrixGroup::kSO3, phi[k]);
    Jr[k] = geometry::RightJacobian(MatrixGroup::kSO3, phi[k]);
  }
  Eigen::VectorXd G, plus, minus;
  AttitudeIncrementGradient(R0_, target_, E, Jr, lam, G);
  Eigen::MatrixXd H(3 * N_, 3 * N_);
  for (int l = 0; l < N_; ++l)
    for (int a = 0; a < 3; ++a) {
      const double step = 1e-5 * std::max(1.0, phi[l].norm());
      std::vector<Eigen::Matrix3d> E2 = E, J2 = Jr;
      for (const double sign : {1.0, -1.0}) {
        Eigen::Vector3d p = phi[l];
        p[a] += sign * step;
        E2[l] = geometry::Exp(MatrixGroup::kSO3, p);
        J2[l] = geometry::RightJacobian(MatrixGroup::kSO3, p);
        AttitudeIncrementGradient(R0_, target_, E2, J2, lam, sign > 0 ? plus : minus);
      }
      H.col(3 * l + a) = (plus - minus) / (2 * step);
    }
  H = (H + H.transpose()).eval() / 2;
  // JPhi: interval k's blocks d Phi_k / d xi at its points, and d Phi_k / dT = delta_k dPhi/dh.
  std::vector<Eigen::Matrix3d> A(N_ * L);
  std::vector<Eigen::Vector3d> At(N_);
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k];
    So3IncrementJacobian(formula_, T * delta, &xi[LocalPoint(k, 0)], &A[k * L], At[k]);
    At[k] *= delta;
  }
  Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(3 * N_, V), M = Eigen::MatrixXd::Zero(V, V);
  for (int k = 0; k < N_; ++k) {
    for (int l = 0; l < L; ++l)
      Y.middleCols<3>(3 * LocalPoint(k, l)).noalias() += H.middleCols<3>(3 * k) * A[k * L + l];
    Y.col(tv).noalias() += H.middleCols<3>(3 * k) * At[k];
  }
  Eigen::MatrixXd gxi = Eigen::MatrixXd::Zero(3, P_);
  for (int k = 0; k < N_; ++k) {
    const Eigen::Vector3d Gk = G.segment<3>(3 * k);
    for (int l = 0; l < L; ++l) {
      M.middleRows<3>(3 * LocalPoint(k, l)).noalias() +=
          A[k * L + l].transpose() * Y.middleRows<3>(3 * k);
      gxi.col(LocalPoint(k, l)) += A[k * L + l].transpose() * Gk;
    }
    M.row(tv).noalias() += At[k].transpose() * Y.middleRows<3>(3 * k);
    const double delta = mesh_[k + 1] - mesh_[k];
    const Eigen::MatrixXd C = So3IncrementCurvature(formula_, T * delta, &xi[LocalPoint(k, 0)], Gk);
    for (int a = 0; a < L; ++a) {
      for (int b = 0; b < L; ++b)
        M.block<3, 3>(3 * LocalPoint(k, a), 3 * LocalPoint(k, b)) += C.block<3, 3>(3 * a, 3 * b);
      M.block<3, 1>(3 * LocalPoint(k, a), tv) += delta * C.block<3, 1>(3 * a, 3 * L);
      M.block<1, 3>(tv, 3 * LocalPoint(k, a)) += delta * C.block<1, 3>(3 * L, 3 * a);
    }
    M(tv, tv) += delta * delta * C(3 * L, 3 * L);
  }
  // B_p = Dxi_p on the states the body velocity reads; the body velocity's own curvature.
  std::vector<Eigen::MatrixXd> B(P_);
  std::vector<double> value(3), jac(3 * n), Hxi(n * n);
  for (int p = 0; p < P_; ++p) {
    const double* x = w + PointIndex(p, 0);
    dynamics_.BodyVelocity(x, value.data(), jac.data());
    B[p].resize(3, S);
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < S; ++j) B[p](r, j) = jac[r * n + 1 + group_states_[j]];
    const double weights[3] = {gxi(0, p), gxi(1, p), gxi(2, p)};
    dynamics_.WeightedHessian(Function::kBodyVelocity, 0.0, x, w + PointIndex(p, d_), weights,
                              Hxi.data(), nullptr);
    for (int a = 0; a < d_; ++a)
      for (int b = 0; b <= a; ++b)
        values[point_entry_[(p * s + a) * s + b]] += Hxi[(1 + a) * n + 1 + b];
    if (free_time_) {
      const Eigen::RowVectorXd row = M.block<1, 3>(tv, 3 * p) * B[p];
      for (int j = 0; j < S; ++j) values[time_entry_[p * s + group_states_[j]]] += row[j];
    }
  }
  const int Gs = P_ * S;
  for (int p = 0; p < P_; ++p)
    for (int q = 0; q <= p; ++q) {
      const Eigen::MatrixXd block = B[p].transpose() * M.block<3, 3>(3 * p, 3 * q) * B[q];
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j) {
          const int p1 = p * S + i, p2 = q * S + j;
          if (p2 > p1) continue;
          values[group_entry_[p1 * Gs + p2]] += block(i, j);
        }
    }
  if (free_time_) values[time_entry_.back()] += M(tv, tv);
}

}  // namespace dirac::control
