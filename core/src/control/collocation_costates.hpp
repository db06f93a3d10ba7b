#pragma once
// Internal to control/: the Pontryagin costates at the mesh nodes from the multipliers IPOPT
// returns for the collocation defects (the start of the shooting polish, docs/optimal-control.md
// "Costates from the NLP's multipliers").

#include <vector>

#include "dirac/scenario.hpp"

namespace dirac::control {

/// With IPOPT's Lagrangian f + lambda . c, trapezoidal defects c_k = x_{k+1} - x_k - h/2 (f_k +
/// f_{k+1}) (rows k d .. k d + d - 1, k = 0 .. N-1, first in the constraint vector) and the cost
/// sum_k h/2 (C_k + C_{k+1}), stationarity in x_k is (lambda_k - lambda_{k-1}) / h = C_x(k) -
/// (lambda_{k-1} + lambda_k)/2 f_x(k): the trapezoidal form of p' = C_x - p f_x, the adjoint
/// equation of H = p . f - C (the shooting code's convention: u maximises H). So lambda_k is
/// p(t_k + h/2) to O(h^2), with no factor h. Hermite-Simpson (separated: per interval the
/// Simpson rows, then the Hermite midpoint rows, d each): the Simpson rows' multipliers lambda_k
/// have the same coefficients -1, +1 on x_k, x_{k+1} and are p(t_k + h/2) to O(h^2) as well
/// (the Hermite rows' multipliers are O(h): -(2h/3) H_x at the midpoint); they are read, the
/// Hermite ones skipped. Returns p(t_k), k = 0 .. N (d values each): the mean of the two
/// neighbouring multipliers inside, linear extrapolation at the ends (a uniform mesh: solve with
/// `mesh_rounds: 0` for these to be second order).
std::vector<std::vector<double>> NodeCostates(int intervals, int states,
                                              const std::vector<double>& lambda,
                                              CollocationScheme scheme);

}  // namespace dirac::control
