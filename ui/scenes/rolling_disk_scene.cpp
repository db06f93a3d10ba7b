#include "scenes/rolling_disk_scene.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDiskSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPlaneSource.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

constexpr std::size_t kDiskDefaultTrail = 1000;
constexpr Color kDiskTrailColor{1.0, 0.88, 0.35};
constexpr double kThickness = 0.12;  // of the disk, times its radius

}  // namespace

RollingDiskScene::RollingDiskScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("rolling_disk scene: no derived model");
  const dirac::SceneOptions& options = context.scenario.scene.options;
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  const std::vector<std::string> contact = options.Strings("contact");
  if (contact.size() != 2)
    options.Fail("contact", "expected the contact point's two trajectory columns [x, y]");
  x_ = contact[0];
  y_ = contact[1];
  RequireColumn(options, "contact", x_, columns);
  RequireColumn(options, "contact", y_, columns);
  heading_ = options.String("heading");
  tilt_ = options.String("tilt");
  spin_ = options.String("spin");
  RequireColumn(options, "heading", heading_, columns);
  RequireColumn(options, "tilt", tilt_, columns);
  if (options.Has("spin")) RequireColumn(options, "spin", spin_, columns);
  const std::string radius = options.String("radius", "0.3");
  const std::optional<LengthOption> value = PositiveNumberOrParameter(context.scenario, radius);
  if (!value)
    options.Fail("radius",
                 "expected a positive number or a parameter's name, got '" + radius + "'");
  radius_ = value->value;
  radius_parameter_ = value->parameter;
  trail_samples_ = TrailOption(options, kDiskDefaultTrail);
  options.CheckKeys({"contact", "heading", "tilt", "spin", "radius", "trail"});

  // The disk: a thin cylinder about its axle (the source's y axis), a dark stripe across both
  // faces that shows the rolling, and the axle's stubs.
  disk_source_ = vtkSmartPointer<vtkCylinderSource>::New();
  disk_source_->SetResolution(48);
  disk_ = MakeActor(disk_source_);
  SetSolidLook(disk_->GetProperty(), ToColor(kSceneOrange), 0.3, 0.75, 0.35, 30);
  stripe_source_ = vtkSmartPointer<vtkCubeSource>::New();
  stripe_ = MakeActor(stripe_source_);
  SetSolidLook(stripe_->GetProperty(), Color{0.22, 0.20, 0.24}, 0.4, 0.6, 0.2, 20);
  axle_source_ = vtkSmartPointer<vtkCylinderSource>::New();
  axle_source_->SetResolution(16);
  axle_actor_ = MakeActor(axle_source_);
  SetSolidLook(axle_actor_->GetProperty(), Color{0.70, 0.72, 0.78}, 0.3, 0.7, 0.5, 40);
  contact_source_ = vtkSmartPointer<vtkDiskSource>::New();
  contact_source_->SetInnerRadius(0.0);
  contact_source_->SetCircumferentialResolution(24);
  contact_ = MakeActor(contact_source_);
  SetFlatLook(contact_->GetProperty(), kDiskTrailColor);
  arrow_source_ = vtkSmartPointer<vtkArrowSource>::New();
  arrow_source_->SetShaftResolution(12);
  arrow_source_->SetTipResolution(16);
  heading_arrow_ = MakeActor(arrow_source_);
  SetSolidLook(heading_arrow_->GetProperty(), Color{0.35, 0.80, 1.0}, 0.5, 0.6, 0.2, 20);
  trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  trail_ = MakeActor(trail_data_);
  SetFlatLook(trail_->GetProperty(), std::nullopt, 1.0, 2.5);
  path_data_ = vtkSmartPointer<vtkPolyData>::New();
  path_ = MakeActor(path_data_);
  SetFlatLook(path_->GetProperty(), kDiskTrailColor, 0.25, 1.0);
  ground_source_ = vtkSmartPointer<vtkPlaneSource>::New();
  ground_ = MakeActor(ground_source_);
  SetFlatLook(ground_->GetProperty(), kGroundColor);
  grid_data_ = vtkSmartPointer<vtkPolyData>::New();
  grid_ = MakeActor(grid_data_);
  SetFlatLook(grid_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.3);
  for (vtkActor* actor : {disk_.Get(), stripe_.Get(), axle_actor_.Get(), contact_.Get(),
                          heading_arrow_.Get(), path_.Get(), ground_.Get(), grid_.Get()})
    actor->VisibilityOff();
  legend_ = MakeLegendText();
  message_ = MakeMessageText(0.62);
  UpdateGeometry();
  UpdateLegend();
}

