#pragma once
/// @file vorticity_torus_scene.hpp
/// Scene type "vorticity_torus": the vorticity ω(x, y, t) of Zeitlin's model of the ideal fluid
/// on the flat torus [0, 2π)² (`algebroid.algebra: {family: zeitlin_torus, size: N}` with
/// `inertia: laplacian`, scenarios/ideal_fluid_torus.yaml), seen from above. The field is
/// summed from the modes of the sample at the time cursor (ω = Σ |m|² y_m φ_m, TorusFourierGrid)
/// on a grid of n × n cells (n + 1 points per side, x_i = 2π i / n) and drawn as a colour map
/// in diverging cool-warm colours, symmetric about 0 with the range ±max |ω| of the first
/// sample's field (fixed over the run, so the colours compare over time), with a colour bar.
/// Optionally the velocity u = (−ψ_y, ψ_x) as arrows on a coarse grid of cell centres.
///
/// Options (`view.scene`): resolution (cells per side, a whole number 8 … 512, default 96),
/// velocity (true / false, default false: the arrows). The resolution is also a setting of the
/// view's context menu (settings(), Choose, SetResolution).

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "dirac/torus_modes.hpp"
#include "scenes/drawn_scene.hpp"
#include "scenes/scene_kit.hpp"
#include "scenes/torus_field.hpp"

class vtkActor;
class vtkImageData;
class vtkTexture;
class vtkUnsignedCharArray;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;
class vtkScalarBarActor;

namespace dirac::ui {

class VorticityTorusScene : public DrawnScene {
 public:
  static constexpr int kMinResolution = 8, kMaxResolution = 512, kDefaultResolution = 96;
  /// The resolutions the context menu offers.
  static constexpr std::array<int, 7> kResolutionChoices{32, 48, 64, 96, 128, 192, 256};
  /// Arrows per side of the velocity field.
  static constexpr int kArrowsPerSide = 16;

  /// Reads and checks the options above and the algebra (a zeitlin_torus with the Laplacian's
  /// inertia). Throws dirac::ScenarioError naming the file, line and key.
  explicit VorticityTorusScene(const SceneContext& context);
  ~VorticityTorusScene() override;

  void AddTo(vtkRenderer* renderer) override;
  void SetSnapshot(const SnapshotPtr& snapshot) override;
  void SetTime(double t) override;
  bool Bounds(std::array<double, 6>& bounds) const override;
  /// A top view (parallel projection) of the square [0, 2π]², left of the colour bar.
  void OnCameraReset() override;
  vtkActor2D* legend() const override { return legend_; }
  std::vector<SceneSetting> settings() const override;
  bool Choose(std::size_t setting, std::size_t choice) override;

  /// Cells per side of the grid; SetResolution clamps to [kMinResolution, kMaxResolution],
  /// rebuilds the grid and redraws the sample at the time cursor.
  int resolution() const { return resolution_; }
  void SetResolution(int cells);
  /// The grid's coordinates (x and y alike): n + 1 values 2π i / n.
  const std::vector<double>& coordinates() const { return coordinates_; }
  /// The drawn field: ω at (x_i, y_j) is field()[j * (n + 1) + i]; empty before a sample.
  const std::vector<double>& field() const { return field_; }
  /// The colour map's range (−R, R), R = max |ω| of the first sample on the grid.
  std::array<double, 2> color_range() const { return {-range_, range_}; }
  /// The trajectory row drawn (-1: none).
  long drawn_row() const { return drawn_row_; }
  /// The N of zeitlin_torus(N) and its modes (the fibre coordinates, in the engine's order).
  int size() const { return size_; }
  const std::vector<TorusMode>& modes() const { return modes_; }
  bool velocity_shown() const { return velocity_; }
  /// Arrows drawn (kArrowsPerSide² with velocity: true and a sample, else 0).
  std::size_t arrow_count() const;
  std::string legend_text() const;
  std::string color_bar_title() const;
  /// The notice shown instead of the field ("" when it is drawn).
  std::string message_text() const;
  /// Milliseconds the last field summation took (SetTime, not the render).
  double last_field_ms() const { return last_field_ms_; }

 private:
  void RebuildGrid();  // the points and cells of the colour map at resolution_
  void UpdateRange();  // range_ from the first sample
  void Draw(std::size_t row);
  void DrawArrows();
  void UpdateLegend();

  int size_ = 0;
  std::vector<TorusMode> modes_;
  int resolution_ = kDefaultResolution;
  bool velocity_ = false;
  std::vector<double> coordinates_;
  TorusFourierGrid grid_{0, {}};
  TorusFourierGrid arrow_grid_{0, {}};
  std::vector<double> field_, a_, b_, ux_, uy_, y_;
  double range_ = 1.0;
  double arrow_scale_ = 0.0;  // world length per unit speed
  double last_field_ms_ = 0.0;
  long drawn_row_ = -1;
  double time_ = 0.0;

  SnapshotPtr snapshot_;
  std::vector<std::size_t> columns_;  // trajectory column of each mode
  bool columns_ok_ = false;
  vtkRenderer* renderer_ = nullptr;

  vtkSmartPointer<vtkPolyData> field_data_, arrow_data_, frame_data_;
  vtkSmartPointer<vtkImageData> image_;  // (n + 1)^2 texels: the grid points' colours
  vtkSmartPointer<vtkUnsignedCharArray> pixels_;
  vtkSmartPointer<vtkTexture> texture_;
  vtkSmartPointer<vtkLookupTable> colors_;
  vtkSmartPointer<vtkActor> field_actor_, arrows_, frame_;
  vtkSmartPointer<vtkScalarBarActor> color_bar_;
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkTextActor> message_;
};

}  // namespace dirac::ui
