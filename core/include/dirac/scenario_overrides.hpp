#pragma once
/// @file scenario_overrides.hpp
/// `--set NAME=VALUE` overrides of a scenario (parameters, initial values, settings, boundary
/// values and bounds), the current value of such a NAME, derived parameters and the formulation by
/// name: what the CLI, the window's edits and the Python module change a loaded scenario with.
/// Values in the scenario's own units (seconds for t_end and output_step). Every function throws
/// ScenarioError naming NAME for an unknown name or a bad value (CurrentValue throws nothing).
/// Declares `Scenario` only: include dirac/scenario_spec.hpp for its members. Layer: scenario.

#include <optional>
#include <string>
#include <vector>

namespace dirac {

struct Scenario;

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
/// velocity written as an expression (Coordinate::initial_velocity_expression) not set. Called by
/// the overrides; callers that edit Parameter::value directly call it after. Throws ScenarioError
/// if an expression cannot be evaluated to a finite number (naming the parameter).
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
