#include "scenes/vorticity_torus_scene.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkColorTransferFunction.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextProperty.h>
#include <vtkTexture.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

#include "dirac/error.hpp"
#include "dirac/families.hpp"

namespace dirac::ui {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr Color kArrowColor{0.08, 0.09, 0.11};
constexpr Color kFrameColor{0.80, 0.82, 0.87};
constexpr int kColorSteps = 256;
constexpr double kColorBarWidth = 110.0;  // px, the bar with its labels and title

// Moreland's cool-warm diverging map, blue (−1) through grey (0) to red (+1).
vtkSmartPointer<vtkLookupTable> CoolWarm() {
  auto diverging = vtkSmartPointer<vtkColorTransferFunction>::New();
  diverging->SetColorSpaceToDiverging();
  diverging->AddRGBPoint(-1.0, 0.230, 0.299, 0.754);
  diverging->AddRGBPoint(1.0, 0.706, 0.016, 0.150);
  auto table = vtkSmartPointer<vtkLookupTable>::New();
  table->SetNumberOfTableValues(kColorSteps);
  for (int k = 0; k < kColorSteps; ++k) {
    double rgb[3];
    diverging->GetColor(-1.0 + 2.0 * k / (kColorSteps - 1), rgb);
    table->SetTableValue(k, rgb[0], rgb[1], rgb[2], 1.0);
  }
  return table;
}

bool ReadFlag(const dirac::SceneOptions& options, const std::string& key) {
  if (!options.Has(key)) return false;
  const std::string text = options.String(key);
  if (text == "true") return true;
  if (text != "false") options.Fail(key, "expected true or false, got '" + text + "'");
  return false;
}

int ReadResolution(const dirac::SceneOptions& options) {
  const double n = options.Number("resolution", VorticityTorusScene::kDefaultResolution);
  if (!(n >= VorticityTorusScene::kMinResolution && n <= VorticityTorusScene::kMaxResolution &&
        n == std::floor(n)))
    options.Fail("resolution", "expected a whole number of cells per side " +
                                   std::to_string(VorticityTorusScene::kMinResolution) + " ... " +
                                   std::to_string(VorticityTorusScene::kMaxResolution) + ", got " +
                                   FormatNumber(n));
  return static_cast<int>(n);
}

}  // namespace

VorticityTorusScene::VorticityTorusScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("vorticity_torus scene: no derived model");
  const dirac::Scenario& scenario = context.scenario;
  const dirac::LieAlgebraSpec& algebra = scenario.algebroid.algebra;
  if (!algebra.present || algebra.family != "zeitlin_torus" || algebra.inertia != "laplacian")
    throw dirac::ScenarioError(
        scenario.source_file, scenario.scene.where.line, "view.scene.type",
        "the vorticity_torus scene draws Zeitlin's torus model: it needs algebroid.algebra "
        "{family: zeitlin_torus, size: N} with inertia: laplacian");
  const dirac::SceneOptions& options = scenario.scene.options;
  resolution_ = ReadResolution(options);
  velocity_ = ReadFlag(options, "velocity");
  options.CheckKeys({"resolution", "velocity"});
  size_ = algebra.size;
  modes_ = dirac::ZeitlinTorusModes(size_);  // the model was built: the size is valid
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  for (const TorusMode& mode : modes_)
    if (!IndexOf(columns, mode.name))
      throw dirac::Error("vorticity_torus scene: the model has no column '" + mode.name + "'");
  arrow_grid_ = TorusFourierGrid((size_ - 1) / 2, TorusCellCentres(kArrowsPerSide));

  colors_ = CoolWarm();
  // The map is one quad textured with the grid's colours (a texel per grid point, linearly
  // interpolated): a frame uploads (n + 1)^2 colours, not a mesh of n^2 quads.
  image_ = vtkSmartPointer<vtkImageData>::New();
  texture_ = vtkSmartPointer<vtkTexture>::New();
  texture_->SetInputData(image_);
  texture_->InterpolateOn();
  texture_->EdgeClampOn();
  texture_->RepeatOff();
  field_data_ = vtkSmartPointer<vtkPolyData>::New();
  field_actor_ = MakeActor(field_data_);
  field_actor_->SetTexture(texture_);
  SetFlatLook(field_actor_->GetProperty(), Color{1.0, 1.0, 1.0});
  field_actor_->VisibilityOff();

  arrow_data_ = vtkSmartPointer<vtkPolyData>::New();
  arrows_ = MakeActor(arrow_data_);
  SetFlatLook(arrows_->GetProperty(), kArrowColor, 0.9, 1.5);
  arrows_->VisibilityOff();
  frame_data_ = vtkSmartPointer<vtkPolyData>::New();
  frame_ = MakeActor(frame_data_);
  SetFlatLook(frame_->GetProperty(), kFrameColor, 0.6, 1.0);
  SetGridLines(frame_data_, {0.0, kTwoPi, 0.0, kTwoPi}, 1, 1, 0.005);  // the outline
  frame_->VisibilityOff();

  color_bar_ = vtkSmartPointer<vtkScalarBarActor>::New();
  color_bar_->SetLookupTable(colors_);
  color_bar_->SetTitle(color_bar_title().c_str());
  color_bar_->SetNumberOfLabels(5);
  color_bar_->SetLabelFormat("%.3g");
  color_bar_->SetOrientationToVertical();
  color_bar_->UnconstrainedFontSizeOn();
  color_bar_->SetBarRatio(0.28);
  color_bar_->SetTextPad(4);
  for (vtkTextProperty* text :
       {color_bar_->GetTitleTextProperty(), color_bar_->GetLabelTextProperty()}) {
    text->SetColor(kFrameColor[0], kFrameColor[1], kFrameColor[2]);
    text->SetFontSize(14);
    text->BoldOff();
    text->ItalicOff();
    text->ShadowOff();
  }
  color_bar_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  color_bar_->SetPosition(0.86, 0.22);  // until OnCameraReset places it beside the square
  color_bar_->SetWidth(0.1);
  color_bar_->SetHeight(0.6);
  color_bar_->VisibilityOff();

  legend_ = MakeLegendText();
  message_ = MakeMessageText(0.62);
  RebuildGrid();
  UpdateLegend();
}

VorticityTorusScene::~VorticityTorusScene() {
  if (renderer_) renderer_->GetActiveCamera()->ParallelProjectionOff();
}

std::string VorticityTorusScene::color_bar_title() const { return "vorticity [1/s]"; }

std::string VorticityTorusScene::legend_text() const { return TextOf(legend_); }

std::string VorticityTorusScene::message_text() const { return TextOf(message_, true); }

std::size_t VorticityTorusScene::arrow_count() const {
  return velocity_ && drawn_row_ >= 0 ? kArrowsPerSide * kArrowsPerSide : 0;
}

void VorticityTorusScene::UpdateLegend() {
  const std::string n = std::to_string(resolution_);
  std::string text = "vorticity omega(x, y, t) of Zeitlin's su(" + std::to_string(size_) +
                     ") model on the torus [0, 2pi)^2, " + std::to_string(modes_.size()) +
                     " modes\n" + "colours: cool-warm, fixed range +-" + FormatNumber(range_) +
                     " (max |omega| at the start)\n" + "grid " + n + " x " + n +
                     " cells (right-click the view to change it)";
  if (velocity_) text += "\narrows: the velocity u = (-psi_y, psi_x)";
  legend_->SetInput(text.c_str());
}

void VorticityTorusScene::AddTo(vtkRenderer* renderer) {
  renderer_ = renderer;
  for (vtkActor* actor : {frame_.Get(), field_actor_.Get(), arrows_.Get()})
    renderer->AddActor(actor);
  renderer->AddActor2D(color_bar_);
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

std::vector<SceneSetting> VorticityTorusScene::settings() const {
  SceneSetting setting{"Grid resolution", {}, 0};
  std::size_t nearest = 0;
  for (std::size_t k = 0; k < kResolutionChoices.size(); ++k) {
    const int n = kResolutionChoices[k];
    setting.choices.push_back(std::to_string(n) + " x " + std::to_string(n));
    if (std::abs(n - resolution_) < std::abs(kResolutionChoices[nearest] - resolution_))
      nearest = k;
  }
  setting.current = nearest;
  return {setting};
}

bool VorticityTorusScene::Choose(std::size_t setting, std::size_t choice) {
  if (setting != 0 || choice >= kResolutionChoices.size()) return false;
  if (kResolutionChoices[choice] == resolution_) return false;
  SetResolution(kResolutionChoices[choice]);
  return true;
}

void VorticityTorusScene::SetResolution(int cells) {
  resolution_ = std::clamp(cells, kMinResolution, kMaxResolution);
  RebuildGrid();
  UpdateRange();
  UpdateLegend();
  drawn_row_ = -1;
  SetTime(time_);
}

void VorticityTorusScene::RebuildGrid() {
  coordinates_ = TorusGridCoordinates(resolution_);
  grid_ = TorusFourierGrid((size_ - 1) / 2, coordinates_);
  const auto side = static_cast<int>(coordinates_.size());
  pixels_ = vtkSmartPointer<vtkUnsignedCharArray>::New();
  pixels_->SetNumberOfComponents(3);
  pixels_->SetNumberOfTuples(static_cast<vtkIdType>(side) * side);
  pixels_->Fill(0);
  image_->SetDimensions(side, side, 1);
  image_->GetPointData()->SetScalars(pixels_);
  image_->Modified();
  // The quad [0, 2pi]^2 from the first texel's centre to the last's.
  const float t0 = 0.5f / static_cast<float>(side), t1 = 1.0f - t0;
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto coords = vtkSmartPointer<vtkFloatArray>::New();
  coords->SetNumberOfComponents(2);
  const double corners[4][2] = {{0.0, 0.0}, {kTwoPi, 0.0}, {kTwoPi, kTwoPi}, {0.0, kTwoPi}};
  for (const auto& corner : corners) {
    points->InsertNextPoint(corner[0], corner[1], 0.0);
    const float tc[2] = {corner[0] > 0.0 ? t1 : t0, corner[1] > 0.0 ? t1 : t0};
    coords->InsertNextTypedTuple(tc);
  }
  auto quad = vtkSmartPointer<vtkCellArray>::New();
  const vtkIdType ids[4] = {0, 1, 2, 3};
  quad->InsertNextCell(4, ids);
  field_data_->SetPoints(points);
  field_data_->SetPolys(quad);
  field_data_->GetPointData()->SetTCoords(coords);
  field_data_->Modified();
  field_.assign(static_cast<std::size_t>(side * side), 0.0);
}

void VorticityTorusScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  columns_ok_ = false;
  drawn_row_ = -1;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!trajectory || trajectory->num_columns() == 0) {
    ShowText(message_, "");
    return;
  }
  columns_.assign(modes_.size(), 0);
  std::string missing;
  for (std::size_t k = 0; k < modes_.size(); ++k) {
    const auto found = trajectory->FindColumn(modes_[k].name);
    if (!found && missing.empty()) missing = modes_[k].name;
    columns_[k] = found.value_or(0);
  }
  columns_ok_ = missing.empty();
  ShowText(message_, columns_ok_
                         ? std::string()
                         : "vorticity_torus scene: the trajectory has no column '" + missing + "'");
  UpdateRange();
  UpdateLegend();
}

