#pragma once
// Internal: the one integrator seam. Every sampled run (RunSampled) advances an `Integrator`,
// and every model resolves `simulation.method` through `ResolveMethod`, so that `auto` means the
// same on every path and a method that does not apply is refused with the same words. The names
// a user may write are the registry of dirac/integrators.hpp.

#include <Eigen/Dense>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "dirac/integrators.hpp"
#include "dirac/simulation_settings.hpp"

namespace dirac::dynamics {

/// Integration statistics, summed over restarts.
struct IdasStatistics {
  long steps = 0, error_test_failures = 0, nonlinear_failures = 0;
  int last_order = 0;
};

/// Copies the statistics into a report's fields (steps, failures, order).
void CopyStatistics(const IdasStatistics& statistics, long* steps, long* error_test_failures,
                    long* nonlinear_failures, int* last_order);

/// What every integrator of a sampled run offers (IdasDriver, CvodeDriver): advance to an output
/// time, read the state there, count the work.
class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Advances to `tout`; y() is then the state there. Returns the time reached. Throws
  /// NumericalError naming the time reached and why the integrator stopped.
  virtual double Advance(double tout) = 0;
  /// The state at the last Advance (or the initial state).
  virtual const double* y() const = 0;
  /// Steps, failures and last order, summed over restarts.
  virtual IdasStatistics statistics() const = 0;
  /// Right-hand-side (or residual) evaluations, summed over restarts.
  virtual long rhs_evaluations() const = 0;
};

/// The form in which a model hands its equations to the seam: which methods can apply.
enum class SystemForm {
  /// x' = f(t, x) only (the Euler–Poincaré and first-order models): auto, adams, bdf.
  kExplicitOde,
  /// An ODE and an index-1 DAE form of the same flow (regular Lagrange–Dirac systems on an
  /// algebroid, the constraint algorithm's flow on M_f): auto, adams, bdf, idas.
  kOdeAndDae,
  /// As kOdeAndDae, and a regular Lagrangian on TQ with nonholonomic and holonomic constraints (or
  /// none), whose discrete Euler–Lagrange (Lagrange–d'Alembert, RATTLE) equations `variational`
  /// solves: auto, adams, bdf, idas, variational.
  kLagrangianOnTQ,
  /// x' = f(t, x) that is also the Lie–Poisson (Lax) form M' = [B(M), M] of an Euler–Poincaré
  /// system on a matrix Lie algebra with a diagonal trace form and a quadratic autonomous
  /// Lagrangian (so(n), Zeitlin's torus): auto, adams, bdf, isospectral.
  kMatrixLiePoisson,
  /// As kOdeAndDae, and the free rigid body on SO(3) (an algebroid over a point with the so(3)
  /// brackets, L = ½ wᵀ J w, the SO3 reconstruction of w): auto, adams, bdf, idas,
  /// lie_variational.
  kRigidBodyOnSO3,
  /// As kOdeAndDae, and a free planar body on SE(2) (an algebroid over a point with the se(2)
  /// brackets, L = ½ ξᵀ M ξ, the SE2 reconstruction of ξ): auto, adams, bdf, idas,
  /// lie_variational.
  kPlanarBodyOnSE2,
};

/// The method a run takes for the asked one. `auto` is the stiffness test of ChooseFamily on
/// `jacobian()` (df/dx at the initial state; an empty or non-finite matrix gives Adams) over the
/// horizon `horizon` [s], on every path; a concrete method is returned as asked when it applies
/// to `form`. Throws ModelError "simulation.method: NAME does not apply to SYSTEM: REASON" when
/// it does not (`system` names the model, e.g. "this Euler-Poincare system"), and for
/// a fixed-step method (`variational`, `isospectral`, `lie_variational`) without `simulation.step`
/// (`step` > 0 is checked by the caller's spec: pass it).
IntegrationMethod ResolveMethod(IntegrationMethod asked, SystemForm form, const std::string& system,
                                double horizon, const std::function<Eigen::MatrixXd()>& jacobian,
                                double step = 0.0);

/// Every registered method with ResolveMethod's verdict on `form` (a fixed-step method judged as
/// if its step were set): what Model::integration_methods returns.
std::vector<MethodVerdict> MethodVerdicts(SystemForm form, const std::string& system);

/// For the fixed-step methods: the number of steps of size `step` in `interval`, or throws
/// ModelError naming `key` when `interval` is not a whole multiple of `step` (to 1e-9 relative).
long WholeSteps(double interval, double step, const char* key);

/// df/dx at (t, x) by forward differences (step sqrt(eps) max(1, |x_j|)), for the stiffness test
/// of the models without an exact Jacobian. An empty matrix if a rate is not finite.
Eigen::MatrixXd DifferenceJacobian(
    const std::function<bool(double t, const double* x, double* xdot)>& rates, std::size_t size,
    double t, const double* x);

/// The run report's method line of a CVODES or IDAS run: "CVODES Adams (DETAIL)",
/// "CVODES BDF (DETAIL)" or "IDAS (BDF, DETAIL)".
std::string MethodReport(IntegrationMethod method, const std::string& detail);

}  // namespace dirac::dynamics
