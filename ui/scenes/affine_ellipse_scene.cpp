#include "scenes/affine_ellipse_scene.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

constexpr Color kOutlineColor{1.0, 0.93, 0.75};
constexpr Color kMaterialColor{0.16, 0.10, 0.04};
constexpr int kMaxLines = 12;
constexpr double kInnerEllipses[] = {1.0 / 3.0, 2.0 / 3.0};  // of the reference semi-axes

using Matrix = std::array<double, 4>;

// x = A X (row-major A), lifted a little above the plane by z.
Vec3 Apply(const Matrix& a, double x1, double x2, double z) {
  return {a[0] * x1 + a[1] * x2, a[2] * x1 + a[3] * x2, z};
}

// Appends the closed polyline A (sa cos s, sb sin s) as one line cell of `count` + 1 points.
void AddEllipse(vtkPoints* points, vtkCellArray* cells, const Matrix& a, double sa, double sb,
                std::size_t count, double z) {
  std::vector<vtkIdType> ids;
  for (std::size_t k = 0; k <= count; ++k) {
    const double s = 2.0 * M_PI * static_cast<double>(k % count) / static_cast<double>(count);
    const Vec3 p = Apply(a, sa * std::cos(s), sb * std::sin(s), z);
    ids.push_back(points->InsertNextPoint(p.data()));
  }
  cells->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
}

// Appends the segment A X0 -> A X1.
void AddSegment(vtkPoints* points, vtkCellArray* cells, const Matrix& a,
                const std::array<double, 2>& from, const std::array<double, 2>& to, double z) {
  const Vec3 p = Apply(a, from[0], from[1], z), q = Apply(a, to[0], to[1], z);
  const vtkIdType ids[2] = {points->InsertNextPoint(p.data()), points->InsertNextPoint(q.data())};
  cells->InsertNextCell(2, ids);
}

void SetLines(vtkPolyData* data, vtkPoints* points, vtkCellArray* cells) {
  data->SetPoints(points);
  data->SetLines(cells);
  data->Modified();
}

}  // namespace

AffineEllipseScene::AffineEllipseScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("affine_ellipse scene: no derived model");
  const dirac::SceneOptions& options = context.scenario.scene.options;
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  const std::vector<std::string> matrix = options.Strings("matrix");
  if (matrix.size() != 4)
    options.Fail("matrix", "expected the four trajectory columns of A, [a11, a12, a21, a22]");
  for (std::size_t i = 0; i < 4; ++i) {
    columns_[i] = matrix[i];
    RequireColumn(options, "matrix", columns_[i], columns);
  }
  if (options.Has("semi_axes")) {
    const std::vector<std::string> axes = options.Strings("semi_axes");
    if (axes.size() != 2) options.Fail("semi_axes", "expected two semi-axes [a, b]");
    for (std::size_t i = 0; i < 2; ++i) {
      const std::optional<LengthOption> value =
          PositiveNumberOrParameter(context.scenario, axes[i]);
      if (!value)
        options.Fail("semi_axes",
                     "expected a positive number or a parameter's name, got '" + axes[i] + "'");
      semi_axes_[i] = value->value;
      semi_axis_parameters_[i] = value->parameter;
    }
  }
  const double lines = options.Number("lines", 4.0);
  if (!(lines >= 0.0 && lines <= kMaxLines && lines == std::floor(lines)))
    options.Fail("lines", "expected a whole number of material lines 0 ... " +
                              std::to_string(kMaxLines) + ", got " + FormatNumber(lines));
  lines_ = static_cast<int>(lines);
  options.CheckKeys({"matrix", "semi_axes", "lines"});

  auto make = [](vtkSmartPointer<vtkPolyData>& data, vtkSmartPointer<vtkActor>& actor) {
    data = vtkSmartPointer<vtkPolyData>::New();
    actor = MakeActor(data);
    actor->VisibilityOff();
  };
  make(fill_data_, fill_);
  SetFlatLook(fill_->GetProperty(), ToColor(kSceneOrange), 1.0);
  make(grid_data_, grid_);
  SetFlatLook(grid_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.25);
  make(start_data_, start_);
  SetFlatLook(start_->GetProperty(), Color{0.75, 0.80, 0.90}, 0.55, 1.5);
  make(lines_data_, lines_actor_);
  SetFlatLook(lines_actor_->GetProperty(), kMaterialColor, 0.8, 1.5);
  make(axis_data_, axis_);
  SetFlatLook(axis_->GetProperty(), ToColor(kAxisBlue), 1.0, 3.0);
  make(outline_data_, outline_);
  SetFlatLook(outline_->GetProperty(), kOutlineColor, 1.0, 2.5);
  legend_ = MakeLegendText();
  message_ = MakeMessageText(0.62);
  UpdateLegend();
}

