#include "particle_scene.hpp"
#include "scene_text.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkMatrix4x4.h>
#include <vtkPlaneSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

using Vec3 = std::array<double, 3>;

constexpr double kTrailColor[3] = {0.35, 0.75, 1.0};
constexpr double kPlaneColor[3] = {0.30, 0.80, 0.75};
constexpr double kVelocityColor[3] = {0.95, 0.95, 0.95};
constexpr double kBackground[3] = {0.12, 0.13, 0.17};  // what old trail samples fade towards

std::optional<std::size_t> IndexOf(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double Norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// Two unit vectors spanning the plane orthogonal to the unit vector n.
std::pair<Vec3, Vec3> PlaneBasis(const Vec3& n) {
  const Vec3 helper = std::abs(n[2]) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
  Vec3 u = Cross(helper, n);
  const double nu = Norm(u);
  for (double& c : u) c /= nu;
  return {u, Cross(n, u)};
}

vtkSmartPointer<vtkActor> MakeActor(vtkPolyData* data) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

void SetPolyline(vtkPolyData* data, vtkPoints* points) {
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  const vtkIdType n = points->GetNumberOfPoints();
  if (n >= 2) {
    lines->InsertNextCell(n);
    for (vtkIdType i = 0; i < n; ++i) lines->InsertCellPoint(i);
  }
  data->SetPoints(points);
  data->SetLines(lines);
  data->Modified();
}

// Fills `data` with the last `samples` points of `columns` of `trajectory` up to `row`, coloured
// from the background towards `color` as the samples get newer.
void FillTrail(vtkPolyData* data, const dirac::Trajectory& trajectory,
               const std::array<std::size_t, 3>& columns, std::size_t row, std::size_t samples,
               const double color[3]) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  colors->SetName("trail_colors");
  if (samples > 0 && row < trajectory.num_rows()) {
    const std::size_t first = row + 1 > samples ? row + 1 - samples : 0;
    const std::size_t count = row - first + 1;
    points->SetNumberOfPoints(static_cast<vtkIdType>(count));
    colors->SetNumberOfTuples(static_cast<vtkIdType>(count));
    for (std::size_t r = first; r <= row; ++r) {
      const double p[3] = {trajectory.at(r, columns[0]), trajectory.at(r, columns[1]),
                           trajectory.at(r, columns[2])};
      const vtkIdType i = static_cast<vtkIdType>(r - first);
      points->SetPoint(i, p);
      const double w = count > 1 ? 0.15 + 0.85 * static_cast<double>(i) / (count - 1) : 1.0;
      const unsigned char rgb[3] = {
          static_cast<unsigned char>(255 * (kBackground[0] + w * (color[0] - kBackground[0]))),
          static_cast<unsigned char>(255 * (kBackground[1] + w * (color[1] - kBackground[1]))),
          static_cast<unsigned char>(255 * (kBackground[2] + w * (color[2] - kBackground[2])))};
      colors->SetTypedTuple(i, rgb);
    }
  }
  SetPolyline(data, points);
  data->GetPointData()->SetScalars(colors);
}

}  // namespace

