#pragma once
/// @file scenario_spec.hpp
/// A scenario as plain data: what the YAML file says, before any derivation: the mechanical
/// system (coordinates, parameters, Lagrangian, definitions, constraints, bodies, algebroid,
/// reconstruction), the formulation, the settings, the view and the posed problems, in
/// `Scenario`. Values are in the units the file gives (each coordinate's and parameter's
/// `unit`); times in seconds. Nothing here throws. See docs/scenario-format.md for the file
/// syntax; reading and writing files and --set overrides are in dirac/scenario_io.hpp and
/// dirac/scenario_overrides.hpp (all three: dirac/scenario.hpp). Layer: scenario.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/multibody_spec.hpp"
#include "dirac/optimal_control_spec.hpp"
#include "dirac/simulation_settings.hpp"
#include "dirac/source_location.hpp"
#include "dirac/view_spec.hpp"

namespace dirac {

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
  double min = 0.0;          ///< slider range
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

/// Lie algebroid data (`algebroid:`, seed L §2.1): base coordinates are the scenario's
/// coordinates; TQ is the case without this section (rho = identity, zero brackets). A Lie
/// algebra has no coordinates.
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

}  // namespace dirac
