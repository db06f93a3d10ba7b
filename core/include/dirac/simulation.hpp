#pragma once
/// @file simulation.hpp
/// Integrates a LagrangeDiracSystem with SUNDIALS IDAS and samples the trajectory.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

/// Integrates from t = 0 to spec.t_end, sampling every spec.output_step (and at t_end).
/// Initial velocities are projected onto Delta(q0) in the metric W (minimal kinetic change);
/// mu(0) and y'(0) come from IDACalcIC. Columns are system.TrajectoryColumns().
/// Throws NumericalError if IDAS fails (with its message and the time reached), ModelError if
/// sizes do not match the system.
Trajectory Simulate(const LagrangeDiracSystem& system, const SimulationInput& input,
                    const SimulationProgress& progress = {}, SimulationReport* report = nullptr);

}  // namespace dirac