ParticleScene::ParticleScene(const SceneContext& context) : model_(context.model) {
  const dirac::SceneSpec& spec = context.scenario.scene;
  if (!model_) throw dirac::Error("particle scene: no derived model");
  if (spec.position.size() != 3) {
    throw dirac::Error("scene.position must name 3 coordinates (x, y, z), got " +
                       std::to_string(spec.position.size()));
  }
  for (const dirac::Coordinate& c : context.scenario.coordinates)
    coordinate_names_.push_back(c.name);
  const std::vector<std::string> columns = model_->TrajectoryColumns();
  std::array<std::size_t, 3> v_columns{};
  bool has_velocity = true;
  for (std::size_t k = 0; k < 3; ++k) {
    position_names_[k] = spec.position[k];
    // Any trajectory column may be drawn (e.g. a phase portrait); the plane Delta(q) needs the
    // three drawn columns to be configuration coordinates.
    const auto q = IndexOf(coordinate_names_, spec.position[k]);
    if (!q && !spec.constraint_plane.empty()) {
      throw dirac::Error("scene.position: '" + spec.position[k] +
                         "' is not a coordinate of the scenario (needed for constraint_plane)");
    }
    coordinate_indices_[k] = q.value_or(0);
    const auto column = IndexOf(columns, spec.position[k]);
    if (!column) {
      throw dirac::Error("scene.position: '" + spec.position[k] + "' is not a trajectory column");
    }
    position_columns_[k] = *column;
    // The rate q' (constraint-algorithm models) or the velocity v (index-1 DAE, where q' = v).
    auto rate = IndexOf(columns, spec.position[k] + "_dot");
    if (!rate && q) rate = IndexOf(columns, context.scenario.coordinates[*q].velocity);
    has_velocity = has_velocity && rate.has_value();
    v_columns[k] = rate.value_or(0);
  }
  if (has_velocity) velocity_columns_ = v_columns;
  if (!spec.constraint_plane.empty()) {
    plane_constraint_ = IndexOf(model_->constraint_names(), spec.constraint_plane);
    if (!plane_constraint_) {
      throw dirac::Error("scene.constraint_plane: '" + spec.constraint_plane +
                         "' is not a constraint of the scenario");
    }
    plane_name_ = spec.constraint_plane;
    covectors_ = std::make_unique<ConstraintCovectorSampler>(model_, coordinate_names_, columns);
  }
  trail_samples_ = static_cast<std::size_t>(std::max(spec.trail, 0));
  scale_ = spec.scale > 0.0 ? spec.scale : 1.0;
  glyph_ = scale_;

  // Particle.
  sphere_ = vtkSmartPointer<vtkSphereSource>::New();
  sphere_->SetRadius(0.1 * scale_);
  sphere_->SetThetaResolution(48);
  sphere_->SetPhiResolution(32);
  auto sphere_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  sphere_mapper->SetInputConnection(sphere_->GetOutputPort());
  particle_ = vtkSmartPointer<vtkActor>::New();
  particle_->SetMapper(sphere_mapper);
  particle_->GetProperty()->SetColor(kParticleColor[0] / 255.0, kParticleColor[1] / 255.0,
                                     kParticleColor[2] / 255.0);
  particle_->GetProperty()->SetAmbient(0.35);
  particle_->GetProperty()->SetDiffuse(0.75);
  particle_->GetProperty()->SetSpecular(0.25);
  particle_->GetProperty()->SetSpecularPower(30);
  particle_->VisibilityOff();

  // Whole computed path (faint) and the recent trail (bright, fading in).
  path_data_ = vtkSmartPointer<vtkPolyData>::New();
  path_ = MakeActor(path_data_);
  path_->GetProperty()->SetColor(0.55, 0.58, 0.65);
  path_->GetProperty()->SetOpacity(0.45);
  path_->GetProperty()->SetLineWidth(1.0);
  path_->GetProperty()->LightingOff();

  trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  trail_ = MakeActor(trail_data_);
  trail_->GetProperty()->SetLineWidth(2.5);
  trail_->GetProperty()->LightingOff();

  // Constraint plane Delta(q).
  plane_source_ = vtkSmartPointer<vtkPlaneSource>::New();
  auto plane_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  plane_mapper->SetInputConnection(plane_source_->GetOutputPort());
  plane_ = vtkSmartPointer<vtkActor>::New();
  plane_->SetMapper(plane_mapper);
  plane_->GetProperty()->SetColor(kPlaneColor[0], kPlaneColor[1], kPlaneColor[2]);
  plane_->GetProperty()->SetOpacity(0.35);
  plane_->GetProperty()->SetAmbient(0.5);
  plane_->GetProperty()->SetDiffuse(0.5);
  plane_->GetProperty()->EdgeVisibilityOn();
  plane_->GetProperty()->SetEdgeColor(kPlaneColor[0], kPlaneColor[1], kPlaneColor[2]);
  plane_->GetProperty()->SetLineWidth(1.5);
  plane_->VisibilityOff();

  // Velocity arrow: a unit arrow along +x placed by a user matrix.
  auto arrow = vtkSmartPointer<vtkArrowSource>::New();
  arrow->SetShaftRadius(0.02);
  arrow->SetTipRadius(0.06);
  arrow->SetTipLength(0.22);
  arrow->SetShaftResolution(16);
  arrow->SetTipResolution(24);
  auto arrow_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  arrow_mapper->SetInputConnection(arrow->GetOutputPort());
  velocity_ = vtkSmartPointer<vtkActor>::New();
  velocity_->SetMapper(arrow_mapper);
  velocity_->GetProperty()->SetColor(kVelocityColor[0], kVelocityColor[1], kVelocityColor[2]);
  velocity_->VisibilityOff();

  // Coordinate axes at the origin, labelled with the scenario's coordinate names.
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
  for (vtkCaptionActor2D* caption :
       {axes_->GetXAxisCaptionActor2D(), axes_->GetYAxisCaptionActor2D(),
        axes_->GetZAxisCaptionActor2D()}) {
    caption->GetTextActor()->SetTextScaleModeToNone();
    vtkTextProperty* text = caption->GetCaptionTextProperty();
    text->SetFontSize(16);
    text->BoldOff();
    text->ItalicOn();
    text->ShadowOff();
  }

  // A faint grid under the motion (at the lowest third coordinate) for depth perception.
  floor_source_ = vtkSmartPointer<vtkPlaneSource>::New();
  floor_source_->SetResolution(12, 12);
  auto floor_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  floor_mapper->SetInputConnection(floor_source_->GetOutputPort());
  floor_ = vtkSmartPointer<vtkActor>::New();
  floor_->SetMapper(floor_mapper);
  floor_->GetProperty()->SetRepresentationToWireframe();
  floor_->GetProperty()->SetColor(0.55, 0.60, 0.70);
  floor_->GetProperty()->SetOpacity(0.22);
  floor_->GetProperty()->LightingOff();
  floor_->VisibilityOff();

  // The comparison trajectory: faint full path, fading trail and a smaller sphere, magenta.
  const double magenta[3] = {kComparisonColor[0] / 255.0, kComparisonColor[1] / 255.0,
                             kComparisonColor[2] / 255.0};
  comparison_path_data_ = vtkSmartPointer<vtkPolyData>::New();
  comparison_path_ = MakeActor(comparison_path_data_);
  comparison_path_->GetProperty()->SetColor(magenta[0], magenta[1], magenta[2]);
  comparison_path_->GetProperty()->SetOpacity(0.35);
  comparison_path_->GetProperty()->SetLineWidth(1.0);
  comparison_path_->GetProperty()->LightingOff();
  comparison_path_->VisibilityOff();
  comparison_trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  comparison_trail_ = MakeActor(comparison_trail_data_);
  comparison_trail_->GetProperty()->SetLineWidth(3.5);
  comparison_trail_->GetProperty()->LightingOff();
  comparison_trail_->VisibilityOff();
  comparison_sphere_ = vtkSmartPointer<vtkSphereSource>::New();
  comparison_sphere_->SetRadius(0.07 * scale_);
  comparison_sphere_->SetThetaResolution(32);
  comparison_sphere_->SetPhiResolution(24);
  auto comparison_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  comparison_mapper->SetInputConnection(comparison_sphere_->GetOutputPort());
  comparison_particle_ = vtkSmartPointer<vtkActor>::New();
  comparison_particle_->SetMapper(comparison_mapper);
  comparison_particle_->GetProperty()->SetColor(magenta[0], magenta[1], magenta[2]);
  comparison_particle_->GetProperty()->SetAmbient(0.4);
  comparison_particle_->GetProperty()->SetDiffuse(0.7);
  comparison_particle_->VisibilityOff();

  legend_ = MakeLegendText();
  UpdateLegend();
}

