#pragma once
/// @file rolling_disk_scene.hpp
/// Scene type "rolling_disk": a thin disk rolling on the ground plane z = 0, free to lean (the
/// rolling disk / Euler's disk). The disk is drawn as a thin shaded cylinder of radius R standing
/// on its contact point, leaning by its tilt angle and turned about its axle by its rolling angle
/// (a dark stripe across both faces and the axle show it spin), with the fading trail of the
/// contact point on the ground, the whole run's contact path faint, a heading arrow on the ground
/// and a grid under the motion, seen obliquely.
///
/// Frames (those of scenarios/rolling_disk.yaml): heading theta about the vertical gives the
/// rolling direction b1 = (cos theta, sin theta, 0); the tilt alpha turns the disk about b1, so
/// its axle is b2 = (-cos(alpha) sin(theta), cos(alpha) cos(theta), sin(alpha)) and the centre is
/// at contact + R b3, b3 = (sin(alpha) sin(theta), -sin(alpha) cos(theta), cos(alpha)); the
/// rolling angle phi turns the disk about b2.
///
/// Options (`view.scene`): contact (required: [x, y], trajectory columns of the contact point),
/// heading, tilt (required: trajectory columns [rad]), spin (optional trajectory column [rad]),
/// radius (a positive number or the name of a parameter, read again on every edit; default
/// 0.3), trail (samples, default 1000).

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
class vtkArrowSource;
class vtkCubeSource;
class vtkCylinderSource;
class vtkDiskSource;
class vtkPlaneSource;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace dirac::ui {

class RollingDiskScene : public DrawnScene {
 public:
  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key (e.g. "view.scene.tilt") if a column is not a trajectory column of the model, the radius
  /// is neither a positive number nor a parameter, or a key is unknown.
  explicit RollingDiskScene(const SceneContext& context);

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// Moves the default oblique view a little closer (the path is several disk sizes across).
  void OnCameraReset() override;
  std::optional<GroundPlane> Ground() const override;
  /// Re-reads the radius when it names a parameter; true if it changed.
  bool OnScenarioEdited(const dirac::Scenario& scenario) override;

  /// The disk's radius as drawn [scene units].
  double radius() const { return radius_; }
  /// Contact point (x, y), heading, tilt and spin drawn at the last SetTime.
  std::array<double, 5> pose() const { return pose_; }
  /// Centre of the disk drawn at the last SetTime (contact + R b3).
  Vec3 centre() const { return centre_; }
  /// Unit axle direction b2 drawn at the last SetTime.
  Vec3 axle() const { return axle_; }
  /// The notice shown instead of the disk ("" when it is drawn).
  std::string message_text() const;
  std::string legend_text() const;
  vtkActor2D* legend() const override { return legend_; }

 private:
  void UpdateGeometry();
  void UpdateLegend();

  std::string x_, y_, heading_, tilt_, spin_;  // column names (spin_ may be empty)
  std::array<std::size_t, 5> columns_{};       // x, y, heading, tilt, spin in the snapshot
  std::string radius_parameter_;               // empty: a fixed radius
  double radius_ = 0.3;
  std::size_t trail_samples_ = 0;

  SnapshotPtr snapshot_;
  bool columns_ok_ = false;
  std::optional<std::array<double, 4>> extent_;  // of the contact point over the run
  std::array<double, 5> pose_{};
  Vec3 centre_{};
  Vec3 axle_{0.0, 1.0, 0.0};

  vtkSmartPointer<vtkCylinderSource> disk_source_;
  vtkSmartPointer<vtkCubeSource> stripe_source_;
  vtkSmartPointer<vtkCylinderSource> axle_source_;
  vtkSmartPointer<vtkDiskSource> contact_source_;
  vtkSmartPointer<vtkArrowSource> arrow_source_;
  vtkSmartPointer<vtkActor> disk_;
  vtkSmartPointer<vtkActor> stripe_;
  vtkSmartPointer<vtkActor> axle_actor_;
  vtkSmartPointer<vtkActor> contact_;
  vtkSmartPointer<vtkActor> heading_arrow_;
  vtkSmartPointer<vtkPolyData> trail_data_;
  vtkSmartPointer<vtkActor> trail_;
  vtkSmartPointer<vtkPolyData> path_data_;  // the whole run's contact path, faint
  vtkSmartPointer<vtkActor> path_;
  vtkSmartPointer<vtkPlaneSource> ground_source_;
  std::array<double, 4> ground_rect_{};  // x0, x1, y0, y1 of the ground (Ground)
  vtkSmartPointer<vtkActor> ground_;
  vtkSmartPointer<vtkPolyData> grid_data_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
  vtkSmartPointer<vtkRenderer> renderer_;  // the one AddTo() drew into
};

}  // namespace dirac::ui
