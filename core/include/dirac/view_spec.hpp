#pragma once
/// @file view_spec.hpp
/// What a scenario asks the window to show (`view:`): the 3D scene and its options, and the
/// plots (charts against time, phase portraits, Poincaré sections). Plain data (nothing throws),
/// read by the window's scenes and plots; no units of its own (the columns carry theirs). Part of
/// the scenario's data (dirac/scenario.hpp). Layer: scenario.

#include <array>
#include <string>
#include <vector>

#include "dirac/scene_options.hpp"
#include "dirac/source_location.hpp"

namespace dirac {

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

}  // namespace dirac
