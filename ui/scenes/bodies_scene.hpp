#pragma once
/// @file bodies_scene.hpp
/// Scene type "bodies": the rigid bodies of a scenario written with `bodies:` (frames, points,
/// bodies, rolling wheels), each drawn at its centre of mass and turned by its frame, with the
/// fading trails of the rolling wheels' contact points on the ground plane. It is the default
/// scene of any scenario with bodies and no `view.scene`.
///
/// Poses come from the engine (dirac::BodyPoseEvaluator: compiled once when the scene is made,
/// evaluated for every sample of a run). The shapes: a body's `shape` (`box` [a, b, c] along
/// its x, y, z; `cylinder` [radius, length] and `disc` [radius] about the axis of its rolling
/// wheel, else its z axis; `sphere` [radius]); a body without a shape is drawn as the uniform
/// box with its principal moments of inertia, along its principal axes (each side at least
/// 0.12 of the longest). The ground is the plane through the origin normal to the scenario's
/// up direction (`ground.up`, else against gravity), and the default camera keeps that
/// direction up (DrawnScene::up).
///
/// Options (`view.scene`, all optional): trail (samples of each contact's trail, default 1000),
/// bodies (a list of body names to draw, default all).

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dirac/body_poses.hpp"
#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"

class vtkActor;
class vtkPlaneSource;
class vtkPolyData;
class vtkTextActor;

namespace dirac::ui {

class BodiesScene : public DrawnScene {
 public:
  /// Takes the model's compiled body poses (Model::body_poses(), derived with the model) and
  /// reads the options above. Throws dirac::ScenarioError naming the file, line and key for an
  /// unknown body name or option, or a scenario without bodies.
  explicit BodiesScene(const SceneContext& context);
  ~BodiesScene() override;

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  /// The bodies at the time cursor with a margin (the run's path may be many bodies long; the
  /// camera then follows them, see OnCameraReset).
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// Starts following the bodies: SetTime moves the camera with their centre until the user
  /// turns or moves it.
  void OnCameraReset() override;
  std::optional<GroundPlane> Ground() const override;
  std::array<double, 3> up() const override { return up_; }
  vtkActor2D* legend() const override { return legend_; }

  /// The poses drawn at the last SetTime (empty before a run).
  const dirac::BodyPoses& drawn_poses() const { return drawn_; }
  /// Names of the bodies drawn, in file order.
  std::vector<std::string> body_names() const;
  std::string legend_text() const;
  std::string message_text() const;

 private:
  struct DrawnBody;
  void MakeBodies(const dirac::BodyPoses& poses);
  void PlaceBody(DrawnBody& body, const dirac::BodyPose& pose) const;
  void UpdateGround();
  Vec3 BodiesCentre() const;
  void FollowBodies();

  std::shared_ptr<const dirac::BodyPoseEvaluator> evaluator_;
  std::vector<std::size_t> coordinate_columns_;  // the coordinates' columns in the snapshot
  std::vector<std::string> coordinate_names_;
  std::vector<double> parameters_;               // the scenario's values until a run has its own
  std::vector<bool> shown_;                      // per body: drawn (the `bodies` option)
  std::vector<Vec3> wheel_axes_;                 // per body: its rolling axis (body frame), or z
  Vec3 up_{0.0, 0.0, 1.0};
  std::size_t trail_samples_ = 1000;

  SnapshotPtr snapshot_;
  std::uint64_t poses_run_ = 0;
  std::vector<dirac::BodyPoses> poses_;  // per sample of the snapshot's trajectory
  dirac::BodyPoses drawn_;
  std::optional<std::array<double, 6>> extent_;  // of the bodies over the run
  std::array<double, 4> ground_rect_{};          // in the ground's own (e1, e2) coordinates

  std::vector<DrawnBody> bodies_;
  std::vector<vtkSmartPointer<vtkPolyData>> trails_, paths_;
  std::vector<vtkSmartPointer<vtkActor>> trail_actors_, path_actors_;
  vtkSmartPointer<vtkPlaneSource> ground_source_;
  vtkSmartPointer<vtkActor> ground_;
  vtkSmartPointer<vtkPolyData> grid_data_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
  vtkRenderer* renderer_ = nullptr;
  bool following_ = false;  // the camera follows the bodies (until the user moves it)
  Vec3 followed_centre_{};  // the bodies' centre when the camera was last placed
  Vec3 camera_position_{}, camera_focal_{};  // where it was placed
};

}  // namespace dirac::ui
