#pragma once
/// @file default_plots.hpp
/// The charts a scenario gets when its `view:` names no plots: built from the model's columns by
/// kind, so they fit any scenario and any size.

#include <vector>

#include "dirac/model.hpp"
#include "dirac/view_spec.hpp"

namespace dirac::ui {

/// At most this many series in one default chart; a larger group shows its first ones and says
/// so in the title ("Coordinates (first 8 of 40)").
inline constexpr int kMaxDefaultSeries = 8;

/// The default charts of `model`, in this order and skipping empty groups: "Coordinates",
/// "Energy", "Multipliers" and "Constraint residuals" (ColumnKind kCoordinate, kEnergy,
/// kMultiplier, kConstraintResidual), each capped at kMaxDefaultSeries series.
std::vector<dirac::PlotSpec> DefaultPlots(const dirac::Model& model);

}  // namespace dirac::ui