void RollingDiskScene::UpdateGeometry() {
  const double r = radius_, h = kThickness * radius_;
  disk_source_->SetRadius(r);
  disk_source_->SetHeight(h);
  stripe_source_->SetXLength(1.7 * r);
  stripe_source_->SetYLength(1.12 * h);
  stripe_source_->SetZLength(0.16 * r);
  axle_source_->SetRadius(0.07 * r);
  axle_source_->SetHeight(2.6 * h);
  contact_source_->SetOuterRadius(0.07 * r);
}

void RollingDiskScene::UpdateLegend() {
  std::string legend = "rolling disk on the ground plane z = 0: contact point (" + x_ + ", " + y_ +
                       "), heading " + heading_ + ", tilt " + tilt_ +
                       (spin_.empty() ? "" : ", rolling angle " + spin_) + "\nradius " +
                       (radius_parameter_.empty() ? "" : radius_parameter_ + " = ") +
                       FormatNumber(radius_) +
                       "; dark stripe: turns with the disk; blue arrow: heading\nyellow: trail of "
                       "the contact point";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  legend += "; faint: the whole run";
  legend_->SetInput(legend.c_str());
}

std::string RollingDiskScene::message_text() const { return TextOf(message_, true); }

std::string RollingDiskScene::legend_text() const { return TextOf(legend_); }

void RollingDiskScene::OnCameraReset() {
  if (renderer_) renderer_->GetActiveCamera()->Zoom(1.3);
}

void RollingDiskScene::AddTo(vtkRenderer* renderer) {
  renderer_ = renderer;
  renderer->AddActor(ground_);
  renderer->AddActor(grid_);
  renderer->AddActor(path_);
  renderer->AddActor(trail_);
  renderer->AddActor(contact_);
  renderer->AddActor(heading_arrow_);
  renderer->AddActor(disk_);
  renderer->AddActor(stripe_);
  renderer->AddActor(axle_actor_);
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

bool RollingDiskScene::OnScenarioEdited(const dirac::Scenario& scenario) {
  if (radius_parameter_.empty()) return false;
  const std::optional<LengthOption> value = PositiveNumberOrParameter(scenario, radius_parameter_);
  if (!value || value->value == radius_) return false;
  radius_ = value->value;
  UpdateGeometry();
  UpdateLegend();
  return true;
}

void RollingDiskScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  columns_ok_ = false;
  extent_.reset();
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!trajectory || trajectory->num_columns() == 0) {
    ShowText(message_, "");
    return;
  }
  std::string missing;
  const std::string* names[5] = {&x_, &y_, &heading_, &tilt_, &spin_};
  for (int k = 0; k < 5; ++k) {
    if (names[k]->empty()) continue;
    const auto found = trajectory->FindColumn(*names[k]);
    if (!found) missing += (missing.empty() ? "'" : ", '") + *names[k] + "'";
    columns_[k] = found.value_or(0);
  }
  columns_ok_ = missing.empty();
  ShowText(message_, columns_ok_ ? std::string()
                                 : "rolling_disk scene: the trajectory has no column " + missing);
  if (!columns_ok_) return;
  std::array<double, 4> e{
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  std::vector<Vec3> path;
  path.reserve(trajectory->num_rows());
  for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
    const double x = trajectory->at(r, columns_[0]), y = trajectory->at(r, columns_[1]);
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    e = {std::min(e[0], x), std::max(e[1], x), std::min(e[2], y), std::max(e[3], y)};
    path.push_back({x, y, 0.002 * radius_});
  }
  SetPolyline(path_data_, path);
  if (!(e[0] <= e[1] && e[2] <= e[3])) return;
  extent_ = e;
  // The ground and its grid: the run's contact path with a margin of a few radii.
  const double size = std::max({e[1] - e[0], e[3] - e[2], 4.0 * radius_});
  const double spacing = NiceStep(size / 6.0);
  const double pad = std::max(2.0 * radius_, 0.15 * size);
  const double x0 = std::floor((e[0] - pad) / spacing) * spacing;
  const double y0 = std::floor((e[2] - pad) / spacing) * spacing;
  const int nx = std::max(1, static_cast<int>(std::ceil((e[1] + pad - x0) / spacing)));
  const int ny = std::max(1, static_cast<int>(std::ceil((e[3] + pad - y0) / spacing)));
  ground_rect_ = {x0, x0 + nx * spacing, y0, y0 + ny * spacing};
  const double ground_z = -0.004 * radius_;
  ground_source_->SetOrigin(x0, y0, ground_z);
  ground_source_->SetPoint1(ground_rect_[1], y0, ground_z);
  ground_source_->SetPoint2(x0, ground_rect_[3], ground_z);
  SetGridLines(grid_data_, ground_rect_, nx, ny, 0.0);
}

void RollingDiskScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = columns_ok_ && extent_ && trajectory && !trajectory->empty();
  for (vtkActor* actor : {ground_.Get(), grid_.Get(), path_.Get()}) actor->SetVisibility(drawn);
  if (!drawn) {
    for (vtkActor* actor :
         {disk_.Get(), stripe_.Get(), axle_actor_.Get(), contact_.Get(), heading_arrow_.Get()})
      actor->VisibilityOff();
    trail_data_->Initialize();
    trail_data_->Modified();
    return;
  }
  const std::size_t row = trajectory->RowAtTime(t);
  for (int k = 0; k < 5; ++k)
    pose_[k] = k == 4 && spin_.empty() ? 0.0 : trajectory->at(row, columns_[k]);
  const auto [x, y, theta, alpha, phi] = pose_;
  const bool finite =
      std::all_of(pose_.begin(), pose_.end(), [](double v) { return std::isfinite(v); });
  for (vtkActor* actor :
       {disk_.Get(), stripe_.Get(), axle_actor_.Get(), contact_.Get(), heading_arrow_.Get()})
    actor->SetVisibility(finite);
  if (finite) {
    const double ct = std::cos(theta), st = std::sin(theta);
    const double ca = std::cos(alpha), sa = std::sin(alpha);
    const double cp = std::cos(phi), sp = std::sin(phi);
    const Vec3 b1{ct, st, 0.0};
    const Vec3 b2{-ca * st, ca * ct, sa};
    const Vec3 b3{sa * st, -sa * ct, ca};
    centre_ = {x + radius_ * b3[0], y + radius_ * b3[1], radius_ * b3[2]};
    axle_ = b2;
    // The disk's own frame: (b1, b2, b3) turned by phi about the axle b2.
    Vec3 d1, d3;
    for (int k = 0; k < 3; ++k) {
      d1[k] = cp * b1[k] - sp * b3[k];
      d3[k] = sp * b1[k] + cp * b3[k];
    }
    auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    for (int k = 0; k < 3; ++k) {
      matrix->SetElement(k, 0, d1[k]);
      matrix->SetElement(k, 1, b2[k]);
      matrix->SetElement(k, 2, d3[k]);
      matrix->SetElement(k, 3, centre_[k]);
    }
    for (vtkActor* actor : {disk_.Get(), stripe_.Get(), axle_actor_.Get()})
      actor->SetUserMatrix(matrix);
    contact_->SetPosition(x, y, 0.003 * radius_);
    // The heading: an arrow on the ground from the contact point along b1.
    const Vec3 tail{x, y, 0.05 * radius_};
    if (auto arrow =
            ArrowMatrix(tail, {1.6 * radius_ * ct, 1.6 * radius_ * st, 0.0}, 0.6 * radius_))
      heading_arrow_->SetUserMatrix(arrow);
  }
  std::vector<Vec3> trail;
  for (std::size_t r = TrailStart(row, trail_samples_); r <= row; ++r)
    trail.push_back(
        {trajectory->at(r, columns_[0]), trajectory->at(r, columns_[1]), 0.004 * radius_});
  FillFadingTrail(trail_data_, trail, kDiskTrailColor);
}

bool RollingDiskScene::Bounds(std::array<double, 6>& bounds) const {
  if (!extent_) return false;
  const std::array<double, 4>& e = *extent_;
  const double pad = 1.2 * radius_;
  bounds = {e[0] - pad, e[1] + pad, e[2] - pad, e[3] + pad, 0.0, 2.0 * radius_};
  return true;
}

std::optional<GroundPlane> RollingDiskScene::Ground() const {
  return GroundPlane{ground_, ground_rect_, -0.004 * radius_, kGroundColor};
}

}  // namespace dirac::ui
