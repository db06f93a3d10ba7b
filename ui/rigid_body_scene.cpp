#include "rigid_body_scene.hpp"
#include "scene_text.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkMatrix4x4.h>
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
#include <cstdio>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

using Vec3 = std::array<double, 3>;

constexpr double kAxisColors[3][3] = {{0.92, 0.22, 0.20}, {0.25, 0.80, 0.30}, {0.25, 0.50, 1.0}};
constexpr double kTrailColors[3][3] = {{1.0, 0.50, 0.52}, {0.55, 1.0, 0.60}, {0.55, 0.75, 1.0}};
constexpr double kMomentumColor[3] = {1.0, 0.86, 0.22};
constexpr double kSpaceAxisColor[3] = {0.62, 0.64, 0.70};
constexpr double kBackground[3] = {0.12, 0.13, 0.17};  // what old trail samples fade towards
constexpr const char* kAxisNames[3] = {"e1", "e2", "e3"};
constexpr const char* kColorNames[3] = {"red", "green", "blue"};

Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double Norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// A matrix taking the unit arrow along +x (vtkArrowSource) to one from the origin to `v`,
// `thickness` times as thick as the source. Null for a zero vector.
vtkSmartPointer<vtkMatrix4x4> ArrowMatrix(const Vec3& v, double thickness) {
  const double length = Norm(v);
  if (!(length > 0.0)) return nullptr;
  const Vec3 d{v[0] / length, v[1] / length, v[2] / length};
  const Vec3 helper = std::abs(d[2]) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
  Vec3 u = Cross(helper, d);
  const double nu = Norm(u);
  for (double& c : u) c /= nu;
  const Vec3 w = Cross(d, u);
  auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int k = 0; k < 3; ++k) {
    matrix->SetElement(k, 0, d[k] * length);
    matrix->SetElement(k, 1, u[k] * thickness);
    matrix->SetElement(k, 2, w[k] * thickness);
    matrix->SetElement(k, 3, 0.0);
  }
  return matrix;
}

vtkSmartPointer<vtkActor> MakeArrow(const double color[3]) {
  auto arrow = vtkSmartPointer<vtkArrowSource>::New();
  arrow->SetShaftRadius(0.022);
  arrow->SetTipRadius(0.06);
  arrow->SetTipLength(0.16);
  arrow->SetShaftResolution(20);
  arrow->SetTipResolution(28);
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputConnection(arrow->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(color[0], color[1], color[2]);
  actor->GetProperty()->SetAmbient(0.3);
  actor->GetProperty()->SetDiffuse(0.8);
  actor->GetProperty()->SetSpecular(0.2);
  actor->VisibilityOff();
  return actor;
}

}  // namespace

