#include "scenes/particle_scene.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkPlaneSource.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkPropPicker.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "dirac/error.hpp"
#include "run/boundary_values.hpp"
#include "scenes/scene_kit.hpp"

namespace dirac::ui {
namespace {

constexpr Color kParticleTrailColor{0.35, 0.75, 1.0};
constexpr Color kPlaneColor{0.30, 0.80, 0.75};
constexpr Color kVelocityColor{0.95, 0.95, 0.95};

Vec3 PointAt(const dirac::Trajectory& trajectory, const std::array<std::size_t, 3>& columns,
             std::size_t row) {
  return {trajectory.at(row, columns[0]), trajectory.at(row, columns[1]),
          trajectory.at(row, columns[2])};
}

// The points of `columns` in rows [first, last).
std::vector<Vec3> PointsAt(const dirac::Trajectory& trajectory,
                           const std::array<std::size_t, 3>& columns, std::size_t first,
                           std::size_t last) {
  std::vector<Vec3> points;
  points.reserve(last > first ? last - first : 0);
  for (std::size_t r = first; r < last; ++r) points.push_back(PointAt(trajectory, columns, r));
  return points;
}

// Index of the model's column `name` if it has kind `kind`.
std::optional<std::size_t> ColumnOfKind(const dirac::Model& model, const std::string& name,
                                        dirac::ColumnKind kind) {
  const std::vector<dirac::ColumnInfo>& columns = model.columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) {
      if (columns[i].kind != kind) return std::nullopt;
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace

ParticleScene::ParticleScene(const SceneContext& context) : model_(context.model) {
  if (!model_) throw dirac::Error("particle scene: no derived model");
  const dirac::Scenario& scenario = context.scenario;
  const dirac::SceneOptions& options = scenario.scene.options;
  for (const dirac::Coordinate& c : scenario.coordinates) coordinate_names_.push_back(c.name);
  const std::vector<std::string> columns = model_->TrajectoryColumns();

  std::vector<std::string> position = options.Strings("position");
  if (!options.Has("position")) {
    if (coordinate_names_.size() < 3) {
      options.Fail("position",
                   "missing: the scenario has fewer than three coordinates, so name three "
                   "trajectory columns (x, y, z)");
    }
    position.assign(coordinate_names_.begin(), coordinate_names_.begin() + 3);
  }
  if (position.size() != 3) {
    options.Fail("position", "expected three trajectory columns (x, y, z), got " +
                                 std::to_string(position.size()));
  }
  const std::string plane = options.String("constraint_plane");
  if (!plane.empty()) {
    plane_constraint_ = IndexOf(model_->constraint_names(), plane);
    if (!plane_constraint_) {
      options.Fail("constraint_plane", "'" + plane + "' names no constraint of the scenario");
    }
    plane_name_ = plane;
  }
  std::array<std::size_t, 3> v_columns{};
  bool has_velocity = true;
  for (std::size_t k = 0; k < 3; ++k) {
    position_names_[k] = position[k];
    RequireColumn(options, "position", position[k], columns);
    position_columns_[k] = *IndexOf(columns, position[k]);
    // Any trajectory column may be drawn (e.g. a phase portrait); the plane Delta(q) needs the
    // three drawn columns to be configuration coordinates.
    const auto q = IndexOf(coordinate_names_, position[k]);
    if (!q && plane_constraint_) {
      options.Fail("position", "'" + position[k] +
                                   "' is not a coordinate of the scenario (needed for "
                                   "constraint_plane)");
    }
    coordinate_indices_[k] = q.value_or(0);
    // The rate q' (constraint-algorithm models) or the velocity v (index-1 DAE, where q' = v).
    auto rate = ColumnOfKind(*model_, position[k] + "_dot", dirac::ColumnKind::kRate);
    if (!rate && q) {
      rate = ColumnOfKind(*model_, scenario.coordinates[*q].velocity, dirac::ColumnKind::kVelocity);
    }
    has_velocity = has_velocity && rate.has_value();
    v_columns[k] = rate.value_or(0);
  }
  if (has_velocity) velocity_columns_ = v_columns;
  trail_samples_ = TrailOption(options, kDefaultTrailSamples);
  scale_ = PositiveOption(options, "scale", 1.0);
  options.CheckKeys({"position", "trail", "scale", "constraint_plane"});
  if (plane_constraint_) {
    covectors_ = std::make_unique<ConstraintCovectorSampler>(model_, coordinate_names_, columns);
  }
  glyph_ = scale_;

  // Particle.
  sphere_ = vtkSmartPointer<vtkSphereSource>::New();
  sphere_->SetRadius(0.1 * scale_);
  sphere_->SetThetaResolution(48);
  sphere_->SetPhiResolution(32);
  particle_ = MakeActor(sphere_);
  SetSolidLook(particle_->GetProperty(), ToColor(kSceneOrange), 0.35, 0.75, 0.25, 30);
  particle_->VisibilityOff();

  // Whole computed path (faint) and the recent trail (bright, fading in).
  path_data_ = vtkSmartPointer<vtkPolyData>::New();
  path_ = MakeActor(path_data_);
  SetFlatLook(path_->GetProperty(), Color{0.55, 0.58, 0.65}, 0.45);

  trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  trail_ = MakeActor(trail_data_);
  SetFlatLook(trail_->GetProperty(), std::nullopt, 1.0, 2.5);

  // Constraint plane Delta(q).
  plane_source_ = vtkSmartPointer<vtkPlaneSource>::New();
  plane_ = MakeActor(plane_source_);
  vtkProperty* plane_property = plane_->GetProperty();
  plane_property->SetColor(kPlaneColor[0], kPlaneColor[1], kPlaneColor[2]);
  plane_property->SetOpacity(0.35);
  plane_property->SetAmbient(0.5);
  plane_property->SetDiffuse(0.5);
  plane_property->EdgeVisibilityOn();
  plane_property->SetEdgeColor(kPlaneColor[0], kPlaneColor[1], kPlaneColor[2]);
  plane_property->SetLineWidth(1.5);
  plane_->VisibilityOff();

  // Velocity arrow: a unit arrow along +x placed by a user matrix.
  auto arrow = vtkSmartPointer<vtkArrowSource>::New();
  arrow->SetShaftRadius(0.02);
  arrow->SetTipRadius(0.06);
  arrow->SetTipLength(0.22);
  arrow->SetShaftResolution(16);
  arrow->SetTipResolution(24);
  velocity_ = MakeActor(arrow);
  velocity_->GetProperty()->SetColor(kVelocityColor[0], kVelocityColor[1], kVelocityColor[2]);
  velocity_->VisibilityOff();

  // Coordinate axes at the origin, labelled with the drawn columns' names.
  axes_ = vtkSmartPointer<vtkAxesActor>::New();
  axes_->SetTotalLength(scale_, scale_, scale_);
  axes_->SetShaftTypeToCylinder();
  axes_->SetCylinderRadius(0.006);
  axes_->SetConeRadius(0.4);
  axes_->SetNormalizedShaftLength(0.9, 0.9, 0.9);
  axes_->SetNormalizedTipLength(0.1, 0.1, 0.1);
  axes_->SetXAxisLabelText(position_names_[0].c_str());
  axes_->SetYAxisLabelText(position_names_[1].c_str());
  axes_->SetZAxisLabelText(position_names_[2].c_str());
  StyleAxisLabels(axes_, /*italic=*/true);

  // A faint grid under the motion (at the lowest third coordinate) for depth perception.
  floor_data_ = vtkSmartPointer<vtkPolyData>::New();
  floor_ = MakeActor(floor_data_);
  SetFlatLook(floor_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.22);
  floor_->VisibilityOff();

  // The comparison trajectory: faint full path, fading trail and a smaller sphere, magenta.
  const Color magenta = ToColor(kComparisonColor);
  comparison_path_data_ = vtkSmartPointer<vtkPolyData>::New();
  comparison_path_ = MakeActor(comparison_path_data_);
  SetFlatLook(comparison_path_->GetProperty(), magenta, 0.35);
  comparison_path_->VisibilityOff();
  comparison_trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  comparison_trail_ = MakeActor(comparison_trail_data_);
  SetFlatLook(comparison_trail_->GetProperty(), std::nullopt, 1.0, 3.5);
  comparison_trail_->VisibilityOff();
  comparison_sphere_ = vtkSmartPointer<vtkSphereSource>::New();
  comparison_sphere_->SetRadius(0.07 * scale_);
  comparison_sphere_->SetThetaResolution(32);
  comparison_sphere_->SetPhiResolution(24);
  comparison_particle_ = MakeActor(comparison_sphere_);
  SetSolidLook(comparison_particle_->GetProperty(), magenta, 0.4, 0.7, 0.0, 1);
  comparison_particle_->VisibilityOff();

  // Ghosts of the start and target points of a solve: faint spheres with clear wire frames.
  ghost_sphere_ = vtkSmartPointer<vtkSphereSource>::New();
  ghost_sphere_->SetThetaResolution(16);
  ghost_sphere_->SetPhiResolution(10);
  MakeGhost(ghost_sphere_, kStartGhostColor, 0.25, 1.5, start_ghost_, start_ghost_edges_);
  MakeGhost(ghost_sphere_, kTargetGhostColor, 0.25, 1.5, target_ghost_, target_ghost_edges_);
  edit_ = context.edit;
  ReadEndPoints(scenario);

  legend_ = MakeLegendText();
  UpdateLegend();
}

void ParticleScene::ReadEndPoints(const dirac::Scenario& scenario) {
  start_point_.reset();
  target_point_.reset();
  if (PosesSolve(scenario)) {
    auto read = [&](const char* when) -> std::optional<std::array<double, 3>> {
      std::array<double, 3> p{};
      for (std::size_t k = 0; k < 3; ++k) {
        const std::string name = when + position_names_[k];
        const auto value = IsBoundaryValueName(scenario, name) ? GetBoundaryValue(scenario, name)
                                                               : std::optional<double>();
        if (!value) return std::nullopt;
        p[k] = *value;
      }
      return p;
    };
    start_point_ = read("initial.");
    target_point_ = read("final.");
  }
  UpdateEndPoints();
}

void ParticleScene::UpdateEndPoints() {
  ghost_sphere_->SetRadius(1.8 * radius_);
  for (auto [point, faces, edges] :
       {std::tuple{&start_point_, start_ghost_.Get(), start_ghost_edges_.Get()},
        std::tuple{&target_point_, target_ghost_.Get(), target_ghost_edges_.Get()}}) {
    faces->SetVisibility(point->has_value());
    edges->SetVisibility(point->has_value());
    if (*point) {
      faces->SetPosition((**point)[0], (**point)[1], (**point)[2]);
      edges->SetPosition((**point)[0], (**point)[1], (**point)[2]);
    }
  }
}

bool ParticleScene::OnScenarioEdited(const dirac::Scenario& scenario) {
  const auto start = start_point_, target = target_point_;
  ReadEndPoints(scenario);
  if (start.has_value() != start_point_.has_value() ||
      target.has_value() != target_point_.has_value())
    UpdateLegend();
  return start != start_point_ || target != target_point_;
}

bool ParticleScene::SetTargetPoint(const std::array<double, 3>& p) {
  if (!target_point_) return false;
  target_point_ = p;
  UpdateEndPoints();
  if (edit_) {
    std::vector<std::pair<std::string, double>> values;
    for (std::size_t k = 0; k < 3; ++k) values.emplace_back("final." + position_names_[k], p[k]);
    edit_(values);
  }
  return true;
}

bool ParticleScene::OnPointerPress(vtkRenderer* renderer, int x, int y) {
  if (!target_point_ || !edit_ || !renderer) return false;
  if (!PicksProp(renderer, x, y, target_ghost_)) return false;
  dragging_ = true;
  drag_x_ = x;
  drag_y_ = y;
  return true;
}

void ParticleScene::OnPointerMove(vtkRenderer* renderer, int x, int y) {
  if (!dragging_ || !renderer || !target_point_) return;
  const int dx = x - drag_x_, dy = y - drag_y_;
  if (dx == 0 && dy == 0) return;
  drag_x_ = x;
  drag_y_ = y;
  // In the plane of the screen through the target: the ghost stays under the pointer.
  vtkCamera* camera = renderer->GetActiveCamera();
  const double* f = camera->GetFocalPoint();
  const double* c = camera->GetPosition();
  Vec3 d{f[0] - c[0], f[1] - c[1], f[2] - c[2]};
  const double dn = Norm(d);
  const double* view_up = camera->GetViewUp();
  Vec3 right = Cross(d, {view_up[0], view_up[1], view_up[2]});
  const double rn = Norm(right);
  if (!(dn > 0.0) || !(rn > 0.0)) return;
  for (std::size_t k = 0; k < 3; ++k) {
    d[k] /= dn;
    right[k] /= rn;
  }
  const Vec3 up = Cross(right, d);
  const std::array<double, 3>& p = *target_point_;
  const double depth = (p[0] - c[0]) * d[0] + (p[1] - c[1]) * d[1] + (p[2] - c[2]) * d[2];
  int width = 0, height = 0;
  renderer->GetTiledSize(&width, &height);
  const double per_pixel =
      camera->GetParallelProjection()
          ? 2.0 * camera->GetParallelScale() / std::max(height, 1)
          : 2.0 * depth * std::tan(0.5 * camera->GetViewAngle() * 3.14159265358979323846 / 180.0) /
                std::max(height, 1);
  std::array<double, 3> moved = p;
  for (std::size_t k = 0; k < 3; ++k) moved[k] += per_pixel * (right[k] * dx + up[k] * dy);
  SetTargetPoint(moved);
}

void ParticleScene::OnPointerRelease() { dragging_ = false; }

void ParticleScene::UpdateLegend() {
  std::string legend = "orange sphere: particle (" + position_names_[0] + ", " +
                       position_names_[1] + ", " + position_names_[2] + ")\nblue: trail";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  if (velocity_columns_) legend += "\nwhite arrow: velocity";
  if (plane_constraint_) legend += "\nteal square: constraint plane Delta(q), " + plane_name_;
  if (!comparison_label_.empty()) {
    legend += "\nmagenta: " + comparison_label_ + " motion, same initial point";
  }
  if (start_point_) legend += "\ncyan ghost: start point";
  if (target_point_) legend += "\nmagenta ghost: target point (drag it to move the target)";
  legend_->SetInput(legend.c_str());
}

std::string ParticleScene::legend_text() const { return TextOf(legend_); }

std::size_t ParticleScene::comparison_path_points() const {
  return comparison_path_->GetVisibility() && comparison_path_data_->GetPoints()
             ? static_cast<std::size_t>(comparison_path_data_->GetNumberOfPoints())
             : 0;
}

void ParticleScene::AddTo(vtkRenderer* renderer) {
  renderer->AddActor(axes_);
  renderer->AddActor(floor_);
  renderer->AddActor(path_);
  renderer->AddActor(comparison_path_);
  renderer->AddActor(trail_);
  renderer->AddActor(comparison_trail_);
  renderer->AddActor(particle_);
  renderer->AddActor(comparison_particle_);
  renderer->AddActor(velocity_);
  renderer->AddActor(start_ghost_edges_);
  renderer->AddActor(target_ghost_edges_);
  renderer->AddActor(plane_);  // translucent: drawn after the opaque props
  renderer->AddActor(start_ghost_);
  renderer->AddActor(target_ghost_);
  renderer->AddActor2D(legend_);
}

void ParticleScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  max_speed_ = 0.0;
  if (trajectory && velocity_columns_) {
    for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
      double s2 = 0.0;
      for (std::size_t k = 0; k < 3; ++k)
        s2 += std::pow(trajectory->at(r, (*velocity_columns_)[k]), 2);
      max_speed_ = std::max(max_speed_, std::sqrt(s2));
    }
  }
  // The comparison trajectory has its own columns: find the drawn coordinates by name.
  comparison_columns_.reset();
  const dirac::Trajectory* other = snapshot_ ? snapshot_->comparison.get() : nullptr;
  if (other && !other->empty()) {
    std::array<std::size_t, 3> columns{};
    bool found = true;
    for (std::size_t k = 0; k < 3; ++k) {
      const auto column = other->FindColumn(position_names_[k]);
      found = found && column.has_value();
      columns[k] = column.value_or(0);
    }
    if (found) comparison_columns_ = columns;
  }
  const std::string label =
      comparison_columns_ ? (snapshot_->comparison_label.empty() ? std::string("comparison")
                                                                 : snapshot_->comparison_label)
                          : std::string();
  if (label != comparison_label_) {
    comparison_label_ = label;
    UpdateLegend();
  }
  UpdatePath();
  UpdateFrame();
}

void ParticleScene::UpdateFrame() {
  bounds_.reset();
  if (!snapshot_ || !snapshot_->trajectory || snapshot_->trajectory->empty()) {
    floor_->VisibilityOff();
    return;
  }
  // Box of the motion, padded by half a glyph (the reach of the plane).
  std::array<double, 6> b{};
  for (std::size_t k = 0; k < 3; ++k) {
    b[2 * k] = std::numeric_limits<double>::infinity();
    b[2 * k + 1] = -std::numeric_limits<double>::infinity();
  }
  auto include = [&](const Vec3& p) {
    for (std::size_t k = 0; k < 3; ++k) {
      b[2 * k] = std::min(b[2 * k], p[k] - 0.5 * scale_);
      b[2 * k + 1] = std::max(b[2 * k + 1], p[k] + 0.5 * scale_);
    }
  };
  for (std::size_t r = 0; r < snapshot_->trajectory->num_rows(); ++r) include(PositionAt(r));
  // Glyphs follow the middle extent of the particle's own motion, so one long direction (a
  // drift) does not inflate them, but stay visible when the camera must show a long one.
  std::array<double, 3> extents{b[1] - b[0], b[3] - b[2], b[5] - b[4]};
  std::sort(extents.begin(), extents.end());
  const double typical = extents[1];
  if (comparison_columns_) {
    const dirac::Trajectory& other = *snapshot_->comparison;
    for (std::size_t r = 0; r < other.num_rows(); ++r)
      include(PointAt(other, *comparison_columns_, r));
  }
  const double largest = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
  radius_ = std::max({0.1 * scale_, 0.035 * typical, 0.02 * largest});
  glyph_ = std::max(scale_, 6.0 * radius_);
  sphere_->SetRadius(radius_);
  comparison_sphere_->SetRadius(0.75 * radius_);
  UpdateEndPoints();
  const double axis_length = std::max({scale_, 0.5 * typical, 0.12 * largest});
  axes_->SetTotalLength(axis_length, axis_length, axis_length);

  const double z = b[4];
  SetGridLines(floor_data_, {b[0], b[1], b[2], b[3]}, 12, 12, z);
  floor_->VisibilityOn();

  for (std::size_t k = 0; k < 3; ++k) {  // the axes at the origin belong in the picture too
    b[2 * k] = std::min(b[2 * k], 0.0);
    b[2 * k + 1] = std::max(b[2 * k + 1], axis_length);
  }
  bounds_ = b;
}

std::array<double, 3> ParticleScene::PositionAt(std::size_t row) const {
  return PointAt(*snapshot_->trajectory, position_columns_, row);
}

void ParticleScene::UpdatePath() {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  SetPolyline(path_data_, trajectory
                              ? PointsAt(*trajectory, position_columns_, 0, trajectory->num_rows())
                              : std::vector<Vec3>{});
  const dirac::Trajectory* other = comparison_columns_ ? snapshot_->comparison.get() : nullptr;
  SetPolyline(
      comparison_path_data_,
      other ? PointsAt(*other, *comparison_columns_, 0, other->num_rows()) : std::vector<Vec3>{});
  comparison_path_->SetVisibility(other != nullptr);
}

void ParticleScene::SetTime(double t) {
  const bool has_data = snapshot_ && snapshot_->trajectory && !snapshot_->trajectory->empty();
  particle_->SetVisibility(has_data);
  if (!has_data) {
    plane_->VisibilityOff();
    velocity_->VisibilityOff();
    SetPolyline(trail_data_, std::vector<Vec3>{});
    UpdateComparison(t);
    return;
  }
  const std::size_t row = snapshot_->trajectory->RowAtTime(t);
  const Vec3 p = PositionAt(row);
  particle_->SetPosition(p[0], p[1], p[2]);
  UpdateTrail(row);
  UpdatePlane(row, p);
  UpdateVelocity(row, p);
  UpdateComparison(t);
}

void ParticleScene::UpdateTrail(std::size_t row) {
  FillFadingTrail(
      trail_data_,
      PointsAt(*snapshot_->trajectory, position_columns_, TrailStart(row, trail_samples_), row + 1),
      kParticleTrailColor);
}

void ParticleScene::UpdateComparison(double t) {
  if (!comparison_columns_) {
    comparison_trail_->VisibilityOff();
    comparison_particle_->VisibilityOff();
    return;
  }
  const dirac::Trajectory& other = *snapshot_->comparison;
  const std::size_t row = other.RowAtTime(t);
  FillFadingTrail(comparison_trail_data_,
                  PointsAt(other, *comparison_columns_, TrailStart(row, trail_samples_), row + 1),
                  ToColor(kComparisonColor));
  comparison_trail_->SetVisibility(trail_samples_ > 0);
  comparison_particle_->SetPosition(PointAt(other, *comparison_columns_, row).data());
  comparison_particle_->VisibilityOn();
}

void ParticleScene::UpdatePlane(std::size_t row, const Vec3& p) {
  if (!covectors_ || !plane_constraint_) {
    plane_->VisibilityOff();
    return;
  }
  const auto omega = covectors_->Evaluate(snapshot_->trajectory->row(row), snapshot_->parameters);
  if (!omega) return;  // not evaluable right now: keep the last plane
  const auto normal =
      PlaneNormal(*omega, covectors_->num_coordinates(), *plane_constraint_, coordinate_indices_);
  if (!normal) {
    plane_->VisibilityOff();
    return;
  }
  const auto [u, w] = PlaneBasis(*normal);
  const double h = 0.5 * glyph_;
  Vec3 origin{}, point1{}, point2{};
  for (std::size_t k = 0; k < 3; ++k) {
    origin[k] = p[k] - h * u[k] - h * w[k];
    point1[k] = origin[k] + 2 * h * u[k];
    point2[k] = origin[k] + 2 * h * w[k];
  }
  plane_source_->SetOrigin(origin.data());
  plane_source_->SetPoint1(point1.data());
  plane_source_->SetPoint2(point2.data());
  plane_->VisibilityOn();
}

void ParticleScene::UpdateVelocity(std::size_t row, const Vec3& p) {
  if (!velocity_columns_ || !(max_speed_ > 0.0)) {
    velocity_->VisibilityOff();
    return;
  }
  const Vec3 v = PointAt(*snapshot_->trajectory, *velocity_columns_, row);
  const double speed = Norm(v);
  if (!(speed > 1e-9 * max_speed_)) {
    velocity_->VisibilityOff();
    return;
  }
  // Out of the sphere, then proportional to speed (the fastest sample 0.8 glyph sizes more).
  const double length = 1.5 * radius_ + 0.8 * glyph_ * speed / max_speed_;
  const double thickness = std::max(length, 0.25 * glyph_);  // keep thin arrows visible
  velocity_->SetUserMatrix(ArrowMatrix(
      p, {v[0] / speed * length, v[1] / speed * length, v[2] / speed * length}, thickness));
  velocity_->VisibilityOn();
}

bool ParticleScene::Bounds(std::array<double, 6>& bounds) const {
  if (!bounds_) return false;
  bounds = *bounds_;
  return true;
}

}  // namespace dirac::ui
