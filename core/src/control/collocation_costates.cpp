// NodeCostates: p(t_k) from the defects' multipliers (see the header).
#include "control/collocation_costates.hpp"

namespace dirac::control {

std::vector<std::vector<double>> NodeCostates(int intervals, int states,
                                              const std::vector<double>& lambda,
                                              CollocationScheme scheme) {
  const int N = intervals, d = states;
  const int rows = scheme == CollocationScheme::kHermiteSimpson ? 2 : 1;
  // lambda_k[i] = p_i(t_k + h/2): the first (trapezoidal or Simpson) row block of interval k.
  auto mid = [&](int k, int i) { return lambda[static_cast<std::size_t>(k * rows * d + i)]; };
  std::vector<std::vector<double>> p(static_cast<std::size_t>(N + 1), std::vector<double>(d));
  for (int i = 0; i < d; ++i) {
    for (int k = 1; k < N; ++k) p[k][i] = (mid(k - 1, i) + mid(k, i)) / 2;
    p[0][i] = N > 1 ? (3 * mid(0, i) - mid(1, i)) / 2 : mid(0, i);
    p[N][i] = N > 1 ? (3 * mid(N - 1, i) - mid(N - 2, i)) / 2 : mid(N - 1, i);
  }
  return p;
}

}  // namespace dirac::control
