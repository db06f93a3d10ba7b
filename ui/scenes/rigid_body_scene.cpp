#include "scenes/rigid_body_scene.hpp"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkPropPicker.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "dirac/error.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
#include "scenes/scene_kit.hpp"

namespace dirac::ui {
namespace {

constexpr Color kAxisColors[3] = {{0.92, 0.22, 0.20}, {0.25, 0.80, 0.30}, {0.25, 0.50, 1.0}};
constexpr Color kTrailColors[3] = {{1.0, 0.50, 0.52}, {0.55, 1.0, 0.60}, {0.55, 0.75, 1.0}};
constexpr Color kMomentumColor{1.0, 0.86, 0.22};
constexpr Color kSpaceAxisColor{0.62, 0.64, 0.70};
constexpr Color kLabelColor{0.80, 0.82, 0.87};
constexpr const char* kAxisNames[3] = {"e1", "e2", "e3"};
constexpr const char* kAxisColorNames[3] = {"red", "green", "blue"};
constexpr double kGhostScale = 1.07;  // ghosts enclose the body where they coincide with it

void SetRotationMatrix(vtkActor* actor, const Rotation& R, double scale = 1.0) {
  auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) matrix->SetElement(i, j, scale * R[3 * i + j]);
  actor->SetUserMatrix(matrix);
}

vtkSmartPointer<vtkActor> MakeArrow(const Color& color) {
  auto arrow = vtkSmartPointer<vtkArrowSource>::New();
  arrow->SetShaftRadius(0.022);
  arrow->SetTipRadius(0.06);
  arrow->SetTipLength(0.16);
  arrow->SetShaftResolution(20);
  arrow->SetTipResolution(28);
  auto actor = MakeActor(arrow);
  SetSolidLook(actor->GetProperty(), color, 0.3, 0.8, 0.2, 1);
  actor->VisibilityOff();
  return actor;
}

}  // namespace

RigidBodyScene::RigidBodyScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("rigid_body scene: no derived model");
  const dirac::SceneOptions& options = context.scenario.scene.options;
  // What the scene cannot do without comes first: a scenario written for another scene type
  // is told what is missing rather than which of its keys are foreign.
  prefix_ = options.String("attitude", "R");
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  std::string missing;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const std::string name = prefix_ + std::to_string(i + 1) + std::to_string(j + 1);
      attitude_names_[3 * i + j] = name;
      if (!IndexOf(columns, name)) missing += (missing.empty() ? "" : ", ") + name;
    }
  }
  if (!missing.empty()) {
    options.Fail("attitude", "the trajectory has no column " + missing +
                                 " (the rotation matrix needs " + prefix_ + "11 .. " + prefix_ +
                                 "33, e.g. from reconstruction: {group: SO3, names: [" + prefix_ +
                                 "]})");
  }
  if (options.Has("box")) {
    const std::vector<double> box = options.Numbers("box");
    if (box.size() != 3) {
      options.Fail("box", "expected three side lengths, got " + std::to_string(box.size()));
    }
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(box[k] > 0.0)) {
        options.Fail("box", "side lengths must be positive, got " + FormatNumber(box[k]));
      }
      box_[k] = box[k];
    }
  }
  const double scale = PositiveOption(options, "scale", 1.0);
  for (double& side : box_) side *= scale;
  trail_samples_ = TrailOption(options, kDefaultTrailSamples);
  if (options.Has("inertia")) {
    inertia_names_ = options.Strings("inertia");
    if (inertia_names_.size() != 3)
      options.Fail("inertia", "expected three parameter names (I1, I2, I3), got " +
                                  std::to_string(inertia_names_.size()));
    for (const std::string& name : inertia_names_) {
      const auto& parameters = context.scenario.parameters;
      if (std::none_of(parameters.begin(), parameters.end(),
                       [&](const dirac::Parameter& p) { return p.name == name; }))
        options.Fail("inertia", "'" + name + "' names no parameter of the scenario");
    }
    SizeBoxFromInertias(context.scenario);
  }
  options.CheckKeys({"attitude", "box", "inertia", "scale", "trail"});

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
  box_actor_ = MakeActor(cube_);
  vtkProperty* box_property = box_actor_->GetProperty();
  SetSolidLook(box_property, ToColor(kSceneOrange), 0.35, 0.75, 0.2, 25);
  box_actor_->VisibilityOff();
  // Its edges a hair outside the faces, so they win the depth test without a polygon offset.
  edge_cube_ = vtkSmartPointer<vtkCubeSource>::New();
  const double hair = 0.004 * *std::max_element(box_.begin(), box_.end());
  edge_cube_->SetXLength(box_[0] + hair);
  edge_cube_->SetYLength(box_[1] + hair);
  edge_cube_->SetZLength(box_[2] + hair);
  box_edges_ = MakeEdgesActor(edge_cube_);
  SetFlatLook(box_edges_->GetProperty(), Color{0.45, 0.22, 0.0}, 1.0, 2.0);
  box_edges_->VisibilityOff();

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
  StyleAxisLabels(space_axes_, /*italic=*/false, kLabelColor);

  // The sphere the trail's tip moves on, as faint meridians and parallels (line cells: a
  // triangulated sphere drawn as wireframe cost ~10 ms per software-rendered frame).
  sphere_ = MakeActor(GlobeLines(axis_length_[trail_axis_], 12, 5, 72));
  SetFlatLook(sphere_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.16);

  trail_data_ = vtkSmartPointer<vtkPolyData>::New();
  trail_ = MakeActor(trail_data_);
  SetFlatLook(trail_->GetProperty(), std::nullopt, 1.0, 2.5);

  auto tip = vtkSmartPointer<vtkSphereSource>::New();
  tip->SetRadius(0.035 * largest);
  tip->SetThetaResolution(20);
  tip->SetPhiResolution(14);
  tip_ = MakeActor(tip);
  tip_->GetProperty()->SetColor(kTrailColors[trail_axis_][0], kTrailColors[trail_axis_][1],
                                kTrailColors[trail_axis_][2]);
  tip_->GetProperty()->SetAmbient(0.5);
  tip_->VisibilityOff();

  // Ghosts of the boundary attitudes: faint faces, clear edges.
  MakeGhost(cube_, kStartGhostColor, 0.16, 3.0, start_faces_, start_edges_);
  MakeGhost(cube_, kTargetGhostColor, 0.16, 3.0, target_faces_, target_edges_);
  const dirac::ReconstructionSpec& rec = context.scenario.reconstruction;
  has_boundary_attitudes_ = context.scenario.optimal_control.present && rec.group == "SO3" &&
                            !rec.names.empty() && rec.names[0] == prefix_;
  edit_ = context.edit;
  ReadGhosts(context.scenario);

  legend_ = MakeLegendText();

  message_ = MakeMessageText(0.62);
  UpdateLegend();
}