void VorticityTorusScene::UpdateRange() {
  range_ = 1.0;
  arrow_scale_ = 0.0;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!columns_ok_ || !trajectory || trajectory->empty()) return;
  Draw(0);
  double most = 0.0;
  for (double w : field_) most = std::max(most, std::abs(w));
  if (std::isfinite(most) && most > 0.0) range_ = most;
  colors_->SetTableRange(-range_, range_);
  double fastest = 0.0;
  for (std::size_t k = 0; k < ux_.size(); ++k)
    fastest = std::max(fastest, std::hypot(ux_[k], uy_[k]));
  // The fastest arrow of the start spans 0.9 of the arrows' spacing.
  if (std::isfinite(fastest) && fastest > 0.0)
    arrow_scale_ = 0.9 * (kTwoPi / kArrowsPerSide) / fastest;
  drawn_row_ = -1;
}

void VorticityTorusScene::Draw(std::size_t row) {
  const auto start = std::chrono::steady_clock::now();
  const dirac::Trajectory& trajectory = *snapshot_->trajectory;
  y_.resize(modes_.size());
  for (std::size_t k = 0; k < modes_.size(); ++k) y_[k] = trajectory.at(row, columns_[k]);
  TorusCoefficients(modes_, grid_, y_.data(), TorusQuantity::kVorticity, a_, b_);
  grid_.Evaluate(a_, b_, field_.data());
  // The colours: the cool-warm table's entry of each value, clamped to the fixed range.
  const unsigned char* table = colors_->GetPointer(0);  // RGBA
  unsigned char* pixel = pixels_->GetPointer(0);
  const double to_index = (kColorSteps - 1) / (2.0 * range_);
  for (double w : field_) {
    const double at = std::isfinite(w) ? (w + range_) * to_index : 0.5 * (kColorSteps - 1);
    const int k = static_cast<int>(std::clamp(std::lround(at), 0L, long{kColorSteps - 1}));
    std::copy(table + 4 * k, table + 4 * k + 3, pixel);
    pixel += 3;
  }
  pixels_->Modified();
  if (velocity_) {
    const std::size_t count = kArrowsPerSide * kArrowsPerSide;
    ux_.resize(count);
    uy_.resize(count);
    TorusCoefficients(modes_, arrow_grid_, y_.data(), TorusQuantity::kVelocityX, a_, b_);
    arrow_grid_.Evaluate(a_, b_, ux_.data());
    TorusCoefficients(modes_, arrow_grid_, y_.data(), TorusQuantity::kVelocityY, a_, b_);
    arrow_grid_.Evaluate(a_, b_, uy_.data());
    DrawArrows();
  }
  drawn_row_ = static_cast<long>(row);
  last_field_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void VorticityTorusScene::DrawArrows() {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  const double z = 0.01, head = 0.3, spread = 0.45;  // head length, its half-angle's tangent
  for (int j = 0; j < kArrowsPerSide; ++j)
    for (int i = 0; i < kArrowsPerSide; ++i) {
      const std::size_t k = static_cast<std::size_t>(j * kArrowsPerSide + i);
      const double dx = arrow_scale_ * ux_[k], dy = arrow_scale_ * uy_[k];
      if (!std::isfinite(dx) || !std::isfinite(dy)) continue;
      const double cx = arrow_grid_.coordinate(static_cast<std::size_t>(i));
      const double cy = arrow_grid_.coordinate(static_cast<std::size_t>(j));
      const double tip[3] = {cx + 0.5 * dx, cy + 0.5 * dy, z};
      const double tail[3] = {cx - 0.5 * dx, cy - 0.5 * dy, z};
      const double left[3] = {tip[0] - head * (dx - spread * dy),
                              tip[1] - head * (dy + spread * dx), z};
      const double right[3] = {tip[0] - head * (dx + spread * dy),
                               tip[1] - head * (dy - spread * dx), z};
      const vtkIdType t = points->InsertNextPoint(tip);
      const vtkIdType ids[3][2] = {{points->InsertNextPoint(tail), t},
                                   {points->InsertNextPoint(left), t},
                                   {points->InsertNextPoint(right), t}};
      for (const auto& segment : ids) lines->InsertNextCell(2, segment);
    }
  arrow_data_->SetPoints(points);
  arrow_data_->SetLines(lines);
  arrow_data_->Modified();
}

void VorticityTorusScene::SetTime(double t) {
  time_ = t;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = columns_ok_ && trajectory && !trajectory->empty();
  for (vtkActor* actor : {frame_.Get(), field_actor_.Get()}) actor->SetVisibility(drawn);
  arrows_->SetVisibility(drawn && velocity_);
  color_bar_->SetVisibility(drawn);
  if (!drawn) return;
  const std::size_t row = trajectory->RowAtTime(t);
  if (static_cast<long>(row) != drawn_row_) Draw(row);
}

bool VorticityTorusScene::Bounds(std::array<double, 6>& bounds) const {
  if (!columns_ok_) return false;
  bounds = {0.0, kTwoPi, 0.0, kTwoPi, -0.1, 0.1};
  return true;
}

void VorticityTorusScene::OnCameraReset() {
  if (!renderer_ || !columns_ok_) return;
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetWindowCenter(0.0, 0.0);
  camera->SetViewUp(0.0, 1.0, 0.0);
  const int* size = renderer_->GetSize();
  const double w = std::max(size[0], 100), h = std::max(size[1], 100);
  // The band the view's text leaves free (SceneView::FreeBand): under the top row, above a
  // shown legend (its lines of 17 px from 16 px up); on the right the colour bar's column.
  const std::string legend = legend_->GetInput() ? legend_->GetInput() : "";
  const double lines = 1.0 + static_cast<double>(std::count(legend.begin(), legend.end(), '\n'));
  const double top = 48.0, side = 14.0, bar = kColorBarWidth + 2 * side;
  const double bottom = legend_->GetNumberOfConsumers() > 0 ? 22.0 + 17.0 * lines : 14.0;
  const double free_w = std::max(0.3 * w, w - side - bar),
               free_h = std::max(0.3 * h, h - top - bottom);
  const double per_pixel = kTwoPi / std::min(free_w, free_h);  // world length of a pixel
  // The square's centre at the free band's middle (left of the bar), in pixels from the middle.
  const double square = kTwoPi / per_pixel;
  const double left = side + 0.5 * (free_w - square);
  const double dx = left + 0.5 * square - 0.5 * w, dy = bottom + 0.5 * free_h - 0.5 * h;
  const double cx = 0.5 * kTwoPi - dx * per_pixel, cy = 0.5 * kTwoPi - dy * per_pixel;
  camera->SetFocalPoint(cx, cy, 0.0);
  camera->SetPosition(cx, cy, 10.0 * kTwoPi);
  camera->SetParallelScale(0.5 * h * per_pixel);
  renderer_->ResetCameraClippingRange();
  // The colour bar right of the square, as tall as the square's middle 80 %.
  const double bar_left = std::min(left + square + side, w - bar + side);
  color_bar_->SetPosition(bar_left / w, (bottom + 0.5 * free_h - 0.4 * square) / h);
  color_bar_->SetWidth(kColorBarWidth / w);
  color_bar_->SetHeight(0.8 * square / h);
}

}  // namespace dirac::ui
