#pragma once
// Internal: the runs of a compiled Lagrange–Dirac system (LagrangeDiracSystem::Simulate): the
// ODE with the multipliers eliminated (CVODES) or the index-1 DAE (IDAS).

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac::lagrange_dirac {

/// Puts v0 on Delta(q0) = {A(q0) v = 0}: with m `dependent` velocity indices (chosen by the
/// scenario, SimulationInput::solved_initial_values) by solving those from the others, else with
/// the least kinetic change (metric W); returns |dv|. Throws ModelError if the constraint rows
/// (or their dependent columns) are singular at q0.
double ProjectOntoDistribution(const CompiledDae& dae, const std::vector<double>& parameters,
                               const Eigen::VectorXd& q0, Eigen::VectorXd& v0,
                               const std::vector<std::size_t>& dependent = {});

/// Indices of the velocities (columns 1 + n ...) named in `solved`.
std::vector<std::size_t> DependentVelocities(const InputLayout& layout,
                                             const std::vector<std::string>& columns,
                                             const std::vector<std::string>& solved);

/// Throws ModelError naming dependent or vanishing constraint rows, or a singular velocity
/// Hessian, at (q0, v0) (RequireIndependentConstraints); `columns` give the names.
void CheckConstraintRows(const CompiledDae& dae, const std::vector<double>& parameters,
                         const std::vector<std::string>& columns, const Eigen::VectorXd& q0,
                         const Eigen::VectorXd& v0);

/// The method `auto` resolves to for this input (Adams or BDF; see lagrange_dirac/README.md), or
/// the one the input's spec names (dynamics::ResolveMethod; `variational` on TQ without holonomic
/// constraints only; `lie_variational` for the free rigid body on SO(3), which needs
/// `reconstruction`). Throws ModelError for a method that does not apply.
IntegrationMethod ChooseMethod(const CompiledDae& dae, const SimulationInput& input,
                               const std::vector<double>& x0,
                               const ReconstructionSpec* reconstruction = nullptr);

/// Model::integration_methods of a Lagrange–Dirac system: the verdicts of the form ChooseMethod
/// sees (the rigid-body test probed with `parameters`).
std::vector<MethodVerdict> MethodVerdictsOf(const CompiledDae& dae,
                                            const std::vector<double>& parameters,
                                            const ReconstructionSpec& reconstruction);

/// The run with the method input.spec.method asks for: SimulateDae for `idas`, else SimulateOde.
/// Every path fills report->diverged_at / divergence (dynamics/divergence_monitor.hpp);
/// `conservative`: the energy must be conserved (autonomous L and constraints).
Trajectory Simulate(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                    const std::vector<std::string>& columns, const SimulationInput& input,
                    const SimulationProgress& progress, bool conservative,
                    SimulationReport* report);

/// The ODE path: v0 projected onto Delta(q0); x = (q, y) integrated by CVODES (Adams, or BDF
/// with the exact Jacobian and CVODES' projection onto A(q) y = 0), the accelerations and
/// multipliers solved from the saddle system at every right-hand side. Same columns as the DAE.
Trajectory SimulateOde(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, bool conservative,
                       SimulationReport* report);

/// Projects v0 onto Delta(q0), finds consistent initial values (IDACalcIC), integrates and
/// samples into `columns` (then reconstructs the group motion if `reconstruction` asks).
/// Throws NumericalError / ModelError.
Trajectory SimulateDae(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, bool conservative,
                       SimulationReport* report);

}  // namespace dirac::lagrange_dirac