AffineEllipseScene::~AffineEllipseScene() {
  if (renderer_) renderer_->GetActiveCamera()->ParallelProjectionOff();
}

std::string AffineEllipseScene::legend_text() const { return TextOf(legend_); }

std::string AffineEllipseScene::message_text() const { return TextOf(message_, true); }

std::size_t AffineEllipseScene::material_line_count() const {
  return 2 * static_cast<std::size_t>(lines_) + std::size(kInnerEllipses);
}

std::array<double, 2> AffineEllipseScene::OutlinePoint(std::size_t k) const {
  const double s = 2.0 * M_PI * static_cast<double>(k % kOutlinePoints) / kOutlinePoints;
  const Vec3 p = Apply(matrix_, semi_axes_[0] * std::cos(s), semi_axes_[1] * std::sin(s), 0.0);
  return {p[0], p[1]};
}

void AffineEllipseScene::UpdateLegend() {
  const Matrix& a = matrix_;
  char det[64];
  std::snprintf(det, sizeof det, "%.12f", a[0] * a[3] - a[1] * a[2]);
  std::string semi;
  for (std::size_t i = 0; i < 2; ++i)
    semi += (i ? ", " : "") +
            (semi_axis_parameters_[i].empty() ? "" : semi_axis_parameters_[i] + " = ") +
            FormatNumber(semi_axes_[i]);
  legend_->SetInput(("fluid ellipse x = A(t) X, reference semi-axes " + semi + "\n" +
                     "dark lines: material lines (chords X1, X2 = const, inner ellipses)\n" +
                     "blue: the material X1 axis; faint outline: the ellipse at the start\n" +
                     "det A = " + det)
                        .c_str());
}

void AffineEllipseScene::AddTo(vtkRenderer* renderer) {
  renderer_ = renderer;
  for (vtkActor* actor :
       {grid_.Get(), start_.Get(), fill_.Get(), lines_actor_.Get(), axis_.Get(), outline_.Get()})
    renderer->AddActor(actor);
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

bool AffineEllipseScene::OnScenarioEdited(const dirac::Scenario& scenario) {
  bool changed = false;
  for (std::size_t i = 0; i < 2; ++i) {
    if (semi_axis_parameters_[i].empty()) continue;
    const std::optional<LengthOption> value =
        PositiveNumberOrParameter(scenario, semi_axis_parameters_[i]);
    if (!value || value->value == semi_axes_[i]) continue;
    semi_axes_[i] = value->value;
    changed = true;
  }
  if (!changed) return false;
  RebuildStatic();
  Rebuild();
  UpdateLegend();
  return true;
}

void AffineEllipseScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  columns_ok_ = false;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!trajectory || trajectory->num_columns() == 0) {
    ShowText(message_, "");
    extent_.reset();
    return;
  }
  std::string missing;
  for (std::size_t i = 0; i < 4; ++i) {
    const auto found = trajectory->FindColumn(columns_[i]);
    if (!found) missing += (missing.empty() ? "'" : ", '") + columns_[i] + "'";
    column_index_[i] = found.value_or(0);
  }
  columns_ok_ = missing.empty();
  ShowText(message_, columns_ok_ ? std::string()
                                 : "affine_ellipse scene: the trajectory has no column " + missing);
  RebuildStatic();
}

void AffineEllipseScene::RebuildStatic() {
  extent_.reset();
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!columns_ok_ || !trajectory || trajectory->empty()) return;
  // The bounding box of A E0 is |x1| <= |(a11 a, a12 b)|, |x2| <= |(a21 a, a22 b)|.
  const auto [sa, sb] = semi_axes_;
  double half = 0.0;
  for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
    Matrix a;
    for (std::size_t i = 0; i < 4; ++i) a[i] = trajectory->at(r, column_index_[i]);
    const double h = std::max(std::hypot(a[0] * sa, a[1] * sb), std::hypot(a[2] * sa, a[3] * sb));
    if (std::isfinite(h)) half = std::max(half, h);
  }
  if (!(half > 0.0)) return;
  extent_ = std::array<double, 4>{-half, half, -half, half};
  Matrix start;
  for (std::size_t i = 0; i < 4; ++i) start[i] = trajectory->at(0, column_index_[i]);
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  AddEllipse(points, cells, start, sa, sb, kOutlinePoints, -0.001 * half);
  SetLines(start_data_, points, cells);
  const double pad = 0.1 * half, step = NiceStep(half / 4);
  const double edge = step * std::ceil((half + pad) / step);
  const int n = static_cast<int>(std::lround(2 * edge / step));
  SetGridLines(grid_data_, {-edge, edge, -edge, edge}, n, n, -0.002 * half);
}

void AffineEllipseScene::Rebuild() {
  const auto [sa, sb] = semi_axes_;
  const double z = extent_ ? 0.001 * (*extent_)[1] : 0.001;
  // The fill: one convex polygon.
  auto fill_points = vtkSmartPointer<vtkPoints>::New();
  auto polygon = vtkSmartPointer<vtkCellArray>::New();
  polygon->InsertNextCell(static_cast<vtkIdType>(kOutlinePoints));
  for (std::size_t k = 0; k < kOutlinePoints; ++k) {
    const std::array<double, 2> p = OutlinePoint(k);
    polygon->InsertCellPoint(fill_points->InsertNextPoint(p[0], p[1], 0.0));
  }
  fill_data_->SetPoints(fill_points);
  fill_data_->SetPolys(polygon);
  fill_data_->Modified();

  auto outline_points = vtkSmartPointer<vtkPoints>::New();
  auto outline_cells = vtkSmartPointer<vtkCellArray>::New();
  AddEllipse(outline_points, outline_cells, matrix_, sa, sb, kOutlinePoints, 2 * z);
  SetLines(outline_data_, outline_points, outline_cells);

  // Chords X1 = c and X2 = c of the reference ellipse stay straight: two points each.
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  for (int i = 1; i <= lines_; ++i) {
    const double u = -1.0 + 2.0 * i / (lines_ + 1);  // in (-1, 1)
    const double w = std::sqrt(1.0 - u * u);
    AddSegment(points, cells, matrix_, {u * sa, -w * sb}, {u * sa, w * sb}, z);
    AddSegment(points, cells, matrix_, {-w * sa, u * sb}, {w * sa, u * sb}, z);
  }
  for (double f : kInnerEllipses) AddEllipse(points, cells, matrix_, f * sa, f * sb, 72, z);
  SetLines(lines_data_, points, cells);

  auto axis_points = vtkSmartPointer<vtkPoints>::New();
  auto axis_cells = vtkSmartPointer<vtkCellArray>::New();
  AddSegment(axis_points, axis_cells, matrix_, {-sa, 0.0}, {sa, 0.0}, 1.5 * z);
  SetLines(axis_data_, axis_points, axis_cells);
}

void AffineEllipseScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  bool drawn = columns_ok_ && extent_ && trajectory && !trajectory->empty();
  if (drawn) {
    const std::size_t row = trajectory->RowAtTime(t);
    for (std::size_t i = 0; i < 4; ++i) matrix_[i] = trajectory->at(row, column_index_[i]);
    drawn = std::all_of(matrix_.begin(), matrix_.end(), [](double v) { return std::isfinite(v); });
  }
  for (vtkActor* actor :
       {grid_.Get(), start_.Get(), fill_.Get(), lines_actor_.Get(), axis_.Get(), outline_.Get()})
    actor->SetVisibility(drawn);
  if (!drawn) return;
  Rebuild();
  UpdateLegend();
}

bool AffineEllipseScene::Bounds(std::array<double, 6>& bounds) const {
  if (!extent_) return false;
  const std::array<double, 4>& e = *extent_;
  const double pad = 0.1 * (e[1] - e[0]);
  bounds = {e[0] - pad, e[1] + pad, e[2] - pad, e[3] + pad, -pad, pad};
  return true;
}

void AffineEllipseScene::OnCameraReset() {
  if (!renderer_ || !extent_) return;
  const double half = 1.1 * (*extent_)[1];
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetFocalPoint(0.0, 0.0, 0.0);
  camera->SetPosition(0.0, 0.0, 10.0 * half);
  camera->SetViewUp(0.0, 1.0, 0.0);
  camera->SetParallelScale(half);
  renderer_->ResetCameraClippingRange();
}

}  // namespace dirac::ui
