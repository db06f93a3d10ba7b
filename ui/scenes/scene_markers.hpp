#pragma once
/// @file scene_markers.hpp
/// Static markers a scenario declares beside the motion in a planar scene (`view.scene.markers`):
/// discs in the plane of the motion, e.g. the obstacle of an optimal-control path constraint.
/// A centre coordinate or radius may name a parameter, re-read on every edit, so `--set xo=3`
/// or the panel moves the marker with the constraint that reads the same parameter.

#include <vtkSmartPointer.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dirac/scenario_spec.hpp"
#include "dirac/scene_options.hpp"

class vtkActor;
class vtkRenderer;

namespace dirac::ui {

/// The markers of one scene. Keys of each entry of `markers` (a list of maps):
///  - `shape`: `disc` (the default and, for now, the only shape): a filled disc with its rim;
///  - `x`, `y` (required): the centre, each a number or a parameter's name;
///  - `radius` (required): a number >= 0 or a parameter's name (0 draws nothing);
///  - `label`: the legend's name for it (default "marker i").
/// Drawn flat just under the trails in a top view, as an upright cylinder of `height` standing
/// on the ground in a 3D view.
class SceneMarkers {
 public:
  struct Marker {
    std::string label;
    std::string x_text, y_text, radius_text;  ///< as written: numbers or parameters' names
    double x = 0.0, y = 0.0, radius = 1.0;    ///< current values
    vtkSmartPointer<vtkActor> fill, rim;
  };

  SceneMarkers() = default;
  /// Reads `options.Maps("markers")` (none if absent). Throws dirac::ScenarioError naming the
  /// file, line and key (`view.scene.markers[0].radius`) for a missing centre or radius, a
  /// value that is neither a number nor a parameter (or a negative radius), an unknown shape or
  /// key. `z` is the height of the top view's discs; `height` > 0 makes them cylinders (3D).
  SceneMarkers(const dirac::Scenario& scenario, const dirac::SceneOptions& options, double z,
               double height);

  bool empty() const { return markers_.empty(); }
  const std::vector<Marker>& markers() const { return markers_; }
  void AddTo(vtkRenderer* renderer) const;
  /// Moves the top view's discs to height `z` (a scene whose scale is known only from its run).
  void SetLevel(double z);
  /// Re-reads the parameters the markers name; true if a marker moved or changed size.
  bool OnScenarioEdited(const dirac::Scenario& scenario);
  /// xmin, xmax, ymin, ymax over all markers; nullopt without markers.
  std::optional<std::array<double, 4>> Extent() const;
  /// One legend line per marker ("red disc: obstacle, centre (xo, yo) = (2, -0.2), radius r =
  /// 0.8").
  std::string LegendLines() const;

 private:
  void Place(Marker& marker) const;
  double z_ = 0.0, height_ = 0.0;
  std::vector<Marker> markers_;
};

/// The marker colour (a muted red: neither the bodies' palette nor the ghosts' cyan / magenta).
inline constexpr std::array<unsigned char, 3> kMarkerRim{235, 80, 80};

}  // namespace dirac::ui
