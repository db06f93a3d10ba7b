#include "scenes/planar_points_scene.hpp"

#include <vtkActor.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {}  // namespace

PlanarPointsScene::PlanarPointsScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("planar_points scene: no derived model");
  const dirac::SceneOptions& options = context.scenario.scene.options;
  const std::vector<dirac::SceneOptions> specs = options.Maps("points");
  if (specs.empty())
    options.Fail("points", "a planar_points scene needs a list of points {x, y, label}");
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const dirac::SceneOptions& p = specs[i];
    Point point;
    point.x = p.String("x");
    point.y = p.String("y");
    RequireColumn(p, "x", point.x, columns);
    RequireColumn(p, "y", point.y, columns);
    point.label = p.String("label", "point " + std::to_string(i + 1));
    p.CheckKeys({"x", "y", "label"});
    points_.push_back(std::move(point));
  }
  trail_samples_ = TrailOption(options, kDefaultTrailSamples);
  scale_ = PositiveOption(options, "scale", 1.0);
  markers_ = SceneMarkers(context.scenario, options, 0.0, 0.0);
  options.CheckKeys({"points", "trail", "scale", "markers"});

  for (std::size_t i = 0; i < points_.size(); ++i) {
    Point& point = points_[i];
    const Color color = ToColor(kPointColors[i % kPointColors.size()]);
    point.sphere = vtkSmartPointer<vtkSphereSource>::New();
    point.sphere->SetThetaResolution(32);
    point.sphere->SetPhiResolution(20);
    point.actor = MakeActor(point.sphere);
    SetSolidLook(point.actor->GetProperty(), color, 0.35, 0.75, 0.3, 30);
    point.actor->VisibilityOff();
    point.trail_data = vtkSmartPointer<vtkPolyData>::New();
    point.trail = MakeActor(point.trail_data);
    SetFlatLook(point.trail->GetProperty(), std::nullopt, 1.0, 2.5);
    point.path_data = vtkSmartPointer<vtkPolyData>::New();
    point.path = MakeActor(point.path_data);
    SetFlatLook(point.path->GetProperty(), color, 0.25, 1.0);
  }
  grid_data_ = vtkSmartPointer<vtkPolyData>::New();
  grid_ = MakeActor(grid_data_);
  SetFlatLook(grid_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.25);
  grid_->VisibilityOff();
  legend_ = MakeLegendText();
  message_ = MakeMessageText(0.62);
  UpdateLegend();
}

void PlanarPointsScene::UpdateLegend() {
  std::string legend = "points in the plane z = 0 (grid: their whole motion)\n";
  for (std::size_t i = 0; i < points_.size(); ++i) {
    legend += std::string(kPaletteNames[i % kPointColors.size()]) + ": " + points_[i].label +
              " at (" + points_[i].x + ", " + points_[i].y + ")\n";
  }
  legend += "bright trails: the last " + std::to_string(trail_samples_) +
            " samples; faint lines: the whole run";
  if (!markers_.empty()) legend += "\n" + markers_.LegendLines();
  legend_->SetInput(legend.c_str());
}

std::string PlanarPointsScene::message_text() const { return TextOf(message_, true); }

std::string PlanarPointsScene::legend_text() const { return TextOf(legend_); }

void PlanarPointsScene::AddTo(vtkRenderer* renderer) {
  renderer->AddActor(grid_);
  markers_.AddTo(renderer);
  for (const Point& point : points_) {
    renderer->AddActor(point.path);
    renderer->AddActor(point.trail);
    renderer->AddActor(point.actor);
  }
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

void PlanarPointsScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  columns_ok_ = false;
  extent_.reset();
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!trajectory || trajectory->num_columns() == 0) {
    ShowText(message_, "");
    return;
  }
  std::string missing;
  for (Point& point : points_) {
    for (auto [name, column] :
         {std::pair{&point.x, &point.x_column}, std::pair{&point.y, &point.y_column}}) {
      const auto found = trajectory->FindColumn(*name);
      if (!found) missing += (missing.empty() ? "'" : ", '") + *name + "'";
      *column = found.value_or(0);
    }
  }
  columns_ok_ = missing.empty();
  ShowText(message_, columns_ok_ ? std::string()
                                 : "planar_points scene: the trajectory has no column " + missing);
  if (!columns_ok_) return;
  std::array<double, 4> e{
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (Point& point : points_) {
    std::vector<Vec3> path;
    path.reserve(trajectory->num_rows());
    for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
      const double x = trajectory->at(r, point.x_column), y = trajectory->at(r, point.y_column);
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      e = {std::min(e[0], x), std::max(e[1], x), std::min(e[2], y), std::max(e[3], y)};
      path.push_back({x, y, 0.0});
    }
    SetPolyline(point.path_data, path);
  }
  if (!(e[0] <= e[1] && e[2] <= e[3])) return;
  if (const auto m = markers_.Extent())  // the grid and the camera take the markers in
    e = {std::min(e[0], (*m)[0]), std::max(e[1], (*m)[1]), std::min(e[2], (*m)[2]),
         std::max(e[3], (*m)[3])};
  extent_ = e;
  // Sphere size from the extent of the motion; the grid a little beyond it.
  const double size = std::max({e[1] - e[0], e[3] - e[2], 1e-6});
  for (Point& point : points_) point.sphere->SetRadius(0.035 * size * scale_);
  const double pad = 0.1 * size;
  SetGridLines(grid_data_, {e[0] - pad, e[1] + pad, e[2] - pad, e[3] + pad}, 10, 10, -0.001 * size);
  markers_.SetLevel(-0.0005 * size);  // between the grid and the paths
}

void PlanarPointsScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = columns_ok_ && extent_ && trajectory && !trajectory->empty();
  grid_->SetVisibility(drawn);
  for (Point& point : points_) {
    point.actor->SetVisibility(drawn);
    point.path->SetVisibility(drawn);
    if (!drawn) {
      point.trail_data->Initialize();
      point.trail_data->Modified();
    }
  }
  if (!drawn) return;
  const std::size_t row = trajectory->RowAtTime(t);
  for (std::size_t i = 0; i < points_.size(); ++i) {
    Point& point = points_[i];
    point.position = {trajectory->at(row, point.x_column), trajectory->at(row, point.y_column)};
    point.actor->SetPosition(point.position[0], point.position[1], 0.0);
    point.actor->SetVisibility(std::isfinite(point.position[0]) &&
                               std::isfinite(point.position[1]));
    std::vector<Vec3> trail;
    for (std::size_t r = TrailStart(row, trail_samples_); r <= row; ++r)
      trail.push_back({trajectory->at(r, point.x_column), trajectory->at(r, point.y_column), 0.0});
    FillFadingTrail(point.trail_data, trail, ToColor(kPointColors[i % kPointColors.size()]));
  }
}

bool PlanarPointsScene::Bounds(std::array<double, 6>& bounds) const {
  if (!extent_) return false;
  const std::array<double, 4>& e = *extent_;
  const double pad = 0.1 * std::max({e[1] - e[0], e[3] - e[2], 1e-6});
  bounds = {e[0] - pad, e[1] + pad, e[2] - pad, e[3] + pad, -pad, pad};
  return true;
}

}  // namespace dirac::ui
