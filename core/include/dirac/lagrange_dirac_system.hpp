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
/// Layer: lagrange_dirac.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dirac/compiled_function.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac {

/// Position of each block in the input vector shared by all compiled functions:
/// [t, q(n), y(k), mu(m), q'(n), y'(k), parameters(P), alpha], alpha = Baumgarte rate.
/// (On TQ, k = n and y = v; the names v()/vdot() refer to the fibre block.)
struct InputLayout {
  std::size_t n = 0, m = 0, num_parameters = 0;
  std::size_t k = 0;  ///< fibre dimension
  std::size_t t() const { return 0; }
  std::size_t q() const { return 1; }
  std::size_t v() const { return 1 + n; }
  std::size_t mu() const { return 1 + n + k; }
  std::size_t qdot() const { return 1 + n + k + m; }
  std::size_t vdot() const { return 1 + 2 * n + k + m; }
  std::size_t parameters() const { return 1 + 2 * n + 2 * k + m; }
  std::size_t stabilization() const { return parameters() + num_parameters; }
  std::size_t size() const { return stabilization() + 1; }
  /// Number of DAE unknowns, n + k + m.
  std::size_t dae_size() const { return n + k + m; }
};

/// A sparse matrix-valued compiled function: output k is entry (rows[k], cols[k]).
struct CompiledSparseMatrix {
  CompiledFunction values;  ///< entry e = (rows[e], cols[e]) (symbolic mode; empty otherwise)
  std::vector<std::size_t> rows, cols;
  std::size_t num_rows = 0, num_cols = 0;
  /// Tangent mode (models above the symbolic size bound): the entries are the derivatives of
  /// `of`'s outputs (rows) with respect to its inputs `wrt_inputs[col]`, by forward-mode
  /// automatic differentiation on the tape (CompiledFunction::EvaluateTangents); rows and cols
  /// are then the tape's structural dependencies.
  CompiledFunction of;
  std::vector<std::size_t> wrt_inputs;

  bool tangent_mode() const { return !wrt_inputs.empty(); }
  /// Doubles of scratch that Evaluate needs.
  std::size_t work_size() const;
  /// entries[e] = the value of entry e at `inputs` (rows.size() of them). Does not throw.
  void Evaluate(const double* inputs, double* entries, double* work) const;
};

/// The sparse Jacobian of `f` with respect to its inputs `wrt_inputs` in tangent mode (the
/// pattern from the tape's dependencies).
CompiledSparseMatrix TangentJacobian(const CompiledFunction& f,
                                     const std::vector<std::size_t>& wrt_inputs);

/// Everything the integrator needs, compiled once. Parameters are inputs, not constants.
struct CompiledDae {
  InputLayout layout;
  CompiledFunction residual;           ///< F, dae_size() outputs
  CompiledSparseMatrix jacobian_y;     ///< dF/dy  (dae_size x dae_size), structural nonzeros only
  CompiledSparseMatrix jacobian_yp;    ///< dF/dy'
  CompiledFunction energy;             ///< E_L = dL/dy . y - L, 1 output
  CompiledFunction constraints;        ///< g^r(q, y), m outputs
  CompiledFunction constraint_matrix;  ///< A^r_A(q) (omega^r_i on TQ), m*k outputs, row-major
  CompiledFunction mass_matrix;        ///< W_AB = d2L/dy^A dy^B, k*k outputs, row-major
  CompiledFunction anchor;             ///< rho^i_A(q), n*k outputs, row-major
  CompiledFunction body_velocity;      ///< reconstruction xi(q, y), 3 outputs (or none)
  CompiledFunction fibre_momentum;     ///< dL/dy^A, k outputs
  /// The holonomic constraints f^h(q) (`holonomic:`), h outputs (none without), whose
  /// differentials are the last h rows of `constraints`; runs keep f = 0 by projection.
  CompiledFunction holonomic;
  CompiledFunction holonomic_jacobian;  ///< df^h/dq^i, h*n outputs, row-major
  /// (dL/dq^i, dL/dv^i) on TQ, 2n outputs (none on an algebroid): the discrete Euler–Lagrange
  /// equations of `method: variational`, their Jacobian by tangent mode (interpreted only).
  CompiledFunction lagrangian_gradient;
};

/// Calls `f` on every tape of `dae` in a fixed order: the batch a model compiles to machine code
/// as one C translation unit (`simulation.tape`).
void ForEachTape(CompiledDae& dae, const std::function<void(CompiledFunction&)>& f);

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

  /// The compiled DAE and diagnostics (interpreted tapes).
  const CompiledDae& dae() const;
  /// The tapes a run with `simulation.tape = mode` evaluates: the same functions as dae(), as
  /// machine code when `mode` gets it (see TapeMode; kNative may compile now, tens to hundreds
  /// of milliseconds), else dae() itself. `description` (if given) gets the one-line report.
  /// Thread-safe; never throws for a missing compiler or cache (the interpreter is the answer).
  const CompiledDae& tapes(TapeMode mode, std::string* description = nullptr) const;

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

  struct Impl;

 private:
  explicit LagrangeDiracSystem(std::unique_ptr<Impl> impl);
  static std::shared_ptr<const LagrangeDiracSystem> DeriveImpl(const Scenario& scenario,
                                                               bool degenerate_is_an_error);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac
