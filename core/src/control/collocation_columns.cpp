// The costates, fibre accelerations and Pontryagin Hamiltonian of a collocation optimum at the
// mesh nodes (see the header).
#include "control/collocation_columns.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>

namespace dirac::control {

std::vector<std::vector<double>> InterpolateInTime(const std::vector<double>& at,
                                                   const std::vector<std::vector<double>>& values,
                                                   const std::vector<double>& to) {
  std::vector<std::vector<double>> out;
  out.reserve(to.size());
  if (at.empty()) return out;
  for (const double t : to) {
    if (at.size() == 1) {
      out.push_back(values[0]);
      continue;
    }
    // The bracketing pair [i, i + 1] (the first or last pair outside: extrapolation).
    const auto upper = std::upper_bound(at.begin(), at.end(), t);
    const std::size_t i =
        std::clamp<std::size_t>(static_cast<std::size_t>(upper - at.begin()), 1, at.size() - 1) - 1;
    const double s = (t - at[i]) / (at[i + 1] - at[i]);
    std::vector<double> v(values[i].size());
    for (std::size_t c = 0; c < v.size(); ++c)
      v[c] = (1.0 - s) * values[i][c] + s * values[i + 1][c];
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<std::vector<double>> MidpointCostates(const CollocationNlp& nlp, int states,
                                                  const NlpPoint& optimum,
                                                  std::vector<double>& times) {
  const int N = nlp.intervals(), d = states;
  const double T = nlp.FinalTime(optimum.x.data());
  times.resize(N);
  std::vector<std::vector<double>> lambda(N, std::vector<double>(d));
  for (int k = 0; k < N; ++k) {
    times[k] = T * 0.5 * (nlp.mesh()[k] + nlp.mesh()[k + 1]);
    for (int i = 0; i < d; ++i) lambda[k][i] = optimum.lambda[nlp.DefectRow(k, 0, i)];
  }
  return lambda;
}

std::vector<std::vector<double>> NodeGroupCostates(const CollocationNlp& nlp,
                                                   const CollocationDynamics& dynamics,
                                                   const NlpPoint& optimum) {
  const int N = nlp.intervals();
  std::vector<std::vector<double>> mu(N + 1, std::vector<double>(3, 0.0));
  const GroupRows& rows = nlp.group_rows();
  if (!nlp.has_group() || !dynamics.has_body_velocity() || rows.size() == 0) return mu;
  const std::vector<Eigen::Matrix3d> G = nlp.Attitudes(optimum.x.data());
  // The final rows' multipliers: the cost's sensitivity to r(G_N), the same whether G_N is a
  // product of the increments or a chart unknown linked to them by the group defects.
  const int first = nlp.FinalGroupRow();
  Eigen::Vector3d nu = Eigen::Vector3d::Zero();
  for (int r = 0; r < rows.size(); ++r) nu(r) = optimum.lambda[first + r];
  const Eigen::Vector3d muT = -rows.EtaJacobian(G[N]).transpose() * nu;
  for (int k = 0; k <= N; ++k) {
    const Eigen::Vector3d m = rows.InverseAdjoint(G[k].inverse() * G[N]).transpose() * muT;
    mu[k] = {m(0), m(1), m(2)};
  }
  return mu;
}

AdjointColumns NodeAdjointColumns(const Scenario& scenario, const CollocationNlp& nlp,
                                  const CollocationDynamics& dynamics, const NlpPoint& optimum) {
  const int N = nlp.intervals();
  const int n = static_cast<int>(dynamics.base().size()),
            k = static_cast<int>(dynamics.fibre().size());
  const int d = n + k, m = static_cast<int>(dynamics.num_controls()), cols = 1 + d + m;
  const std::vector<std::string>& fibre = dynamics.fibre();
  std::vector<int> actuated;  // fibre indices with a control acting on them, in fibre order
  for (int i = 0; i < k; ++i)
    for (const ControlSpec& c : scenario.optimal_control.controls)
      if (c.acts_on == fibre[i]) {
        actuated.push_back(i);
        break;
      }
  AdjointColumns out;
  for (const std::string& y : fibre) out.names.push_back("p_" + y);
  for (const std::string& y : fibre) out.names.push_back("pbar_" + y);
  for (const int i : actuated) out.names.push_back("a_" + fibre[i]);
  out.names.push_back("E");

  std::vector<double> mid_times, node_times(N + 1);
  const std::vector<std::vector<double>> mid = MidpointCostates(nlp, d, optimum, mid_times);
  const double T = nlp.FinalTime(optimum.x.data());
  for (int j = 0; j <= N; ++j) node_times[j] = T * nlp.mesh()[j];
  const std::vector<std::vector<double>> lambda = InterpolateInTime(mid_times, mid, node_times);
  const std::vector<std::vector<double>> mu = NodeGroupCostates(nlp, dynamics, optimum);
  const bool group = dynamics.has_body_velocity();

  std::vector<double> f(d), J(static_cast<std::size_t>(d * cols)), xi(3),
      Jxi(static_cast<std::size_t>(3 * cols));
  for (int j = 0; j <= N; ++j) {
    const double t = node_times[j];
    const double* x = &optimum.x[nlp.StateIndex(j, 0)];
    const double* u = &optimum.x[nlp.ControlIndex(j, 0)];
    dynamics.Rates(t, x, u, f.data(), J.data());
    double cost = 0.0;
    dynamics.Cost(t, x, u, &cost, nullptr);
    if (group) dynamics.BodyVelocity(x, xi.data(), Jxi.data());
    std::vector<double> row;
    row.reserve(out.names.size());
    // p_y = sum_q lambda_q d(q')/dy + sum_c mu_c d(xi_c)/dy (columns 1 + n + i of the Jacobians).
    for (int i = 0; i < k; ++i) {
      double p = 0.0;
      for (int q = 0; q < n; ++q) p += lambda[j][q] * J[q * cols + 1 + n + i];
      if (group)
        for (int c = 0; c < 3; ++c) p += mu[j][c] * Jxi[c * cols + 1 + n + i];
      row.push_back(p);
    }
    for (int i = 0; i < k; ++i) row.push_back(lambda[j][n + i]);
    for (const int i : actuated) row.push_back(f[n + i]);
    double H = -cost;
    for (int i = 0; i < d; ++i) H += lambda[j][i] * f[i];
    if (group)
      for (int c = 0; c < 3; ++c) H += mu[j][c] * xi[c];
    row.push_back(H);
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace dirac::control
