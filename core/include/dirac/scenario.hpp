#pragma once
/// @file scenario.hpp
/// A scenario as plain data: what the YAML file says, before any derivation.
/// See docs/scenario-format.md for the file syntax.

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dirac/multibody_spec.hpp"
#include "dirac/scene_options.hpp"

namespace dirac {

/// Where a value came from in the scenario file (1-based line; 0 if not from a file).
struct SourceLocation {
  std::size_t line = 0;
};

/// A generalized coordinate q^i with its velocity symbol v^i and initial values.
struct Coordinate {
  std::string name;               ///< symbol of q^i, e.g. "x"
  std::string velocity;           ///< symbol of v^i, e.g. "vx"
  double initial = 0.0;           ///< q^i(0)
  double initial_velocity = 0.0;  ///< v^i(0)
  /// `initial_velocity` written as an expression of the parameters (e.g. "-v/rR"), "" for a
  /// number: it follows the parameters (UpdateDerivedParameters) until the velocity is set.
  std::string initial_velocity_expression;
  bool initial_velocity_set = false;
  std::string unit;               ///< display unit of q^i (free text)
  std::string momentum;           ///< symbol of p_i (vakonomic formulation), default "p_<name>"
  double initial_momentum = 0.0;  ///< p_i(0) (vakonomic formulation)
  /// `solve: true`: q^i(0) is solved from the holonomic constraints (Newton from `initial`, the
  /// starting guess); otherwise q^i(0) is given and must satisfy them (docs/scenario-format.md).
  bool solve = false;
  /// Whether the file (or a --set) gave v^i(0) (`initial_velocity`). With holonomic constraints
  /// the dependent velocities are chosen among those not given and solved from the constraint
  /// forms at q0 (scenario::SolveInitialState).
  bool velocity_given = true;
  /// Set by the engine: v^i(0) was solved from the constraint forms (a dependent velocity).
  bool velocity_solved = false;
  SourceLocation where;
};

/// Which presymplectic system the scenario is built into.
enum class Formulation {
  kAuto,                 ///< regular L: index-1 DAE; degenerate L: constraint algorithm
  kLagrangeDirac,        ///< as kAuto (the Lagrange–Dirac system on TQ, seed D eq (29))
  kConstraintAlgorithm,  ///< always run the Gotay–Nester–Hinds algorithm on (TQ, Omega_L, E_L)
  kVakonomic,            ///< Skinner–Rusk on W0 = T*Q x_Q M (seed V)
  kSecondOrder,          ///< Pontryagin bundle of a second-order problem (seed L §3.4.2)
  kOptimalControl,       ///< the optimality system of `optimal_control:` (implied by the block)
};

/// A second-order variational problem L(q, y, z) with z = y' (seed L §3.4.2): its
/// acceleration symbols and the initial values of the Pontryagin bundle's extra coordinates
/// (accelerations z^A, costates p_<y> and pbar_<y>), by name.
struct SecondOrderSpec {
  std::vector<std::string> accelerations;               ///< z^A, one per velocity / fibre
  std::vector<std::pair<std::string, double>> initial;  ///< name -> value (default 0)
  SourceLocation where;
  /// Value of `name` in `initial`, or 0.
  double InitialValue(const std::string& name) const;
};

/// A value for a free function (gauge freedom) left by the constraint algorithm.
struct GaugeChoice {
  std::string name;   ///< e.g. "lambda1", as reported by `dirac analyze`
  std::string value;  ///< expression in t, coordinates, velocities, momenta, parameters
  SourceLocation where;
};

/// A live parameter of the model: changing it never re-derives equations.
struct Parameter {
  std::string name;
  double value = 0.0;  ///< current value (starts at the file's `default`)
  double default_value = 0.0;
  /// A derived parameter: the file's `default` as an expression of constants and earlier
  /// parameters (e.g. "Pi/10", "rR + rF"), "" for a number. Its value follows the parameters it
  /// names on every edit (UpdateDerivedParameters) until the parameter itself is set.
  std::string default_expression;
  bool set_by_user = false;  ///< set by --set / an edit: no longer follows its expression
  double min = 0.0;  ///< slider range
  double max = 1.0;
  std::string unit;
  std::string description;
  SourceLocation where;
};

/// A nonholonomic constraint <omega^r(q), v> = 0 (on a Lie algebroid: <A^r(q), y> = 0),
/// written as an expression linear in the velocities (fibre coordinates) (e.g. "vz - y*vx + x*vy").
/// Its multiplier is named `multiplier`.
struct ConstraintSpec {
  std::string name;        ///< used for the residual column "residual_<name>"
  std::string form;        ///< expression linear (homogeneous) in the velocities
  std::string multiplier;  ///< multiplier symbol / CSV column, e.g. "mu"
  SourceLocation where;
  /// The multiplier's display unit (`unit:`, e.g. "N" for a contact force, "V" for a loop
  /// voltage; a body model's generated contacts: "N"); "" if the file does not say.
  std::string unit;
};

/// A named intermediate expression (`definitions:`): an expression in t, the coordinates, the
/// velocities, the parameters and earlier definitions, usable by name in every later expression
/// of the file (docs/scenario-format.md, "Definitions").
struct Definition {
  std::string name;
  std::string value;  ///< expression text
  SourceLocation where;
};

/// A holonomic constraint f(q) = 0 (`holonomic:`), enforced at position level; its differential
/// df = (df/dq) v joins the velocity constraints with the multiplier `multiplier`.
struct HolonomicSpec {
  std::string name;        ///< used for the residual column "position_residual_<name>"
  std::string equation;    ///< expression f(q; parameters, t), the constraint is f = 0
  std::string multiplier;  ///< multiplier symbol / CSV column
  SourceLocation where;
  std::string unit;  ///< the multiplier's display unit (`unit:`; rolling contacts: "N"), or ""
};

/// Upper bound on the samples of one run (t_end / output_step): beyond it a run is refused.
inline constexpr double kMaxSamples = 2e7;

/// How a system is integrated (`simulation.method`); the names and where each applies are the
/// registry of dirac/integrators.hpp, the choice on each model dynamics::ResolveMethod.
enum class IntegrationMethod {
  kAuto,   ///< Adams unless the linearisation at t = 0 is stiff, then BDF (see ChooseMethod)
  kAdams,  ///< ODE (multipliers eliminated): CVODES Adams-Moulton, fixed-point iteration
  kBdf,    ///< ODE (multipliers eliminated): CVODES BDF, Newton with the exact Jacobian,
           ///< the constraint kept by CVODES' projection
  kIdas,   ///< the index-1 DAE in (q, y, mu) with IDAS (BDF) and a Baumgarte term
  /// fixed-step variational integrator on TQ (midpoint discrete Lagrangian, order 2 or 4 by
  /// composition; discrete Lagrange-d'Alembert constraints)
  kVariational,
  /// fixed-step isospectral midpoint on the Lie–Poisson (Lax) form of an Euler–Poincaré system on
  /// a matrix Lie algebra with a diagonal trace form (so(n), Zeitlin's torus): Casimirs kept to
  /// round-off
  kIsospectral,
  /// fixed-step Lie group variational integrator of the free rigid body on SO(3)
  /// (Lee–Leok–McClamroch): the attitude on SO(3) and the spatial angular momentum to round-off
  kLieVariational,
};

/// "auto", "adams", "bdf", "idas", "isospectral", "lie_variational" or "variational".
const char* IntegrationMethodName(IntegrationMethod method);
/// The method named `name` (as IntegrationMethodName), or nullopt.
std::optional<IntegrationMethod> IntegrationMethodFromName(const std::string& name);

/// How the compiled tapes of a model are evaluated (`simulation.tape`); the results are
/// bit-identical either way, only the speed differs.
enum class TapeMode {
  kAuto,         ///< machine code if the model's tapes are in the on-disk cache, else the
                 ///< interpreter while a background compile fills the cache (never waits)
  kNative,       ///< machine code, compiled now if not cached (the interpreter if that fails)
  kInterpreter,  ///< the tape interpreter only
};

/// "auto", "native" or "interpreter".
const char* TapeModeName(TapeMode mode);
/// The mode named `name` (as TapeModeName), or nullopt.
std::optional<TapeMode> TapeModeFromName(const std::string& name);

/// The linear algebra of the integrator's Newton iteration (`simulation.linear_solver`): the
/// results agree to the integration tolerance either way, only the cost per step differs.
enum class LinearSolverMode {
  kAuto,    ///< sparse (KLU) from 100 unknowns when the Jacobian's sparsity pattern fills at
            ///< most a quarter of it, else dense LU (dynamics/sparse_jacobian.hpp)
  kDense,   ///< dense LU at every size
  kSparse,  ///< sparse LU (KLU) at every size (tests and measurements)
};

/// "auto", "dense" or "sparse".
const char* LinearSolverModeName(LinearSolverMode mode);
/// The mode named `name` (as LinearSolverModeName), or nullopt.
std::optional<LinearSolverMode> LinearSolverModeFromName(const std::string& name);

/// Integration settings.
struct SimulationSpec {
  double t_end = 10.0;        ///< final time [s]
  double output_step = 0.01;  ///< sampling interval of the trajectory [s]
  double rtol = 1e-10;        ///< IDAS relative tolerance
  double atol = 1e-12;        ///< IDAS absolute tolerance
  /// Baumgarte rate alpha [1/s] in the index-1 constraint d/dt g + alpha g = 0 (0 = none).
  double stabilization = 1.0;
  /// Integrator (the IDAS path uses `stabilization`).
  IntegrationMethod method = IntegrationMethod::kAuto;
  /// Fixed step [s] of the fixed-step methods (`variational`, `isospectral`,
  /// `lie_variational`); 0 = not set. output_step and
  /// t_end must then be whole multiples of it.
  double step = 0.0;
  /// Order of the fixed-step methods: 2 (midpoint) or 4 (triple-jump composition).
  int order = 2;
  /// Machine code or interpreter for the compiled tapes (same results).
  TapeMode tape = TapeMode::kAuto;
  /// Dense or sparse linear algebra in the integrator (same results to the tolerance).
  LinearSolverMode linear_solver = LinearSolverMode::kAuto;
};

/// What is wrong with simulation settings: the offending key and why.
struct SettingProblem {
  std::string key;  ///< "t_end", "output_step", "rtol", "atol", "stabilization", "step", "order"
  std::string message;
};

/// The one check of a whole SimulationSpec (used by the reader, the --set overrides and every
/// integrator): t_end > 0, output_step > 0, t_end / output_step <= kMaxSamples, rtol, atol > 0,
/// stabilization >= 0, all finite. Returns the first problem, or nullopt if the spec can run.
std::optional<SettingProblem> CheckSimulationSpec(const SimulationSpec& spec);

/// Throws ModelError "simulation settings: KEY MESSAGE" if CheckSimulationSpec finds a problem
/// (for integrators handed a spec that did not come through the reader).
void RequireValidSimulationSpec(const SimulationSpec& spec);

/// What the 3D view shows: `type` selects a scene in the GUI, which reads and validates its
/// own options (`view.scene` minus `type`, see dirac/scene_options.hpp).
struct SceneSpec {
  std::string type = "particle";
  SceneOptions options;
  SourceLocation where;
};

/// One plot: a title and the trajectory columns it shows against time (`series`), or a phase
/// portrait (`pairs`: each pair's second column against its first), or, with `section`, the
/// Poincaré section of the pairs: the points where the expression `section` of the columns
/// crosses zero in `section_direction` (dirac/poincare_section.hpp).
struct PlotSpec {
  std::string title;
  std::vector<std::string> series;
  /// Phase portrait: (x column, y column) pairs; empty for a chart against time.
  std::vector<std::array<std::string, 2>> pairs;
  /// With pairs: g of the Poincaré section ("" draws the curves instead).
  std::string section;
  /// "+", "-" or "both" (ParseCrossingDirection).
  std::string section_direction = "+";
  SourceLocation where;
  bool is_phase_portrait() const { return !pairs.empty(); }
};

/// A fibre coordinate y^A of a Lie algebroid E -> Q (the component along the section X_A).
struct FibreCoordinate {
  std::string name;
  double initial = 0.0;
  std::string unit;
  SourceLocation where;
};

/// A symbolic term list "sum_k value_k * basis_k", basis named by coordinate or section.
using Components = std::vector<std::pair<std::string, std::string>>;

/// rho(X_section) = sum_i components_i d/dq^i.
struct AnchorSpec {
  std::string section;
  Components components;
  SourceLocation where;
};

/// [X_a, X_b] = sum_C value_C X_C (the structure functions C^C_ab(q)).
struct BracketSpec {
  std::string a, b;
  Components value;
  SourceLocation where;
};

/// Lie algebroid data (seed L §2.1): base coordinates are the scenario's coordinates; TQ is the
/// case without this section (rho = identity, zero brackets). A Lie algebra has no coordinates.
/// A Lie algebra named by a family and a size (`algebroid.algebra`): the engine generates its
/// basis (the fibre coordinates), structure constants and checks; docs/scenario-format.md.
struct LieAlgebraSpec {
  bool present = false;
  std::string family;  ///< "so", "su", "se" or "zeitlin_torus"
  int size = 0;        ///< n, or N for zeitlin_torus
  /// The inertia operator I of L = ½ <y, I y> when the Lagrangian is generated: "laplacian"
  /// (the torus' |m|²) or "diagonal" (the values below, numbers or parameter names); "" when
  /// the scenario writes its own `lagrangian`.
  std::string inertia;
  std::vector<std::string> diagonal;
  /// Initial values as given (by basis name): of y, or of the momentum p = I y.
  std::vector<std::pair<std::string, double>> initial, initial_momentum;
  SourceLocation where;
};

struct AlgebroidSpec {
  bool present = false;
  LieAlgebraSpec algebra;  ///< a family-named Lie algebra; then `fibre` is generated
  std::vector<FibreCoordinate> fibre;
  std::vector<AnchorSpec> anchor;     ///< sections not listed have zero anchor
  std::vector<BracketSpec> brackets;  ///< pairs not listed commute
  SourceLocation where;
};

/// Reconstruction of the motion on a group from a body velocity (g' = g xi^, Lie group method).
struct ReconstructionSpec {
  std::string group;                       ///< "" (none), "SO3" or "SE2"
  std::vector<std::string> body_velocity;  ///< 3 expressions: SO3 Omega; SE2 (u, v, omega)
  std::vector<std::string> names;          ///< SE2: [x, y, theta] columns; SO3: prefix "R"
  std::vector<double> initial;             ///< SE2: x, y, theta; SO3: 9 entries row-major
  SourceLocation where;
};

/// A two-point boundary-value problem solved by shooting (`dirac solve`): the named initial
/// values are the unknowns, the named trajectory columns must take the target values at t_end.
struct BoundaryValueSpec {
  std::vector<std::string> unknowns;                    ///< --set names (initial values)
  std::vector<std::pair<std::string, double>> targets;  ///< column name -> value at t_end
  SourceLocation where;
  bool present() const { return !unknowns.empty(); }
};

/// The optional `stability:` block: the operating point and the sweep of the window's
/// Stability view (docs/scenario-format.md, docs/linearization.md), as `dirac linearize
/// --ignorable ... --speeds ... [--find] --set ... --vary NAME=FROM:TO:COUNT` would take them.
struct StabilitySpec {
  bool present = false;
  std::vector<std::string> ignorable;  ///< coordinates of the steady motion to drop
  std::vector<std::string> speeds;     ///< independent speeds (velocity names)
  bool find = false;                   ///< find the operating point by Newton's method
  /// --set values of the operating point, applied over the scenario's own values.
  std::vector<std::pair<std::string, double>> point;
  std::string vary;  ///< the swept --set name (a parameter or an initial value)
  double from = 0.0, to = 1.0;
  std::size_t count = 201;  ///< evenly spaced values, 2 ... 100000
  SourceLocation where;
};

/// A control input u_a forcing the equation of one velocity / fibre coordinate y^A (seed L
/// eqs (38)–(39)): EL_A(q, y, y') = u_a. Directions without a control are unactuated
/// (EL_alpha = 0, the second-order constraints Phi^alpha of seed L §4.2).
struct ControlSpec {
  std::string name;     ///< symbol of u_a in the cost, e.g. "u1"; also its trajectory column
  std::string acts_on;  ///< the velocity or fibre coordinate whose equation it forces, e.g. "w1"
  std::string unit;     ///< display unit of the control ("N m"; "" if none given)
  SourceLocation where;
};

/// One boundary value of an optimal-control problem at t = 0 or t = T. `quantity` names a base
/// coordinate, a velocity / fibre coordinate, or a component of the reconstructed group element:
/// SO3 "R.x", "R.y", "R.z" (the rotation vector of R, log R = [x, y, z]^, rad; R = exp of it),
/// SE2 its three names (x, y, theta; theta compared modulo 2 pi). Its `--set` name is
/// "initial.<quantity>" or "final.<quantity>".
struct BoundaryCondition {
  std::string quantity;
  bool free = false;   ///< no condition: the transversality condition holds instead
  double value = 0.0;  ///< target value (ignored when free)
  SourceLocation where;
};

/// Settings of the multiple-shooting solve.
struct ShootingSettings {
  int nodes = 0;             ///< shooting intervals (0: chosen from the horizon; 1: single)
  int max_iterations = 40;   ///< Newton iterations per solve (continuation steps count apart)
  double tolerance = 1e-10;  ///< max |residual| accepted
  /// Work bound: integrator steps over all the integrations of one solve (the shipped problems
  /// take under 1 000). Past it the solve stops, unconverged, and says so.
  long max_steps = 100000;
};

/// A box bound min <= name <= max (`optimal_control.bounds`) on a control, a base coordinate or
/// a velocity / fibre coordinate, held along the whole motion. One side may be infinite. Its
/// `--set` names are "bounds.<name>.min" and "bounds.<name>.max".
struct VariableBound {
  std::string name;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  SourceLocation where;
};

/// How `dirac solve` solves an optimal-control problem: shooting (indirect, smooth problems:
/// no bounds, fixed horizon), collocation (direct, on the group; bounds and a free horizon),
/// or auto (shooting when the problem has neither bounds nor a free horizon, else collocation).
enum class OptimalControlMethod { kAuto, kShooting, kCollocation };

/// The collocation formula on each mesh interval: Hermite-Simpson (separated form, fourth order;
/// the default) or the trapezoidal rule (second order).
enum class CollocationScheme { kHermiteSimpson, kTrapezoidal };

/// Settings of the direct-collocation solve (`optimal_control.collocation`).
struct CollocationSettings {
  int nodes = 0;  ///< collocation intervals of the first mesh (0: chosen from the problem)
  CollocationScheme scheme = CollocationScheme::kHermiteSimpson;
  /// Mesh refinement: intervals whose error estimate (the dynamics' residual of the collocation
  /// polynomial integrated over the interval, relative to 1 + max |x_i|) exceeds this are split
  /// and the NLP re-solved from the interpolated solution, until none does ...
  double mesh_tolerance = 1e-6;
  int mesh_rounds = 8;        ///< ... or this many refinements (0: the first mesh only) ...
  int max_nodes = 2000;       ///< ... or the mesh would exceed this many intervals
  int max_iterations = 3000;  ///< NLP (interior-point) iterations
  double tolerance = 1e-9;    ///< NLP tolerance (scaled KKT error and constraint violation)
  /// `hessian: exact` (default): the Hessian of the NLP's Lagrangian from the tapes' second
  /// derivatives; `limited-memory`: IPOPT's L-BFGS approximation instead.
  bool exact_hessian = true;
  /// `polish: auto` (default): a converged solve with a fixed horizon, no terminal cost and no
  /// inequality active at the optimum is handed to multiple shooting (started from the nodes'
  /// states and costates), whose optimum replaces it; `off`: the collocation result as it is.
  bool polish = true;
};

/// An optimal control problem (`optimal_control:`, solved by `dirac solve`): minimise
/// int_0^T C(t, q, y, u) dt over the controlled motions of the scenario's mechanical system
/// (its Lagrangian on TQ or on the algebroid, with reconstruction) between the boundary values.
/// Quantities not listed in `initial` are fixed at the scenario's initial values (coordinates,
/// fibre coordinates, reconstruction initial); quantities not listed in `final` are free.
/// A path constraint g(t, q, y, u) <= 0 (`optimal_control.path_constraints`), written as an
/// inequality "lhs <= rhs" or "lhs >= rhs" between two expressions in t, the coordinates, the
/// velocities or fibre coordinates, the parameters and the controls; collocation imposes it at
/// every node.
struct PathConstraintSpec {
  std::string text;  ///< as written, e.g. "x <= l"
  std::string g;     ///< g = (lhs) - (rhs) for <=, (rhs) - (lhs) for >=
  SourceLocation where;
};

struct OptimalControlSpec {
  bool present = false;
  std::vector<ControlSpec> controls;
  std::string cost;  ///< C(t, q, y, u; parameters)
  SourceLocation cost_where;
  /// phi(t, q, y; parameters) at t = T, added to the cost (`terminal_cost`; "" for none): with
  /// a free horizon, `terminal_cost: "t"` is the final time.
  std::string terminal_cost;
  SourceLocation terminal_cost_where;
  std::vector<PathConstraintSpec> path_constraints;  ///< in file order
  /// T [s] (the guess when the horizon is free); --set name "horizon" (fixes it), and
  /// "horizon_guess" (keeps it free).
  double horizon = 1.0;
  bool horizon_free = false;  ///< `horizon: free`: T is an unknown in [horizon_min, horizon_max]
  /// Bounds of a free horizon [s], finite, 0 < min < max; --set "horizon_bounds.min" / ".max".
  double horizon_min = 0.0;
  double horizon_max = std::numeric_limits<double>::infinity();
  std::vector<VariableBound> bounds;  ///< in file order, each name once
  OptimalControlMethod method = OptimalControlMethod::kAuto;
  CollocationSettings collocation;
  std::vector<BoundaryCondition> initial;  ///< conditions at t = 0
  std::vector<BoundaryCondition> final;    ///< conditions at t = T
  ShootingSettings shooting;
  SourceLocation where;
};

/// A whole scenario file.
struct Scenario {
  std::string source_file;  ///< path it was loaded from ("" if built in memory)
  std::string name;
  std::string description;
  std::vector<Coordinate> coordinates;
  std::vector<Parameter> parameters;
  std::string lagrangian;  ///< L(q, v; parameters, t)
  SourceLocation lagrangian_where;
  /// True when `lagrangian` was generated from `algebroid.algebra.inertia` (not written back).
  bool lagrangian_generated = false;
  std::vector<Definition> definitions;  ///< in file order; each may use the earlier ones
  /// The display unit of L and of the energy column E as the file gives it (`energy_unit:`,
  /// free text such as "J"), "" if it does not; the engine does not check it.
  std::string energy_unit;
  /// The unit of L the reader found from the units of the symbols it uses (coordinates,
  /// velocities, parameters, fibre coordinates, t; "J" for kg m^2/s^2), "" where they do not
  /// say it (a symbol without a unit or in a unit it does not know, terms of different units).
  std::string inferred_energy_unit;
  std::vector<ConstraintSpec> constraints;
  std::vector<HolonomicSpec> holonomic;
  /// Frames, points, bodies, rolling wheels (empty for a hand-written Lagrangian). With bodies,
  /// `lagrangian` is generated (lagrangian_generated) and the rolling / knife-edge entries of
  /// `constraints` and `holonomic` are generated from it (not written back).
  MultibodySpec multibody;
  AlgebroidSpec algebroid;
  ReconstructionSpec reconstruction;
  SecondOrderSpec second_order;
  BoundaryValueSpec boundary_value;
  StabilitySpec stability;
  OptimalControlSpec optimal_control;
  Formulation formulation = Formulation::kAuto;
  std::vector<GaugeChoice> gauge;
  SimulationSpec simulation;
  SceneSpec scene;
  std::vector<PlotSpec> plots;

