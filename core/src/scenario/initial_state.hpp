#pragma once
// Internal: holonomic constraints f(q) = 0 in the scenario layer. Their differentials as
// constraint forms (what every formulation on TQ reads), and the consistent initial state:
// coordinates marked `solve: true` solved by Newton so that f(q0) = 0, then the dependent
// velocities solved from the constraint forms at q0 (docs/scenario-format.md, "Holonomic
// constraints").

#include <set>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"

namespace dirac::scenario {

/// Parses each holonomic equation with the declared `names` and refuses (ScenarioError naming
/// the file, the entry's line and its name) one that depends on a velocity, a momentum or t.
void CheckHolonomicEquations(const Scenario& s, const std::set<std::string>& names);

/// The differential df = sum_i (df/dq^i) v^i of each holonomic constraint as a constraint form
/// with the constraint's name and multiplier (canonical text, re-read by every formulation).
std::vector<ConstraintSpec> HolonomicDifferentials(const Scenario& s);

/// `s` with HolonomicDifferentials(s) appended to its `constraints` (its `holonomic` kept, for
/// the position residuals). `s` itself when it has no holonomic constraints.
Scenario WithHolonomicDifferentials(const Scenario& s);

/// Tolerance on |f(q0)| [the units of f] below which given initial coordinates are accepted,
/// and to which Newton solves the coordinates marked `solve: true`.
inline constexpr double kHolonomicTolerance = 1e-12;

/// Makes the initial state consistent with the holonomic constraints (nothing without them,
/// except refusing `solve: true`): the coordinates marked `solve: true` are solved by Newton
/// (minimum-norm steps) from their `initial` so that f(q0) = 0; the dependent velocities, chosen
/// by column pivoting on the constraint Jacobian A(q0) (nonholonomic forms and holonomic
/// differentials) among the velocities the file does not give, then among the given ones, are
/// solved from A(q0) v0 = 0 and flagged `velocity_solved`. Throws ScenarioError (file, line,
/// key): given coordinates that violate f (with the residual), Newton failing (with the
/// residual reached), constraint forms dependent at q0, a given velocity the forms fix at
/// another value. `set_names` are the --set names of this change: one naming a coordinate that
/// is solved, or a velocity that is dependent, is refused with the reason (line 0, that name).
void SolveInitialState(Scenario& s, const std::set<std::string>& set_names = {});

}  // namespace dirac::scenario
