// CollocationNlp's Hessian of the Lagrangian sigma f + lambda . g: its pattern (built once) and
// values. Node terms from the tapes' exact second derivatives; the group rows through the
// chain rule on Phi_k = h (xi_k + xi_{k+1}) / 2, with the second derivatives of lambda . r(G_N)
// (GroupRows) in the increments Phi by central differences of their exact gradient.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "control/collocation_nlp.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::control {
namespace {

using Function = CollocationDynamics::Function;

}  // namespace

void CollocationNlp::BuildHessianPattern() {
  std::map<std::pair<int, int>, int> index;
  auto entry = [&](int a, int b) {
    if (a < b) std::swap(a, b);
    const auto [it, added] = index.emplace(std::pair{a, b}, static_cast<int>(index.size()));
    if (added) hessian_pattern_.emplace_back(a, b);
    return it->second;
  };
  const int s = d_ + m_;
  node_entry_.assign((N_ + 1) * s * s, -1);
  for (int k = 0; k <= N_; ++k)
    for (int a = 0; a < s; ++a)
      for (int b = 0; b <= a; ++b)
        node_entry_[(k * s + a) * s + b] = node_entry_[(k * s + b) * s + a] =
            entry(StateIndex(k, a), StateIndex(k, b));
  if (free_time_) {
    time_entry_.assign((N_ + 1) * s + 1, -1);
    for (int k = 0; k <= N_; ++k)
      for (int c = 0; c < s; ++c) time_entry_[k * s + c] = entry(StateIndex(k, c), 0);
    time_entry_.back() = entry(0, 0);
  }
  if (!has_group_) return;
  for (int i = 0; i < d_; ++i)
    if (dynamics_.body_velocity_reads()[i]) group_states_.push_back(i);
  const int S = static_cast<int>(group_states_.size()), G = (N_ + 1) * S;
  group_entry_.assign(G * G, -1);
  for (int p = 0; p < G; ++p)
    for (int q = 0; q <= p; ++q)
      group_entry_[p * G + q] = group_entry_[q * G + p] =
          entry(StateIndex(p / S, group_states_[p % S]), StateIndex(q / S, group_states_[q % S]));
}

// Node k enters as h F_k(t_k, z_k) + P_k(t_k, z_k) with t_k = k T / N, h = T / N:
// F_k = sigma w_k C - 1/2 sum_i (lambda_{k-1,i} + lambda_{k,i}) f_i (the trapezoidal weights and
// both defects the node is in), P_k = sum_j lambda_path g_j (+ sigma phi at k = N). Second
// derivatives in z from F's and P's; in (T, z): F_z / N + h r F_tz + r P_tz; in (T, T):
// 2 r F_t / N + h r^2 F_tt + r^2 P_tt, r = k / N.
void CollocationNlp::HessianValues(const double* w, double sigma, const double* lambda,
                                   double* values) const {
  std::fill(values, values + hessian_pattern_.size(), 0.0);
  const double T = FinalTime(w), h = T / N_;
  const int s = d_ + m_, n = 1 + s;
  std::vector<double> F(n * n), Fg(n), P(n * n), H(n * n), g(n), weights(std::max(d_, 1));
  double TT = 0.0;
  for (int k = 0; k <= N_; ++k) {
    const double t = k * h, r = static_cast<double>(k) / N_;
    const double *x = w + StateIndex(k, 0), *u = w + ControlIndex(k, 0);
    const double c_weight = sigma * (k == 0 || k == N_ ? 0.5 : 1.0);
    dynamics_.WeightedHessian(Function::kCost, t, x, u, &c_weight, F.data(), Fg.data());
    for (int i = 0; i < d_; ++i)
      weights[i] =
          -0.5 * ((k > 0 ? lambda[(k - 1) * d_ + i] : 0.0) + (k < N_ ? lambda[k * d_ + i] : 0.0));
    dynamics_.WeightedHessian(Function::kRates, t, x, u, weights.data(), H.data(), g.data());
    for (int e = 0; e < n * n; ++e) F[e] += H[e];
    for (int e = 0; e < n; ++e) Fg[e] += g[e];
    std::fill(P.begin(), P.end(), 0.0);
    if (p_ > 0)
      dynamics_.WeightedHessian(Function::kPath, t, x, u, lambda + PathRow(k, 0), P.data(),
                                nullptr);
    if (k == N_ && dynamics_.has_terminal_cost()) {
      dynamics_.WeightedHessian(Function::kTerminalCost, t, x, u, &sigma, H.data(), nullptr);
      for (int e = 0; e < n * n; ++e) P[e] += H[e];
    }
    for (int a = 0; a < s; ++a)
      for (int b = 0; b <= a; ++b)
        values[node_entry_[(k * s + a) * s + b]] +=
            h * F[(1 + a) * n + 1 + b] + P[(1 + a) * n + 1 + b];
    if (!free_time_) continue;
    for (int c = 0; c < s; ++c)
      values[time_entry_[k * s + c]] += Fg[1 + c] / N_ + h * r * F[1 + c] + r * P[1 + c];
    TT += 2 * r / N_ * Fg[0] + h * r * r * F[0] + r * r * P[0];
  }
  if (free_time_) values[time_entry_.back()] += TT;
  if (has_group_) GroupHessian(w, lambda + N_ * d_, values);
}

// lambda . r(Phi(w)): J^T H_Phi J + sum_k G_k . d2 Phi_k, with G = d/dPhi, H_Phi = d2/dPhi2
// (central differences of G: G is exact, the differences are accurate to ~1e-9 relative),
// J = dPhi/dw (node k is in Phi_{k-1} and Phi_k with h/2 Dxi_k; T with xi-bar_k / N).
void CollocationNlp::GroupHessian(const double* w, const double* lambda, double* values) const {
  const double T = FinalTime(w), h = T / N_;
  const int s = d_ + m_, n = 1 + s, S = static_cast<int>(group_states_.size());
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
  // Node sums: C = L^T H L with L the node -> (Phi_{k-1}, Phi_k) incidence, v = L^T H tau.
  auto node_sum = [&](const Eigen::MatrixXd& M) {  // (3N x c) -> (3(N + 1) x c)
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(3 * (N_ + 1), M.cols());
    for (int k = 0; k <= N_; ++k) {
      if (k > 0) out.middleRows<3>(3 * k) += M.middleRows<3>(3 * (k - 1));
      if (k < N_) out.middleRows<3>(3 * k) += M.middleRows<3>(3 * k);
    }
    return out;
  };
  const Eigen::MatrixXd C = node_sum(node_sum(H).transpose()).transpose();
  Eigen::VectorXd tau(3 * N_);
  for (int k = 0; k < N_; ++k) tau.segment<3>(3 * k) = (xi[k] + xi[k + 1]) / (2.0 * N_);
  const Eigen::VectorXd Htau = H * tau, v = node_sum(Htau);
  const Eigen::VectorXd Gnode = node_sum(G);
  // B_k = h/2 Dxi_k on the states the body velocity reads.
  std::vector<Eigen::MatrixXd> B(N_ + 1);
  std::vector<double> value(3), jac(3 * n), Hxi(n * n);
  for (int k = 0; k <= N_; ++k) {
    const double* x = w + StateIndex(k, 0);
    dynamics_.BodyVelocity(x, value.data(), jac.data());
    B[k].resize(3, S);
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < S; ++j) B[k](r, j) = h / 2 * jac[r * n + 1 + group_states_[j]];
    // sum_k G_k . d2 Phi_k: h/2 (G_{k-1} + G_k) . d2 xi(x_k), and (T, x_k): (...) . Dxi_k / (2N).
    const Eigen::Vector3d gk = Gnode.segment<3>(3 * k);
    const double wts[3] = {h / 2 * gk[0], h / 2 * gk[1], h / 2 * gk[2]};
    dynamics_.WeightedHessian(Function::kBodyVelocity, 0.0, x, w + ControlIndex(k, 0), wts,
                              Hxi.data(), nullptr);
    for (int a = 0; a < d_; ++a)
      for (int b = 0; b <= a; ++b)
        values[node_entry_[(k * s + a) * s + b]] += Hxi[(1 + a) * n + 1 + b];
    if (free_time_)
      for (int i = 0; i < d_; ++i) {
        double dot = 0.0;
        for (int r = 0; r < 3; ++r) dot += gk[r] * jac[r * n + 1 + i];
        values[time_entry_[k * s + i]] +=
            dot / (2.0 * N_) + v.segment<3>(3 * k).dot(Eigen::Vector3d(jac[1 + i], jac[n + 1 + i],
                                                                       jac[2 * n + 1 + i])) *
                                   h / 2;
      }
  }
  const int Gs = (N_ + 1) * S;
  for (int k = 0; k <= N_; ++k)
    for (int q = 0; q <= k; ++q) {
      const Eigen::MatrixXd block = B[k].transpose() * C.block<3, 3>(3 * k, 3 * q) * B[q];
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j) {
          const int p1 = k * S + i, p2 = q * S + j;
          if (p2 > p1) continue;
          values[group_entry_[p1 * Gs + p2]] += block(i, j);
        }
    }
  if (free_time_) values[time_entry_.back()] += tau.dot(Htau);
}

}  // namespace dirac::control
