#pragma once
// Internal to control/: the columns of a collocation optimum that the shooting's trajectory
// gets from the Pontryagin bundle (the costates, the fibre accelerations, the Hamiltonian E),
// computed from the NLP's multipliers and the controlled equations' own tapes.

#include <string>
#include <vector>

#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "control/sparse_nlp.hpp"

namespace dirac::control {

/// Linear interpolation (and extrapolation beyond the ends) of values known at increasing
/// times `at` (one vector per time) to the times `to`. With a single time, that value.
std::vector<std::vector<double>> InterpolateInTime(const std::vector<double>& at,
                                                   const std::vector<std::vector<double>>& values,
                                                   const std::vector<double>& to);

/// The state costates at the interval midpoints: lambda_k, the multipliers of interval k's first
/// defect rows (trapezoidal, or Simpson with Hermite-Simpson), are p(t_k + h_k/2) to O(h^2)
/// (H = p . f - C, the shooting's convention; collocation_costates.hpp has the derivation, which
/// holds on a non-uniform mesh as well: the rows' coefficients on x_k, x_{k+1} are -1, +1).
/// `times` gets the N midpoint times T (s_k + s_{k+1}) / 2, the result `states` (d) values per
/// midpoint.
std::vector<std::vector<double>> MidpointCostates(const CollocationNlp& nlp, int states,
                                                  const NlpPoint& optimum,
                                                  std::vector<double>& times);

/// The group's costate at the nodes (body components, as a covector on the right-trivialised
/// tangent G Exp(eta)): mu(T) = -D^T nu from the multipliers nu of the fixed final components'
/// rows r(G_N) = 0 (D = dr/deta at G_N: the transversality condition, as p(T) = -(dr/dx)^T nu
/// for a state row), carried back by mu_k = Ad_{Q_k^-1}^T mu(T), Q_k = G_k^-1 G_N (nothing
/// depends on G but the final rows, so the spatial costate is conserved). Zero without rows
/// (a free final group element: mu = 0 by transversality). N + 1 vectors of 3.
std::vector<std::vector<double>> NodeGroupCostates(const CollocationNlp& nlp,
                                                   const CollocationDynamics& dynamics,
                                                   const NlpPoint& optimum);

/// Columns named as the shooting's trajectory names them (the Pontryagin bundle of
/// L~ = C(q, y, u(q, y, y')), seed L §4), at the mesh nodes:
///  - `p_<y>` per fibre coordinate y (a velocity on TQ): the costate of the configuration seen
///    through y, rho(q)^T lambda_q + (d xi / d y)^T mu (the anchor's rows of the base costates
///    and the body velocity's of the group costate);
///  - `pbar_<y>`: the costate lambda_y of the fibre coordinate itself;
///  - `a_<y>` per actuated fibre coordinate: y' = z(t, q, y, u);
///  - `E`: the Pontryagin Hamiltonian H = lambda . f + mu . xi - C (maximum form; constant
///    along a time-invariant optimum, p . y + pbar . a - C when rho and xi are linear in y).
/// The state costates are the midpoint multipliers (MidpointCostates) interpolated linearly in
/// time to the node times: O(h^2) at interior nodes (on a uniform mesh the mean of the two
/// neighbours, control::NodeCostates), linearly extrapolated at t = 0 and T.
struct AdjointColumns {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;  ///< per node, names.size() values
};
AdjointColumns NodeAdjointColumns(const Scenario& scenario, const CollocationNlp& nlp,
                                  const CollocationDynamics& dynamics, const NlpPoint& optimum);

}  // namespace dirac::control
