#pragma once
/// @file model.hpp
/// The one interface of every dynamical model the engine derives from a scenario. Callers (CLI,
/// GUI, shooting, benchmarks) ask the model what it can do and never depend on which
/// formulation a scenario uses: columns of each kind, which initial values are free, the
/// optional capabilities (gauge two-form, boundary-value solve) are data of the model.
/// Layer: model (see docs/ARCHITECTURE.md, "Dependency order").

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dirac/integrators.hpp"
#include "dirac/scenario_spec.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

struct ConstraintChain;
class BodyPoseEvaluator;
/// The model's dynamics as an explicit ODE on M_f with compiled tapes: internal to core
/// (core/src/model/explicit_flow.hpp); outside core an incomplete type, asked for by
/// Model::explicit_flow() (null or not) and read through FlowStateNames() and FlowState().
struct ExplicitFlow;

/// Text form of derived equations.
enum class EquationFormat { kPlain, kLatex };

/// One labelled derived equation: `text` is an expression that equals zero (or "lhs = rhs").
struct DerivedEquation {
  std::string label;
  std::string text;
};

/// What a trajectory column holds.
enum class ColumnKind {
  kTime,                      ///< "t" [s]
  kCoordinate,                ///< a configuration coordinate q^i
  kVelocity,                  ///< a velocity v^i, or a fibre coordinate y^A of an algebroid
  kMomentum,                  ///< a momentum p_i (Skinner–Rusk coordinates)
  kCostate,                   ///< a costate p_<y>, pbar_<y> of a second-order problem
  kAcceleration,              ///< an acceleration z^A of a second-order problem
  kRate,                      ///< "<z>_dot", the rate of a coordinate of M_f
  kControl,                   ///< a control input u_a of an optimal-control problem
  kMultiplier,                ///< a Lagrange multiplier of a scenario constraint
  kEnergy,                    ///< the energy E_L (or the Hamiltonian H of the formulation)
  kConstraintResidual,        ///< "residual_<constraint>": g^r along the run (an invariant)
  kHiddenConstraintResidual,  ///< "residual_hidden<k>": a constraint found by the algorithm
  kDynamicsResidual,          ///< "residual_dynamics": max |alpha - Omega_E^T xi| on E
  kGroup,                     ///< reconstructed group element (x, y, theta; R11..R33)
  kDiagnostic,                ///< other checks (orthogonality_error, spatial momentum, ...)
};

/// A trajectory column: its name (the CSV header) and kind.
struct ColumnInfo {
  std::string name;
  ColumnKind kind = ColumnKind::kDiagnostic;
  /// What a diagnostic column is, in a few words for axis titles ("Casimir invariant"); empty
  /// when the kind says it.
  std::string words = {};
};

/// An initial value the model reads, by its `--set` name.
struct InitialValueInfo {
  std::string name;                           ///< --set name, e.g. "x", "vx", "p_x"
  ColumnKind kind = ColumnKind::kCoordinate;  ///< kCoordinate, kVelocity, kMomentum, ...
  bool free = true;                           ///< false: the model determines it
  std::string fixed_because;                  ///< why not free, e.g. "v3 = 0 on M_1"
};

/// The gauge two-form B_t of a nonholonomic flow (seed D Prop 2.7, Thm 3.14), derived once
/// with the model: computing it evaluates compiled tapes only (no GiNaC), so it may run on any
/// thread concurrently with other runs. See dirac/gauge_two_form.hpp for the columns.
class GaugeTwoForm {
 public:
  virtual ~GaugeTwoForm() = default;
  /// Columns of the trajectories Compute returns (column 0 is "t").
  virtual std::vector<std::string> columns() const = 0;
  /// Integrates the motion from the input's initial point (projected onto Delta_Q) with its
  /// flow Jacobian and B_t, sampled like a simulation. `progress` is asked at least every 5 ms,
  /// also inside one output step; false stops it at once (the rows so far are returned). Throws
  /// NumericalError if IDAS fails, ModelError for sizes that do not match the model.
  virtual Trajectory Compute(const SimulationInput& input,
                             const SimulationProgress& progress = {}) const = 0;
};

/// The right-hand side x' = f(t, x) that a model's ODE integrator calls, on its own: for
/// benchmarks and tests that measure or check it apart from a run (the cost per right-hand side
/// against size). `state` is x at t = 0 for the SimulationInput it was made from; rates(t, x,
/// xdot) writes names.size() rates and returns false when they are not finite. It owns its
/// buffers and reads the model: one caller (thread) at a time, and not after the model is gone.
struct RightHandSide {
  std::vector<std::string> names;  ///< names of x, in order (trajectory columns)
  std::vector<double> state;       ///< x at t = 0
  std::function<bool(double t, const double* x, double* xdot)> rates;
};

