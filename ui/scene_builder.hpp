#pragma once
/// @file scene_builder.hpp
/// The interface every 3D scene type implements ("particle", later rigid bodies, planar
/// multibody, ...). A scene owns its VTK props and moves them to the time cursor.

#include <array>
#include <memory>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "simulation_snapshot.hpp"

class vtkRenderer;

namespace dirac::ui {

/// What a scene may read to build itself: the scenario (its `scene` spec, coordinates) and the
/// derived model (trajectory columns, constraint names, ConstraintCovectors). The scenario
/// reference is only valid during construction; a scene may keep the model.
struct SceneContext {
  const dirac::Scenario& scenario;
  std::shared_ptr<const dirac::Model> model;
};

/// One scene type. Constructors validate the scene spec and throw dirac::Error naming the
/// offending key or column; the methods below do not throw.
class SceneBuilder {
 public:
  virtual ~SceneBuilder() = default;

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
  /// Called after the view reset its camera to the default oblique framing of Bounds(); a scene
  /// that prefers another view (e.g. a top view that follows the bodies) takes over here.
  virtual void OnCameraReset() {}
};

}  // namespace dirac::ui
