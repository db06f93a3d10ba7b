#include "particle_scene.hpp"

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

}  // namespace

ParticleScene::ParticleScene(const SceneContext& context) : system_(context.system) {
  const dirac::SceneSpec& spec = context.scenario.scene;
  if (!system_) throw dirac::Error("particle scene: no derived system");
  if (spec.position.size() != 3) {
    throw dirac::Error("scene.position must name 3 trajectory columns (x, y, z), got " +
                       std::to_string(spec.position.size()));
  }
  const std::vector<std::string> columns = system_->TrajectoryColumns();
  const std::vector<std::string>& coordinates = system_->coordinate_names();
  const std::vector<std::string>& velocities = system_->velocity_names();
  std::array<std::size_t, 3> q_indices{}, v_columns{};
  bool all_coordinates = true;
  for (std::size_t k = 0; k < 3; ++k) {
    position_names_[k] = spec.position[k];
    const auto column = IndexOf(columns, spec.position[k]);
    if (!column) {
      throw dirac::Error("scene.position: '" + spec.position[k] + "' is not a trajectory column");
    }
    position_columns_[k] = *column;
    const auto q = IndexOf(coordinates, spec.position[k]);
    if (q && *q < velocities.size()) {
      q_indices[k] = *q;
      v_columns[k] = IndexOf(columns, velocities[*q]).value_or(0);
      all_coordinates = all_coordinates && v_columns[k] != 0;
    } else {
      all_coordinates = false;
    }
  }
  if (all_coordinates) {
    coordinate_indices_ = q_indices;
    velocity_columns_ = v_columns;
  }
  if (!spec.constraint_plane.empty()) {
    plane_constraint_ = IndexOf(system_->constraint_names(), spec.constraint_plane);
    if (!plane_constraint_) {
      throw dirac::Error("scene.constraint_plane: '" + spec.constraint_plane +
                         "' is not a constraint of the scenario");
    }
    if (!coordinate_indices_) {
      throw dirac::Error("scene.constraint_plane needs scene.position to name coordinates");
    }
    plane_name_ = spec.constraint_plane;
  }
  trail_samples_ = static_cast<std::size_t>(std::max(spec.trail, 0));
  scale_ = spec.scale > 0.0 ? spec.scale : 1.0;

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

  legend_ = vtkSmartPointer<vtkTextActor>::New();
  std::string legend = "orange sphere: particle (" + position_names_[0] + ", " +
                       position_names_[1] + ", " + position_names_[2] + ")\nblue: trail";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  if (velocity_columns_) legend += "\nwhite arrow: velocity";
  if (plane_constraint_) legend += "\nteal square: constraint plane Delta(q), " + plane_name_;
  legend_->SetInput(legend.c_str());
  legend_->GetTextProperty()->SetFontSize(13);
  legend_->GetTextProperty()->SetColor(0.78, 0.80, 0.85);
  legend_->GetTextProperty()->SetLineSpacing(1.2);
  legend_->SetDisplayPosition(12, 10);
}

ParticleScene::~ParticleScene() = default;

void ParticleScene::AddTo(vtkRenderer* renderer) {
  renderer->AddActor(axes_);
  renderer->AddActor(floor_);
  renderer->AddActor(path_);
  renderer->AddActor(trail_);
  renderer->AddActor(particle_);
  renderer->AddActor(velocity_);
  renderer->AddActor(plane_);  // translucent: drawn after the opaque props
  renderer->AddActor2D(legend_);
}

void ParticleScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  forms_.reset();
  if (trajectory && plane_constraint_) {
    try {
      forms_ = std::make_unique<ConstraintFormEvaluator>(*system_, trajectory->columns());
    } catch (const dirac::Error&) {
      forms_.reset();  // columns do not match the system: draw no plane
    }
  }
  max_speed_ = 0.0;
  if (trajectory && velocity_columns_) {
    for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
      double s2 = 0.0;
      for (std::size_t k = 0; k < 3; ++k)
        s2 += std::pow(trajectory->at(r, (*velocity_columns_)[k]), 2);
      max_speed_ = std::max(max_speed_, std::sqrt(s2));
    }
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
  for (std::size_t r = 0; r < snapshot_->trajectory->num_rows(); ++r) {
    const Vec3 p = PositionAt(r);
    for (std::size_t k = 0; k < 3; ++k) {
      b[2 * k] = std::min(b[2 * k], p[k] - 0.5 * scale_);
      b[2 * k + 1] = std::max(b[2 * k + 1], p[k] + 0.5 * scale_);
    }
  }
  // Glyphs follow the middle extent, so one long direction (a drift) does not inflate them.
  std::array<double, 3> extents{b[1] - b[0], b[3] - b[2], b[5] - b[4]};
  std::sort(extents.begin(), extents.end());
  const double typical = extents[1];
  const double axis_length = std::max(scale_, 0.5 * typical);
  axes_->SetTotalLength(axis_length, axis_length, axis_length);
  sphere_->SetRadius(std::max(0.1 * scale_, 0.035 * typical));

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
}

void ParticleScene::SetTime(double t) {
  const bool has_data = snapshot_ && snapshot_->trajectory && !snapshot_->trajectory->empty();
  particle_->SetVisibility(has_data);
  if (!has_data) {
    plane_->VisibilityOff();
    velocity_->VisibilityOff();
    SetPolyline(trail_data_, vtkSmartPointer<vtkPoints>::New());
    return;
  }
  const std::size_t row = snapshot_->trajectory->RowAtTime(t);
  const Vec3 p = PositionAt(row);
  particle_->SetPosition(p[0], p[1], p[2]);
  UpdateTrail(row);
  UpdatePlane(row, p);
  UpdateVelocity(row, p);
}

void ParticleScene::UpdateTrail(std::size_t row) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  colors->SetName("trail_colors");
  if (trail_samples_ > 0) {
    const std::size_t first = row + 1 > trail_samples_ ? row + 1 - trail_samples_ : 0;
    const std::size_t count = row - first + 1;
    points->SetNumberOfPoints(static_cast<vtkIdType>(count));
    colors->SetNumberOfTuples(static_cast<vtkIdType>(count));
    for (std::size_t r = first; r <= row; ++r) {
      const Vec3 p = PositionAt(r);
      const vtkIdType i = static_cast<vtkIdType>(r - first);
      points->SetPoint(i, p.data());
      // Fade from the background towards the trail colour as samples get newer.
      const double w = count > 1 ? 0.15 + 0.85 * static_cast<double>(i) / (count - 1) : 1.0;
      const unsigned char rgb[3] = {
          static_cast<unsigned char>(255 * (0.12 + w * (kTrailColor[0] - 0.12))),
          static_cast<unsigned char>(255 * (0.13 + w * (kTrailColor[1] - 0.13))),
          static_cast<unsigned char>(255 * (0.17 + w * (kTrailColor[2] - 0.17)))};
      colors->SetTypedTuple(i, rgb);
    }
  }
  SetPolyline(trail_data_, points);
  trail_data_->GetPointData()->SetScalars(colors);
}

void ParticleScene::UpdatePlane(std::size_t row, const Vec3& p) {
  if (!forms_ || !plane_constraint_ || !coordinate_indices_) {
    plane_->VisibilityOff();
    return;
  }
  const std::vector<double>& omega =
      forms_->Evaluate(snapshot_->trajectory->row(row), snapshot_->parameters);
  const auto normal =
      PlaneNormal(omega, system_->num_coordinates(), *plane_constraint_, *coordinate_indices_);
  if (!normal) {
    plane_->VisibilityOff();
    return;
  }
  const auto [u, w] = PlaneBasis(*normal);
  const double h = 0.5 * scale_;
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
  // Length proportional to speed, the fastest sample drawn 0.8 * scale long.
  const double length = 0.8 * scale_ * speed / max_speed_;
  const Vec3 d{v[0] / speed, v[1] / speed, v[2] / speed};
  const auto [u, w] = PlaneBasis(d);
  const double thickness = std::max(length, 0.25 * scale_);  // keep thin arrows visible
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