RigidBodyScene::RigidBodyScene(const SceneContext& context) {
  const dirac::SceneSpec& spec = context.scenario.scene;
  if (!context.model) throw dirac::Error("rigid_body scene: no derived model");
  prefix_ = spec.attitude.empty() ? std::string("R") : spec.attitude;
  if (!spec.box.empty()) {
    if (spec.box.size() != 3) {
      throw dirac::Error("scene.box must list 3 side lengths, got " +
                         std::to_string(spec.box.size()));
    }
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(spec.box[k] > 0.0) || !std::isfinite(spec.box[k])) {
        throw dirac::Error("scene.box: side lengths must be positive, got " + Number(spec.box[k]));
      }
      box_[k] = spec.box[k];
    }
  }
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  std::string missing;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const std::string name = prefix_ + std::to_string(i + 1) + std::to_string(j + 1);
      attitude_names_[3 * i + j] = name;
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) {
        missing += (missing.empty() ? "" : ", ") + name;
      }
    }
  }
  if (!missing.empty()) {
    throw dirac::Error("scene.attitude '" + prefix_ + "': the trajectory has no column " + missing +
                       " (the rotation matrix needs " + prefix_ + "11 .. " + prefix_ +
                       "33, e.g. from reconstruction: {group: SO3, names: [" + prefix_ + "]})");
  }
  trail_samples_ = static_cast<std::size_t>(std::max(spec.trail, 0));
  trail_axis_ = static_cast<std::size_t>(std::max_element(box_.begin(), box_.end()) - box_.begin());
  const double largest = box_[trail_axis_];
  for (std::size_t k = 0; k < 3; ++k) axis_length_[k] = 0.5 * box_[k] + 0.38 * largest;
  const double half_diagonal = 0.5 * Norm(box_);
  reach_ = std::max(half_diagonal, *std::max_element(axis_length_.begin(), axis_length_.end()));

  // The body: an orange box with darker edges, turned by a user matrix.
  cube_ = vtkSmartPointer<vtkCubeSource>::New();
  cube_->SetXLength(box_[0]);
  cube_->SetYLength(box_[1]);
  cube_->SetZLength(box_[2]);
  auto cube_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  cube_mapper->SetInputConnection(cube_->GetOutputPort());
  box_actor_ = vtkSmartPointer<vtkActor>::New();
  box_actor_->SetMapper(cube_mapper);
  vtkProperty* box_property = box_actor_->GetProperty();
  box_property->SetColor(kBodyColor[0] / 255.0, kBodyColor[1] / 255.0, kBodyColor[2] / 255.0);
  box_property->SetAmbient(0.35);
  box_property->SetDiffuse(0.75);
  box_property->SetSpecular(0.2);
  box_property->SetSpecularPower(25);
  box_property->EdgeVisibilityOn();
  box_property->SetEdgeColor(0.45, 0.22, 0.0);
  box_property->SetLineWidth(2.0);
  box_actor_->VisibilityOff();

  for (std::size_t k = 0; k < 3; ++k) body_axes_[k] = MakeArrow(kAxisColors[k]);
  momentum_ = MakeArrow(kMomentumColor);

  // Space axes: fixed, muted grey so they do not compete with the body axes.
  space_axes_ = vtkSmartPointer<vtkAxesActor>::New();
  const double space_length = 1.15 * reach_;
  space_axes_->SetTotalLength(space_length, space_length, space_length);
  space_axes_->SetShaftTypeToCylinder();
  space_axes_->SetCylinderRadius(0.004);
  space_axes_->SetConeRadius(0.25);
  space_axes_->SetNormalizedShaftLength(0.94, 0.94, 0.94);
  space_axes_->SetNormalizedTipLength(0.06, 0.06, 0.06);
  space_axes_->SetNormalizedLabelPosition(1.09, 1.09, 1.09);  // beyond the tips
  space_axes_->SetXAxisLabelText("X");
  space_axes_->SetYAxisLabelText("Y");
  space_axes_->SetZAxisLabelText("Z");
  for (vtkProperty* p : {space_axes_->GetXAxisShaftProperty(), space_axes_->GetYAxisShaftProperty(),
                         space_axes_->GetZAxisShaftProperty(), space_axes_->GetXAxisTipProperty(),
                         space_axes_->GetYAxisTipProperty(), space_axes_->GetZAxisTipProperty()}) {
    p->SetColor(kSpaceAxisColor[0], kSpaceAxisColor[1], kSpaceAxisColor[2]);
    p->SetAmbient(0.5);
  }
  for (vtkCaptionActor2D* caption :
       {space_axes_->GetXAxisCaptionActor2D(), space_axes_->GetYAxisCaptionActor2D(),
        space_axes_->GetZAxisCaptionActor2D()}) {
    caption->GetTextActor()->SetTextScaleModeToNone();
    vtkTextProperty* text = caption->GetCaptionTextProperty();
    text->SetFontSize(16);
    text->SetColor(0.80, 0.82, 0.87);
    text->BoldOff();
    text->ItalicOff();
    text->ShadowOff();
  }

  // The sphere the trail's tip moves on, as a faint wire frame.
  auto sphere = vtkSmartPointer<vtkSphereSource>::New();
  sphere->SetRadius(axis_length_[trail_axis_]);
  sphere->SetThetaResolution(24);
  sphere->SetPhiResolution(12);
  auto sphere_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  sphere_mapper->SetInputConnection(sphere->GetOutputPort());
  sphere_ = vtkSmartPointer<vtkActor>::New();
  sphere_->SetMapper(sphere_mapper);
  sphere_->GetProperty()->SetRepresentationToWireframe();
  sphere_->GetProperty()->SetColor(0.55, 0.60, 0.70);
  sphere_->GetProperty()->SetOpacity(0.09);
  sphere_->GetProperty()->LightingOff();

  trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  auto trail_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  trail_mapper->SetInputData(trail_data_);
  trail_ = vtkSmartPointer<vtkActor>::New();
  trail_->SetMapper(trail_mapper);
  trail_->GetProperty()->SetLineWidth(2.5);
  trail_->GetProperty()->LightingOff();

  auto tip = vtkSmartPointer<vtkSphereSource>::New();
  tip->SetRadius(0.035 * largest);
  tip->SetThetaResolution(20);
  tip->SetPhiResolution(14);
  auto tip_mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  tip_mapper->SetInputConnection(tip->GetOutputPort());
  tip_ = vtkSmartPointer<vtkActor>::New();
  tip_->SetMapper(tip_mapper);
  const double* tc = kTrailColors[trail_axis_];
  tip_->GetProperty()->SetColor(tc[0], tc[1], tc[2]);
  tip_->GetProperty()->SetAmbient(0.5);
  tip_->VisibilityOff();

  legend_ = MakeLegendText();

  message_ = MakeMessageText(0.62);
  UpdateLegend();
}

