#pragma once
/// @file optimal_control_spec.hpp
/// The problems a scenario poses beyond a motion: a two-point boundary-value problem
/// (`boundary_value:`, solved by shooting) and an optimal-control problem (`optimal_control:`:
/// controls, cost, boundary conditions, bounds, path constraints, and the settings of the
/// shooting and collocation solves). Plain data (nothing throws); times in seconds, other values
/// in the units of the quantities they name. Part of the scenario's data (dirac/scenario.hpp);
/// the solvers are in dirac/optimal_control.hpp and dirac/shooting.hpp. Layer: scenario.

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dirac/source_location.hpp"

namespace dirac {

/// A two-point boundary-value problem solved by shooting (`dirac solve`): the named initial
/// values are the unknowns, the named trajectory columns must take the target values at t_end.
struct BoundaryValueSpec {
  std::vector<std::string> unknowns;                    ///< --set names (initial values)
  std::vector<std::pair<std::string, double>> targets;  ///< column name -> value at t_end
  SourceLocation where;
  bool present() const { return !unknowns.empty(); }
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

/// A path constraint g(t, q, y, u) <= 0 (`optimal_control.path_constraints`), written as an
/// inequality "lhs <= rhs" or "lhs >= rhs" between two expressions in t, the coordinates, the
/// velocities or fibre coordinates, the parameters and the controls; collocation imposes it at
/// every node.
struct PathConstraintSpec {
  std::string text;  ///< as written, e.g. "x <= l"
  std::string g;     ///< g = (lhs) - (rhs) for <=, (rhs) - (lhs) for >=
  SourceLocation where;
};

/// An optimal control problem (`optimal_control:`, solved by `dirac solve`): minimise
/// int_0^T C(t, q, y, u) dt over the controlled motions of the scenario's mechanical system
/// (its Lagrangian on TQ or on the algebroid, with reconstruction) between the boundary values.
/// Quantities not listed in `initial` are fixed at the scenario's initial values (coordinates,
/// fibre coordinates, reconstruction initial); quantities not listed in `final` are free.
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

}  // namespace dirac
