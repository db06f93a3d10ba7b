#pragma once
/// @file column_units.hpp
/// What a trajectory column measures, for axis titles and for grouping a chart's series onto
/// axes: its display unit (from the scenario's coordinate, fibre and group units) and its kind
/// (from the model's ColumnKind). Scenario-generic: no column is known by name.

#include <map>
#include <string>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac::ui {

/// Unit and kind of one column; either may be empty (unknown).
struct ColumnQuantity {
  std::string unit;  ///< e.g. "m", "rad/s", "s"; "" if the scenario does not say
  std::string kind;  ///< e.g. "coordinate", "energy", "residual"; "" without a model
  /// What the column measures in words, for the axis title: from the unit where it says it
  /// ("angle", "angular velocity", "charge"), else from the kind ("multiplier", "constraint
  /// residual", "Pontryagin Hamiltonian"), else from the name ("spatial momentum" of
  /// spatial_momentum_x); "" if nothing says it.
  std::string words;
  /// A sentence for the chart's tooltip where the name and words leave it open, else "".
  std::string about;
  /// The key two columns share when they may share an axis: the unit if known, else "(kind)",
  /// else "" (goes with any axis).
  std::string Key() const { return !unit.empty() ? unit : kind.empty() ? "" : "(" + kind + ")"; }
};

/// A short human name of a column kind ("coordinate", "velocity", "multiplier", ...).
std::string ColumnKindLabel(dirac::ColumnKind kind);

/// Every column the model (may be null: the scenario's coordinates only) produces, described:
/// t in s; a coordinate in its `unit`; its velocity (and a rate "<q>_dot") in unit/s; a fibre
/// coordinate, a control (optimal_control.controls) and a multiplier (its constraint's `unit`)
/// in their units; the energy E in the unit of L (Scenario::EnergyUnit: `energy_unit:` or the
/// one the reader inferred; none for the Pontryagin Hamiltonian of a solve); reconstructed SO3
/// matrix entries dimensionless ("1"), the SE2 angle in rad; other columns with their kind only.
/// Every column gets its words. A model that offers the gauge two-form also gets its columns
/// (B_norm, omega_change, identity_residual), in units of the symplectic form.
std::map<std::string, ColumnQuantity> DescribeColumns(const dirac::Model* model,
                                                      const dirac::Scenario& scenario);

}  // namespace dirac::ui
