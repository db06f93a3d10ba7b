#pragma once
/// @file particle_scene.hpp
/// Scene type "particle": a point in R^3 with its trail, its velocity, the coordinate axes, the
/// constraint plane Delta(q) through it and, when the snapshot carries one, the comparison
/// trajectory (same scenario, other formulation) as a magenta trail.
///
/// Options (`view.scene`): position (3 trajectory columns drawn as x, y, z; default the first
/// three scenario coordinates), trail (samples, default 500), scale (glyph size > 0, default 1),
/// constraint_plane (a scenario constraint whose plane Delta(q) is drawn; needs position to name
/// coordinates).
///
/// For a scenario that poses a solve (boundary_values.hpp) whose boundary values fix all three
/// drawn columns at t = 0 or at t = T, the start and the target point are drawn as translucent
/// ghosts (cyan, magenta). The target can be moved programmatically (SetTargetPoint) or by
/// dragging its ghost with the left mouse button (in the plane of the screen); either edits
/// final.<column> for the three columns through SceneContext::edit.

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenes/constraint_geometry.hpp"
#include "scenes/drawn_scene.hpp"

class vtkActor;
class vtkAxesActor;
class vtkPlaneSource;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;
class vtkTextActor;

namespace dirac::ui {

/// The particle is drawn in the scene kit's kSceneOrange (image checks find it); the comparison
/// trajectory in kComparisonColor (magenta).
class ParticleScene : public DrawnScene {
 public:
  static constexpr std::array<unsigned char, 3> kComparisonColor{235, 60, 235};
  static constexpr std::array<unsigned char, 3> kStartGhostColor{40, 215, 235};
  static constexpr std::array<unsigned char, 3> kTargetGhostColor{240, 60, 200};

  /// Reads and checks the options above. The velocity arrow uses the rate columns "<q>_dot" if
  /// the model has them, else the coordinates' velocity columns. Throws dirac::ScenarioError
  /// naming the file, line and key of a bad option.
  explicit ParticleScene(const SceneContext& context);

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;

  /// Number of points of the comparison's full path (0 when there is none), for tests.
  std::size_t comparison_path_points() const;
  /// The legend text in the corner of the view.
  std::string legend_text() const;
  vtkActor2D* legend() const override { return legend_; }

  bool OnScenarioEdited(const dirac::Scenario& scenario) override;
  bool OnPointerPress(vtkRenderer* renderer, int x, int y) override;
  void OnPointerMove(vtkRenderer* renderer, int x, int y) override;
  void OnPointerRelease() override;
  /// The start and target points drawn as ghosts (nullopt: none).
  const std::optional<std::array<double, 3>>& start_point() const { return start_point_; }
  const std::optional<std::array<double, 3>>& target_point() const { return target_point_; }
  /// Moves the target ghost to `p` and edits final.<column> of the three drawn columns through
  /// SceneContext::edit. False (nothing done) if there is no target point.
  bool SetTargetPoint(const std::array<double, 3>& p);
  bool dragging_target() const { return dragging_; }

 private:
  void UpdatePath();
  void UpdateFrame();
  void UpdateTrail(std::size_t row);
  void UpdateComparison(double t);
  void UpdateLegend();
  void UpdatePlane(std::size_t row, const std::array<double, 3>& p);
  void ReadEndPoints(const dirac::Scenario& scenario);
  void UpdateEndPoints();
  void UpdateVelocity(std::size_t row, const std::array<double, 3>& p);
  std::array<double, 3> PositionAt(std::size_t row) const;

  std::shared_ptr<const dirac::Model> model_;
  std::vector<std::string> coordinate_names_;  // the scenario's q, in order
  std::array<std::string, 3> position_names_;
  std::array<std::size_t, 3> position_columns_{};
  std::optional<std::array<std::size_t, 3>> velocity_columns_;
  std::array<std::size_t, 3> coordinate_indices_{};  // of the drawn coordinates in q
  std::optional<std::size_t> plane_constraint_;
  std::string plane_name_;
  std::size_t trail_samples_ = 0;
  double scale_ = 1.0;
  double radius_ = 0.1;  // of the particle [scene units], from UpdateFrame()
  double glyph_ = 1.0;   // size of the plane and the arrow [scene units], from UpdateFrame()
  double max_speed_ = 0.0;
  std::optional<std::array<double, 6>> bounds_;  // camera box, from UpdateFrame()

  SnapshotPtr snapshot_;
  std::unique_ptr<ConstraintCovectorSampler> covectors_;
  std::optional<std::array<std::size_t, 3>> comparison_columns_;  // in snapshot_->comparison
  std::string comparison_label_;  // of the legend line, "" without a comparison

  vtkSmartPointer<vtkSphereSource> sphere_;
  vtkSmartPointer<vtkActor> particle_;
  vtkSmartPointer<vtkPolyData> trail_data_;
  vtkSmartPointer<vtkActor> trail_;
  vtkSmartPointer<vtkPolyData> path_data_;
  vtkSmartPointer<vtkActor> path_;
  vtkSmartPointer<vtkPlaneSource> plane_source_;
  vtkSmartPointer<vtkActor> plane_;
  vtkSmartPointer<vtkActor> velocity_;
  vtkSmartPointer<vtkAxesActor> axes_;
  vtkSmartPointer<vtkPolyData> floor_data_;
  vtkSmartPointer<vtkActor> floor_;
  vtkSmartPointer<vtkPolyData> comparison_path_data_;
  vtkSmartPointer<vtkActor> comparison_path_;
  vtkSmartPointer<vtkPolyData> comparison_trail_data_;
  vtkSmartPointer<vtkActor> comparison_trail_;
  vtkSmartPointer<vtkSphereSource> comparison_sphere_;
  vtkSmartPointer<vtkActor> comparison_particle_;
  vtkSmartPointer<vtkTextActor> legend_;

  // Boundary points of a solve: ghosts, the target draggable.
  std::optional<std::array<double, 3>> start_point_, target_point_;
  std::function<void(const std::vector<std::pair<std::string, double>>&)> edit_;
  bool dragging_ = false;
  int drag_x_ = 0, drag_y_ = 0;
  vtkSmartPointer<vtkSphereSource> ghost_sphere_;
  vtkSmartPointer<vtkActor> start_ghost_, start_ghost_edges_, target_ghost_, target_ghost_edges_;
};

}  // namespace dirac::ui