/// A derived model: immutable after construction. Simulate, columns, ConstraintCovectors and
/// the capabilities evaluate compiled tapes only and may run concurrently from several threads.
/// Derivation (BuildModel), Equations() and destroying a model use GiNaC, whose reference counts
/// are not thread-safe: a caller with several threads does those under dirac::SymbolicGuard
/// (dirac/symbolic_lock.hpp).
class Model {
 public:
  virtual ~Model() = default;
  /// Human name of the formulation, e.g. "Lagrange-d'Alembert-Dirac (index-1 DAE)".
  virtual std::string formulation() const = 0;
  /// Columns of the trajectories Simulate returns, with their kinds (column 0 is "t").
  virtual const std::vector<ColumnInfo>& columns() const = 0;
  /// Every initial value the model reads (by --set name), whether it is free, and why not.
  virtual const std::vector<InitialValueInfo>& initial_values() const = 0;
  /// Integrates from t = 0 to input.spec.t_end. Throws NumericalError / ModelError.
  virtual Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress = {},
                              SimulationReport* report = nullptr) const = 0;
  /// The derived equations in readable form.
  virtual std::vector<DerivedEquation> Equations(EquationFormat format) const = 0;
  /// Names of the scenario's nonholonomic constraints, in order.
  virtual std::vector<std::string> constraint_names() const = 0;
  /// omega^r_i(t, q) for every scenario constraint (m x n, row-major), e.g. to draw Delta(q).
  virtual std::vector<double> ConstraintCovectors(double t, const std::vector<double>& q,
                                                  const std::vector<double>& parameters) const = 0;

  /// The constraint algorithm's chain, if this model went through it (else nullptr).
  virtual const ConstraintChain* constraint_chain() const { return nullptr; }
  /// True if the model offers the gauge two-form (a regular Lagrangian on TQ with constraints,
  /// small enough to solve its accelerations and multipliers symbolically). Cheap: derives
  /// nothing, so the GUI thread may ask it.
  virtual bool offers_gauge_two_form() const { return false; }
  /// The gauge two-form, derived on the first call when offered (uses GiNaC on that call: under
  /// dirac::SymbolicGuard, as BuildModel); nullptr if not offered or if its symbolic solve turns
  /// out too large. Later calls return the same object and may come from any thread.
  virtual const GaugeTwoForm* gauge_two_form() const { return nullptr; }
  /// The registry's methods (dirac/integrators.hpp), each with whether `simulation.method` may
  /// name it for this model and, if not, the refusal a run with it would get. `parameters` as in
  /// a SimulationInput (lie_variational's rigid-body test probes the model with them). Cheap
  /// (a few tape evaluations, no derivation): the GUI thread may ask it. Default: an explicit
  /// ODE x' = f(t, x) (auto, adams, bdf).
  virtual std::vector<MethodVerdict> integration_methods(
      const std::vector<double>& parameters) const;
  /// The dynamics as an explicit ODE on M_f with exact Jacobians, if the model has one (the
  /// constraint algorithm's models do once M_f is integrable), else nullptr. Its tapes are
  /// internal to core (model/explicit_flow.hpp); callers outside core test it for null only.
  virtual const ExplicitFlow* explicit_flow() const { return nullptr; }
  /// The right-hand side of the ODE this model integrates, for a model whose integrator is an
  /// ODE on a state other than explicit_flow()'s (the first-order path of a Lagrangian affine in
  /// the velocities); std::nullopt for the others (DAE paths, and explicit_flow() models, whose
  /// rates tape is that function). Throws ModelError when the input's sizes do not match.
  virtual std::optional<RightHandSide> MakeRightHandSide(const SimulationInput& input) const {
    (void)input;
    return std::nullopt;
  }
  /// Maps a simulation input to the state x of explicit_flow() (the free coordinates by name).
  /// Throws ModelError when there is no flow or sizes do not match.
  virtual std::vector<double> FlowState(const SimulationInput& input) const;
  /// Names of the state x of explicit_flow() (the free coordinates of M_f), in FlowState's
  /// order; empty when the model has no explicit flow. Throws nothing.
  std::vector<std::string> FlowStateNames() const;
  /// True if the scenario poses a boundary-value problem (`boundary_value:`) whose unknowns
  /// are free initial values of this model (see dirac/shooting.hpp).
  bool has_boundary_value_problem() const { return has_boundary_value_problem_; }
  /// The poses of the bodies and the wheels' contact points of a scenario written with
  /// `bodies:` (dirac/body_poses.hpp), compiled with the model so that a scene evaluates them
  /// without GiNaC; nullptr for a hand-written Lagrangian.
  const std::shared_ptr<const BodyPoseEvaluator>& body_poses() const { return body_poses_; }

  /// Names of columns() in order (the CSV header).
  std::vector<std::string> TrajectoryColumns() const;
  /// Names of the columns of one kind, in column order.
  std::vector<std::string> ColumnsOfKind(ColumnKind kind) const;
  /// The initial value named `name`, or nullptr.
  const InitialValueInfo* FindInitialValue(const std::string& name) const;

 protected:
  bool has_boundary_value_problem_ = false;

 private:
  friend std::shared_ptr<const Model> BuildModel(const Scenario& scenario);
  std::shared_ptr<const BodyPoseEvaluator> body_poses_;
};

/// Short lower-case name of a column kind ("coordinate", "multiplier", ...), for reports.
const char* ColumnKindName(ColumnKind kind);

}  // namespace dirac
