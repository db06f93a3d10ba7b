#include "scenes/bodies_scene.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPlaneSource.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTransform.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

constexpr std::size_t kBodiesDefaultTrail = 1000;
constexpr Color kContactTrailColor{1.0, 0.88, 0.35};
// Body colours in file order (the first is the scene orange image checks look for); a wheel
// (a disc or a cylinder that rolls) is drawn in the tyre colour with an orange stripe.
constexpr Color kBodyPalette[] = {
    {1.0, 140.0 / 255.0, 0.0}, {0.30, 0.55, 0.95}, {0.35, 0.78, 0.45}, {0.66, 0.45, 0.85}};
constexpr Color kTyreColor{0.62, 0.64, 0.70};
constexpr double kDiscThickness = 0.12;  // of a disc's radius
constexpr double kMinSideFraction = 0.12;

// The 4x4 matrix [R A | p]: the body's rotation R after the local turn A of the drawn source.
vtkSmartPointer<vtkMatrix4x4> PoseMatrix(const std::array<double, 9>& R,
                                         const std::array<double, 9>& A,
                                         const std::array<double, 3>& p) {
  auto m = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R[3 * i + k] * A[3 * k + j];
      m->SetElement(i, j, s);
    }
    m->SetElement(i, 3, p[i]);
  }
  return m;
}

constexpr std::array<double, 9> kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};

// A rotation (row-major) taking the source's y axis (VTK's cylinder axis) to the unit `axis`.
std::array<double, 9> TurnYTo(const Vec3& axis) {
  const Vec3 y{0.0, 1.0, 0.0};
  const Vec3 c = Cross(y, axis);
  const double s = Norm(c), cos = std::clamp(axis[1], -1.0, 1.0);
  if (s < 1e-12) return cos > 0 ? kIdentity : std::array<double, 9>{1, 0, 0, 0, -1, 0, 0, 0, -1};
  return RotationFromVector({c[0] / s * std::atan2(s, cos), c[1] / s * std::atan2(s, cos),
                             c[2] / s * std::atan2(s, cos)});
}

Vec3 AxisOf(const std::vector<double>& v) {
  if (v.size() != 3) return {0.0, 0.0, 1.0};
  const Vec3 a{v[0], v[1], v[2]};
  const double n = Norm(a);
  return n > 0 ? Vec3{a[0] / n, a[1] / n, a[2] / n} : Vec3{0.0, 0.0, 1.0};
}

// The sides of the uniform box with principal moments I (about its centre) and mass m: I1 =
// m (b^2 + c^2) / 12, ... Each side at least kMinSideFraction of the longest, and a small cube
// for a body without mass or inertia.
std::array<double, 3> BoxOfInertia(const std::array<double, 3>& I, double m, double fallback) {
  std::array<double, 3> side{};
  if (m > 0) {
    side = {std::sqrt(std::max(0.0, 6.0 * (I[1] + I[2] - I[0]) / m)),
            std::sqrt(std::max(0.0, 6.0 * (I[0] + I[2] - I[1]) / m)),
            std::sqrt(std::max(0.0, 6.0 * (I[0] + I[1] - I[2]) / m))};
  }
  const double longest = *std::max_element(side.begin(), side.end());
  if (!(longest > 0) || !std::isfinite(longest)) return {fallback, fallback, fallback};
  for (double& s : side) s = std::max(s, kMinSideFraction * longest);
  return side;
}

double SizeAt(const std::vector<double>& size, std::size_t i, double fallback) {
  return i < size.size() && std::isfinite(size[i]) && size[i] > 0 ? size[i] : fallback;
}

}  // namespace

// One drawn body: its solid, an optional stripe (a wheel's, to show it turn), the local turn
// of the sources into the body frame, and what it is.
struct BodiesScene::DrawnBody {
  std::string name;
  std::string kind;  // "box", "cylinder", "disc", "sphere" (shape-less bodies: "box")
  bool wheel = false;
  std::array<double, 9> turn = kIdentity;  // source axes -> body axes
  vtkSmartPointer<vtkActor> solid, stripe;
  vtkSmartPointer<vtkCubeSource> cube, stripe_cube;
  vtkSmartPointer<vtkCylinderSource> cylinder;
  vtkSmartPointer<vtkSphereSource> sphere;
};