  /// Index of the parameter named `name`, if any.
  std::optional<std::size_t> FindParameter(const std::string& name) const;
  /// The energy's display unit: `energy_unit` if given, else `inferred_energy_unit` ("" if
  /// neither says it).
  const std::string& EnergyUnit() const {
    return energy_unit.empty() ? inferred_energy_unit : energy_unit;
  }
};

/// The one check of an optimal-control problem's bounds and free horizon (used by the reader,
/// the --set overrides and the solvers): every bound names a control, a base coordinate or a
/// velocity / fibre coordinate and has min <= max (no NaN); a free horizon has finite bounds
/// 0 < horizon_min < horizon_max and its guess between them; no fixed boundary value (listed,
/// or an unlisted initial value of the scenario) lies outside its quantity's bound (no motion
/// could meet both). Returns the first problem with its --set style key ("bounds.u1",
/// "horizon_bounds", "horizon_guess"), or nullopt. Nothing to check without the block.
std::optional<SettingProblem> CheckOptimalControlBounds(const Scenario& scenario);

/// Largest scenario file accepted [bytes]; a longer file (or stream) is refused before it is read
/// whole.
inline constexpr std::size_t kMaxScenarioBytes = 1 << 20;
/// Deepest YAML nesting accepted (block indentation levels, sequence dashes and flow brackets
/// counted together); deeper text is refused before the YAML parser recurses into it.
inline constexpr std::size_t kMaxYamlDepth = 64;

/// Reads and validates a scenario file. Throws ScenarioError ("FILE:LINE: ...", naming the key
/// or symbol) on malformed YAML, missing keys, duplicate or reserved symbol names, bad numbers.
/// Expressions are checked for syntax, unknown symbols and the limits of the expression parser
/// (length, depth, arity, finite constants). A directory, or a file or stream longer than
/// kMaxScenarioBytes (e.g. /dev/zero), is refused with ScenarioError after reading at most
/// kMaxScenarioBytes + 1 bytes.
Scenario LoadScenario(const std::string& path);

/// What a listing of scenario files shows: the `name:` and `description:` of a file, read
/// without checking its expressions (no GiNaC: safe on any thread while a derivation runs).
struct ScenarioSummary {
  std::string name;         ///< `name:`, "" if absent
  std::string description;  ///< `description:`, "" if absent
};

/// Reads the summary of the scenario file at `path`. Throws ScenarioError as LoadScenario for a
/// file that cannot be read, is too long, nests too deep or is not valid YAML, and for a
/// document that is not a map or whose name or description is not text. Expressions and
/// everything else are checked only by LoadScenario.
ScenarioSummary ReadScenarioSummary(const std::string& path);

/// Parses a scenario from YAML text; `origin` is used as the file name in messages. Throws
/// ScenarioError as LoadScenario, also for text longer than kMaxScenarioBytes or nested deeper
/// than kMaxYamlDepth (naming the line).
Scenario ParseScenario(const std::string& yaml_text, const std::string& origin);

/// Serialises a scenario back to YAML (with current parameter values as defaults);
/// ParseScenario(SaveScenarioToString(s)) gives the same problem.
std::string SaveScenarioToString(const Scenario& scenario);

/// Writes SaveScenarioToString(scenario) to `path` atomically (temporary file + rename).
/// Throws IoError naming the path.
void SaveScenario(const Scenario& scenario, const std::string& path);

/// Applies a `--set NAME=VALUE` override. NAME may be a parameter, a coordinate (its initial
/// value), a velocity symbol (initial velocity), a momentum symbol (initial momentum) or one of
/// t_end, output_step, rtol, atol, stabilization. With an `optimal_control` block also horizon
/// (> 0; it and t_end are the one T and set each other), initial.<quantity> and final.<quantity>
/// (sets the boundary value and makes it fixed, adding a quantity not yet listed). With a
/// `boundary_value` block, final.<column> sets a target. Throws ScenarioError naming NAME if it
/// is unknown or VALUE is not a number.
void ApplyOverride(Scenario& scenario, const std::string& name, double value);

/// The current value of a `--set` NAME: a parameter's value, a coordinate's initial value,
/// initial velocity or momentum, a fibre coordinate's initial value, a second-order problem's
/// initial acceleration or costate (p_<y>, pbar_<y>; 0 unless set), or one of t_end,
/// output_step, rtol, atol, stabilization. In the scenario's own units (those of the parameter
/// or coordinate; seconds for t_end and output_step, 1/s for stabilization). With an
/// `optimal_control` block also horizon, initial.X and final.X: the listed value, or for an
/// initial quantity not listed the scenario's initial value (SO3 components: the rotation vector
/// of reconstruction.initial); nullopt for a free quantity and an unlisted final one. nullopt if
/// NAME is none of these (where ApplyOverride would throw); throws nothing.
std::optional<double> CurrentValue(const Scenario& scenario, const std::string& name);

/// Re-evaluates every derived parameter (Parameter::default_expression) not set by the user,
/// in file order, from the current values of the parameters it names, then every initial
/// velocity written as an expression (Coordinate::initial_velocity_expression) not set. Called by the overrides;
/// callers that edit Parameter::value directly call it after. Throws ScenarioError if an
/// expression cannot be evaluated to a finite number (naming the parameter).
void UpdateDerivedParameters(Scenario& scenario);

/// Sets the formulation by its file name (auto, lagrange_dirac, constraint_algorithm,
/// vakonomic, second_order, optimal_control). As in the file, auto with an `optimal_control`
/// block means optimal_control. Throws ScenarioError for an unknown name, and for
/// optimal_control without the block.
void SetFormulation(Scenario& scenario, const std::string& name);

/// Parses "NAME=VALUE" and applies it (see ApplyOverride); VALUE "free" releases a boundary
/// value (initial.<q> / final.<q>). Throws ScenarioError.
void ApplyOverride(Scenario& scenario, const std::string& assignment);

/// Applies several "NAME=VALUE" overrides as one change: the simulation settings are checked
/// together after the last one (so `t_end=0.02 output_step=1e-9` is judged against the new
/// t_end, in either order). On any error the scenario is unchanged. Throws ScenarioError.
void ApplyOverrides(Scenario& scenario, const std::vector<std::string>& assignments);

}  // namespace dirac
