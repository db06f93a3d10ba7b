#pragma once
/// @file boundary_values.hpp
/// The boundary values of a scenario's solve, by one set of names for both kinds of block:
/// `optimal_control:` (initial.<q>, final.<q>, horizon: dirac::ApplyOverride / CurrentValue) and
/// `boundary_value:` (initial.<q> is the initial value of q, i.e. the --set name q; final.<column>
/// a target at t_end, a --set name of its own).

#include <optional>
#include <string>
#include <vector>

#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac::ui {

/// True if the scenario poses a solve: an `optimal_control:` or a `boundary_value:` block.
bool PosesSolve(const dirac::Scenario& scenario);

/// One boundary value the panel shows.
struct BoundaryValueInfo {
  std::string name;      ///< "initial.R.x", "final.psi", "horizon"
  std::string quantity;  ///< "R.x", "psi" ("" for the horizon)
  bool initial = false;  ///< at t = 0 (else at t = T, or the horizon)
  bool horizon = false;  ///< T itself
  /// May be released: optimal_control quantities, and its horizon when the problem gives
  /// horizon bounds (`horizon_bounds`: T found within them).
  bool can_free = true;
  std::string unit;  ///< display unit ("" if none)
  /// What the quantity means when its name does not say it (a group component), else "".
  std::string description;
};

/// Every boundary value of the scenario's block, in order: initial.<q> for each quantity, then
/// final.<q>, then the horizon (optimal_control only; a boundary_value block's T is t_end). For
/// optimal_control the quantities are the coordinates, the velocities (on TQ) or fibre
/// coordinates and the reconstruction's group components (SO3 <R>.x/y/z, SE2 its names); for
/// boundary_value the coordinates and velocities that are not unknowns (initial) and the
/// targets (final). Empty without a block.
std::vector<BoundaryValueInfo> ListBoundaryValues(const dirac::Scenario& scenario);

/// True if `name` is one of ListBoundaryValues(scenario) (the horizon included).
bool IsBoundaryValueName(const dirac::Scenario& scenario, const std::string& name);

/// The value of a boundary value; nullopt if it is free (or unknown; a free horizon too, whose
/// guess dirac::CurrentValue still gives).
std::optional<double> GetBoundaryValue(const dirac::Scenario& scenario, const std::string& name);

/// Fixes `name` at `value`, or frees it (nullopt; optimal_control only). Throws
/// dirac::ScenarioError naming it if it cannot be set.
void SetBoundaryValue(dirac::Scenario& scenario, const std::string& name,
                      std::optional<double> value);

}  // namespace dirac::ui
