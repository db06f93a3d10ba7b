#pragma once
/// @file planar_points_scene.hpp
/// Scene type "planar_points": points moving in one plane (e.g. point vortices), each a sphere
/// at two trajectory columns (x, y) on the plane z = 0 with its fading trail, over a grid of the
/// plane, seen obliquely.
///
/// Options (`view.scene`): points (required: a list of maps {x, y: trajectory columns; label}),
/// trail (samples, default 500), scale (> 0, factor on the sphere size, default 1).

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"
#include "scenes/scene_markers.hpp"

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;
class vtkTextActor;

namespace dirac::ui {

/// Point colours in order: the scene kit's kSceneOrange, then blue, green, purple.
class PlanarPointsScene : public DrawnScene {
 public:
  static constexpr std::array<Rgb, 4> kPointColors{
      {kSceneOrange, {20, 150, 255}, {60, 200, 90}, {200, 70, 210}}};

  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key (e.g. "view.scene.points[1].y") if there are no points, a column is not a trajectory
  /// column of the model or a key is unknown.
  explicit PlanarPointsScene(const SceneContext& context);

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// Moves the markers whose centre or radius names an edited parameter (the grid follows with
  /// the next run).
  bool OnScenarioEdited(const dirac::Scenario& scenario) override {
    return markers_.OnScenarioEdited(scenario);
  }
  /// The static markers (`markers`, scene_markers.hpp).
  const SceneMarkers& markers() const { return markers_; }

  std::size_t point_count() const { return points_.size(); }
  /// Position (x, y) of point i drawn at the last SetTime.
  std::array<double, 2> position(std::size_t i) const { return points_[i].position; }
  /// The notice shown instead of the points ("" when they are drawn).
  std::string message_text() const;
  std::string legend_text() const;
  vtkActor2D* legend() const override { return legend_; }

 private:
  struct Point {
    std::string x, y, label;
    std::size_t x_column = 0, y_column = 0;  // in the snapshot's trajectory
    std::array<double, 2> position{};
    vtkSmartPointer<vtkSphereSource> sphere;
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkPolyData> trail_data;
    vtkSmartPointer<vtkActor> trail;
    vtkSmartPointer<vtkPolyData> path_data;  // the whole run, faint
    vtkSmartPointer<vtkActor> path;
  };

  void UpdateLegend();

  std::vector<Point> points_;
  SceneMarkers markers_;
  std::size_t trail_samples_ = 0;
  double scale_ = 1.0;
  SnapshotPtr snapshot_;
  bool columns_ok_ = false;
  std::optional<std::array<double, 4>> extent_;  // xmin, xmax, ymin, ymax over the run

  vtkSmartPointer<vtkPolyData> grid_data_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
};

}  // namespace dirac::ui