void RigidBodyScene::ReadGhosts(const dirac::Scenario& scenario) {
  start_.reset();
  target_.reset();
  if (has_boundary_attitudes_) {
    auto read = [&](const std::string& when) -> std::optional<Rotation> {
      Vec3 v{};
      for (int k = 0; k < 3; ++k) {
        const auto value = dirac::CurrentValue(scenario, when + prefix_ + "." + "xyz"[k]);
        if (!value) return std::nullopt;
        v[k] = *value;
      }
      return RotationFromVector(v);
    };
    start_ = read("initial.");
    target_ = read("final.");
  }
  UpdateGhosts();
}

void RigidBodyScene::UpdateGhosts() {
  start_faces_->SetVisibility(start_.has_value());
  start_edges_->SetVisibility(start_.has_value());
  target_faces_->SetVisibility(target_.has_value());
  target_edges_->SetVisibility(target_.has_value());
  if (start_) {
    SetRotationMatrix(start_faces_, *start_, kGhostScale);
    SetRotationMatrix(start_edges_, *start_, kGhostScale);
  }
  if (target_) {
    SetRotationMatrix(target_faces_, *target_, kGhostScale);
    SetRotationMatrix(target_edges_, *target_, kGhostScale);
  }
}

void RigidBodyScene::SizeBoxFromInertias(const dirac::Scenario& scenario) {
  // A uniform box with principal moments I1, I2, I3 has sides a_k with a_1^2 proportional to
  // I2 + I3 - I1 (and so on): the longest side along the axis of least inertia. Scaled to the
  // longest side of `box`; a lamina (I3 = I1 + I2) keeps a thin slab.
  std::array<double, 3> inertia{};
  for (std::size_t k = 0; k < 3; ++k)
    for (const dirac::Parameter& p : scenario.parameters)
      if (p.name == inertia_names_[k]) inertia[k] = p.value;
  const double longest = *std::max_element(box_.begin(), box_.end());
  std::array<double, 3> side{};
  for (std::size_t k = 0; k < 3; ++k)
    side[k] = std::sqrt(std::max(0.0, inertia[(k + 1) % 3] + inertia[(k + 2) % 3] - inertia[k]));
  const double most = *std::max_element(side.begin(), side.end());
  if (!(most > 0.0) || !std::isfinite(most)) return;  // no body: keep the last box
  for (std::size_t k = 0; k < 3; ++k) box_[k] = std::max(0.12, side[k] / most) * longest;
}

