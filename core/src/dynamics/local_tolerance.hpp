#pragma once
// The local error tolerance handed to an integrator for an asked global tolerance.

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

#include "dirac/scenario.hpp"

namespace dirac::dynamics {

/// The asked rtol / atol are targets for the global error over the run; the integrators control
/// the local error of each step, which the global error sums over the steps. The local
/// tolerances are therefore tighter than the asked ones by a factor per method (its order: Adams
/// up to 12, BDF up to 5), measured on Elroy's beanie over 30 s at an asked 1e-12 against a
/// 1e-15 run: Adams 1.8e-9 at the asked tolerance, 2.2e-10 at a tenth (for ~15% more steps);
/// BDF (CVODES or IDAS) 1.5e-8 to 2.7e-8 at the asked tolerance, 1.2e-10 to 3.7e-10 at a
/// hundredth. Never below 5e-15, where the step would be lost in rounding. The same holds for
/// the constraint algorithm's ODE on M_f (IDAS, BDF): at the asked 1e-12 the shipped scenarios'
/// energy drifts are 3e-10 to 1.9e-9 relative, at a hundredth 1e-11 to 1.8e-10
/// (tests/core/formulation/test_scenario_accuracy.cpp).
inline double LocalTolerance(double asked, IntegrationMethod method) {
  const double factor = method == IntegrationMethod::kAdams ? 0.1 : 0.01;
  return std::max(factor * asked, std::min(asked, 5e-15));
}

/// The family `auto` takes for an ODE whose Jacobian at the initial state is `J` over a run of
/// length `horizon`: BDF if a decaying mode is much faster than both the horizon and every
/// oscillation (max(-Re lambda) > 100 max(1/horizon, max|Im lambda|)), else Adams. Undamped
/// mechanics (eigenvalues on the imaginary axis, whatever their frequency) stays with Adams,
/// which must resolve the oscillation for accuracy anyway. A non-finite J gives Adams.
inline IntegrationMethod ChooseFamily(const Eigen::MatrixXd& J, double horizon) {
  if (J.size() == 0 || !J.allFinite()) return IntegrationMethod::kAdams;
  const Eigen::VectorXcd lambda = Eigen::EigenSolver<Eigen::MatrixXd>(J, false).eigenvalues();
  double decay = 0.0, oscillation = 0.0;
  for (const auto& l : lambda) {
    decay = std::max(decay, -l.real());
    oscillation = std::max(oscillation, std::abs(l.imag()));
  }
  const double slow = std::max(1.0 / horizon, oscillation);
  return decay > 100.0 * slow ? IntegrationMethod::kBdf : IntegrationMethod::kAdams;
}

}  // namespace dirac::dynamics
