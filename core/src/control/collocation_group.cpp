// The group rows of CollocationNlp: GroupRows (the fixed final components on SO(3) or SE(2));
// the chart G_k = Gref_k Exp(eta_k) at the nodes and its reference elements; the increments
// Phi_k over the intervals (collocation_increment.cpp); the group defects
// Log(G_k^-1 G_{k+1}) - Phi_k and the final rows, their exact Jacobian and their part of the
// Hessian of the Lagrangian (the chart maps by second-order forward mode, collocation_chart.cpp;
// Phi's second derivatives in closed form; the body velocity's from its tape), block-sparse.
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

Eigen::Matrix3d Inverse(MatrixGroup group, const Eigen::Matrix3d& g) {
  return group == MatrixGroup::kSO3 ? Eigen::Matrix3d(g.transpose()) : Eigen::Matrix3d(g.inverse());
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
  if (has_group_) {
    for (int k = 1; k <= N_; ++k)
      R.push_back(reference_[k] * group_rows_.Exp(Eigen::Vector3d(w + EtaIndex(k, 0))));
    return R;
  }
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  for (int k = 0; k < N_; ++k) R.push_back(R.back() * group_rows_.Exp(phi[k]));
  return R;
}

// The starting point's elements G~_k = G_0 Exp(Phi_0) ... Exp(Phi_{k-1}), bent toward the fixed
// final components linearly in the mesh fraction: on SO(3) G~_k Exp(s_k Log(G~_N^-1 R*)), on
// SE(2) the fixed coordinates (x, y; theta) moved by s_k times their miss at the end.
void CollocationNlp::DefaultReference() {
  std::vector<double> w(num_variables_);
  StartingPoint(w.data());
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w.data(), xi, phi);
  const MatrixGroup group = group_rows_.group();
  std::vector<Eigen::Matrix3d> G{R0_};
  for (int k = 0; k < N_; ++k) G.push_back(G.back() * group_rows_.Exp(phi[k]));
  const Eigen::Matrix3d& target = group_rows_.target();
  if (group == MatrixGroup::kSO3) {
    const Eigen::Vector3d miss = geometry::Log(group, G.back().transpose() * target);
    for (int k = 0; k <= N_; ++k) G[k] = G[k] * geometry::Exp(group, mesh_[k] * miss);
  } else {
    const Eigen::Matrix3d& end = G.back();
    Eigen::Vector3d miss = Eigen::Vector3d::Zero();
    if (group_rows_.fixes_translation())
      miss.head<2>() = target.topRightCorner<2, 1>() - end.topRightCorner<2, 1>();
    if (group_rows_.fixes_angle())
      miss[2] = geometry::WrapAngle(std::atan2(target(1, 0), target(0, 0)) -
                                    std::atan2(end(1, 0), end(0, 0)));
    for (int k = 0; k <= N_; ++k)
      G[k] = SE2Matrix(G[k](0, 2) + mesh_[k] * miss[0], G[k](1, 2) + mesh_[k] * miss[1],
                       std::atan2(G[k](1, 0), G[k](0, 0)) + mesh_[k] * miss[2]);
  }
  SetReference(G);
}

void CollocationNlp::SetReference(const std::vector<Eigen::Matrix3d>& reference) {
  if (!has_group_ || static_cast<int>(reference.size()) != N_ + 1) return;
  const MatrixGroup group = group_rows_.group();
  reference_.resize(N_ + 1);
  reference_[0] = R0_;
  for (int k = 1; k <= N_; ++k) reference_[k] = geometry::ProjectToGroup(group, reference[k]);
  relative_.clear();
  for (int k = 0; k < N_; ++k)
    relative_.emplace_back(group, Inverse(group, reference_[k]) * reference_[k + 1]);
  final_rows_.assign(1, group_rows_.InChart(reference_[N_]));
}

void CollocationNlp::ClearChart(double* w) const {
  if (has_group_) std::fill(w + eta_offset_, w + eta_offset_ + 3 * N_, 0.0);
}

// The chart coordinates of node k (0 at the fixed G_0).
static Eigen::Vector3d Eta(const CollocationNlp& nlp, const double* w, int k) {
  return k == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(w + nlp.EtaIndex(k, 0));
}

void CollocationNlp::GroupConstraints(const double* w, double* g) const {
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  for (int k = 0; k < N_; ++k) {
    const Eigen::Vector3d defect =
        relative_[k].Value(Eta(*this, w, k), Eta(*this, w, k + 1)) - phi[k];
    for (int a = 0; a < 3; ++a) g[GroupDefectRow(k, a)] = defect[a];
  }
  const Eigen::Vector3d r = final_rows_[0].Value(Eta(*this, w, N_));
  for (int a = 0; a < group_rows_.size(); ++a) g[FinalGroupRow() + a] = r[a];
}

