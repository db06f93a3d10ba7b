// CollocationNlp's Hessian of the Lagrangian sigma f + lambda . g: its pattern (built once) and
// the point terms from the tapes' exact second derivatives (the group rows' part:
// collocation_group.cpp).
#include <algorithm>
#include <utility>
#include <vector>

#include "control/collocation_nlp.hpp"

namespace dirac::control {

using Function = CollocationDynamics::Function;

// Two passes over the same requests: the first collects the (row, column) pairs, sorted and
// made unique into the pattern; the second looks each up (a flat sorted array rather than a
// map).
void CollocationNlp::BuildHessianPattern() {
  std::vector<std::pair<int, int>> pairs;
  bool lookup = false;
  auto entry = [&](int a, int b) {
    if (a < b) std::swap(a, b);
    if (!lookup) {
      pairs.emplace_back(a, b);
      return -1;
    }
    return static_cast<int>(
        std::lower_bound(hessian_pattern_.begin(), hessian_pattern_.end(), std::pair{a, b}) -
        hessian_pattern_.begin());
  };
  const int s = d_ + m_;
  for (int pass = 0; pass < 2; ++pass) {
    lookup = pass == 1;
    if (lookup) {
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      hessian_pattern_ = std::move(pairs);
    }
    point_entry_.assign(P_ * s * s, -1);
    for (int p = 0; p < P_; ++p)
      for (int a = 0; a < s; ++a)
        for (int b = 0; b <= a; ++b)
          point_entry_[(p * s + a) * s + b] = point_entry_[(p * s + b) * s + a] =
              entry(PointIndex(p, a), PointIndex(p, b));
    if (free_time_) {
      time_entry_.assign(P_ * s + 1, -1);
      for (int p = 0; p < P_; ++p)
        for (int c = 0; c < s; ++c) time_entry_[p * s + c] = entry(PointIndex(p, c), 0);
      time_entry_.back() = entry(0, 0);
    }
    if (!has_group_) continue;
    // Per interval: every pair of its points' states the body velocity reads (Phi_k's
    // curvature), and the pairs of (eta_k, eta_{k+1}) (eta_0 is not an unknown).
    const int S = static_cast<int>(group_states_.size()), L = formula_.points, LS = L * S;
    interval_entry_.assign(N_ * LS * LS, -1);
    eta_entry_.assign(N_ * 36, -1);
    for (int k = 0; k < N_; ++k) {
      for (int a = 0; a < LS; ++a)
        for (int b = 0; b <= a; ++b)
          interval_entry_[(k * LS + a) * LS + b] = interval_entry_[(k * LS + b) * LS + a] =
              entry(PointIndex(LocalPoint(k, a / S), group_states_[a % S]),
                    PointIndex(LocalPoint(k, b / S), group_states_[b % S]));
      for (int a = k == 0 ? 3 : 0; a < 6; ++a)
        for (int b = k == 0 ? 3 : 0; b <= a; ++b)
          eta_entry_[k * 36 + a * 6 + b] = eta_entry_[k * 36 + b * 6 + a] =
              entry(EtaIndex(k + a / 3, a % 3), EtaIndex(k + b / 3, b % 3));
    }
  }
}

// Point p enters as T F_p(t_p, z_p) + P_p(t_p, z_p) with t_p = T s_p: F_p sums, over the
// intervals k the point is in (local point l, h_k = T delta_k), delta_k (sigma weight_l C -
// sum_r sum_i lambda_{k,r,i} beta[r][l] f_i); P_p = sum_j lambda_path g_j (+ sigma phi at the
// last point). Second derivatives in z from F's and P's; in (T, z): F_z + T s F_tz + s P_tz;
// in (T, T): 2 s F_t + T s^2 F_tt + s^2 P_tt.
void CollocationNlp::HessianValues(const double* w, double sigma, const double* lambda,
                                   double* values) const {
  std::fill(values, values + hessian_pattern_.size(), 0.0);
  const double T = FinalTime(w);
  const int s = d_ + m_, n = 1 + s, L = formula_.points;
  std::vector<double> F(n * n), Fg(n), P(n * n), H(n * n), g(n), weights(std::max(d_, 1));
  double TT = 0.0;
  for (int p = 0; p < P_; ++p) {
    const double s_p = point_fraction_[p], t = T * s_p;
    const double *x = w + PointIndex(p, 0), *u = w + PointIndex(p, d_);
    std::fill(F.begin(), F.end(), 0.0);
    std::fill(Fg.begin(), Fg.end(), 0.0);
    double c_weight = 0.0;
    std::fill(weights.begin(), weights.end(), 0.0);
    for (int l = 0; l < L; ++l) {
      const int k = (p - l) / (L - 1);
      if ((p - l) % (L - 1) != 0 || k < 0 || k >= N_) continue;
      const double delta = mesh_[k + 1] - mesh_[k];
      c_weight += sigma * delta * formula_.weight[l];
      for (int r = 0; r < formula_.rows; ++r)
        for (int i = 0; i < d_; ++i)
          weights[i] += delta * formula_.beta[r][l] * lambda[DefectRow(k, r, i)];
    }
    dynamics_.WeightedHessian(Function::kCost, t, x, u, &c_weight, F.data(), Fg.data());
    dynamics_.WeightedHessian(Function::kRates, t, x, u, weights.data(), H.data(), g.data());
    for (int e = 0; e < n * n; ++e) F[e] += H[e];
    for (int e = 0; e < n; ++e) Fg[e] += g[e];
    std::fill(P.begin(), P.end(), 0.0);
    if (p_ > 0)
      dynamics_.WeightedHessian(Function::kPath, t, x, u, lambda + PathRow(p, 0), P.data(),
                                nullptr);
    if (p == P_ - 1 && dynamics_.has_terminal_cost()) {
      dynamics_.WeightedHessian(Function::kTerminalCost, t, x, u, &sigma, H.data(), nullptr);
      for (int e = 0; e < n * n; ++e) P[e] += H[e];
    }
    for (int a = 0; a < s; ++a)
      for (int b = 0; b <= a; ++b)
        values[point_entry_[(p * s + a) * s + b]] +=
            T * F[(1 + a) * n + 1 + b] + P[(1 + a) * n + 1 + b];
    if (!free_time_) continue;
    for (int c = 0; c < s; ++c)
      values[time_entry_[p * s + c]] += Fg[1 + c] + T * s_p * F[1 + c] + s_p * P[1 + c];
    TT += 2 * s_p * Fg[0] + T * s_p * s_p * F[0] + s_p * s_p * P[0];
  }
  if (free_time_) values[time_entry_.back()] += TT;
  if (has_group_) GroupHessian(w, lambda, values);
}

}  // namespace dirac::control