RigidBodyScene::~RigidBodyScene() = default;

void RigidBodyScene::UpdateLegend() {
  std::string legend = "orange box: rigid body " + Number(box_[0]) + " x " + Number(box_[1]) +
                       " x " + Number(box_[2]) + ", attitude " + prefix_ + "11 .. " + prefix_ +
                       "33 (body to space)\n";
  legend += "red / green / blue arrows: body axes e1, e2, e3\n";
  legend += std::string("light ") + kColorNames[trail_axis_] + ": path of the " +
            kAxisNames[trail_axis_] + " tip";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  legend += "\ngrey axes X, Y, Z: space frame";
  if (momentum_columns_) legend += "\nyellow arrow: spatial angular momentum (length ~ |m|)";
  legend_->SetInput(legend.c_str());
}

void RigidBodyScene::ShowMessage(const std::string& message) {
  message_->SetInput(message.c_str());
  message_->SetVisibility(!message.empty());
}

std::string RigidBodyScene::message_text() const {
  const char* text = message_->GetInput();
  return message_->GetVisibility() && text ? text : "";
}

std::string RigidBodyScene::legend_text() const {
  const char* text = legend_->GetInput();
  return text ? text : "";
}

bool RigidBodyScene::shows_momentum() const { return momentum_->GetVisibility() != 0; }

void RigidBodyScene::AddTo(vtkRenderer* renderer) {
  renderer->AddActor(space_axes_);
  renderer->AddActor(trail_);
  renderer->AddActor(tip_);
  renderer->AddActor(box_actor_);
  for (const auto& axis : body_axes_) renderer->AddActor(axis);
  renderer->AddActor(momentum_);
  renderer->AddActor(sphere_);  // translucent: after the opaque props
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

void RigidBodyScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  attitude_columns_.reset();
  const bool had_momentum = momentum_columns_.has_value();
  momentum_columns_.reset();
  max_momentum_ = 0.0;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!trajectory || trajectory->num_columns() == 0) {
    ShowMessage("");
    return;
  }
  // Columns by name in this trajectory: a snapshot need not have the model's layout.
  std::array<std::size_t, 9> columns{};
  std::string missing;
  for (std::size_t k = 0; k < 9; ++k) {
    const auto column = trajectory->FindColumn(attitude_names_[k]);
    if (!column) missing += (missing.empty() ? "" : ", ") + attitude_names_[k];
    columns[k] = column.value_or(0);
  }
  if (!missing.empty()) {
    ShowMessage("rigid_body scene: the trajectory has no column\n" + missing);
  } else {
    ShowMessage("");
    attitude_columns_ = columns;
  }
  const auto mx = trajectory->FindColumn("spatial_momentum_x");
  const auto my = trajectory->FindColumn("spatial_momentum_y");
  const auto mz = trajectory->FindColumn("spatial_momentum_z");
  if (mx && my && mz) {
    momentum_columns_ = std::array<std::size_t, 3>{*mx, *my, *mz};
    for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
      const Vec3 m{trajectory->at(r, *mx), trajectory->at(r, *my), trajectory->at(r, *mz)};
      if (std::isfinite(Norm(m))) max_momentum_ = std::max(max_momentum_, Norm(m));
    }
  }
  if (had_momentum != momentum_columns_.has_value()) UpdateLegend();
}

void RigidBodyScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = attitude_columns_ && trajectory && !trajectory->empty();
  box_actor_->SetVisibility(drawn);
  tip_->SetVisibility(drawn);
  for (const auto& axis : body_axes_) axis->SetVisibility(drawn);
  auto trail_points = vtkSmartPointer<vtkPoints>::New();
  auto trail_colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  trail_colors->SetNumberOfComponents(3);
  trail_colors->SetName("trail_colors");
  auto trail_lines = vtkSmartPointer<vtkCellArray>::New();
  momentum_->SetVisibility(false);
  if (drawn) {
    const std::array<std::size_t, 9>& c = *attitude_columns_;
    const std::size_t row = trajectory->RowAtTime(t);
    for (std::size_t k = 0; k < 9; ++k) attitude_[k] = trajectory->at(row, c[k]);

    auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) matrix->SetElement(i, j, attitude_[3 * i + j]);
    }
    box_actor_->SetUserMatrix(matrix);
    const double thickness = box_[trail_axis_];
    for (std::size_t k = 0; k < 3; ++k) {  // column k of R: body axis e_k in space
      const Vec3 axis{attitude_[k] * axis_length_[k], attitude_[3 + k] * axis_length_[k],
                      attitude_[6 + k] * axis_length_[k]};
      const auto arrow = ArrowMatrix(axis, thickness);
      if (arrow) body_axes_[k]->SetUserMatrix(arrow);
      body_axes_[k]->SetVisibility(arrow != nullptr);
    }

    // The tip of the trail axis over the last trail samples, fading in as they get newer.
    const std::size_t a = trail_axis_;
    const double length = axis_length_[a];
    const std::size_t first =
        trail_samples_ == 0 ? row + 1 : (row + 1 > trail_samples_ ? row + 1 - trail_samples_ : 0);
    const std::size_t count = row + 1 - first;
    trail_points->SetNumberOfPoints(static_cast<vtkIdType>(count));
    trail_colors->SetNumberOfTuples(static_cast<vtkIdType>(count));
    const double* color = kTrailColors[a];
    for (std::size_t r = first; r <= row && count > 0; ++r) {
      const double p[3] = {length * trajectory->at(r, c[a]), length * trajectory->at(r, c[3 + a]),
                           length * trajectory->at(r, c[6 + a])};
      const vtkIdType i = static_cast<vtkIdType>(r - first);
      trail_points->SetPoint(i, p);
      const double w = count > 1 ? 0.12 + 0.88 * static_cast<double>(i) / (count - 1) : 1.0;
      unsigned char rgb[3];
      for (int k = 0; k < 3; ++k) {
        rgb[k] =
            static_cast<unsigned char>(255 * (kBackground[k] + w * (color[k] - kBackground[k])));
      }
      trail_colors->SetTypedTuple(i, rgb);
    }
    if (count >= 2) {
      trail_lines->InsertNextCell(static_cast<vtkIdType>(count));
      for (std::size_t i = 0; i < count; ++i)
        trail_lines->InsertCellPoint(static_cast<vtkIdType>(i));
    }
    tip_->SetPosition(length * attitude_[a], length * attitude_[3 + a], length * attitude_[6 + a]);
  }
  if (momentum_columns_ && trajectory && !trajectory->empty() && max_momentum_ > 0.0) {
    const std::size_t row = trajectory->RowAtTime(t);
    const Vec3 m{trajectory->at(row, (*momentum_columns_)[0]),
                 trajectory->at(row, (*momentum_columns_)[1]),
                 trajectory->at(row, (*momentum_columns_)[2])};
    const double size = Norm(m);
    if (size > 1e-9 * max_momentum_ && std::isfinite(size)) {
      const double length = 1.2 * reach_ * size / max_momentum_;
      const auto arrow =
          ArrowMatrix({m[0] / size * length, m[1] / size * length, m[2] / size * length},
                      0.8 * box_[trail_axis_]);
      momentum_->SetUserMatrix(arrow);
      momentum_->VisibilityOn();
    }
  }
  trail_data_->SetPoints(trail_points);
  trail_data_->SetLines(trail_lines);
  trail_data_->GetPointData()->SetScalars(trail_colors);
  trail_data_->Modified();
}

bool RigidBodyScene::Bounds(std::array<double, 6>& bounds) const {
  // Everything turns about the origin within reach_ (the space axes and the momentum arrow
  // reach 1.15 and 1.2 reach_ along a direction): a fixed box, so the camera does not jump as the
  // body turns. The view fits the box's bounding sphere, radius sqrt(3) * 0.78 reach_ = 1.35
  // reach_.
  const double r = 0.82 * reach_;
  bounds = {-r, r, -r, r, -r, r};
  return true;
}

}  // namespace dirac::ui
