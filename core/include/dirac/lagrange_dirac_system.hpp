#pragma once
/// @file lagrange_dirac_system.hpp
/// The Lagrange–d'Alembert–Dirac equations (seed D §3.2, eq (29)) derived symbolically from a
/// scenario, and their compiled numeric form as an index-1 DAE for IDAS.
///
/// Unknowns y = (q, v, mu) with n coordinates and m constraints. Residual F(t, y, y') = 0:
///   F_q  = q' - v                                                        (second-order condition)
///   F_v  = d/dt(dL/dv) - dL/dq - D1D2L (q' - v) - mu_r omega^r           (eq (29), first row)
///   F_mu = dg/dq v + dg/dv v' + alpha g,  g^r = <omega^r(q), v>          (differentiated
///   constraint)
/// d/dt(dL/dv) is expanded by the chain rule, so F is affine in (q', v') and mu is algebraic.
/// The original constraint g = 0 is an invariant; its value is reported as a residual.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dirac/compiled_function.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac {

/// Position of each block in the input vector shared by all compiled functions:
/// [t, q(n), v(n), mu(m), q'(n), v'(n), parameters(P), alpha], alpha = Baumgarte rate.
struct InputLayout {
  std::size_t n = 0, m = 0, num_parameters = 0;
  std::size_t t() const { return 0; }
  std::size_t q() const { return 1; }
  std::size_t v() const { return 1 + n; }
  std::size_t mu() const { return 1 + 2 * n; }
  std::size_t qdot() const { return 1 + 2 * n + m; }
  std::size_t vdot() const { return 1 + 3 * n + m; }
  std::size_t parameters() const { return 1 + 4 * n + m; }
  std::size_t stabilization() const { return 1 + 4 * n + m + num_parameters; }
  std::size_t size() const { return 2 + 4 * n + m + num_parameters; }
  /// Number of DAE unknowns, 2n + m.
  std::size_t dae_size() const { return 2 * n + m; }
};

/// A sparse matrix-valued compiled function: output k is entry (rows[k], cols[k]).
struct CompiledSparseMatrix {
  CompiledFunction values;
  std::vector<std::size_t> rows, cols;
  std::size_t num_rows = 0, num_cols = 0;
};

/// Everything the integrator needs, compiled once. Parameters are inputs, not constants.
struct CompiledDae {
  InputLayout layout;
  CompiledFunction residual;           ///< F, dae_size() outputs
  CompiledSparseMatrix jacobian_y;     ///< dF/dy  (dae_size x dae_size), structural nonzeros only
  CompiledSparseMatrix jacobian_yp;    ///< dF/dy'
  CompiledFunction energy;             ///< E_L = dL/dv . v - L, 1 output
  CompiledFunction constraints;        ///< g^r(q, v), m outputs
  CompiledFunction constraint_matrix;  ///< omega^r_i(q), m*n outputs, row-major
  CompiledFunction mass_matrix;        ///< W_ij = d2L/dv^i dv^j, n*n outputs, row-major
};

/// A Lagrangian system with nonholonomic constraints, derived from a Scenario.
class LagrangeDiracSystem : public Model {
 public:
  /// Parses the scenario's expressions and derives E_L, the Hessian, eq (29), the differentiated
  /// constraints and exact Jacobians, then compiles them. Throws ScenarioError for expression
  /// problems (file, line, symbol), ModelError if a constraint is not linear in the velocities or
  /// the Lagrangian is degenerate (the index-1 form here needs det W != 0).
  static std::shared_ptr<const LagrangeDiracSystem> Derive(const Scenario& scenario);

  ~LagrangeDiracSystem() override;
  LagrangeDiracSystem(const LagrangeDiracSystem&) = delete;
  LagrangeDiracSystem& operator=(const LagrangeDiracSystem&) = delete;

  std::size_t num_coordinates() const;
  std::size_t num_constraints() const;
  const std::vector<std::string>& coordinate_names() const;
  const std::vector<std::string>& velocity_names() const;
  const std::vector<std::string>& multiplier_names() const;
  std::vector<std::string> constraint_names() const override;
  const std::vector<std::string>& parameter_names() const;

  /// The compiled DAE and diagnostics.
  const CompiledDae& dae() const;

  /// Equation rows (eq (29) with the multipliers, the index-1 constraint rows), E_L, W and omega.
  std::vector<DerivedEquation> Equations(EquationFormat format) const override;

  std::string formulation() const override;
  Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress = {},
                      SimulationReport* report = nullptr) const override;
  std::vector<double> ConstraintCovectors(double t, const std::vector<double>& q,
                                          const std::vector<double>& parameters) const override;

  /// Names of the trajectory columns a simulation of this system produces:
  /// t, q..., v..., multipliers..., E, residual_<constraint>...
  std::vector<std::string> TrajectoryColumns() const override;

  struct Impl;

 private:
  explicit LagrangeDiracSystem(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac
