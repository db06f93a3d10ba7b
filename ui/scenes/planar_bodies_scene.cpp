#include "scenes/planar_bodies_scene.hpp"

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkCylinderSource.h>
#include <vtkDiskSource.h>
#include <vtkFloatArray.h>
#include <vtkMatrix4x4.h>
#include <vtkPlaneSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <numbers>

#include "dirac/error.hpp"
#include "dirac/scenario_overrides.hpp"
#include "scenes/scene_kit.hpp"
#include "scenes/slab_geometry.hpp"

namespace dirac::ui {
namespace {}  // namespace

PlanarBodiesScene::PlanarBodiesScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("planar_bodies scene: no derived model");
  const dirac::SceneOptions& options = context.scenario.scene.options;
  // What the scene cannot do without comes first: a scenario written for another scene type
  // is told what is missing rather than which of its keys are foreign.
  const std::vector<dirac::SceneOptions> specs = options.Maps("bodies");
  if (specs.empty()) {
    options.Fail("bodies",
                 "a planar_bodies scene needs a list of bodies {x, y, angle, length, "
                 "width, label}");
  }
  const std::vector<std::string> columns = context.model->TrajectoryColumns();
  const std::string style = options.String("style", "top");
  if (style != "top" && style != "3d")
    options.Fail("style", "expected 'top' or '3d', got '" + style + "'");
  three_d_ = style == "3d";
  const std::string camera = options.String("camera", "follow");
  if (camera != "follow" && camera != "fixed")
    options.Fail("camera", "expected 'follow' or 'fixed', got '" + camera + "'");
  fixed_camera_ = camera == "fixed";
  double z = three_d_ ? 0.0 : 0.02;
  radius_ = 0.0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const dirac::SceneOptions& b = specs[i];
    Body body;
    body.x = b.String("x");
    body.y = b.String("y");
    body.angle = b.Strings("angle");
    RequireColumn(b, "x", body.x, columns);
    RequireColumn(b, "y", body.y, columns);
    if (body.angle.empty()) b.Fail("angle", "missing required key (one column or a list)");
    for (const std::string& a : body.angle) RequireColumn(b, "angle", a, columns);
    body.length = PositiveOption(b, "length", body.length);
    body.width = PositiveOption(b, "width", body.width);
    body.label = b.String("label", "body " + std::to_string(i + 1));
    b.CheckKeys({"x", "y", "angle", "length", "width", "label"});
    double thickness = std::clamp(0.15 * std::max(body.width, 0.3 * body.length), 0.03, 0.25);
    double gap = 0.03;
    if (three_d_) {
      // Solids: the first a thick body on the ground, later ones raised on an axle.
      thickness = i == 0 ? std::clamp(0.45 * body.width, 0.05, 0.6 * body.length)
                         : std::clamp(0.6 * body.width, 0.05, 0.2 * body.length);
      gap = i == 0 ? 0.0 : std::max(0.12 * body.length, 0.05);
      if (i > 0) z += gap;
    }
    body.z0 = z;
    body.z1 = z + thickness;
    z = body.z1 + (three_d_ ? 0.0 : gap);
    radius_ = std::max(radius_, 0.5 * std::hypot(body.length, body.width));
    bodies_.push_back(std::move(body));
  }
  top_ = z;
  // Markers: flat above the grid and the axes and under the trails in the top view, solids as
  // tall as the bodies on the ground in 3D.
  markers_ = SceneMarkers(context.scenario, options, -0.005, three_d_ ? top_ : 0.0);
  has_boundary_ = context.scenario.optimal_control.present;
  edit_ = context.edit;
  ReadBoundary(context.scenario);
  trail_samples_ = TrailOption(options, kDefaultTrailSamples);
  options.CheckKeys({"bodies", "trail", "style", "camera", "markers"});

  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    Body& body = bodies_[i];
    const Color color = ToColor(kBodyColors[i % kBodyColors.size()]);
    body.slab = MakeActor(RoundedSlab(body.length, body.width, body.z0, body.z1));
    SetSolidLook(body.slab->GetProperty(), color, 0.35, 0.75, 0.15, 20);
    body.slab->VisibilityOff();
    body.marker = MakeActor(HeadingMarker(body.length, body.width, body.z1 + 0.004));
    SetFlatLook(body.marker->GetProperty(), Color{0.5 * color[0], 0.5 * color[1], 0.5 * color[2]});
    body.marker->VisibilityOff();
    if (three_d_ && i > 0 && bodies_[i - 1].x == body.x && bodies_[i - 1].y == body.y) {
      // An axle from the body below up to this one.
      auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();
      const double height = body.z0 - bodies_[i - 1].z1;
      cylinder->SetRadius(std::min(0.35 * body.width, 0.05 * radius_ + 0.02));
      cylinder->SetHeight(height + 0.01);
      cylinder->SetCenter(0.0, bodies_[i - 1].z1 + 0.5 * height, 0.0);  // along y: turned below
      cylinder->SetResolution(24);
      body.axle = MakeActor(cylinder);
      SetSolidLook(body.axle->GetProperty(), Color{0.62, 0.64, 0.70}, 0.3, 0.7, 0.4, 30);
      body.axle->VisibilityOff();
    }
    for (auto [ghost, rgb] : {std::pair{&body.start_ghost, kStartGhostColor},
                              std::pair{&body.target_ghost, kTargetGhostColor}}) {
      *ghost = MakeActor(
          SlabEdges(1.04 * body.length, 1.04 * body.width, body.z0 - 0.004, body.z1 + 0.006));
      SetFlatLook((*ghost)->GetProperty(), ToColor(rgb), 1.0, 2.5);
      (*ghost)->VisibilityOff();
    }
    // One trail per distinct centre.
    const bool shared = std::any_of(trails_.begin(), trails_.end(), [&](const Trail& t) {
      return bodies_[t.body].x == body.x && bodies_[t.body].y == body.y;
    });
    if (!shared) {
      Trail trail;
      trail.body = i;
      trail.data = vtkSmartPointer<vtkPolyData>::New();
      trail.actor = MakeActor(trail.data);
      SetFlatLook(trail.actor->GetProperty(), std::nullopt);
      trails_.push_back(std::move(trail));
    }
  }

  grid_data_ = vtkSmartPointer<vtkPolyData>::New();
  grid_ = MakeActor(grid_data_);
  SetFlatLook(grid_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.28);
  grid_->VisibilityOff();
  if (three_d_) {
    ground_source_ = vtkSmartPointer<vtkPlaneSource>::New();
    ground_ = MakeActor(ground_source_);
    SetFlatLook(ground_->GetProperty(), kGroundColor);
    ground_->VisibilityOff();
  }
  axes_data_ = vtkSmartPointer<vtkPolyData>::New();
  axes_ = MakeActor(axes_data_);
  SetFlatLook(axes_->GetProperty(), Color{0.70, 0.74, 0.82}, 0.6, 1.5);
  axes_->VisibilityOff();

  auto disk = vtkSmartPointer<vtkDiskSource>::New();
  disk->SetInnerRadius(0.0);
  disk->SetOuterRadius(0.045 * radius_);
  disk->SetCircumferentialResolution(32);
  centre_ = MakeActor(disk);
  SetFlatLook(centre_->GetProperty(), kSlabTrailColor);
  centre_->VisibilityOff();

  legend_ = MakeLegendText();
  readout_ = vtkSmartPointer<vtkTextActor>::New();
  readout_->GetTextProperty()->SetFontSize(kFontSize);
  readout_->GetTextProperty()->SetFontFamilyToCourier();
  readout_->GetTextProperty()->SetColor(0.80, 0.82, 0.87);
  readout_->GetTextProperty()->SetLineSpacing(1.2);
  readout_->GetTextProperty()->SetJustificationToRight();
  readout_->GetTextProperty()->SetVerticalJustificationToTop();
  readout_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  readout_->GetPositionCoordinate()->SetValue(0.985, 0.975);
  message_ = MakeMessageText(0.62);
  UpdateLegend();
}

PlanarBodiesScene::~PlanarBodiesScene() {
  if (!renderer_) return;
  if (start_callback_) renderer_->RemoveObserver(start_observer_);
  // Leave the camera as other scenes expect it (SceneView's perspective views).
  renderer_->GetActiveCamera()->ParallelProjectionOff();
}

void PlanarBodiesScene::UpdateLegend() {
  std::string legend =
      three_d_ ? "3D view on the ground plane (x, y); grid spacing " + FormatNumber(spacing_) +
                     (fixed_camera_ ? "; the whole path in view, drag to orbit\n"
                                    : "; the camera follows, drag to orbit\n")
               : "top view: x to the right, y up; grid spacing " + FormatNumber(spacing_) +
                     (fixed_camera_ ? "; the whole path in view\n" : "\n");
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Body& b = bodies_[i];
    std::string angle;
    for (const std::string& a : b.angle) angle += (angle.empty() ? "" : " + ") + a;
    legend += std::string(kPaletteNames[i % kBodyColors.size()]) + ": " + b.label + ", centre (" +
              b.x + ", " + b.y + ")" + (angle.empty() ? "" : ", angle " + angle) + "\n";
  }
  legend += "yellow: trail of the centre";
  if (trail_samples_ > 0) legend += " (last " + std::to_string(trail_samples_) + " samples)";
  legend += "\ndark triangles: each body's own x axis";
  if (!markers_.empty()) legend += "\n" + markers_.LegendLines();
  if (has_boundary_)
    legend +=
        "\ncyan / magenta outlines: start and target (boundary values; free ones from the "
        "optimum)\ndrag a magenta outline to turn its target angle";
  legend_->SetInput(legend.c_str());
}

std::string PlanarBodiesScene::readout_text() const { return TextOf(readout_, true); }

std::string PlanarBodiesScene::legend_text() const { return TextOf(legend_); }

std::string PlanarBodiesScene::message_text() const { return TextOf(message_, true); }

void PlanarBodiesScene::AddTo(vtkRenderer* renderer) {
  if (renderer_ && start_callback_) renderer_->RemoveObserver(start_observer_);
  renderer_ = renderer;
  if (ground_) renderer->AddActor(ground_);
  renderer->AddActor(grid_);
  renderer->AddActor(axes_);
  markers_.AddTo(renderer);
  for (const Trail& trail : trails_) renderer->AddActor(trail.actor);
  for (const Body& body : bodies_) {
    renderer->AddActor(body.slab);
    renderer->AddActor(body.marker);
    if (body.axle) renderer->AddActor(body.axle);
    renderer->AddActor(body.start_ghost);
    renderer->AddActor(body.target_ghost);
  }
  renderer->AddActor(centre_);
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(readout_);
  renderer->AddActor2D(message_);
  start_callback_ = vtkSmartPointer<vtkCallbackCommand>::New();
  start_callback_->SetCallback(&PlanarBodiesScene::OnStartRender);
  start_callback_->SetClientData(this);
  start_observer_ = renderer_->AddObserver(vtkCommand::StartEvent, start_callback_);
}

void PlanarBodiesScene::SetSnapshot(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  columns_ok_ = false;
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (trajectory && trajectory->num_columns() > 0) {
    // Columns by name in this trajectory: a snapshot need not have the model's layout.
    std::string missing;
    auto find = [&](const std::string& name) {
      const auto column = trajectory->FindColumn(name);
      if (!column && missing.find("'" + name + "'") == std::string::npos) {
        missing += (missing.empty() ? "'" : ", '") + name + "'";
      }
      return column.value_or(0);
    };
    for (Body& body : bodies_) {
      body.x_column = find(body.x);
      body.y_column = find(body.y);
      body.angle_columns.clear();
      for (const std::string& a : body.angle) body.angle_columns.push_back(find(a));
    }
    columns_ok_ = missing.empty();
    ShowText(message_, columns_ok_
                           ? std::string()
                           : "planar_bodies scene: the trajectory has no column " + missing);
  } else {
    ShowText(message_, "");
  }
  UpdateFrame();
  UpdateGhosts();
}

bool PlanarBodiesScene::OnScenarioEdited(const dirac::Scenario& scenario) {
  const bool moved = markers_.OnScenarioEdited(scenario);
  if (moved) {
    UpdateLegend();
    UpdateFrame();  // the extent (grid, fixed camera) includes the markers
  }
  if (!has_boundary_) return moved;
  ReadBoundary(scenario);
  UpdateGhosts();
  return true;
}

void PlanarBodiesScene::ReadBoundary(const dirac::Scenario& scenario) {
  boundary_.clear();
  if (!has_boundary_) return;
  auto read = [&](const std::string& name) {
    if (const auto value = dirac::CurrentValue(scenario, name)) boundary_[name] = *value;
  };
  for (const Body& body : bodies_) {
    for (const char* when : {"initial.", "final."}) {
      read(when + body.x);
      read(when + body.y);
      for (const std::string& a : body.angle) read(when + a);
    }
  }
}

void PlanarBodiesScene::UpdateGhosts() {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = has_boundary_ && columns_ok_ && trajectory && !trajectory->empty();
  for (Body& body : bodies_) {
    body.start_ghost->SetVisibility(drawn);
    body.target_ghost->SetVisibility(drawn);
    body.target_pose.reset();
    if (!drawn) continue;
    // A boundary value where the problem fixes one, else the optimum's own value there.
    for (bool initial : {true, false}) {
      const std::size_t row = initial ? 0 : trajectory->num_rows() - 1;
      auto value = [&](const std::string& column, std::size_t index) {
        const auto it = boundary_.find((initial ? "initial." : "final.") + column);
        return it != boundary_.end() ? it->second : trajectory->at(row, index);
      };
      const double x = value(body.x, body.x_column), y = value(body.y, body.y_column);
      double angle = 0.0;
      for (std::size_t k = 0; k < body.angle.size(); ++k)
        angle += value(body.angle[k], body.angle_columns[k]);
      auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
      matrix->SetElement(0, 0, std::cos(angle));
      matrix->SetElement(0, 1, -std::sin(angle));
      matrix->SetElement(1, 0, std::sin(angle));
      matrix->SetElement(1, 1, std::cos(angle));
      matrix->SetElement(0, 3, x);
      matrix->SetElement(1, 3, y);
      (initial ? body.start_ghost : body.target_ghost)->SetUserMatrix(matrix);
      if (!initial) body.target_pose = std::array<double, 3>{x, y, angle};
    }
  }
}

std::optional<std::string> PlanarBodiesScene::TargetAngleColumn(std::size_t i) const {
  if (!has_boundary_ || i >= bodies_.size()) return std::nullopt;
  const std::vector<std::string>& angle = bodies_[i].angle;
  for (auto it = angle.rbegin(); it != angle.rend(); ++it)
    if (boundary_.count("final." + *it)) return *it;
  return std::nullopt;
}

std::optional<double> PlanarBodiesScene::target_angle(const std::string& column) const {
  const auto it = boundary_.find("final." + column);
  if (it == boundary_.end()) return std::nullopt;
  return it->second;
}

bool PlanarBodiesScene::SetTargetAngle(const std::string& column, double value) {
  if (!has_boundary_ || !std::isfinite(value)) return false;
  const bool angle_column = std::any_of(bodies_.begin(), bodies_.end(), [&](const Body& b) {
    return std::find(b.angle.begin(), b.angle.end(), column) != b.angle.end();
  });
  const auto it = boundary_.find("final." + column);
  if (!angle_column || it == boundary_.end()) return false;
  it->second = value;
  UpdateGhosts();
  if (edit_) edit_({{it->first, value}});
  return true;
}

bool PlanarBodiesScene::RotateTarget(std::size_t i, double angle) {
  const auto column = TargetAngleColumn(i);
  if (!column) return false;
  return SetTargetAngle(*column, *target_angle(*column) + angle);
}

std::optional<std::array<double, 3>> PlanarBodiesScene::target_pose(std::size_t i) const {
  if (i >= bodies_.size()) return std::nullopt;
  return bodies_[i].target_pose;
}

bool PlanarBodiesScene::PointerOnPlane(vtkRenderer* renderer, int x, int y, double z,
                                       std::array<double, 2>& point) {
  std::array<double, 3> ends[2];
  for (int k = 0; k < 2; ++k) {  // the ray from the near to the far clipping plane
    renderer->SetDisplayPoint(x, y, k);
    renderer->DisplayToWorld();
    const double* w = renderer->GetWorldPoint();
    if (w[3] == 0.0) return false;
    ends[k] = {w[0] / w[3], w[1] / w[3], w[2] / w[3]};
  }
  const double dz = ends[1][2] - ends[0][2];
  if (std::abs(dz) < 1e-12) return false;
  const double s = (z - ends[0][2]) / dz;
  point = {ends[0][0] + s * (ends[1][0] - ends[0][0]), ends[0][1] + s * (ends[1][1] - ends[0][1])};
  return std::isfinite(point[0]) && std::isfinite(point[1]);
}

std::optional<std::array<double, 2>> PlanarBodiesScene::TargetDisplayPoint(std::size_t i,
                                                                           double along) const {
  if (!renderer_ || i >= bodies_.size() || !bodies_[i].target_pose) return std::nullopt;
  const Body& body = bodies_[i];
  const auto& [x, y, angle] = *body.target_pose;
  const double r = 0.5 * body.length * along;
  return DisplayPoint(x + r * std::cos(angle), y + r * std::sin(angle), 0.5 * (body.z0 + body.z1));
}

std::optional<std::array<double, 2>> PlanarBodiesScene::DisplayPoint(double x, double y,
                                                                     double z) const {
  if (!renderer_) return std::nullopt;
  renderer_->SetWorldPoint(x, y, z, 1.0);
  renderer_->WorldToDisplay();
  const double* d = renderer_->GetDisplayPoint();
  return std::array<double, 2>{d[0], d[1]};
}

bool PlanarBodiesScene::OnPointerPress(vtkRenderer* renderer, int x, int y) {
  if (!has_boundary_ || !edit_ || !renderer) return false;
  // The topmost target outline under the pointer whose angle can be edited.
  for (std::size_t i = bodies_.size(); i-- > 0;) {
    const Body& body = bodies_[i];
    if (!body.target_pose || !body.target_ghost->GetVisibility() || !TargetAngleColumn(i)) continue;
    std::array<double, 2> p{};
    if (!PointerOnPlane(renderer, x, y, 0.5 * (body.z0 + body.z1), p)) continue;
    const auto& [cx, cy, angle] = *body.target_pose;
    const double dx = p[0] - cx, dy = p[1] - cy;
    const double along = std::cos(angle) * dx + std::sin(angle) * dy;
    const double across = -std::sin(angle) * dx + std::cos(angle) * dy;
    const double margin = 0.06 * radius_;  // a narrow rotor stays easy to grab
    if (std::abs(along) > 0.52 * body.length + margin ||
        std::abs(across) > 0.52 * body.width + margin)
      continue;
    dragging_ = i;
    drag_angle_ = std::atan2(dy, dx);
    return true;
  }
  return false;
}

void PlanarBodiesScene::OnPointerMove(vtkRenderer* renderer, int x, int y) {
  if (dragging_ == kNoDrag || !renderer) return;
  const Body& body = bodies_[dragging_];
  if (!body.target_pose) return;
  std::array<double, 2> p{};
  if (!PointerOnPlane(renderer, x, y, 0.5 * (body.z0 + body.z1), p)) return;
  const double dx = p[0] - (*body.target_pose)[0], dy = p[1] - (*body.target_pose)[1];
  if (std::hypot(dx, dy) < 0.05 * radius_) return;  // too near the centre for an angle
  const double a = std::atan2(dy, dx);
  const double turn = std::remainder(a - drag_angle_, 2.0 * std::numbers::pi);
  drag_angle_ = a;
  if (turn != 0.0) RotateTarget(dragging_, turn);
}

void PlanarBodiesScene::OnPointerRelease() { dragging_ = kNoDrag; }

std::array<double, 3> PlanarBodiesScene::PoseAt(const Body& body, std::size_t row) const {
  const dirac::Trajectory& trajectory = *snapshot_->trajectory;
  double angle = 0.0;
  for (std::size_t c : body.angle_columns) angle += trajectory.at(row, c);
  return {trajectory.at(row, body.x_column), trajectory.at(row, body.y_column), angle};
}

void PlanarBodiesScene::UpdateFrame() {
  extent_.reset();
  window_ = {0.0, 0.0};
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  if (!columns_ok_ || !trajectory || trajectory->empty()) {
    grid_->VisibilityOff();
    axes_->VisibilityOff();
    if (ground_) ground_->VisibilityOff();
    return;
  }
  // Box of all centres, and the largest box of the centres over a trail's worth of samples
  // (sliding-window minima and maxima), which sets the size of the following view.
  const std::size_t rows = trajectory->num_rows();
  const std::size_t span = trail_samples_ > 0 ? trail_samples_ : rows;
  std::array<double, 4> e{
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const Trail& trail : trails_) {
    const Body& body = bodies_[trail.body];
    for (int axis = 0; axis < 2; ++axis) {
      const std::size_t column = axis == 0 ? body.x_column : body.y_column;
      std::deque<std::size_t> low, high;  // rows of increasing / decreasing values
      for (std::size_t r = 0; r < rows; ++r) {
        const double v = trajectory->at(r, column);
        if (!std::isfinite(v)) continue;
        e[2 * axis] = std::min(e[2 * axis], v);
        e[2 * axis + 1] = std::max(e[2 * axis + 1], v);
        while (!low.empty() && trajectory->at(low.back(), column) >= v) low.pop_back();
        while (!high.empty() && trajectory->at(high.back(), column) <= v) high.pop_back();
        low.push_back(r);
        high.push_back(r);
        while (low.front() + span <= r) low.pop_front();
        while (high.front() + span <= r) high.pop_front();
        window_[axis] = std::max(window_[axis], trajectory->at(high.front(), column) -
                                                    trajectory->at(low.front(), column));
      }
    }
  }
  if (!(e[0] <= e[1]) || !(e[2] <= e[3])) return;  // nothing finite to show
  IncludeMarkers(e);
  extent_ = e;
  UpdateGrid();
}

