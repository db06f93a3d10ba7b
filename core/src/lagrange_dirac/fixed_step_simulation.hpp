#pragma once
// Internal: the runs of a compiled Lagrange–Dirac system by the fixed-step structure-preserving
// methods (dynamics/integrator.hpp's `variational` and `lie_variational`), called by SimulateOde
// once the method is resolved. Both throw ModelError when the method does not apply or the step
// does not divide output_step and t_end.

#include <string>
#include <vector>

#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac::lagrange_dirac {

/// method: variational (variational_step.hpp) from x0 = (q0, v0), the report's fields filled
/// from `report` on; whole steps between the samples.
Trajectory SimulateVariational(const CompiledDae& dae,
                               const ReconstructionSpec& reconstruction_spec,
                               const std::vector<std::string>& columns,
                               const SimulationInput& input, const SimulationProgress& progress,
                               bool conservative, const std::vector<double>& x0,
                               SimulationReport report, SimulationReport* report_out);

/// method: lie_variational (lie_variational_step.hpp, lie_variational_se2.cpp): the free rigid
/// body on SO(3) or planar body on SE(2), the group element carried by the step.
Trajectory SimulateLieVariational(const CompiledDae& dae,
                                  const ReconstructionSpec& reconstruction_spec,
                                  const std::vector<std::string>& columns,
                                  const SimulationInput& input, const SimulationProgress& progress,
                                  bool conservative, const std::vector<double>& x0,
                                  SimulationReport report, SimulationReport* report_out);

}  // namespace dirac::lagrange_dirac
