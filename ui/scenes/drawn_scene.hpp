#pragma once
/// @file drawn_scene.hpp
/// The interface of a drawn 3D scene: what the view shows of a run. Eight types ship
/// (SceneRegistry::WithBuiltinScenes):
///  - "particle" (ParticleScene): a point in R^3 at three trajectory columns with its trail,
///    velocity, the constraint plane Delta(q) and a comparison trajectory;
///  - "rigid_body" (RigidBodyScene): a box turned by the rotation matrix columns R11..R33 with
///    body and space axes, the path of one axis' tip and the spatial angular momentum;
///  - "planar_points" (PlanarPointsScene): points moving in one plane (point vortices);
///  - "rolling_disk" (RollingDiskScene): a thin disk leaning and rolling on the ground plane;
///  - "planar_bodies" (PlanarBodiesScene): slabs moving in the plane, seen from above by a
///    camera that follows them;
///  - "affine_ellipse" (AffineEllipseScene): a fluid ellipse deformed by x = A(t) X with its
///    material lines (the incompressible affine fluid);
///  - "vorticity_torus" (VorticityTorusScene): the vorticity of Zeitlin's torus model as a colour
///    map with a colour bar, optionally with the velocity field;
///  - "bodies" (BodiesScene): the rigid bodies of a scenario written with `bodies:` at their
///    frames, with the rolling wheels' contact trails (the default scene of such a scenario).
/// A scene reads and validates its own `view.scene` options (dirac::SceneOptions), owns its VTK
/// props and moves them to the time cursor.

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"
#include "run/simulation_snapshot.hpp"

class vtkActor;
class vtkActor2D;
class vtkRenderer;

namespace dirac::ui {

/// A scene's ground: an unlit rectangle [x0, x1] x [y0, y1] at height z, drawn by `actor` in
/// `color` (RGB in [0, 1]), with nothing drawn below it.
struct GroundPlane {
  vtkActor* actor = nullptr;
  std::array<double, 4> rect{};  // x0, x1, y0, y1
  double z = 0.0;
  std::array<double, 3> color{};
};

/// A setting of a scene the user may change in the window (the 3D view's context menu, a right
/// click without a drag): a label and its choices, one of them current.
struct SceneSetting {
  std::string label;                 ///< e.g. "Grid resolution"
  std::vector<std::string> choices;  ///< e.g. "48 x 48", "96 x 96"
  std::size_t current = 0;           ///< index into choices
};

/// What a scene may read to build itself: the scenario (its `scene.options`, coordinates and
/// constraints) and the derived model (columns and their kinds, constraint names,
/// ConstraintCovectors). The scenario reference is only valid during construction; a scene may
/// keep the model.
struct SceneContext {
  const dirac::Scenario& scenario;
  std::shared_ptr<const dirac::Model> model;
  /// How a scene edits values of the scenario (e.g. a dragged target attitude: final.R.x, .y,
  /// .z), by their --set names, as one edit; may be empty (then the scene edits nothing). The
  /// window applies them as the panel's editors do and calls OnScenarioEdited.
  std::function<void(const std::vector<std::pair<std::string, double>>&)> edit;
};

/// One drawn scene. Constructors validate the scene's options and throw dirac::ScenarioError
/// naming the file, line and key (dirac::SceneOptions::Fail); the methods below do not throw.
class DrawnScene {
 public:
  virtual ~DrawnScene() = default;

  /// Adds this scene's props to `renderer` (once, before any other call).
  virtual void AddTo(vtkRenderer* renderer) = 0;
  /// New simulation data; the snapshot is immutable and may be kept. It may carry a comparison
  /// trajectory (the same scenario in another formulation) to draw alongside.
  virtual void SetSnapshot(const SnapshotPtr& snapshot) = 0;
  /// Moves the scene to simulated time `t` [s] (the shared time cursor).
  virtual void SetTime(double t) = 0;
  /// Axis-aligned box (xmin, xmax, ymin, ymax, zmin, zmax) the camera should fit; false if the
  /// scene has nothing to show yet.
  virtual bool Bounds(std::array<double, 6>& bounds) const = 0;
  /// The scene's up direction (unit, world coordinates): the default camera keeps it up on the
  /// screen and looks down on the ground from its side (+z unless a scene says otherwise, e.g.
  /// a multibody model written with z down).
  virtual std::array<double, 3> up() const { return {0.0, 0.0, 1.0}; }
  /// Called after the view reset its camera to the default oblique framing of Bounds(); a scene
  /// that prefers another view (e.g. a top view that follows the bodies) takes over here.
  virtual void OnCameraReset() {}
  /// The scenario's values were edited (the panel, a --set, the scene itself): e.g. boundary
  /// values a scene draws before the next run arrives. Valid only during the call. Returns true
  /// if the scene changed (and should be redrawn now).
  virtual bool OnScenarioEdited(const dirac::Scenario& /*scenario*/) { return false; }

  /// Pointer input in the view, in VTK display coordinates (pixels, origin bottom left). A scene
  /// that returns true from OnPointerPress takes the drag (moves and the release come to it and
  /// not to the camera); the default leaves every press to the camera.
  virtual bool OnPointerPress(vtkRenderer* /*renderer*/, int /*x*/, int /*y*/) { return false; }
  virtual void OnPointerMove(vtkRenderer* /*renderer*/, int /*x*/, int /*y*/) {}
  virtual void OnPointerRelease() {}

  /// The scene's ground plane, if it has one. When the ground covers the whole view (a camera
  /// looking down on it), the view clears the frame in the ground's colour instead of drawing
  /// it: the same picture, without a view-filling quad (about 10 ms of CPU per frame with
  /// software OpenGL).
  virtual std::optional<GroundPlane> Ground() const { return std::nullopt; }

  /// The scene's legend (what each colour and shape means), one of the 2D actors AddTo adds,
  /// or null: the view folds it away on request (SceneView::SetLegendShown).
  virtual vtkActor2D* legend() const { return nullptr; }

  /// The settings the user may change in the window (none by default).
  virtual std::vector<SceneSetting> settings() const { return {}; }
  /// Makes choice `choice` of setting `setting` (indices into settings()) current; returns true
  /// if the scene changed (and should be redrawn now).
  virtual bool Choose(std::size_t /*setting*/, std::size_t /*choice*/) { return false; }

  /// How far down from the top edge of a `width` x `height` view [device px] the scene's own
  /// text reaches below the view's top row (e.g. a readout moved under the time in a narrow
  /// view); the view's hint goes below it. 0: the scene leaves the band under the top row free.
  virtual int TopOverlayDepth(int /*width*/, int /*height*/) const { return 0; }
};

}  // namespace dirac::ui
