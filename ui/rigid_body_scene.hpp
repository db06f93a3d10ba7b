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

#include <vtkSmartPointer.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "drawn_scene.hpp"

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
  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key if the box is malformed, an option is unknown or the model has no columns
  /// <attitude>11 .. <attitude>33.
  explicit RigidBodyScene(const SceneContext& context);

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;

  /// The body axis (0, 1, 2) whose tip the trail follows: the box's longest side.
  std::size_t trail_axis() const { return trail_axis_; }
  /// Rotation matrix (row-major) drawn at the last SetTime; identity before any data.
  const std::array<double, 9>& attitude() const { return attitude_; }
  /// Whether the momentum arrow is shown (the trajectory has the spatial_momentum columns).
  bool shows_momentum() const;
  /// The notice shown in the view instead of the body ("" when the body is drawn), e.g. when
  /// the snapshot's trajectory lacks a column.
  std::string message_text() const;
  /// The legend text in the corner of the view.
  std::string legend_text() const;

 private:
  void UpdateLegend();

  std::string prefix_;
  std::array<std::string, 9> attitude_names_;
  std::array<double, 3> box_{1.6, 1.1, 0.6};
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
  vtkSmartPointer<vtkActor> box_actor_;
  std::array<vtkSmartPointer<vtkActor>, 3> body_axes_;
  vtkSmartPointer<vtkAxesActor> space_axes_;
  vtkSmartPointer<vtkActor> sphere_;  // faint sphere the trail lies on
  vtkSmartPointer<vtkPolyData> trail_data_;
  vtkSmartPointer<vtkActor> trail_;
  vtkSmartPointer<vtkActor> tip_;
  vtkSmartPointer<vtkActor> momentum_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
};

}  // namespace dirac::ui