bool RigidBodyScene::OnScenarioEdited(const dirac::Scenario& scenario) {
  bool resized = false;
  if (!inertia_names_.empty()) {
    const std::array<double, 3> before = box_;
    SizeBoxFromInertias(scenario);
    resized = box_ != before;
    if (resized) {
      cube_->SetXLength(box_[0]);  // the ghosts draw it too
      cube_->SetYLength(box_[1]);
      cube_->SetZLength(box_[2]);
      const double hair = 0.004 * *std::max_element(box_.begin(), box_.end());
      edge_cube_->SetXLength(box_[0] + hair);
      edge_cube_->SetYLength(box_[1] + hair);
      edge_cube_->SetZLength(box_[2] + hair);
      // The body axes stay outside the new box (the longest side keeps its length, so the
      // trail's axis and its globe keep theirs).
      const double largest = *std::max_element(box_.begin(), box_.end());
      for (std::size_t k = 0; k < 3; ++k)
        if (k != trail_axis_) axis_length_[k] = 0.5 * box_[k] + 0.38 * largest;
      UpdateLegend();
    }
  }
  if (!has_boundary_attitudes_) return resized;
  const std::optional<Rotation> start = start_, target = target_;
  ReadGhosts(scenario);
  if (start.has_value() != start_.has_value() || target.has_value() != target_.has_value())
    UpdateLegend();
  return resized || start != start_ || target != target_;
}

bool RigidBodyScene::SetTargetRotation(const Rotation& R) {
  if (!target_) return false;
  target_ = R;
  UpdateGhosts();
  if (edit_) {
    const Vec3 v = RotationVectorOf(R);
    std::vector<std::pair<std::string, double>> values;
    for (int k = 0; k < 3; ++k) values.emplace_back("final." + prefix_ + "." + "xyz"[k], v[k]);
    edit_(values);
  }
  return true;
}

bool RigidBodyScene::RotateTarget(const Vec3& axis, double angle) {
  if (!target_) return false;
  const double n = Norm(axis);
  if (!(n > 0.0)) return false;
  const Vec3 w{axis[0] / n * angle, axis[1] / n * angle, axis[2] / n * angle};
  return SetTargetRotation(Multiply(RotationFromVector(w), *target_));
}

bool RigidBodyScene::OnPointerPress(vtkRenderer* renderer, int x, int y) {
  if (!target_ || !edit_ || !renderer) return false;
  if (!PicksProp(renderer, x, y, target_faces_)) return false;
  dragging_ = true;
  drag_x_ = x;
  drag_y_ = y;
  return true;
}

void RigidBodyScene::OnPointerMove(vtkRenderer* renderer, int x, int y) {
  if (!dragging_ || !renderer) return;
  const int dx = x - drag_x_, dy = y - drag_y_;
  if (dx == 0 && dy == 0) return;
  drag_x_ = x;
  drag_y_ = y;
  // A drag across the view's height turns the target by pi, about the screen axis
  // perpendicular to the drag: the ghost's near side follows the pointer.
  vtkCamera* camera = renderer->GetActiveCamera();
  const double* f = camera->GetFocalPoint();
  const double* p = camera->GetPosition();
  Vec3 d{f[0] - p[0], f[1] - p[1], f[2] - p[2]};
  const double dn = Norm(d);
  if (!(dn > 0.0)) return;
  for (double& c : d) c /= dn;
  const double* view_up = camera->GetViewUp();
  Vec3 right = Cross(d, {view_up[0], view_up[1], view_up[2]});
  const double rn = Norm(right);
  if (!(rn > 0.0)) return;
  for (double& c : right) c /= rn;
  const Vec3 up = Cross(right, d);
  int width = 0, height = 0;
  renderer->GetTiledSize(&width, &height);
  const double k = std::numbers::pi / std::max(height, 1);
  const Vec3 axis{up[0] * dx - right[0] * dy, up[1] * dx - right[1] * dy,
                  up[2] * dx - right[2] * dy};
  RotateTarget(axis, k * std::hypot(dx, dy));
}

void RigidBodyScene::OnPointerRelease() { dragging_ = false; }

