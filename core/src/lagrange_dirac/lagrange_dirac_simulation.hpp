#pragma once
// Internal: the IDAS run of a compiled Lagrange–Dirac DAE (LagrangeDiracSystem::Simulate).

#include <string>
#include <vector>

#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac::lagrange_dirac {

/// Projects v0 onto Delta(q0), finds consistent initial values (IDACalcIC), integrates and
/// samples into `columns` (then reconstructs the group motion if `reconstruction` asks).
/// Throws NumericalError / ModelError.
Trajectory SimulateDae(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, SimulationReport* report);

}  // namespace dirac::lagrange_dirac