BodiesScene::BodiesScene(const SceneContext& context) {
  if (!context.model) throw dirac::Error("bodies scene: no derived model");
  const dirac::Scenario& scenario = context.scenario;
  const dirac::SceneOptions& options = scenario.scene.options;
  evaluator_ = context.model->body_poses();
  if (!evaluator_ || !evaluator_->has_bodies())
    options.Fail("type", "the bodies scene needs a scenario written with bodies (bodies:)");
  trail_samples_ = TrailOption(options, kBodiesDefaultTrail);
  const auto& spec = scenario.multibody;
  shown_.assign(spec.bodies.size(), true);
  if (options.Has("bodies")) {
    shown_.assign(spec.bodies.size(), false);
    for (const std::string& name : options.Strings("bodies")) {
      const auto it = std::find_if(spec.bodies.begin(), spec.bodies.end(),
                                   [&](const dirac::BodySpec& b) { return b.name == name; });
      if (it == spec.bodies.end()) options.Fail("bodies", "no body named '" + name + "'");
      shown_[static_cast<std::size_t>(it - spec.bodies.begin())] = true;
    }
  }
  options.CheckKeys({"trail", "bodies"});
  up_ = AxisOf(spec.up);
  wheel_axes_.assign(spec.bodies.size(), Vec3{0.0, 0.0, 1.0});
  std::vector<bool> rolls(spec.bodies.size(), false);
  for (const dirac::RollingSpec& wheel : spec.rolling)
    for (std::size_t b = 0; b < spec.bodies.size(); ++b)
      if (spec.bodies[b].name == wheel.body) {
        wheel_axes_[b] = AxisOf(wheel.vector);
        rolls[b] = true;
      }
  for (const dirac::Coordinate& c : scenario.coordinates) coordinate_names_.push_back(c.name);
  for (const dirac::Parameter& p : scenario.parameters) parameters_.push_back(p.value);

  std::vector<double> q0;
  for (const dirac::Coordinate& c : scenario.coordinates) q0.push_back(c.initial);
  drawn_ = evaluator_->Evaluate(0.0, q0, parameters_);
  MakeBodies(drawn_);
  for (std::size_t b = 0; b < bodies_.size(); ++b) bodies_[b].wheel = rolls[b];
  for (std::size_t k = 0; k < drawn_.contacts.size(); ++k) {
    trails_.push_back(vtkSmartPointer<vtkPolyData>::New());
    trail_actors_.push_back(MakeActor(trails_.back()));
    SetFlatLook(trail_actors_.back()->GetProperty(), std::nullopt, 1.0, 2.5);
    paths_.push_back(vtkSmartPointer<vtkPolyData>::New());
    path_actors_.push_back(MakeActor(paths_.back()));
    SetFlatLook(path_actors_.back()->GetProperty(), kContactTrailColor, 0.25, 1.0);
  }
  ground_source_ = vtkSmartPointer<vtkPlaneSource>::New();
  ground_ = MakeActor(ground_source_);
  SetFlatLook(ground_->GetProperty(), kGroundColor);
  grid_data_ = vtkSmartPointer<vtkPolyData>::New();
  grid_ = MakeActor(grid_data_);
  SetFlatLook(grid_->GetProperty(), Color{0.55, 0.60, 0.70}, 0.3);
  ground_->VisibilityOff();
  grid_->VisibilityOff();
  legend_ = MakeLegendText();
  message_ = MakeMessageText(0.62);
  std::string legend;
  std::size_t colour = 0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!shown_[b]) continue;
    legend += (legend.empty() ? "" : ", ") + bodies_[b].name + " (" +
              (bodies_[b].wheel ? std::string("grey wheel")
                                : kPaletteNames[colour++ % std::size(kPaletteNames)]) +
              ")";
  }
  legend = "bodies: " + legend;
  if (!drawn_.contacts.empty())
    legend += "\nyellow: the wheels' contact points on the ground (last " +
              std::to_string(trail_samples_) + " samples; faint: the whole run)";
  legend_->SetInput(legend.c_str());
}

BodiesScene::~BodiesScene() = default;

void BodiesScene::MakeBodies(const dirac::BodyPoses& poses) {
  std::size_t colour = 0;
  for (std::size_t b = 0; b < poses.bodies.size(); ++b) {
    const dirac::BodyPose& pose = poses.bodies[b];
    DrawnBody body;
    body.name = pose.name;
    body.kind = pose.shape.empty() ? "box" : pose.shape;
    const Vec3 axis = b < wheel_axes_.size() ? wheel_axes_[b] : Vec3{0.0, 0.0, 1.0};
    const bool round = body.kind == "disc" || body.kind == "cylinder";
    if (round) {
      body.cylinder = vtkSmartPointer<vtkCylinderSource>::New();
      body.cylinder->SetResolution(48);
      body.solid = MakeActor(body.cylinder);
      body.turn = TurnYTo(axis);
      body.stripe_cube = vtkSmartPointer<vtkCubeSource>::New();
      body.stripe = MakeActor(body.stripe_cube);
      SetSolidLook(body.stripe->GetProperty(), ToColor(kSceneOrange), 0.4, 0.6, 0.2, 20);
    } else if (body.kind == "sphere") {
      body.sphere = vtkSmartPointer<vtkSphereSource>::New();
      body.sphere->SetThetaResolution(32);
      body.sphere->SetPhiResolution(16);
      body.solid = MakeActor(body.sphere);
    } else {
      body.cube = vtkSmartPointer<vtkCubeSource>::New();
      body.solid = MakeActor(body.cube);
      if (pose.shape.empty()) body.turn = pose.principal_axes;
    }
    const Color color =
        round ? kTyreColor : kBodyPalette[(shown_[b] ? colour++ : 0) % std::size(kBodyPalette)];
    SetSolidLook(body.solid->GetProperty(), color, 0.3, 0.75, 0.35, 30);
    body.solid->VisibilityOff();
    if (body.stripe) body.stripe->VisibilityOff();
    bodies_.push_back(std::move(body));
  }
}

// Sizes the body's sources from the pose (shapes may follow parameters) and places it.
void BodiesScene::PlaceBody(DrawnBody& body, const dirac::BodyPose& pose) const {
  const double scale = extent_ ? std::max({(*extent_)[1] - (*extent_)[0],
                                           (*extent_)[3] - (*extent_)[2],
                                           (*extent_)[5] - (*extent_)[4], 1e-3})
                               : 1.0;
  const double fallback = 0.05 * scale;
  if (body.cylinder) {
    const double r = SizeAt(pose.size, 0, fallback);
    body.cylinder->SetRadius(r);
    body.cylinder->SetHeight(body.kind == "disc" ? kDiscThickness * r
                                                 : SizeAt(pose.size, 1, kDiscThickness * r));
    body.stripe_cube->SetXLength(1.7 * r);
    body.stripe_cube->SetYLength(1.05 * (body.kind == "disc" ? kDiscThickness * r
                                                             : SizeAt(pose.size, 1, r)));
    body.stripe_cube->SetZLength(0.14 * r);
  } else if (body.sphere) {
    body.sphere->SetRadius(SizeAt(pose.size, 0, fallback));
  } else if (pose.shape == "box") {
    body.cube->SetXLength(SizeAt(pose.size, 0, fallback));
    body.cube->SetYLength(SizeAt(pose.size, 1, fallback));
    body.cube->SetZLength(SizeAt(pose.size, 2, fallback));
  } else {
    const std::array<double, 3> side = BoxOfInertia(pose.inertia, pose.mass, fallback);
    body.cube->SetXLength(side[0]);
    body.cube->SetYLength(side[1]);
    body.cube->SetZLength(side[2]);
  }
  const auto matrix = PoseMatrix(pose.rotation, body.turn, pose.position);
  body.solid->SetUserMatrix(matrix);
  if (body.stripe) body.stripe->SetUserMatrix(matrix);
}

std::vector<std::string> BodiesScene::body_names() const {
  std::vector<std::string> names;
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (shown_[b]) names.push_back(bodies_[b].name);
  return names;
}

std::string BodiesScene::legend_text() const { return TextOf(legend_); }

std::string BodiesScene::message_text() const { return TextOf(message_, true); }

void BodiesScene::AddTo(vtkRenderer* renderer) {
  renderer_ = renderer;
  renderer->AddActor(ground_);
  renderer->AddActor(grid_);
  for (auto& a : path_actors_) renderer->AddActor(a);
  for (auto& a : trail_actors_) renderer->AddActor(a);
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!shown_[b]) continue;
    renderer->AddActor(bodies_[b].solid);
    if (bodies_[b].stripe) renderer->AddActor(bodies_[b].stripe);
  }
  renderer->AddActor2D(legend_);
  renderer->AddActor2D(message_);
}

void BodiesScene::SetSnapshot(const SnapshotPtr& snapshot) {
  const dirac::Trajectory* trajectory = snapshot ? snapshot->trajectory.get() : nullptr;
  // A new run starts the poses again; a longer snapshot of the same run only adds its new rows.
  if (!snapshot || !snapshot_ || snapshot->run != poses_run_ ||
      snapshot->scenario != snapshot_->scenario)
    poses_.clear();
  snapshot_ = snapshot;
  poses_run_ = snapshot ? snapshot->run : 0;
  if (!trajectory || trajectory->num_columns() == 0) {
    poses_.clear();
    extent_.reset();
    ShowText(message_, "");
    return;
  }
  coordinate_columns_.clear();
  std::string missing;
  for (const std::string& name : coordinate_names_) {
    const auto found = trajectory->FindColumn(name);
    if (!found) missing += (missing.empty() ? "'" : ", '") + name + "'";
    coordinate_columns_.push_back(found.value_or(0));
  }
  ShowText(message_, missing.empty() ? std::string()
                                     : "bodies scene: the trajectory has no column " + missing);
  if (!missing.empty()) {
    poses_.clear();
    extent_.reset();
    return;
  }
  const std::vector<double>& parameters =
      snapshot->parameters.size() == parameters_.size() ? snapshot->parameters : parameters_;
  std::vector<double> q(coordinate_columns_.size());
  for (std::size_t r = poses_.size(); r < trajectory->num_rows(); ++r) {
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = trajectory->at(r, coordinate_columns_[i]);
    poses_.push_back(evaluator_->Evaluate(trajectory->at(r, 0), q, parameters));
  }
  // The extent of the drawn bodies and the contacts over the run (finite samples only: a run
  // that diverged is framed on the part before).
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::array<double, 6> e{inf, -inf, inf, -inf, inf, -inf};
  auto grow = [&](const std::array<double, 3>& p) {
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return;
    for (int k = 0; k < 3; ++k) e[2 * k] = std::min(e[2 * k], p[k]);
    for (int k = 0; k < 3; ++k) e[2 * k + 1] = std::max(e[2 * k + 1], p[k]);
  };
  for (const dirac::BodyPoses& poses : poses_) {
    for (std::size_t b = 0; b < poses.bodies.size(); ++b)
      if (shown_[b]) grow(poses.bodies[b].position);
    for (const dirac::ContactPose& c : poses.contacts) grow(c.point);
  }
  if (!(e[0] <= e[1])) {
    extent_.reset();
    return;
  }
  extent_ = e;
  for (std::size_t k = 0; k < paths_.size(); ++k) {
    std::vector<Vec3> path;
    for (const dirac::BodyPoses& poses : poses_) path.push_back(poses.contacts[k].point);
    SetPolyline(paths_[k], path);
  }
  UpdateGround();
}

// The ground: the plane through the origin normal to up, under the bodies' and the contacts'
// extent with a margin, in its own basis (e1, e2, up), and a grid on it.
void BodiesScene::UpdateGround() {
  const auto [e1, e2] = PlaneBasis(up_);
  const std::array<double, 6>& e = *extent_;
  double u0 = std::numeric_limits<double>::infinity(), u1 = -u0, w0 = u0, w1 = -u0, top = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p{e[corner & 1], e[2 + ((corner >> 1) & 1)], e[4 + ((corner >> 2) & 1)]};
    const double u = p[0] * e1[0] + p[1] * e1[1] + p[2] * e1[2];
    const double w = p[0] * e2[0] + p[1] * e2[1] + p[2] * e2[2];
    top = std::max(top, p[0] * up_[0] + p[1] * up_[1] + p[2] * up_[2]);
    u0 = std::min(u0, u);
    u1 = std::max(u1, u);
    w0 = std::min(w0, w);
    w1 = std::max(w1, w);
  }
  const double size = std::max({u1 - u0, w1 - w0, 2.0 * top, 1e-3});
  const double spacing = NiceStep(size / 6.0);
  const double pad = 0.3 * size;
  const double x0 = std::floor((u0 - pad) / spacing) * spacing;
  const double y0 = std::floor((w0 - pad) / spacing) * spacing;
  const int nx = std::max(1, static_cast<int>(std::ceil((u1 + pad - x0) / spacing)));
  const int ny = std::max(1, static_cast<int>(std::ceil((w1 + pad - y0) / spacing)));
  ground_rect_ = {x0, x0 + nx * spacing, y0, y0 + ny * spacing};
  const double below = -0.002 * size;
  ground_source_->SetOrigin(x0, y0, below);
  ground_source_->SetPoint1(ground_rect_[1], y0, below);
  ground_source_->SetPoint2(x0, ground_rect_[3], below);
  SetGridLines(grid_data_, ground_rect_, nx, ny, 0.0);
  auto frame = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int k = 0; k < 3; ++k) {
    frame->SetElement(k, 0, e1[k]);
    frame->SetElement(k, 1, e2[k]);
    frame->SetElement(k, 2, up_[k]);
  }
  ground_->SetUserMatrix(frame);
  grid_->SetUserMatrix(frame);
}

void BodiesScene::SetTime(double t) {
  const dirac::Trajectory* trajectory = snapshot_ ? snapshot_->trajectory.get() : nullptr;
  const bool drawn = extent_ && trajectory && !trajectory->empty() && !poses_.empty();
  ground_->SetVisibility(drawn);
  grid_->SetVisibility(drawn);
  for (auto& a : path_actors_) a->SetVisibility(drawn);
  if (!drawn) {
    for (DrawnBody& body : bodies_) {
      body.solid->VisibilityOff();
      if (body.stripe) body.stripe->VisibilityOff();
    }
    for (auto& trail : trails_) {
      trail->Initialize();
      trail->Modified();
    }
    return;
  }
  const std::size_t row = std::min(trajectory->RowAtTime(t), poses_.size() - 1);
  drawn_ = poses_[row];
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const dirac::BodyPose& pose = drawn_.bodies[b];
    const bool finite = std::all_of(pose.position.begin(), pose.position.end(),
                                    [](double v) { return std::isfinite(v); }) &&
                        std::all_of(pose.rotation.begin(), pose.rotation.end(),
                                    [](double v) { return std::isfinite(v); });
    const bool visible = shown_[b] && finite;
    bodies_[b].solid->SetVisibility(visible);
    if (bodies_[b].stripe) bodies_[b].stripe->SetVisibility(visible);
    if (visible) PlaceBody(bodies_[b], pose);
  }
  FollowBodies();
  const double lift = 0.002 * std::max({(*extent_)[1] - (*extent_)[0],
                                        (*extent_)[3] - (*extent_)[2], 1e-3});
  for (std::size_t k = 0; k < trails_.size(); ++k) {
    std::vector<Vec3> trail;
    for (std::size_t r = TrailStart(row, trail_samples_); r <= row; ++r) {
      const auto& p = poses_[r].contacts[k].point;
      trail.push_back({p[0] + lift * up_[0], p[1] + lift * up_[1], p[2] + lift * up_[2]});
    }
    FillFadingTrail(trails_[k], trail, kContactTrailColor);
  }
}

// The centre of the drawn bodies' centres of mass (finite ones).
Vec3 BodiesScene::BodiesCentre() const {
  Vec3 centre{};
  int count = 0;
  for (std::size_t b = 0; b < drawn_.bodies.size(); ++b) {
    const auto& p = drawn_.bodies[b].position;
    if (!shown_[b] || !std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) continue;
    for (int k = 0; k < 3; ++k) centre[k] += p[k];
    ++count;
  }
  if (count > 0)
    for (double& x : centre) x /= count;
  return centre;
}

bool BodiesScene::Bounds(std::array<double, 6>& bounds) const {
  if (!extent_) return false;
  // The bodies at the time cursor, padded by the largest body and a part of their own span.
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::array<double, 6> e{inf, -inf, inf, -inf, inf, -inf};
  double size = 0.0;
  for (std::size_t b = 0; b < drawn_.bodies.size(); ++b) {
    if (!shown_[b]) continue;
    const auto& pose = drawn_.bodies[b];
    if (!std::isfinite(pose.position[0]) || !std::isfinite(pose.position[1]) ||
        !std::isfinite(pose.position[2]))
      continue;
    for (int k = 0; k < 3; ++k) {
      e[2 * k] = std::min(e[2 * k], pose.position[k]);
      e[2 * k + 1] = std::max(e[2 * k + 1], pose.position[k]);
    }
    for (double s : pose.size)
      if (std::isfinite(s)) size = std::max(size, s);
    if (pose.shape.empty()) {
      const auto side = BoxOfInertia(pose.inertia, pose.mass, 0.0);
      size = std::max(size, 0.5 * *std::max_element(side.begin(), side.end()));
    }
  }
  if (!(e[0] <= e[1])) e = *extent_;
  const double span = std::max({e[1] - e[0], e[3] - e[2], e[5] - e[4]});
  const double pad = std::max(size, 0.35 * span) + 1e-3;
  for (int k = 0; k < 3; ++k) {
    bounds[2 * k] = e[2 * k] - pad;
    bounds[2 * k + 1] = e[2 * k + 1] + pad;
  }
  return true;
}

void BodiesScene::OnCameraReset() {
  if (!renderer_) return;
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->GetPosition(camera_position_.data());
  camera->GetFocalPoint(camera_focal_.data());
  followed_centre_ = BodiesCentre();
  following_ = true;
}

// Moves the camera with the bodies' centre while the user has not moved it since it was placed.
void BodiesScene::FollowBodies() {
  if (!following_ || !renderer_) return;
  vtkCamera* camera = renderer_->GetActiveCamera();
  Vec3 position{}, focal{};
  camera->GetPosition(position.data());
  camera->GetFocalPoint(focal.data());
  for (int k = 0; k < 3; ++k)
    if (std::abs(position[k] - camera_position_[k]) > 1e-9 * (1 + std::abs(position[k])) ||
        std::abs(focal[k] - camera_focal_[k]) > 1e-9 * (1 + std::abs(focal[k]))) {
      following_ = false;  // the user turned or moved the view
      return;
    }
  const Vec3 centre = BodiesCentre();
  for (int k = 0; k < 3; ++k) {
    const double shift = centre[k] - followed_centre_[k];
    position[k] += shift;
    focal[k] += shift;
  }
  camera->SetPosition(position.data());
  camera->SetFocalPoint(focal.data());
  renderer_->ResetCameraClippingRange();
  camera_position_ = position;
  camera_focal_ = focal;
  followed_centre_ = centre;
}

// The view's clear-colour shortcut (DrawnScene::Ground) knows the planes z = const in x, y
// only; this ground lies in its own basis (e1, e2, up) and is drawn as a quad.
std::optional<GroundPlane> BodiesScene::Ground() const { return std::nullopt; }

}  // namespace dirac::ui
