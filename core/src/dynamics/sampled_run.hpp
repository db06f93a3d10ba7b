#pragma once
// Internal: the output loop shared by every model's Simulate.

#include <Eigen/Dense>

#include <functional>

#include "dirac/simulation_types.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/integrator.hpp"
#include "geometry/reconstruction.hpp"

namespace dirac::dynamics {

/// Advances `driver` (the seam's Integrator: an IdasDriver or a CvodeDriver) through the output
/// times of `spec` (every output_step, and t_end), integrating `reconstruction` between samples
/// from `body_velocity(t)`, calling `record(t)` after each sample and `progress` about every 2% of
/// the run and at least every 50 ms (cancelling when it returns false), then copies the
/// integrator's statistics into `report`.
void RunSampled(const SimulationSpec& spec, Integrator& driver,
                geometry::GroupReconstruction& reconstruction,
                const std::function<Eigen::Vector3d(double)>& body_velocity,
                const std::function<void(double)>& record, const SimulationProgress& progress,
                const Trajectory& trajectory, SimulationReport& report);

/// An explicit ODE x' = f(t, x) set up for CVODES under `spec`: the method ResolveMethod takes
/// for SystemForm::kExplicitOde (`auto`: the stiffness test on the difference Jacobian of `rates`
/// at (0, x0); `idas` is refused naming `system`), with the local tolerances of that family;
/// `names` name the components. `form` is kExplicitOde or kMatrixLiePoisson (whose caller takes
/// `isospectral` itself before). Throws ModelError for a method that does not apply.
struct SampledExplicitOde {
  SampledOde ode;
  MultistepMethod method = MultistepMethod::kAdams;
  bool bdf() const { return method == MultistepMethod::kBdf; }
};
SampledExplicitOde MakeExplicitOde(
    const SimulationSpec& spec, const std::string& system, std::vector<std::string> names,
    std::function<bool(double t, const double* x, double* xdot)> rates,
    const std::vector<double>& x0, SystemForm form = SystemForm::kExplicitOde);

/// RunSampled for an explicit ODE without a group to reconstruct: records t = 0, runs the
/// samples, then sets report.rhs_evaluations (the models that integrate x' = f(t, x) directly).
void RunSampledOde(const SimulationSpec& spec, Integrator& driver,
                   const std::function<void(double)>& record, const SimulationProgress& progress,
                   const Trajectory& trajectory, SimulationReport& report);

}  // namespace dirac::dynamics