void ParticleScene::UpdateLegend() {
  std::string legend = "orange sphere: particle (" + position_names_[0] + ", " +
                       position_names_[1] + ", " + position_names_[2] + ")\nblue: trail";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  if (velocity_columns_) legend += "\nwhite arrow: velocity";
  if (plane_constraint_) legend += "\nteal square: constraint plane Delta(q), " + plane_name_;
  if (!comparison_label_.empty()) {
    legend += "\nmagenta: " + comparison_label_ + " motion, same initial point";
  }
  legend_->SetInput(legend.c_str());
}

std::string ParticleScene::legend_text() const {
  const char* text = legend_->GetInput();
  return text ? text : "";
}

std::size_t ParticleScene::comparison_path_points() const {
  return comparison_path_->GetVisibility() && comparison_path_data_->GetPoints()
             ? static_cast<std::size_t>(comparison_path_data_->GetNumberOfPoints())
             : 0;
}

ParticleScene::~ParticleScene() = default;

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
  renderer->AddActor(plane_);  // translucent: drawn after the opaque props
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
    for (std::size_t r = 0; r < other.num_rows(); ++r) {
      include({other.at(r, (*comparison_columns_)[0]), other.at(r, (*comparison_columns_)[1]),
               other.at(r, (*comparison_columns_)[2])});
    }
  }
  const double largest = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
  radius_ = std::max({0.1 * scale_, 0.035 * typical, 0.02 * largest});
  glyph_ = std::max(scale_, 6.0 * radius_);
  sphere_->SetRadius(radius_);
  comparison_sphere_->SetRadius(0.75 * radius_);
  const double axis_length = std::max({scale_, 0.5 * typical, 0.12 * largest});
  axes_->SetTotalLength(axis_length, axis_length, axis_length);

  const double z = b[4];
  floor_source_->SetOrigin(b[0], b[2], z);
  floor_source_->SetPoint1(b[1], b[2], z);
  floor_source_->SetPoint2(b[0], b[3], z);
  floor_->VisibilityOn();

  for (std::size_t k = 0; k < 3; ++k) {  // the axes at the origin belong in the picture too
    b[2 * k] = std::min(b[2 * k], 0.0);
    b[2 * k + 1] = std::max(b[2 * k + 1], axis_length);
  }
  bounds_ = b;
}

