#pragma once
/// @file rigid_body_scene.hpp
/// Scene type "rigid_body": a box turning about the origin, oriented by the rotation matrix in
/// the trajectory (columns <attitude>11 .. <attitude>33, row-major, body-to-space), with its body
/// axes, the fixed space axes, the path of one body axis' tip and, if the trajectory has the
/// columns spatial_momentum_x/y/z, the spatial angular momentum.
///
/// Options (`view.scene`): attitude (column prefix, default "R"; <attitude>11 .. 33 must be
/// trajectory columns), box (3 positive side lengths, default [1.6, 1.1, 0.6]), scale (factor on
/// the drawn size, default 1), trail (samples, default 500).
///
/// With an `optimal_control:` block whose SO3 reconstruction is named like the attitude, the
/// boundary attitudes are drawn as translucent ghosts of the box (read through
/// dirac::CurrentValue: initial.<R>.x/y/z, final.<R>.x/y/z as rotation vectors; a ghost whose
/// components are not all fixed is not drawn): the start in cyan, the target in magenta. The
/// target can be turned programmatically (SetTargetRotation, RotateTarget) or by dragging its
/// ghost with the left mouse button; either edits final.<R>.x/y/z through SceneContext::edit.

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"

class vtkActor;
class vtkAxesActor;
class vtkCubeSource;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace dirac::ui {

/// The box is drawn in the scene kit's kSceneOrange (image checks find it); body axes e1, e2,
/// e3 red, green, blue; the momentum arrow yellow.
class RigidBodyScene : public DrawnScene {
 public:
  static constexpr Rgb kStartGhostColor{40, 215, 235};   ///< cyan
  static constexpr Rgb kTargetGhostColor{240, 60, 200};  ///< magenta

  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key if the box is malformed, an option is unknown or the model has no columns
  /// <attitude>11 .. <attitude>33.
  explicit RigidBodyScene(const SceneContext& context);

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  bool OnScenarioEdited(const dirac::Scenario& scenario) override;
  bool OnPointerPress(vtkRenderer* renderer, int x, int y) override;
  void OnPointerMove(vtkRenderer* renderer, int x, int y) override;
  void OnPointerRelease() override;

  /// The start and target attitudes drawn as ghosts (nullopt: none).
  const std::optional<Rotation>& start_rotation() const { return start_; }
  const std::optional<Rotation>& target_rotation() const { return target_; }
  /// Moves the target ghost to R (a rotation matrix, row-major, body to space) and edits
  /// final.<R>.x/y/z (its rotation vector) through SceneContext::edit. False (nothing done) if
  /// the scenario has no target attitude.
  bool SetTargetRotation(const Rotation& R);
  /// Turns the target by `angle` [rad] about the space axis `axis` (R -> Exp(angle axis) R).
  bool RotateTarget(const Vec3& axis, double angle);
  /// True while a drag of the target ghost is in progress.
  bool dragging_target() const { return dragging_; }

  /// The body axis (0, 1, 2) whose tip the trail follows: the box's longest side.
  std::size_t trail_axis() const { return trail_axis_; }
  /// The box's sides and the body axes' lengths from the centre, in scene units (an axis
  /// reaches out of the box: length > half its side).
  const std::array<double, 3>& box_sides() const { return box_; }
  const std::array<double, 3>& axis_lengths() const { return axis_length_; }
  /// Rotation matrix (row-major) drawn at the last SetTime; identity before any data.
  const std::array<double, 9>& attitude() const { return attitude_; }
  /// Whether the momentum arrow is shown (the trajectory has the spatial_momentum columns).
  bool shows_momentum() const;
  /// The notice shown in the view instead of the body ("" when the body is drawn), e.g. when
  /// the snapshot's trajectory lacks a column.
  std::string message_text() const;
  /// The legend text in the corner of the view.
  std::string legend_text() const;
  vtkActor2D* legend() const override { return legend_; }

 private:
  void UpdateLegend();
  void ReadGhosts(const dirac::Scenario& scenario);
  void UpdateGhosts();

  std::string prefix_;
  bool has_boundary_attitudes_ = false;  // optimal_control with this SO3 reconstruction
  std::optional<Rotation> start_;
  std::optional<Rotation> target_;
  std::function<void(const std::vector<std::pair<std::string, double>>&)> edit_;
  bool dragging_ = false;
  int drag_x_ = 0, drag_y_ = 0;
  std::array<std::string, 9> attitude_names_;
  std::array<double, 3> box_{1.6, 1.1, 0.6};
  // The `inertia` option's parameter names (empty: the box keeps its `box` sides).
  std::vector<std::string> inertia_names_;
  void SizeBoxFromInertias(const dirac::Scenario& scenario);
  std::array<double, 3> axis_length_{};  // body axis arrows [scene units]
  std::size_t trail_axis_ = 0;
  std::size_t trail_samples_ = 0;
  double reach_ = 1.0;  // radius of everything drawn [scene units]

  SnapshotPtr snapshot_;
  std::optional<std::array<std::size_t, 9>> attitude_columns_;  // in snapshot_->trajectory
  std::optional<std::array<std::size_t, 3>> momentum_columns_;
  double max_momentum_ = 0.0;
  std::array<double, 9> attitude_{1, 0, 0, 0, 1, 0, 0, 0, 1};

  vtkSmartPointer<vtkCubeSource> cube_;
  vtkSmartPointer<vtkCubeSource> edge_cube_;  // a hair larger than cube_
  vtkSmartPointer<vtkActor> box_actor_;
  vtkSmartPointer<vtkActor> box_edges_;  // its edges as line cells (MakeEdgesActor)
  std::array<vtkSmartPointer<vtkActor>, 3> body_axes_;
  vtkSmartPointer<vtkAxesActor> space_axes_;
  vtkSmartPointer<vtkActor> sphere_;  // faint sphere the trail lies on
  vtkSmartPointer<vtkPolyData> trail_data_;
  vtkSmartPointer<vtkActor> trail_;
  vtkSmartPointer<vtkActor> tip_;
  vtkSmartPointer<vtkActor> momentum_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
  // Ghosts: translucent faces and opaque edges, each.
  vtkSmartPointer<vtkActor> start_faces_, start_edges_, target_faces_, target_edges_;
};

}  // namespace dirac::ui
