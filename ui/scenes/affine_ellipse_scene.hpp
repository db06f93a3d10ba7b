#pragma once
/// @file affine_ellipse_scene.hpp
/// Scene type "affine_ellipse": a fluid ellipse moving by an affine map x = A(t) X (the
/// incompressible affine fluid of scenarios/affine_fluid.yaml), seen from above. The reference
/// ellipse E0 = {(X1/a)^2 + (X2/b)^2 <= 1} is drawn as its image A(t) E0: an orange fill, a
/// bright outline, material lines (the images of the chords X1 = const and X2 = const and of
/// inner ellipses, which stay straight lines and ellipses under an affine map), the material X1
/// axis in blue (it shows the turning inside the fluid), the ellipse at the first sample as a
/// faint outline, and a grid over the whole motion. The legend reads det A at the time cursor.
///
/// Options (`view.scene`): matrix (required: the four trajectory columns of A, row-major
/// [a11, a12, a21, a22]), semi_axes ([a, b]: positive numbers or parameters' names, default
/// [1, 1]; a parameter is re-read on every edit), lines (material chords per direction, a whole
/// number 0 ... 12, default 4).

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"

class vtkActor;
class vtkPolyData;
class vtkRenderer;

namespace dirac::ui {

class AffineEllipseScene : public DrawnScene {
 public:
  /// The material X1 axis' colour.
  static constexpr Rgb kAxisBlue{20, 150, 255};

  /// Reads and checks the options above. Throws dirac::ScenarioError naming the file, line and
  /// key (e.g. "view.scene.matrix") if `matrix` is not four trajectory columns, a semi-axis is
  /// neither a positive number nor a parameter, `lines` is out of range or a key is unknown.
  explicit AffineEllipseScene(const SceneContext& context);
  /// Leaves the camera in perspective, as the other scenes expect it.
  ~AffineEllipseScene() override;

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// A top view (parallel projection) of the whole motion.
  void OnCameraReset() override;
  bool OnScenarioEdited(const dirac::Scenario& scenario) override;
  vtkActor2D* legend() const override { return legend_; }

  /// A = [[a11, a12], [a21, a22]] drawn at the last SetTime (row-major).
  std::array<double, 4> matrix() const { return matrix_; }
  /// The reference semi-axes (a, b) [m].
  std::array<double, 2> semi_axes() const { return semi_axes_; }
  /// The drawn outline's point k of `count` (at X = (a cos s, b sin s), s = 2 pi k / count).
  std::array<double, 2> OutlinePoint(std::size_t k) const;
  /// Number of points on each drawn ellipse.
  static constexpr std::size_t kOutlinePoints = 120;
  /// Material lines drawn (chords and inner ellipses).
  std::size_t material_line_count() const;
  std::string legend_text() const;
  /// The notice shown instead of the ellipse ("" when it is drawn).
  std::string message_text() const;

 private:
  void Rebuild();        // the geometry at matrix_
  void RebuildStatic();  // the start outline, the grid and the extent over the run
  void UpdateLegend();

  std::array<std::string, 4> columns_;
  std::array<std::size_t, 4> column_index_{};
  std::array<std::string, 2> semi_axis_parameters_;  // "" for a number
  std::array<double, 2> semi_axes_{1.0, 1.0};
  int lines_ = 4;

  SnapshotPtr snapshot_;
  bool columns_ok_ = false;
  std::array<double, 4> matrix_{1.0, 0.0, 0.0, 1.0};
  std::optional<std::array<double, 4>> extent_;  // xmin, xmax, ymin, ymax over the run
  vtkRenderer* renderer_ = nullptr;

  vtkSmartPointer<vtkPolyData> fill_data_, outline_data_, lines_data_, axis_data_, start_data_,
      grid_data_;
  vtkSmartPointer<vtkActor> fill_, outline_, lines_actor_, axis_, start_, grid_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
};

}  // namespace dirac::ui
