// The group rows of CollocationNlp: GroupRows (the fixed final components on SO(3) or SE(2) with
// their derivatives in the group's right-trivialised perturbation); the increments Phi_k over
// the intervals (collocation_increment.cpp), the group elements G_{k+1} = G_k Exp(Phi_k), the
// rows' exact Jacobian and their part of the Hessian of the Lagrangian: the curvature in Phi by
// central differences of its exact gradient, the second derivatives of Phi and of the body
// velocity exactly.
#include "control/collocation_group.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "control/collocation_increment.hpp"
#include "control/collocation_nlp.hpp"

namespace dirac::control {

using geometry::MatrixGroup;
using Function = CollocationDynamics::Function;

namespace {

double Wrap(double a) {
  a = std::remainder(a, 2 * M_PI);
  return a <= -M_PI ? a + 2 * M_PI : a;
}

}  // namespace

Eigen::Matrix3d SE2Matrix(double x, double y, double theta) {
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  g.topLeftCorner<2, 2>() << std::cos(theta), -std::sin(theta), std::sin(theta), std::cos(theta);
  g(0, 2) = x;
  g(1, 2) = y;
  return g;
}

GroupRows::GroupRows(MatrixGroup group, const Eigen::Matrix3d& target, bool fix_translation,
                     bool fix_angle)
    : group_(group), target_(target), translation_(fix_translation), angle_(fix_angle) {
  if (group == MatrixGroup::kSO3)
    rows_ = fix_translation || fix_angle ? 3 : 0;
  else
    rows_ = (fix_translation ? 2 : 0) + (fix_angle ? 1 : 0);
}

Eigen::Matrix3d GroupRows::InverseAdjoint(const Eigen::Matrix3d& P) const {
  if (group_ == MatrixGroup::kSO3) return P.transpose();
  const Eigen::Matrix3d Pinv = P.inverse();
  Eigen::Matrix3d A;
  for (int i = 0; i < 3; ++i)
    A.col(i) = geometry::Vee(group_, Pinv * geometry::Hat(group_, Eigen::Vector3d::Unit(i)) * P);
  return A;
}

void GroupRows::Residual(const Eigen::Matrix3d& GN, double* rows) const {
  if (group_ == MatrixGroup::kSO3) {
    if (rows_ == 0) return;
    const Eigen::Vector3d e = geometry::Log(group_, GN.transpose() * target_);
    for (int r = 0; r < 3; ++r) rows[r] = e[r];
    return;
  }
  int r = 0;
  if (translation_) {
    rows[r++] = GN(0, 2) - target_(0, 2);
    rows[r++] = GN(1, 2) - target_(1, 2);
  }
  if (angle_)
    rows[r] = Wrap(std::atan2(GN(1, 0), GN(0, 0)) - std::atan2(target_(1, 0), target_(0, 0)));
}

Eigen::Matrix3d GroupRows::EtaJacobian(const Eigen::Matrix3d& GN) const {
  Eigen::Matrix3d D = Eigen::Matrix3d::Zero();
  if (group_ == MatrixGroup::kSO3) {
    if (rows_ == 0) return D;
    const Eigen::Vector3d e = geometry::Log(group_, GN.transpose() * target_);
    return -geometry::LeftJacobian(group_, e).inverse();
  }
  // Position: p + R V(omega) (u, v) = p + R (u, v) + O(eta^2); angle: theta + omega.
  int r = 0;
  if (translation_) {
    D.block<2, 2>(0, 0) = GN.topLeftCorner<2, 2>();
    r = 2;
  }
  if (angle_) D(r, 2) = 1.0;
  return D;
}

void GroupRows::IncrementGradient(const Eigen::Matrix3d& G0, const std::vector<Eigen::Matrix3d>& E,
                                  const std::vector<Eigen::Matrix3d>& Jr, const double* lambda,
                                  Eigen::VectorXd& gradient) const {
  const int N = static_cast<int>(E.size());
  Eigen::Matrix3d GN = G0;
  for (const auto& Ek : E) GN = GN * Ek;
  Eigen::Vector3d l = Eigen::Vector3d::Zero();
  for (int r = 0; r < rows_; ++r) l[r] = lambda[r];
  const Eigen::Vector3d Dl = EtaJacobian(GN).transpose() * l;
  gradient.resize(3 * N);
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity();
  for (int k = N - 1; k >= 0; --k) {
    gradient.segment<3>(3 * k) = Jr[k].transpose() * (InverseAdjoint(P).transpose() * Dl);
    P = E[k] * P;
  }
}

void CollocationNlp::Increments(const double* w, std::vector<Eigen::Vector3d>& xi,
                                std::vector<Eigen::Vector3d>& phi) const {
  const double T = FinalTime(w);
  xi.resize(P_);
  phi.resize(N_);
  for (int p = 0; p < P_; ++p) dynamics_.BodyVelocity(w + PointIndex(p, 0), xi[p].data(), nullptr);
  for (int k = 0; k < N_; ++k)
    phi[k] = GroupIncrement(group_rows_.group(), formula_, T * (mesh_[k + 1] - mesh_[k]),
                            &xi[LocalPoint(k, 0)]);
}

std::vector<Eigen::Matrix3d> CollocationNlp::Attitudes(const double* w) const {
  std::vector<Eigen::Matrix3d> R{R0_};
  if (!dynamics_.has_body_velocity()) return std::vector<Eigen::Matrix3d>(N_ + 1, R0_);
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  for (int k = 0; k < N_; ++k) R.push_back(R.back() * group_rows_.Exp(phi[k]));
  return R;
}

void CollocationNlp::GroupJacobian(const double* w, double* values) const {
  const double T = FinalTime(w);
  const int cols = 1 + d_ + m_, L = formula_.points;
  // dr = D eta, eta = sum_k Ad_{P_k^-1} J_r(phi_k) dphi_k, P_k = E_{k+1} ... E_{N-1},
  // dphi_k = sum_l dPhi/dxi_l Dxi dx_{p_l} + dPhi/dh delta_k dT.
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  Eigen::Matrix3d RN = R0_;
  std::vector<Eigen::Matrix3d> E(N_);
  for (int k = 0; k < N_; ++k) {
    E[k] = group_rows_.Exp(phi[k]);
    RN = RN * E[k];
  }
  const Eigen::Matrix3d A = group_rows_.EtaJacobian(RN);  // D: its first `rows` rows
  std::vector<Eigen::Matrix3d> per_point(P_, Eigen::Matrix3d::Zero());
  Eigen::Vector3d dT = Eigen::Vector3d::Zero();
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity(), d_xi[3];
  Eigen::Vector3d d_h;
  for (int k = N_ - 1; k >= 0; --k) {
    const Eigen::Matrix3d M = A * group_rows_.InverseAdjoint(P) * group_rows_.RightJacobian(phi[k]);
    P = E[k] * P;
    const double delta = mesh_[k + 1] - mesh_[k];
    GroupIncrementJacobian(group_rows_.group(), formula_, T * delta, &xi[LocalPoint(k, 0)], d_xi,
                           d_h);
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
  for (int r = 0; r < group_rows_.size(); ++r) {
    if (free_time_) values[e++] = dT[r];
    for (int p = 0; p < P_; ++p)
      for (int i = 0; i < d_; ++i) values[e++] = node[p](r, i);
  }
}

// lambda . r(Phi(xi(w), T)) in the variables v = (xi_0, ..., xi_{P-1}, T):
// M = JPhi^T H_Phi JPhi + sum_k d2 (G_k . Phi_k), with G = d/dPhi, H_Phi = d2/dPhi2 (central
// differences of G: G is exact, the differences are accurate to ~1e-9 relative); then in w:
// Dxi^T M Dxi + sum_p (JPhi^T G)_p . d2 xi(x_p) (the body velocity's tape).
void CollocationNlp::GroupHessian(const double* w, const double* lambda, double* values) const {
  const double T = FinalTime(w);
  const int s = d_ + m_, n = 1 + s, S = static_cast<int>(group_states_.size());
  const int L = formula_.points, V = 3 * P_ + 1, tv = 3 * P_;
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  std::vector<Eigen::Matrix3d> E(N_), Jr(N_);
  for (int k = 0; k < N_; ++k) {
    E[k] = group_rows_.Exp(phi[k]);
    Jr[k] = group_rows_.RightJacobian(phi[k]);
  }
  Eigen::VectorXd G, plus, minus;
  group_rows_.IncrementGradient(R0_, E, Jr, lambda, G);
  Eigen::MatrixXd H(3 * N_, 3 * N_);
  for (int l = 0; l < N_; ++l)
    for (int a = 0; a < 3; ++a) {
      const double step = 1e-5 * std::max(1.0, phi[l].norm());
      std::vector<Eigen::Matrix3d> E2 = E, J2 = Jr;
      for (const double sign : {1.0, -1.0}) {
        Eigen::Vector3d p = phi[l];
        p[a] += sign * step;
        E2[l] = group_rows_.Exp(p);
        J2[l] = group_rows_.RightJacobian(p);
        group_rows_.IncrementGradient(R0_, E2, J2, lambda, sign > 0 ? plus : minus);
      }
      H.col(3 * l + a) = (plus - minus) / (2 * step);
    }
  H = (H + H.transpose()).eval() / 2;
  // JPhi: interval k's blocks d Phi_k / d xi at its points, and d Phi_k / dT = delta_k dPhi/dh.
  std::vector<Eigen::Matrix3d> A(N_ * L);
  std::vector<Eigen::Vector3d> At(N_);
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k];
    GroupIncrementJacobian(group_rows_.group(), formula_, T * delta, &xi[LocalPoint(k, 0)],
                           &A[k * L], At[k]);
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
    const Eigen::MatrixXd C = GroupIncrementCurvature(group_rows_.group(), formula_, T * delta,
                                                      &xi[LocalPoint(k, 0)], Gk);
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
