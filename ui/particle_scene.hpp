#pragma once
/// @file particle_scene.hpp
/// Scene type "particle": a point in R^3 with its trail, its velocity, the coordinate axes and
/// the constraint plane Delta(q) through it.

#include <vtkSmartPointer.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "constraint_geometry.hpp"
#include "scene_builder.hpp"

class vtkActor;
class vtkAxesActor;
class vtkPlaneSource;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;
class vtkTextActor;

namespace dirac::ui {

/// The particle is drawn in kParticleColor (a saturated orange no other prop uses, so image
/// checks can find it).
class ParticleScene : public SceneBuilder {
 public:
  static constexpr std::array<unsigned char, 3> kParticleColor{255, 140, 0};

  /// Reads scene.position (three trajectory columns), scene.trail, scene.scale and
  /// scene.constraint_plane (a constraint name or ""). Throws dirac::Error naming a bad entry.
  explicit ParticleScene(const SceneContext& context);
  ~ParticleScene() override;

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;

 private:
  void UpdatePath();
  void UpdateFrame();
  void UpdateTrail(std::size_t row);
  void UpdatePlane(std::size_t row, const std::array<double, 3>& p);
  void UpdateVelocity(std::size_t row, const std::array<double, 3>& p);
  std::array<double, 3> PositionAt(std::size_t row) const;

  std::shared_ptr<const dirac::LagrangeDiracSystem> system_;
  std::array<std::string, 3> position_names_;
  std::array<std::size_t, 3> position_columns_{};
  std::optional<std::array<std::size_t, 3>> velocity_columns_;    // when position = coordinates
  std::optional<std::array<std::size_t, 3>> coordinate_indices_;  // into the system's q
  std::optional<std::size_t> plane_constraint_;
  std::string plane_name_;
  std::size_t trail_samples_ = 0;
  double scale_ = 1.0;
  double max_speed_ = 0.0;
  std::optional<std::array<double, 6>> bounds_;  // camera box, from UpdateFrame()

  SnapshotPtr snapshot_;
  std::unique_ptr<ConstraintFormEvaluator> forms_;

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
  vtkSmartPointer<vtkPlaneSource> floor_source_;
  vtkSmartPointer<vtkActor> floor_;
  vtkSmartPointer<vtkTextActor> legend_;
};

}  // namespace dirac::ui