void PlanarBodiesScene::UpdateGrid() {
  const std::array<double, 4>& e = *extent_;
  // Grid lines every ~1/6 of the following view's larger side.
  const std::array<double, 2> half = ViewHalfSizes();
  const double view = 2.0 * std::max(half[0], half[1]);
  const double spacing = NiceStep(view / 6.0);
  const double margin = 2.0 * view;  // the view never leaves the grid, whatever its aspect
  const double x0 = std::floor((e[0] - margin) / spacing) * spacing;
  const double x1 = std::ceil((e[1] + margin) / spacing) * spacing;
  const double y0 = std::floor((e[2] - margin) / spacing) * spacing;
  const double y1 = std::ceil((e[3] + margin) / spacing) * spacing;
  const double z = three_d_ ? 0.002 : -0.02;
  if (ground_) {
    ground_source_->SetOrigin(x0, y0, 0.0);
    ground_source_->SetPoint1(x1, y0, 0.0);
    ground_source_->SetPoint2(x0, y1, 0.0);
    ground_rect_ = {x0, x1, y0, y1};
    ground_->VisibilityOn();
  }
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  auto add_line = [&](double ax, double ay, double bx, double by) {
    const vtkIdType a = points->InsertNextPoint(ax, ay, z);
    const vtkIdType b = points->InsertNextPoint(bx, by, z);
    const vtkIdType ids[2] = {a, b};
    lines->InsertNextCell(2, ids);
  };
  const long nx = std::lround((x1 - x0) / spacing), ny = std::lround((y1 - y0) / spacing);
  if (nx <= 2000 && ny <= 2000) {
    for (long i = 0; i <= nx; ++i) add_line(x0 + i * spacing, y0, x0 + i * spacing, y1);
    for (long j = 0; j <= ny; ++j) add_line(x0, y0 + j * spacing, x1, y0 + j * spacing);
  }
  grid_data_->SetPoints(points);
  grid_data_->SetLines(lines);
  grid_data_->Modified();
  grid_->VisibilityOn();

  // The x and y axes through the origin, where the grid reaches them.
  auto axis_points = vtkSmartPointer<vtkPoints>::New();
  auto axis_lines = vtkSmartPointer<vtkCellArray>::New();
  if (y0 <= 0.0 && 0.0 <= y1) {
    axis_points->InsertNextPoint(x0, 0.0, three_d_ ? 2 * z : 0.5 * z);
    axis_points->InsertNextPoint(x1, 0.0, three_d_ ? 2 * z : 0.5 * z);
    const vtkIdType ids[2] = {0, 1};
    axis_lines->InsertNextCell(2, ids);
  }
  if (x0 <= 0.0 && 0.0 <= x1) {
    const vtkIdType a = axis_points->InsertNextPoint(0.0, y0, three_d_ ? 2 * z : 0.5 * z);
    const vtkIdType b = axis_points->InsertNextPoint(0.0, y1, three_d_ ? 2 * z : 0.5 * z);
    const vtkIdType ids[2] = {a, b};
    axis_lines->InsertNextCell(2, ids);
  }
  axes_data_->SetPoints(axis_points);
  axes_data_->SetLines(axis_lines);
  axes_data_->Modified();
  axes_->VisibilityOn();
  if (spacing != spacing_) {
    spacing_ = spacing;
    UpdateLegend();
  }
}

void PlanarBodiesScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = columns_ok_ && extent_ && trajectory && !trajectory->empty();
  centre_->SetVisibility(drawn);
  for (Body& body : bodies_) {
    body.slab->SetVisibility(drawn);
    body.marker->SetVisibility(drawn);
    if (body.axle) body.axle->SetVisibility(drawn);
  }
  readout_->SetVisibility(drawn);
  if (!drawn) {
    for (Trail& trail : trails_) {
      trail.data->Initialize();
      trail.data->Modified();
    }
    return;
  }
  const std::size_t row = trajectory->RowAtTime(t);
  // Box of what should stay in view: the bodies now and the trail behind them.
  std::array<double, 4> box{
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  auto include = [&box](double x, double y, double r) {
    if (!std::isfinite(x) || !std::isfinite(y)) return;
    box[0] = std::min(box[0], x - r);
    box[1] = std::max(box[1], x + r);
    box[2] = std::min(box[2], y - r);
    box[3] = std::max(box[3], y + r);
  };
  for (Body& body : bodies_) {
    body.pose = PoseAt(body, row);
    const auto& [x, y, angle] = body.pose;
    const bool finite = std::isfinite(x) && std::isfinite(y) && std::isfinite(angle);
    body.slab->SetVisibility(finite);
    body.marker->SetVisibility(finite);
    if (!finite) continue;
    auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    const double c = std::cos(angle), s = std::sin(angle);
    matrix->SetElement(0, 0, c);
    matrix->SetElement(0, 1, -s);
    matrix->SetElement(1, 0, s);
    matrix->SetElement(1, 1, c);
    matrix->SetElement(0, 3, x);
    matrix->SetElement(1, 3, y);
    body.slab->SetUserMatrix(matrix);
    body.marker->SetUserMatrix(matrix);
    if (body.axle) {
      // The cylinder source's axis is y: stand it up (x, y, z) -> (x, -z, y), then place it.
      auto axle = vtkSmartPointer<vtkMatrix4x4>::New();
      axle->Zero();
      axle->SetElement(0, 0, 1.0);
      axle->SetElement(1, 2, -1.0);
      axle->SetElement(2, 1, 1.0);
      axle->SetElement(0, 3, x);
      axle->SetElement(1, 3, y);
      axle->SetElement(3, 3, 1.0);
      body.axle->SetUserMatrix(axle);
      body.axle->SetVisibility(finite);
    }
    include(x, y, 0.5 * std::hypot(body.length, body.width));
  }
  if (box[0] <= box[1] && box[2] <= box[3]) bodies_box_ = box;
  std::string readout;
  auto shown = [](double v) { return std::abs(v) < 5e-4 ? 0.0 : v; };  // no "-0.000"
  for (const Body& body : bodies_) {
    char line[160];
    std::snprintf(line, sizeof line, "%s: (%s, %s) = (%.3f, %.3f), angle %.3f rad",
                  body.label.c_str(), body.x.c_str(), body.y.c_str(), shown(body.pose[0]),
                  shown(body.pose[1]), shown(body.pose[2]));
    if (!readout.empty()) readout += '\n';
    readout += line;
  }
  readout_->SetInput(readout.c_str());
  const auto& first = bodies_.front().pose;
  centre_->SetPosition(first[0], first[1], top_ + 0.01);
  centre_->SetVisibility(!three_d_ && std::isfinite(first[0]) && std::isfinite(first[1]));

  // Trails: the last trail_samples_ centres, fading in from the background as they get newer,
  // as a flat ribbon (wide GL lines made of many pixel-short segments render as stripes).
  const double half_width = 0.03 * radius_;
  for (Trail& trail : trails_) {
    const Body& body = bodies_[trail.body];
    std::vector<std::array<double, 3>> centres;  // x, y, fade weight
    const std::size_t begin = TrailStart(row, trail_samples_);
    const std::size_t count = row + 1 - begin;
    for (std::size_t r = begin; r <= row; ++r) {
      const double x = trajectory->at(r, body.x_column), y = trajectory->at(r, body.y_column);
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      include(x, y, 0.0);
      // Skip samples closer than a fraction of the ribbon width (but keep the newest).
      if (!centres.empty() && r != row &&
          std::hypot(x - centres.back()[0], y - centres.back()[1]) < 0.5 * half_width) {
        continue;
      }
      centres.push_back({x, y, TrailWeight(r - begin, count)});
    }
    FillRibbon(trail.data, centres, half_width, three_d_ ? 0.006 : 0.0);
  }
  if (box[0] <= box[1] && box[2] <= box[3]) view_box_ = box;
}

std::optional<GroundPlane> PlanarBodiesScene::Ground() const {
  if (!ground_) return std::nullopt;
  return GroundPlane{ground_, ground_rect_, 0.0, kGroundColor};
}

bool PlanarBodiesScene::Bounds(std::array<double, 6>& bounds) const {
  if (!extent_) return false;
  const std::array<double, 4>& e = *extent_;
  bounds = {e[0] - radius_, e[1] + radius_, e[2] - radius_, e[3] + radius_, 0.0, top_};
  return true;
}

}  // namespace dirac::ui