std::array<double, 3> ParticleScene::PositionAt(std::size_t row) const {
  const dirac::Trajectory& trajectory = *snapshot_->trajectory;
  return {trajectory.at(row, position_columns_[0]), trajectory.at(row, position_columns_[1]),
          trajectory.at(row, position_columns_[2])};
}

void ParticleScene::UpdatePath() {
  auto points = vtkSmartPointer<vtkPoints>::New();
  if (snapshot_ && snapshot_->trajectory) {
    const std::size_t rows = snapshot_->trajectory->num_rows();
    points->SetNumberOfPoints(static_cast<vtkIdType>(rows));
    for (std::size_t r = 0; r < rows; ++r) {
      const Vec3 p = PositionAt(r);
      points->SetPoint(static_cast<vtkIdType>(r), p.data());
    }
  }
  SetPolyline(path_data_, points);

  auto other_points = vtkSmartPointer<vtkPoints>::New();
  if (comparison_columns_) {
    const dirac::Trajectory& other = *snapshot_->comparison;
    other_points->SetNumberOfPoints(static_cast<vtkIdType>(other.num_rows()));
    for (std::size_t r = 0; r < other.num_rows(); ++r) {
      const double p[3] = {other.at(r, (*comparison_columns_)[0]),
                           other.at(r, (*comparison_columns_)[1]),
                           other.at(r, (*comparison_columns_)[2])};
      other_points->SetPoint(static_cast<vtkIdType>(r), p);
    }
  }
  SetPolyline(comparison_path_data_, other_points);
  comparison_path_->SetVisibility(comparison_columns_.has_value());
}

void ParticleScene::SetTime(double t) {
  const bool has_data = snapshot_ && snapshot_->trajectory && !snapshot_->trajectory->empty();
  particle_->SetVisibility(has_data);
  if (!has_data) {
    plane_->VisibilityOff();
    velocity_->VisibilityOff();
    SetPolyline(trail_data_, vtkSmartPointer<vtkPoints>::New());
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
  FillTrail(trail_data_, *snapshot_->trajectory, position_columns_, row, trail_samples_,
            kTrailColor);
}

void ParticleScene::UpdateComparison(double t) {
  if (!comparison_columns_) {
    comparison_trail_->VisibilityOff();
    comparison_particle_->VisibilityOff();
    return;
  }
  const dirac::Trajectory& other = *snapshot_->comparison;
  const std::size_t row = other.RowAtTime(t);
  const double magenta[3] = {kComparisonColor[0] / 255.0, kComparisonColor[1] / 255.0,
                             kComparisonColor[2] / 255.0};
  FillTrail(comparison_trail_data_, other, *comparison_columns_, row, trail_samples_, magenta);
  comparison_trail_->SetVisibility(trail_samples_ > 0);
  comparison_particle_->SetPosition(other.at(row, (*comparison_columns_)[0]),
                                    other.at(row, (*comparison_columns_)[1]),
                                    other.at(row, (*comparison_columns_)[2]));
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
  const dirac::Trajectory& trajectory = *snapshot_->trajectory;
  const Vec3 v{trajectory.at(row, (*velocity_columns_)[0]),
               trajectory.at(row, (*velocity_columns_)[1]),
               trajectory.at(row, (*velocity_columns_)[2])};
  const double speed = Norm(v);
  if (!(speed > 1e-9 * max_speed_)) {
    velocity_->VisibilityOff();
    return;
  }
  // Out of the sphere, then proportional to speed (the fastest sample 0.8 glyph sizes more).
  const double length = 1.5 * radius_ + 0.8 * glyph_ * speed / max_speed_;
  const Vec3 d{v[0] / speed, v[1] / speed, v[2] / speed};
  const auto [u, w] = PlaneBasis(d);
  const double thickness = std::max(length, 0.25 * glyph_);  // keep thin arrows visible
  auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int k = 0; k < 3; ++k) {
    matrix->SetElement(k, 0, d[k] * length);
    matrix->SetElement(k, 1, u[k] * thickness);
    matrix->SetElement(k, 2, w[k] * thickness);
    matrix->SetElement(k, 3, p[k]);
  }
  velocity_->SetUserMatrix(matrix);
  velocity_->VisibilityOn();
}

bool ParticleScene::Bounds(std::array<double, 6>& bounds) const {
  if (!bounds_) return false;
  bounds = *bounds_;
  return true;
}

}  // namespace dirac::ui
