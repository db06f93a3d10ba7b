#pragma once
/// @file lagrange_dirac_system.hpp
/// The Lagrange–d'Alembert–Dirac equations (seed D §3.2, eq (29)) derived symbolically from a
/// scenario, and their compiled numeric form as an index-1 DAE for IDAS. The same derivation
/// covers Euler–Lagrange equations on a Lie algebroid E -> Q (seed L §3.1 eq (17), with
/// constraints the Euler–Poincaré–Suslov / Lagrange–Dirac form of seed D §4.4, §6.2): TQ is the
/// algebroid with anchor rho = identity and zero structure functions.
///
/// Unknowns (q, y, mu): n base coordinates, k fibre coordinates (k = n, y = v on TQ), m
/// constraints. Residual F(t, ., .') = 0:
///   F_q  = q' - rho(q) y                                         (admissibility / second order)
///   F_y  = d/dt(dL/dy_A) - rho^i_A dL/dq^i + C^C_AB y^B dL/dy^C - mu_r A^r_A
///          (on TQ also - D1D2L (q' - v), eq (29))
///   F_mu = d/dt g^r (on q' = rho y) + alpha g^r,  g^r = <A^r(q), y>      (index-1 constraint)
/// d/dt(dL/dy) is expanded by the chain rule, so F is affine in (q', y') and mu is algebraic.
/// The original constraint g = 0 is an invariant; its value is reported as a residual.
/// Internal to core (callers outside core see every model through dirac/model.hpp); the compiled
/// form (input layout, residual, sparse Jacobians, tapes) is lagrange_dirac/compiled_dae.hpp.
/// Layer: lagrange_dirac.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac {

/// A Lagrangian system with nonholonomic constraints, derived from a Scenario.
class LagrangeDiracSystem : public Model {
 public:
  /// Parses the scenario's expressions and derives E_L, the Hessian, eq (29), the differentiated
  /// constraints and exact Jacobians, then compiles them. Throws ScenarioError for expression
  /// problems (file, line, symbol), ModelError if a constraint is not linear in the velocities or
  /// the Lagrangian is degenerate (the index-1 form here needs det W != 0).
  static std::shared_ptr<const LagrangeDiracSystem> Derive(const Scenario& scenario);
  /// As Derive, but returns nullptr instead of throwing when W = D2D2L is singular for every
  /// state (decided by its generic rank, symbolic/generic_rank.hpp): BuildModel then hands the
  /// scenario to the constraint algorithm without deriving W twice.
  static std::shared_ptr<const LagrangeDiracSystem> DeriveIfRegular(const Scenario& scenario);

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

  /// Equation rows (eq (29) with the multipliers, the index-1 constraint rows), E_L, W and omega.
  std::vector<DerivedEquation> Equations(EquationFormat format) const override;

  std::string formulation() const override;
  /// t, q..., y... (v on TQ), multipliers..., E, residual_<constraint>..., then for a
  /// reconstruction on SE2 its three names (x, y, theta), on SO3 R11..R33, orthogonality_error
  /// and spatial_momentum_x/y/z (= R dL/dy).
  const std::vector<ColumnInfo>& columns() const override;
  /// The coordinates and velocities (fibre coordinates on an algebroid), all free: velocities
  /// are projected onto Delta(q0) before integrating.
  const std::vector<InitialValueInfo>& initial_values() const override;
  /// auto, adams, bdf, idas; variational on TQ without holonomic constraints; lie_variational
  /// for the free rigid body on SO(3) (probed with `parameters`).
  std::vector<MethodVerdict> integration_methods(
      const std::vector<double>& parameters) const override;
  /// Derived with the model for a Lagrangian on TQ (nullptr on an algebroid, or when the
  /// accelerations and multipliers do not solve symbolically: more than 8 unknowns).
  bool offers_gauge_two_form() const override;
  /// Derived on the first call (GiNaC: the caller holds the symbolic lock, as for BuildModel).
  const GaugeTwoForm* gauge_two_form() const override;
  /// Integrates from t = 0 to spec.t_end, sampling every spec.output_step (and at t_end).
  /// Initial velocities are projected onto Delta(q0) in the metric W (minimal kinetic change).
  /// spec.method: adams / bdf integrate the ODE x = (q, y) with the accelerations and
  /// multipliers solved from the saddle system at each right-hand side (CVODES; BDF keeps
  /// A(q) y = 0 by CVODES' projection, Adams by a checked restart); auto picks Adams unless
  /// the linearisation at t = 0 is stiff; idas integrates the index-1 DAE (IDACalcIC for mu(0),
  /// y'(0); Baumgarte rate spec.stabilization). Throws NumericalError if the integrator fails
  /// (with its message and the time reached), ModelError if sizes do not match the system, the
  /// settings are invalid (CheckSimulationSpec) or the saddle matrix is singular at the start.
  Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress = {},
                      SimulationReport* report = nullptr) const override;
  std::vector<double> ConstraintCovectors(double t, const std::vector<double>& q,
                                          const std::vector<double>& parameters) const override;

  /// The scenario's reconstruction request (group empty if none).
  const ReconstructionSpec& reconstruction() const;

  /// The implementation, defined in core/src/lagrange_dirac/: core reads the compiled tapes
  /// through lagrange_dirac/compiled_dae.hpp (CompiledDaeOf, TapesOf); outside core it is an
  /// incomplete type.
  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit LagrangeDiracSystem(std::unique_ptr<Impl> impl);
  static std::shared_ptr<const LagrangeDiracSystem> DeriveImpl(const Scenario& scenario,
                                                               bool degenerate_is_an_error);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac
