// The collocation mesh: the residual of the collocation polynomial against the dynamics as the
// local error estimate, the splitting of the intervals where it is too large, and the
// interpolation of a solution onto the refined mesh.
#include "control/collocation_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace dirac::control {

std::vector<double> UniformMesh(int intervals) {
  std::vector<double> mesh(intervals + 1);
  for (int k = 0; k <= intervals; ++k) mesh[k] = static_cast<double>(k) / intervals;
  return mesh;
}

void InterpolateInterval(const CollocationNlp& nlp, const CollocationDynamics& dynamics,
                         const double* w, int k, double tau, double* x, double* dx, double* u) {
  const int d = static_cast<int>(dynamics.num_states());
  const int m = static_cast<int>(dynamics.num_controls());
  const double T = nlp.FinalTime(w), h = T * (nlp.mesh()[k + 1] - nlp.mesh()[k]);
  const int p0 = nlp.NodePoint(k), p1 = nlp.NodePoint(k + 1);
  const double *x0 = w + nlp.PointIndex(p0, 0), *x1 = w + nlp.PointIndex(p1, 0);
  const double *u0 = w + nlp.PointIndex(p0, d), *u1 = w + nlp.PointIndex(p1, d);
  std::vector<double> f0(d), f1(d);
  dynamics.Rates(T * nlp.PointFraction(p0), x0, u0, f0.data(), nullptr);
  dynamics.Rates(T * nlp.PointFraction(p1), x1, u1, f1.data(), nullptr);
  const double t2 = tau * tau, t3 = t2 * tau;
  if (nlp.scheme() == CollocationScheme::kHermiteSimpson) {
    const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + tau, h01 = -2 * t3 + 3 * t2,
                 h11 = t3 - t2;
    const double d00 = 6 * t2 - 6 * tau, d10 = 3 * t2 - 4 * tau + 1, d01 = -6 * t2 + 6 * tau,
                 d11 = 3 * t2 - 2 * tau;
    for (int i = 0; i < d; ++i) {
      if (x) x[i] = h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i];
      if (dx) dx[i] = (d00 * x0[i] + d01 * x1[i]) / h + d10 * f0[i] + d11 * f1[i];
    }
    const double* um = w + nlp.PointIndex(p0 + 1, d);
    const double l0 = 2 * (tau - 0.5) * (tau - 1), lm = -4 * tau * (tau - 1),
                 l1 = 2 * tau * (tau - 0.5);
    for (int j = 0; j < m && u; ++j) u[j] = l0 * u0[j] + lm * um[j] + l1 * u1[j];
    return;
  }
  for (int i = 0; i < d; ++i) {
    if (x) x[i] = x0[i] + h * (f0[i] * tau + (f1[i] - f0[i]) * t2 / 2);
    if (dx) dx[i] = f0[i] + (f1[i] - f0[i]) * tau;
  }
  for (int j = 0; j < m && u; ++j) u[j] = (1 - tau) * u0[j] + tau * u1[j];
}

std::vector<double> IntervalErrors(const CollocationNlp& nlp, const CollocationDynamics& dynamics,
                                   const double* w) {
  const int d = static_cast<int>(dynamics.num_states());
  const int m = static_cast<int>(dynamics.num_controls());
  const int N = nlp.intervals();
  const double T = nlp.FinalTime(w);
  std::vector<double> scale(d, 1.0);
  for (int p = 0; p < nlp.num_points(); ++p)
    for (int i = 0; i < d; ++i)
      scale[i] = std::max(scale[i], 1.0 + std::abs(w[nlp.PointIndex(p, i)]));
  std::vector<double> errors(N), x(d), dx(d), u(std::max(m, 1)), f(d), integral(d);
  const double taus[5] = {0, 0.25, 0.5, 0.75, 1}, simpson[5] = {1, 4, 2, 4, 1};
  for (int k = 0; k < N; ++k) {
    const double t0 = T * nlp.mesh()[k], h = T * (nlp.mesh()[k + 1] - nlp.mesh()[k]);
    std::fill(integral.begin(), integral.end(), 0.0);
    for (int q = 0; q < 5; ++q) {
      InterpolateInterval(nlp, dynamics, w, k, taus[q], x.data(), dx.data(), u.data());
      dynamics.Rates(t0 + taus[q] * h, x.data(), u.data(), f.data(), nullptr);
      for (int i = 0; i < d; ++i) integral[i] += h / 12 * simpson[q] * std::abs(dx[i] - f[i]);
    }
    for (int i = 0; i < d; ++i) errors[k] = std::max(errors[k], integral[i] / scale[i]);
  }
  return errors;
}

std::vector<double> RefineMesh(const std::vector<double>& mesh, const std::vector<double>& errors,
                               double tolerance, CollocationScheme scheme, int max_intervals) {
  // The estimate is O(h^4) (Hermite-Simpson: the cubic's derivative is third order) or O(h^3).
  const double order = scheme == CollocationScheme::kHermiteSimpson ? 4.0 : 3.0;
  std::vector<double> refined{mesh.front()};
  for (std::size_t k = 0; k + 1 < mesh.size(); ++k) {
    int parts = 1;
    if (errors[k] > tolerance)
      parts =
          std::clamp(static_cast<int>(std::ceil(std::pow(errors[k] / tolerance, 1 / order))), 2, 4);
    for (int j = 1; j <= parts; ++j)
      refined.push_back(j == parts ? mesh[k + 1] : mesh[k] + (mesh[k + 1] - mesh[k]) * j / parts);
  }
  if (static_cast<int>(refined.size()) - 1 > max_intervals) return mesh;
  return refined;
}

std::vector<double> InterpolateSolution(const CollocationNlp& from,
                                        const CollocationDynamics& dynamics, const double* w,
                                        CollocationNlp& to) {
  const int d = static_cast<int>(dynamics.num_states());
  const int m = static_cast<int>(dynamics.num_controls());
  const int n = to.num_variables();
  std::vector<double> out(n), lower(n), upper(n), gl(to.num_constraints()), gu(gl.size());
  to.Bounds(lower.data(), upper.data(), gl.data(), gu.data());
  if (to.PointIndex(0, 0) == 1) out[0] = from.FinalTime(w);
  const std::vector<double>& mesh = from.mesh();
  for (int p = 0; p < to.num_points(); ++p) {
    const double s = to.PointFraction(p);
    const int k = std::clamp(static_cast<int>(std::distance(
                                 mesh.begin(), std::upper_bound(mesh.begin(), mesh.end(), s))) -
                                 1,
                             0, from.intervals() - 1);
    const double tau = std::clamp((s - mesh[k]) / (mesh[k + 1] - mesh[k]), 0.0, 1.0);
    InterpolateInterval(from, dynamics, w, k, tau, &out[to.PointIndex(p, 0)], nullptr,
                        m > 0 ? &out[to.PointIndex(p, d)] : nullptr);
  }
  for (int i = 0; i < n; ++i) out[i] = std::clamp(out[i], lower[i], upper[i]);
  if (!from.has_group() || !to.has_group()) return out;
  // The group elements: G_k Exp(tau Log(G_k^-1 G_{k+1})) on `from`'s interval k, the reference
  // of `to` (its chart coordinates in `out` are 0).
  const std::vector<Eigen::Matrix3d> G = from.Attitudes(w);
  const geometry::MatrixGroup group = from.group_rows().group();
  std::vector<Eigen::Matrix3d> reference(to.intervals() + 1);
  for (int j = 0; j <= to.intervals(); ++j) {
    const double s = to.mesh()[j];
    const int k = std::clamp(static_cast<int>(std::distance(
                                 mesh.begin(), std::upper_bound(mesh.begin(), mesh.end(), s))) -
                                 1,
                             0, from.intervals() - 1);
    const double tau = std::clamp((s - mesh[k]) / (mesh[k + 1] - mesh[k]), 0.0, 1.0);
    reference[j] =
        G[k] * geometry::Exp(group, tau * geometry::Log(group, G[k].inverse() * G[k + 1]));
  }
  to.SetReference(reference);
  return out;
}

}  // namespace dirac::control
