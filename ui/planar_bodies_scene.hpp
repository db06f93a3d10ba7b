#pragma once
/// @file planar_bodies_scene.hpp
/// Scene type "planar_bodies": rigid bodies moving in the plane, seen from above. Each
/// scene.bodies entry is a rounded slab of `length` x `width` centred at the trajectory columns
/// (x, y) and turned by the sum of its `angle` columns; later bodies lie slightly above earlier
/// ones. The trail of each body centre, a floor grid and a legend complete the picture.
///
/// Options (`view.scene`): bodies (a list of maps {x, y: trajectory columns; angle: one column
/// or a list, summed; length, width: positive, default 1 x 0.5; label}), trail (samples,
/// default 500), style (`top`, the default, or `3d`).
///
/// Style `3d`: the bodies are shaded solids stacked on a ground plane (the first on the ground,
/// each later one above the previous, on an axle where they share a centre: Elroy's beanie is
/// a main body with its rotor on top), heading marks on their top faces, the centre's trail on
/// the ground, seen by a perspective camera that follows the bodies; dragging orbits the camera
/// around them (it keeps following).
///
/// With an `optimal_control:` block the start and target configurations are drawn as outlines
/// of the bodies (cyan, magenta): the boundary values initial.<column> / final.<column> of the
/// bodies' x, y and angle columns where the problem fixes them (dirac::CurrentValue), else the
/// optimum's own first / last sample.

#include <vtkSmartPointer.h>

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drawn_scene.hpp"
#include "scene_kit.hpp"

class vtkActor;
class vtkCallbackCommand;
class vtkObject;
class vtkPlaneSource;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace dirac::ui {

/// Camera: a parallel top view (looking along -z, y up). Whenever the view has just been reset
/// (SceneView::ResetCamera calls OnCameraReset) the scene takes the camera over and keeps the
/// current bodies and their recent trail in view, following a drifting motion; once the user
/// moves the camera it is left alone until the next reset.
class PlanarBodiesScene : public DrawnScene {
 public:
  /// Body colours in order (body 1 the scene kit's kSceneOrange, body 2 blue, ...).
  static constexpr std::array<std::array<unsigned char, 3>, 4> kBodyColors{
      {kSceneOrange, {20, 150, 255}, {60, 200, 90}, {200, 70, 210}}};
  static constexpr Rgb kStartGhostColor{40, 215, 235};   ///< cyan
  static constexpr Rgb kTargetGhostColor{240, 60, 200};  ///< magenta

  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key (e.g. "view.scene.bodies[1].width") if there are no bodies, a size is not positive, a
  /// column is not a trajectory column of the model or a key is unknown.
  explicit PlanarBodiesScene(const SceneContext& context);
  ~PlanarBodiesScene() override;

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// Takes the camera over for the following top view (until the user moves it).
  void OnCameraReset() override;
  bool OnScenarioEdited(const dirac::Scenario& scenario) override;
  /// True if the start and target outlines are drawn (an optimal_control block and a run).
  bool shows_boundary_ghosts() const { return has_boundary_ && columns_ok_; }

  std::size_t body_count() const { return bodies_.size(); }
  /// Pose (x, y, angle) of body i drawn at the last SetTime.
  std::array<double, 3> pose(std::size_t i) const { return bodies_[i].pose; }
  /// Whether the scene currently steers the camera (top view following the motion; in 3d,
  /// following the bodies, also after the user orbited).
  bool camera_following() const { return camera_owned_; }
  /// True for `style: 3d`.
  bool three_d() const { return three_d_; }
  /// The notice shown instead of the bodies ("" when they are drawn).
  std::string message_text() const;
  /// The legend text in the corner of the view.
  std::string legend_text() const;
  /// The poses at the cursor, shown in the top right corner (the view follows the bodies, so
  /// where they are is not otherwise visible).
  std::string readout_text() const;

 private:
  struct Body {
    std::string x, y;
    std::vector<std::string> angle;
    double length = 1.0, width = 0.5;
    double z0 = 0.0, z1 = 0.0;  // bottom and top of the slab
    std::string label;
    // Resolved in the current snapshot's trajectory.
    std::size_t x_column = 0, y_column = 0;
    std::vector<std::size_t> angle_columns;
    std::array<double, 3> pose{};
    vtkSmartPointer<vtkActor> slab;
    vtkSmartPointer<vtkActor> marker;  // heading triangle on the top face
    vtkSmartPointer<vtkActor> axle;    // 3d: to the body below (same centre), else null
    vtkSmartPointer<vtkActor> start_ghost, target_ghost;  // outlines at the boundary values
  };
  struct Trail {           // of one distinct centre (x, y column pair)
    std::size_t body = 0;  // the first body with this centre
    vtkSmartPointer<vtkPolyData> data;
    vtkSmartPointer<vtkActor> actor;
  };

  static void OnStartRender(vtkObject* caller, unsigned long event, void* client, void* data);
  void SteerCamera();
  void SteerCamera3D();
  void ReadBoundary(const dirac::Scenario& scenario);
  void UpdateGhosts();
  void UpdateFrame();
  void UpdateGrid();
  void UpdateLegend();
  std::array<double, 3> PoseAt(const Body& body, std::size_t row) const;

  bool three_d_ = false;
  bool has_boundary_ = false;               // optimal_control: the boundary outlines
  std::map<std::string, double> boundary_;  // fixed initial.<column> / final.<column> values
  std::array<double, 3> followed_{};        // 3d: the centre the camera followed at the last render
  vtkSmartPointer<vtkActor> ground_;        // 3d: the ground plane
  vtkSmartPointer<vtkPlaneSource> ground_source_;
  std::vector<Body> bodies_;
  std::vector<Trail> trails_;
  std::size_t trail_samples_ = 0;
  double radius_ = 1.0;   // largest half-diagonal of a body [scene units]
  double top_ = 0.0;      // top of the highest slab
  double spacing_ = 1.0;  // of the grid lines

  SnapshotPtr snapshot_;
  bool columns_ok_ = false;
  std::optional<std::array<double, 4>> extent_;  // xmin, xmax, ymin, ymax of the centres
  std::array<double, 2> window_{};               // largest extent of the centres over a trail
  std::array<double, 4> view_box_{};             // what the camera should show now
  std::array<double, 4> bodies_box_{};           // the bodies now (inside view_box_)

  vtkSmartPointer<vtkRenderer> renderer_;  // the one AddTo() drew into; its camera is steered
  vtkSmartPointer<vtkCallbackCommand> start_callback_;
  unsigned long start_observer_ = 0;
  bool camera_owned_ = false;
  bool camera_reset_ = false;           // set by OnCameraReset, consumed by SteerCamera
  std::array<double, 7> camera_set_{};  // focal x, y, z, position z, scale, view up x, y

  vtkSmartPointer<vtkPolyData> grid_data_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkPolyData> axes_data_;
  vtkSmartPointer<vtkActor> axes_;
  vtkSmartPointer<vtkActor> centre_;  // dot at the first body's centre
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> readout_;  // the poses now, top right
  vtkSmartPointer<vtkTextActor> message_;
};

}  // namespace dirac::ui