void RigidBodyScene::UpdateLegend() {
  std::string legend = "orange box: rigid body " + FormatNumber(box_[0]) + " x " +
                       FormatNumber(box_[1]) + " x " + FormatNumber(box_[2]) + ", attitude " +
                       prefix_ + "11 .. " + prefix_ + "33 (body to space)\n";
  legend += "red / green / blue arrows: body axes e1, e2, e3\n";
  legend += std::string("light ") + kAxisColorNames[trail_axis_] + ": path of the " +
            kAxisNames[trail_axis_] + " tip";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  legend += "\ngrey axes X, Y, Z: space frame";
  if (momentum_columns_) legend += "\nyellow arrow: spatial angular momentum (length ~ |m|)";
  if (start_) legend += "\ncyan ghost: start attitude " + prefix_ + "(0)";
  if (target_)
    legend += "\nmagenta ghost: target attitude " + prefix_ + "(T) (drag it to turn the target)";
  legend_->SetInput(legend.c_str());
}

std::string RigidBodyScene::message_text() const { return TextOf(message_, true); }

std::string RigidBodyScene::legend_text() const { return TextOf(legend_); }

bool RigidBodyScene::shows_momentum() const { return momentum_->GetVisibility() != 0; }

void RigidBodyScene::AddTo(vtkRenderer* renderer) {
  renderer->AddActor(space_axes_);
  renderer->AddActor(trail_);
  renderer->AddActor(tip_);
  renderer->AddActor(box_actor_);
  renderer->AddActor(box_edges_);
  for (const auto& axis : body_axes_) renderer->AddActor(axis);
  renderer->AddActor(momentum_);
  renderer->AddActor(start_edges_);
  renderer->AddActor(target_edges_);
  renderer->AddActor(sphere_);  // translucent: after the opaque props
  renderer->AddActor(start_faces_);
  renderer->AddActor(target_faces_);
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
    ShowText(message_, "");
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
    ShowText(message_, "rigid_body scene: the trajectory has no column\n" + missing);
  } else {
    ShowText(message_, "");
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
  box_edges_->SetVisibility(drawn);
  tip_->SetVisibility(drawn);
  for (const auto& axis : body_axes_) axis->SetVisibility(drawn);
  std::vector<Vec3> trail;
  momentum_->SetVisibility(false);
  constexpr Vec3 kOrigin{0, 0, 0};
  if (drawn) {
    const std::array<std::size_t, 9>& c = *attitude_columns_;
    const std::size_t row = trajectory->RowAtTime(t);
    for (std::size_t k = 0; k < 9; ++k) attitude_[k] = trajectory->at(row, c[k]);

    auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) matrix->SetElement(i, j, attitude_[3 * i + j]);
    }
    box_actor_->SetUserMatrix(matrix);
    box_edges_->SetUserMatrix(matrix);
    const double thickness = box_[trail_axis_];
    for (std::size_t k = 0; k < 3; ++k) {  // column k of R: body axis e_k in space
      const Vec3 axis{attitude_[k] * axis_length_[k], attitude_[3 + k] * axis_length_[k],
                      attitude_[6 + k] * axis_length_[k]};
      const auto arrow = ArrowMatrix(kOrigin, axis, thickness);
      if (arrow) body_axes_[k]->SetUserMatrix(arrow);
      body_axes_[k]->SetVisibility(arrow != nullptr);
    }

    // The tip of the trail axis over the last trail samples.
    const std::size_t a = trail_axis_;
    const double length = axis_length_[a];
    for (std::size_t r = TrailStart(row, trail_samples_); r <= row; ++r) {
      trail.push_back({length * trajectory->at(r, c[a]), length * trajectory->at(r, c[3 + a]),
                       length * trajectory->at(r, c[6 + a])});
    }
    tip_->SetPosition(length * attitude_[a], length * attitude_[3 + a], length * attitude_[6 + a]);
  }
  FillFadingTrail(trail_data_, trail, kTrailColors[trail_axis_]);
  if (momentum_columns_ && trajectory && !trajectory->empty() && max_momentum_ > 0.0) {
    const std::size_t row = trajectory->RowAtTime(t);
    const Vec3 m{trajectory->at(row, (*momentum_columns_)[0]),
                 trajectory->at(row, (*momentum_columns_)[1]),
                 trajectory->at(row, (*momentum_columns_)[2])};
    const double size = Norm(m);
    if (size > 1e-9 * max_momentum_ && std::isfinite(size)) {
      // Shorter than the space axes: along one of them it leaves that axis' label in view.
      const double length = 0.85 * reach_ * size / max_momentum_;
      momentum_->SetUserMatrix(
          ArrowMatrix(kOrigin, {m[0] / size * length, m[1] / size * length, m[2] / size * length},
                      0.8 * box_[trail_axis_]));
      momentum_->VisibilityOn();
    }
  }
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