// Row (k, a): [T], the body velocity's states at the interval's points, eta_k (k >= 1),
// eta_{k+1}; then the final rows on eta_N (BuildPattern's order). Returns the entries written.
std::size_t CollocationNlp::GroupJacobian(const double* w, double* values) const {
  const double T = FinalTime(w);
  const int cols = 1 + d_ + m_, L = formula_.points, S = static_cast<int>(group_states_.size());
  std::vector<Eigen::Vector3d> xi(P_);
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> B(P_);
  std::vector<double> jac(3 * cols);
  for (int p = 0; p < P_; ++p) {
    dynamics_.BodyVelocity(w + PointIndex(p, 0), xi[p].data(), jac.data());
    B[p].resize(3, S);
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < S; ++j) B[p](r, j) = jac[r * cols + 1 + group_states_[j]];
  }
  std::size_t e = 0;
  Eigen::Matrix3d d_xi[3];
  Eigen::Vector3d d_h;
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k];
    GroupIncrementJacobian(group_rows_.group(), formula_, T * delta, &xi[LocalPoint(k, 0)], d_xi,
                           d_h);
    const ChartDerivatives<6> F =
        relative_[k].Derivatives(Eta(*this, w, k), Eta(*this, w, k + 1), nullptr);
    Eigen::Matrix<double, 3, Eigen::Dynamic> per_point[3];
    for (int l = 0; l < L; ++l) per_point[l] = -d_xi[l] * B[LocalPoint(k, l)];
    for (int a = 0; a < 3; ++a) {
      if (free_time_) values[e++] = -d_h[a] * delta;
      for (int l = 0; l < L; ++l)
        for (int j = 0; j < S; ++j) values[e++] = per_point[l](a, j);
      for (int c = k == 0 ? 3 : 0; c < 6; ++c) values[e++] = F.jacobian(a, c);
    }
  }
  const ChartDerivatives<3> r = final_rows_[0].Derivatives(Eta(*this, w, N_), nullptr);
  for (int a = 0; a < group_rows_.size(); ++a)
    for (int c = 0; c < 3; ++c) values[e++] = r.jacobian(a, c);
  return e;
}

// lambda_k . (F_k(eta_k, eta_{k+1}) - Phi_k(xi(x_p) at the interval's points, h_k)) per
// interval, plus the final rows' lambda . r(eta_N): the chart part from F's and r's weighted
// Hessians; -lambda_k . Phi_k through Phi's curvature C (GroupIncrementCurvature, with
// G = -lambda_k) in (xi_l, h): B_a^T C_ab B_b on the states, delta_k C_{a,h} B_a with T,
// delta_k^2 C_hh; and the body velocity's own curvature weighted by (dPhi/dxi_l)^T G.
void CollocationNlp::GroupHessian(const double* w, const double* lambda, double* values) const {
  const double T = FinalTime(w);
  const int s = d_ + m_, n = 1 + s, S = static_cast<int>(group_states_.size());
  const int L = formula_.points, LS = L * S, H = 3 * L;
  std::vector<Eigen::Vector3d> xi(P_), gxi(P_, Eigen::Vector3d::Zero());
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> B(P_);
  std::vector<double> jac(3 * n), Hxi(n * n);
  for (int p = 0; p < P_; ++p) {
    dynamics_.BodyVelocity(w + PointIndex(p, 0), xi[p].data(), jac.data());
    B[p].resize(3, S);
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < S; ++j) B[p](r, j) = jac[r * n + 1 + group_states_[j]];
  }
  Eigen::Matrix3d d_xi[3];
  Eigen::Vector3d d_h;
  double TT = 0.0;
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k], h = T * delta;
    const Eigen::Vector3d lk(lambda + GroupDefectRow(k, 0));
    const ChartDerivatives<6> F =
        relative_[k].Derivatives(Eta(*this, w, k), Eta(*this, w, k + 1), lk.data());
    for (int a = k == 0 ? 3 : 0; a < 6; ++a)
      for (int b = k == 0 ? 3 : 0; b <= a; ++b)
        values[eta_entry_[k * 36 + a * 6 + b]] += F.hessian(a, b);
    const Eigen::Vector3d G = -lk;
    const Eigen::MatrixXd C =
        GroupIncrementCurvature(group_rows_.group(), formula_, h, &xi[LocalPoint(k, 0)], G);
    GroupIncrementJacobian(group_rows_.group(), formula_, h, &xi[LocalPoint(k, 0)], d_xi, d_h);
    for (int a = 0; a < L; ++a) {
      const int pa = LocalPoint(k, a);
      gxi[pa] += d_xi[a].transpose() * G;
      for (int b = 0; b <= a; ++b) {
        const Eigen::MatrixXd block =
            B[pa].transpose() * C.block<3, 3>(3 * a, 3 * b) * B[LocalPoint(k, b)];
        for (int i = 0; i < S; ++i)
          for (int j = 0; j < S; ++j) {
            if (a == b && j > i) continue;
            values[interval_entry_[(k * LS + a * S + i) * LS + b * S + j]] += block(i, j);
          }
      }
      if (free_time_) {
        const Eigen::RowVectorXd row = delta * C.block<1, 3>(H, 3 * a) * B[pa];
        for (int j = 0; j < S; ++j) values[time_entry_[pa * s + group_states_[j]]] += row[j];
      }
    }
    TT += delta * delta * C(H, H);
  }
  for (int p = 0; p < P_; ++p) {
    dynamics_.WeightedHessian(Function::kBodyVelocity, 0.0, w + PointIndex(p, 0),
                              w + PointIndex(p, d_), gxi[p].data(), Hxi.data(), nullptr);
    for (int a = 0; a < d_; ++a)
      for (int b = 0; b <= a; ++b)
        values[point_entry_[(p * s + a) * s + b]] += Hxi[(1 + a) * n + 1 + b];
  }
  if (free_time_) values[time_entry_.back()] += TT;
  const ChartDerivatives<3> r =
      final_rows_[0].Derivatives(Eta(*this, w, N_), lambda + FinalGroupRow());
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b <= a; ++b)
      values[eta_entry_[(N_ - 1) * 36 + (3 + a) * 6 + 3 + b]] += r.hessian(a, b);
}

}  // namespace dirac::control
