#pragma once
/// @file planar_bodies_scene.hpp
/// Scene type "planar_bodies": rigid bodies moving in the plane, seen from above. Each
/// scene.bodies entry is a rounded slab of `length` x `width` centred at the trajectory columns
/// (x, y) and turned by the sum of its `angle` columns; later bodies lie slightly above earlier
/// ones. The trail of each body centre, a floor grid and a legend complete the picture.
///
/// Options (`view.scene`): bodies (a list of maps {x, y: trajectory columns; angle: one column
/// or a list, summed; length, width: positive, default 1 x 0.5; label}), trail (samples,
/// default 500), style (`top`, the default, or `3d`), camera (`follow`, the default, or
/// `fixed`: the whole trajectory and the markers framed once, no following), markers (static
/// discs beside the motion, e.g. a path constraint's obstacle; scene_markers.hpp).
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
/// optimum's own first / last sample. The target angles can be turned: programmatically
/// (SetTargetAngle, RotateTarget) or by pressing the left button on a body's target outline and
/// dragging around its centre (the outline follows the pointer's angle about the centre, in the
/// body's plane). A body's outline edits the last of its angle columns whose final value is fixed
/// (Elroy's beanie: the rotor's outline edits final.psi; the main body's final.theta once that is
/// fixed), through SceneContext::edit, as one edit per pointer move.

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"
#include "scenes/scene_markers.hpp"

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
/// moves the camera it is left alone until the next reset. With `camera: fixed` the reset
/// frames the whole path (every centre of the trajectory, a body's size around it, and the
/// markers) and the camera stays there during playback.
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
  std::optional<GroundPlane> Ground() const override;
  bool OnScenarioEdited(const dirac::Scenario& scenario) override;
  /// A press on a target outline with a fixed angle (TargetAngleColumn) takes the drag.
  bool OnPointerPress(vtkRenderer* renderer, int x, int y) override;
  /// Turns the grabbed target by the angle the pointer swept about its centre (in the plane of
  /// the body's mid-height).
  void OnPointerMove(vtkRenderer* renderer, int x, int y) override;
  void OnPointerRelease() override;

  /// The column whose final value turns body i's target outline: the last of its angle columns
  /// with a fixed final value (boundary value final.<column>); nullopt if none is fixed, the
  /// scenario has no optimal_control block or i is out of range.
  std::optional<std::string> TargetAngleColumn(std::size_t i) const;
  /// The fixed final value of an angle column [rad] (final.<column>), nullopt if it is free.
  std::optional<double> target_angle(const std::string& column) const;
  /// Sets final.<column> = value [rad] (a fixed final angle of a body), redraws the outlines and
  /// edits the scenario (SceneContext::edit). False (nothing changed) if `column` is not a body's
  /// angle column with a fixed final value.
  bool SetTargetAngle(const std::string& column, double value);
  /// Turns body i's target outline by `angle` [rad] about its centre: TargetAngleColumn(i) +=
  /// angle. False if body i has no fixed target angle.
  bool RotateTarget(std::size_t i, double angle);
  /// True while a drag of a target outline is in progress.
  bool dragging_target() const { return dragging_ != kNoDrag; }
  /// Pose (x, y, angle) of body i's target outline as drawn; nullopt without outlines.
  std::optional<std::array<double, 3>> target_pose(std::size_t i) const;
  /// Where the point of body i's target outline at `along` (-1 .. 1, from its tail to its tip
  /// along its own x axis, at mid-height) is in VTK display coordinates (pixels, origin bottom
  /// left) with the current camera; nullopt before AddTo or without outlines. For tests.
  std::optional<std::array<double, 2>> TargetDisplayPoint(std::size_t i, double along) const;
  /// Where the world point (x, y, z) is in VTK display coordinates (pixels, origin bottom left)
  /// with the current camera; nullopt before AddTo. For tests.
  std::optional<std::array<double, 2>> DisplayPoint(double x, double y, double z) const;
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
  /// True for `camera: fixed` (the whole path framed, no following).
  bool fixed_camera() const { return fixed_camera_; }
  /// The static markers (`markers`), with their current centres and radii.
  const SceneMarkers& markers() const { return markers_; }
  /// The notice shown instead of the bodies ("" when they are drawn).
  std::string message_text() const;
  /// The legend text in the corner of the view.
  std::string legend_text() const;
  vtkActor2D* legend() const override { return legend_; }
  int TopOverlayDepth(int width, int height) const override;
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
    std::optional<std::array<double, 3>> target_pose;     // of target_ghost, as drawn
  };
  struct Trail {           // of one distinct centre (x, y column pair)
    std::size_t body = 0;  // the first body with this centre
    vtkSmartPointer<vtkPolyData> data;
    vtkSmartPointer<vtkActor> actor;
  };

  static void OnStartRender(vtkObject* caller, unsigned long event, void* client, void* data);
  void SteerCamera();
  void SteerCamera3D();
  // The readout beside the view's time, or under it in a narrow view (planar_bodies_camera.cpp).
  static constexpr int kFontSize = 14;  // the readout's, when it fits
  struct ReadoutLayout {
    bool beside = true;  // in the time's row, else under it
    int font_size = kFontSize;
    int lines = 0;
  };
  ReadoutLayout LayOutReadout(int width) const;
  void PlaceReadout();
  /// Half the side the following top view needs along one axis (planar_bodies_camera.cpp).
  static double FollowHalfSize(double window, double radius);
  /// Half the sides (x, y) the top view shows: the following view's, or with a fixed camera the
  /// whole extent's with a body's margin (planar_bodies_camera.cpp).
  std::array<double, 2> ViewHalfSizes() const;
  /// The extent of the centres, widened to the markers'.
  void IncludeMarkers(std::array<double, 4>& extent) const;
  void ReadBoundary(const dirac::Scenario& scenario);
  void UpdateGhosts();
  void UpdateFrame();
  void UpdateGrid();
  void UpdateLegend();
  std::array<double, 3> PoseAt(const Body& body, std::size_t row) const;
  /// Where the pointer's ray meets the plane z = `z` (world x, y); false if it is parallel.
  static bool PointerOnPlane(vtkRenderer* renderer, int x, int y, double z,
                             std::array<double, 2>& point);

  static constexpr std::size_t kNoDrag = static_cast<std::size_t>(-1);
  std::function<void(const std::vector<std::pair<std::string, double>>&)> edit_;
  std::size_t dragging_ = kNoDrag;  // the body whose target outline is dragged
  double drag_angle_ = 0.0;         // the pointer's angle about the outline's centre

  bool three_d_ = false;
  bool fixed_camera_ = false;  // camera: fixed
  SceneMarkers markers_;
  bool has_boundary_ = false;               // optimal_control: the boundary outlines
  std::map<std::string, double> boundary_;  // fixed initial.<column> / final.<column> values
  std::array<double, 3> followed_{};        // 3d: the centre the camera followed at the last render
  vtkSmartPointer<vtkActor> ground_;        // 3d: the ground plane
  vtkSmartPointer<vtkPlaneSource> ground_source_;
  std::array<double, 4> ground_rect_{};  // x0, x1, y0, y1 of the ground (Ground)
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
