#pragma once
// Internal: the output loop shared by every model's Simulate.

#include <Eigen/Dense>

#include <functional>

#include "dirac/simulation_types.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/idas_driver.hpp"
#include "geometry/reconstruction.hpp"

namespace dirac::dynamics {

/// Advances `driver` (an IdasDriver, or a CvodeDriver on the ODE path of regular index-1
/// systems) through the output times of `spec` (every output_step, and t_end), integrating
/// `reconstruction` between samples from `body_velocity(t)`, calling `record(t)` after each
/// sample and `progress` about every 2% of the run and at least every 50 ms (cancelling when it
/// returns false), then copies the integrator's statistics into `report`.
template <typename Driver>
void RunSampled(const SimulationSpec& spec, Driver& driver,
                geometry::GroupReconstruction& reconstruction,
                const std::function<Eigen::Vector3d(double)>& body_velocity,
                const std::function<void(double)>& record, const SimulationProgress& progress,
                const Trajectory& trajectory, SimulationReport& report);

/// An explicit ODE x' = f(t, x) set up for CVODES under `spec`: BDF for `method: bdf` or `idas`,
/// else Adams, with the local tolerances of that family; `names` name the components.
struct SampledExplicitOde {
  SampledOde ode;
  MultistepMethod method = MultistepMethod::kAdams;
  bool bdf() const { return method == MultistepMethod::kBdf; }
};
SampledExplicitOde MakeExplicitOde(
    const SimulationSpec& spec, std::vector<std::string> names,
    std::function<bool(double t, const double* x, double* xdot)> rates);

/// RunSampled for an explicit ODE without a group to reconstruct: records t = 0, runs the
/// samples, then sets report.rhs_evaluations (the models that integrate x' = f(t, x) directly).
void RunSampledOde(const SimulationSpec& spec, CvodeDriver& driver,
                   const std::function<void(double)>& record, const SimulationProgress& progress,
                   const Trajectory& trajectory, SimulationReport& report);

}  // namespace dirac::dynamics
