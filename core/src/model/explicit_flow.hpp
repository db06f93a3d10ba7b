#pragma once
// The compiled explicit flow of a model (Model::explicit_flow()): internal to core, read by the
// shooting and collocation solvers (control/), the linearization and the constraint algorithm's
// model that builds it. Outside core the type is incomplete (dirac/model.hpp declares it);
// front ends read the state names through Model::FlowStateNames().

#include <cstddef>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"
#include "symbolic/compiled_function.hpp"

namespace dirac {

/// The model's dynamics as an explicit ODE x' = f(t, x; p) on the free coordinates x of M_f,
/// compiled with exact Jacobians: what shooting and sensitivity analysis need. Every tape takes
/// the inputs [t, x (dimension()), parameters]; Jacobians are row-major. Immutable: evaluate
/// concurrently, each caller with its own scratch buffer.
struct ExplicitFlow {
  std::vector<std::string> states;       ///< names of x (free coordinates of M_f)
  std::vector<std::string> coordinates;  ///< names of all coordinates z of M (z = z(x))
  std::vector<ColumnKind> coordinate_kinds;
  std::size_t num_parameters = 0;
  CompiledFunction rates;                          ///< f, dimension() outputs
  CompiledFunction rates_jacobian;                 ///< df/dx, dimension()^2
  CompiledFunction parameter_jacobian;             ///< df/dp, dimension() x num_parameters
  CompiledFunction coordinate_values;              ///< z(x) (the eliminated ones reconstructed)
  CompiledFunction coordinate_jacobian;            ///< dz/dx, coordinates.size() x dimension()
  CompiledFunction coordinate_parameter_jacobian;  ///< dz/dp
  CompiledFunction running_cost;                   ///< the Lagrangian L (or L~ = C(q, y, u)) on M_f
  CompiledFunction body_velocity;           ///< reconstruction xi(x), 3 outputs (none without)
  CompiledFunction body_velocity_jacobian;  ///< dxi/dx, 3 x dimension()
  CompiledFunction anchor;                  ///< rho^i_A(x) of the base, n x k (configuration frame)
  CompiledFunction fibre_body_velocity;     ///< d xi / d y^A (3 x k): body velocity per section
  std::vector<std::string> fibre;           ///< the fibre (velocity) coordinate names y^A
  std::vector<std::string> base;            ///< base coordinate names q^i
  std::vector<std::string> fibre_costates;  ///< conjugate of y^A (pbar_<y>), if any
  std::vector<std::string> section_costates;  ///< conjugate of the sections (p_<y>), if any
  ReconstructionSpec reconstruction;

  std::size_t dimension() const { return states.size(); }
};

}  // namespace dirac
