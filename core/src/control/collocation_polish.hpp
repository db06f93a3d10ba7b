#pragma once
// Internal to control/: the shooting polish of a collocation optimum (docs/optimal-control.md,
// "The shooting polish"). When no inequality is active at a converged collocation optimum of a
// problem with a fixed horizon and no terminal cost, the indirect multiple shooting is started
// from the collocation nodes' states, costates and group elements; its Newton converges in a few
// iterations to the maximum principle's optimum, which replaces the collocation's (whose node
// controls are only second order in h).

#include <string>

#include "control/collocation_nlp.hpp"
#include "control/collocation_warm_start.hpp"
#include "control/multiple_shooting.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"

namespace dirac::control {

/// A bound counts as inactive when at every collocation point (nodes and, with Hermite-Simpson,
/// midpoints) its slack is at least kPolishSlack max(1, |bound|) and IPOPT's multiplier of it
/// at most kPolishMultiplier; a path constraint g <= 0 when g <= -kPolishSlack max(1, max |g|)
/// at every point and its multiplier is at most kPolishMultiplier. (An interior-point optimum
/// leaves a multiplier ~ mu / slack at an inactive bound: 1e-9 and below here.)
inline constexpr double kPolishSlack = 1e-4;
inline constexpr double kPolishMultiplier = 1e-6;

/// Why the polish is not tried on a collocation solve of `scenario` (empty: it is): `polish:
/// off`, not converged, a free horizon, a terminal cost, an active arc in its report. The
/// margins above are PolishSeed's part (it rebuilds the NLP: 21 ms at 100 intervals on SO(3)).
std::string PolishPrecondition(const Scenario& scenario, const OptimalControlSolution& collocation);

/// The collocation optimum on its final mesh, read for the polish.
class PolishSeed {
 public:
  /// `collocation`: the collocation part of a converged solve of `scenario`.
  PolishSeed(const Scenario& scenario, const CollocationWarmStart& collocation);

  /// The first inequality active at the optimum by the margins above, in words ("u1 on its max
  /// at t = 0.3" ...); empty when none is.
  std::string ActiveInequality() const;

  /// The start of `ms` (the Pontryagin flow's multiple shooting of the same scenario): at t = 0
  /// and every interior shooting node, the flow state (q, y, p, pbar) and the group element,
  /// linearly interpolated between the collocation nodes (the group element along its
  /// geodesic). q, y and G are the collocation's; pbar and the base coordinates' costates pi
  /// come from the defects' multipliers (NodeCostates, H = p . f - C); the group costate (body
  /// frame, G' = G xi^) is mu(T) = -D^T nu from the final group rows' multipliers nu (D their
  /// derivative along G_N Exp(eta)), carried back exactly by mu(t) = Ad_{G_N^-1 G(t)}^T mu(T)
  /// (mu' = ad_xi^T mu: the cost does not read G); the section costates are then
  /// p_A = pi_i rho^i_A + mu_b dxi^b/dy^A. False, with the reason, when a flow state has no
  /// counterpart here.
  bool Start(const MultipleShooting& ms, ShootingPoint& start, std::string& why) const;

 private:
  const Scenario& scenario_;
  const CollocationWarmStart& collocation_;
  CollocationNlp nlp_;
};

/// The polished solution: shooting's motion, cost, solved scenario and Hamiltonian drift; the
/// collocation's report (its NLP, mesh and active arcs) with the polish fields set, and both
/// warm starts (a collocation re-solve starts from the collocation's point).
OptimalControlSolution Polished(OptimalControlSolution collocation,
                                OptimalControlSolution shooting);

}  // namespace dirac::control
