// The camera of the planar bodies scene: the top view follows the motion (sized for a trail's
// worth of it) until the user moves the camera; the 3D view follows the bodies keeping the
// user's orbit; with `camera: fixed` either frames the whole path and the markers and stays
// (planar_bodies_scene.hpp).
#include <vtkCamera.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "scenes/planar_bodies_scene.hpp"

namespace dirac::ui {
namespace {

bool Near(double a, double b, double scale) { return std::abs(a - b) <= 1e-9 * scale; }

}  // namespace

// Half the side the following top view needs along one axis: a trail's worth of motion
// (`window`) plus a body of radius `radius`, but between about 4 and 8 bodies across.
double PlanarBodiesScene::FollowHalfSize(double window, double radius) {
  return std::clamp(0.55 * (window + 2.0 * radius), 2.2 * radius, 3.8 * radius);
}

std::array<double, 2> PlanarBodiesScene::ViewHalfSizes() const {
  if (fixed_camera_ && extent_) {
    const std::array<double, 4>& e = *extent_;
    const double pad = 1.25 * radius_;
    return {0.5 * (e[1] - e[0]) + pad, 0.5 * (e[3] - e[2]) + pad};
  }
  return {FollowHalfSize(window_[0], radius_), FollowHalfSize(window_[1], radius_)};
}

void PlanarBodiesScene::IncludeMarkers(std::array<double, 4>& extent) const {
  const auto markers = markers_.Extent();
  if (!markers) return;
  extent = {std::min(extent[0], (*markers)[0]), std::max(extent[1], (*markers)[1]),
            std::min(extent[2], (*markers)[2]), std::max(extent[3], (*markers)[3])};
}

void PlanarBodiesScene::OnStartRender(vtkObject*, unsigned long, void* client, void*) {
  static_cast<PlanarBodiesScene*>(client)->SteerCamera();
}

void PlanarBodiesScene::SteerCamera3D() {
  const std::array<double, 3>& pose = bodies_.front().pose;
  if (!std::isfinite(pose[0]) || !std::isfinite(pose[1])) return;
  std::array<double, 3> centre{pose[0], pose[1], 0.5 * top_};
  // A fixed camera looks at the middle of the whole extent from far enough to see all of it.
  double reach = 2.2 * radius_ + top_;
  if (fixed_camera_) {
    const std::array<double, 4>& e = *extent_;
    centre = {0.5 * (e[0] + e[1]), 0.5 * (e[2] + e[3]), 0.5 * top_};
    reach = std::hypot(0.5 * (e[1] - e[0]), 0.5 * (e[3] - e[2])) + radius_ + top_;
  }
  vtkCamera* camera = renderer_->GetActiveCamera();
  if (camera_reset_) {
    // An oblique view from behind the start, about two and a half bodies across.
    camera_reset_ = false;
    camera_owned_ = true;
    constexpr double kAzimuth = -1.2, kElevation = 0.52;  // [rad]
    // The view angle is vertical: a view narrower than 3 : 4 moves back to keep the bodies'
    // width in it.
    int width = 0, height = 0;
    renderer_->GetTiledSize(&width, &height);
    const double aspect = width > 0 && height > 0 ? static_cast<double>(width) / height : 1.0;
    const double distance = 2.0 * reach * std::max(1.0, 0.75 / aspect);
    camera->ParallelProjectionOff();
    camera->SetFocalPoint(centre.data());
    camera->SetPosition(centre[0] + distance * std::cos(kElevation) * std::cos(kAzimuth),
                        centre[1] + distance * std::cos(kElevation) * std::sin(kAzimuth),
                        centre[2] + distance * std::sin(kElevation));
    camera->SetViewUp(0.0, 0.0, 1.0);
    camera->SetViewAngle(30.0);
  } else if (camera_owned_ && !fixed_camera_) {
    // Follow: move the camera with the bodies, keeping the user's orbit and zoom.
    const double* f = camera->GetFocalPoint();
    const double* p = camera->GetPosition();
    const double d[3] = {centre[0] - followed_[0], centre[1] - followed_[1],
                         centre[2] - followed_[2]};
    camera->SetFocalPoint(f[0] + d[0], f[1] + d[1], f[2] + d[2]);
    camera->SetPosition(p[0] + d[0], p[1] + d[1], p[2] + d[2]);
  }
  followed_ = centre;
  renderer_->ResetCameraClippingRange();
}

PlanarBodiesScene::ReadoutLayout PlanarBodiesScene::LayOutReadout(int width) const {
  // Top right, beside the view's time ("t = 12.345 s", top left: about 200 px); in a view too
  // narrow for both, under the time's row, in a smaller font if its longest line needs it.
  ReadoutLayout layout;
  std::size_t longest = 0, start = 0;
  const std::string text = readout_->GetInput() ? readout_->GetInput() : "";
  for (std::size_t end = 0; end <= text.size(); ++end) {
    if (end < text.size() && text[end] != '\n') continue;
    longest = std::max(longest, end - start);
    ++layout.lines;
    start = end + 1;
  }
  if (text.empty()) layout.lines = 0;
  constexpr double kCharWidth = 8.5 / 14.0, kTimeWidth = 215.0;   // Courier per px, time [px]
  const double line = kCharWidth * static_cast<double>(longest);  // per px of font size
  layout.beside = 0.985 * width - line * kFontSize > kTimeWidth;
  if (!layout.beside && longest > 0)
    layout.font_size = std::clamp(static_cast<int>(0.97 * width / line), 8, kFontSize);
  return layout;
}

void PlanarBodiesScene::PlaceReadout() {
  int width = 0, height = 0;
  renderer_->GetTiledSize(&width, &height);
  if (width <= 0 || height <= 0) return;
  const ReadoutLayout layout = LayOutReadout(width);
  readout_->GetTextProperty()->SetFontSize(layout.font_size);
  readout_->GetPositionCoordinate()->SetValue(0.985, layout.beside ? 0.975 : 1.0 - 36.0 / height);
}

int PlanarBodiesScene::TopOverlayDepth(int width, int /*height*/) const {
  const ReadoutLayout layout = LayOutReadout(width);
  if (layout.beside || layout.lines == 0 || !readout_->GetVisibility()) return 0;
  return 36 + static_cast<int>(std::ceil(layout.lines * 1.2 * layout.font_size));
}

void PlanarBodiesScene::SteerCamera() {
  if (!renderer_ || !extent_) return;
  PlaceReadout();
  if (three_d_) return SteerCamera3D();
  vtkCamera* camera = renderer_->GetActiveCamera();
  if (camera_reset_) {
    camera_owned_ = true;  // just reset by the view (OnCameraReset): ours again
    camera_reset_ = false;
  } else if (camera_owned_) {
    // Anything but our own last setting means the user moved the camera: leave it alone.
    const double scale = std::max(camera_set_[4], 1e-12);
    const double* f = camera->GetFocalPoint();
    const double* p = camera->GetPosition();
    const double* up = camera->GetViewUp();
    const bool ours = camera->GetParallelProjection() && Near(f[0], camera_set_[0], scale) &&
                      Near(f[1], camera_set_[1], scale) && Near(f[2], camera_set_[2], scale) &&
                      Near(p[0], camera_set_[0], scale) && Near(p[1], camera_set_[1], scale) &&
                      Near(p[2], camera_set_[3], scale) &&
                      Near(camera->GetParallelScale(), camera_set_[4], scale) &&
                      Near(up[0], camera_set_[5], 1.0) && Near(up[1], camera_set_[6], 1.0);
    if (!ours) camera_owned_ = false;
  }
  if (!camera_owned_) return;

  // Size: a trail's worth of motion plus a body, between a few and several bodies across; the
  // same for the whole trajectory so the view does not breathe during playback.
  int width = 0, height = 0;
  renderer_->GetTiledSize(&width, &height);
  const double aspect = width > 0 && height > 0 ? static_cast<double>(width) / height : 1.0;
  const auto [half_x, half_y] = ViewHalfSizes();
  const double scale = std::max(half_y, half_x / aspect) * 1.04;
  const double hx = scale * aspect, hy = scale;
  // Centre: on the bodies and the trail behind them, kept inside the whole motion's box so the
  // view slides along the path instead of showing empty floor ahead of or behind it, and
  // always with the bodies themselves in view.
  const std::array<double, 4>& e = *extent_;
  const double pad = 1.25 * radius_;
  auto place = [&](int axis, double half) {
    const double lo = e[2 * axis] - pad, hi = e[2 * axis + 1] + pad;
    double c = 0.5 * (view_box_[2 * axis] + view_box_[2 * axis + 1]);
    c = 2.0 * half >= hi - lo ? 0.5 * (lo + hi) : std::clamp(c, lo + half, hi - half);
    const double margin = 0.25 * half;  // bodies stay in the inner part of the view
    const double need_lo = bodies_box_[2 * axis + 1] + margin - half;  // c >= this
    const double need_hi = bodies_box_[2 * axis] - margin + half;      // c <= this
    if (need_lo <= need_hi) return std::clamp(c, need_lo, need_hi);
    return 0.5 * (bodies_box_[2 * axis] + bodies_box_[2 * axis + 1]);
  };
  // A fixed camera: the middle of the whole extent, whatever the bodies do.
  const double cx = fixed_camera_ ? 0.5 * (e[0] + e[1]) : place(0, hx);
  const double cy = fixed_camera_ ? 0.5 * (e[2] + e[3]) : place(1, hy);
  const double cz = 0.5 * top_;
  const double distance = 4.0 * std::max(hx, hy) + 10.0 * top_;
  camera->ParallelProjectionOn();
  camera->SetFocalPoint(cx, cy, cz);
  camera->SetPosition(cx, cy, cz + distance);
  camera->SetViewUp(0.0, 1.0, 0.0);
  camera->SetParallelScale(scale);
  const double* up = camera->GetViewUp();
  camera_set_ = {cx, cy, cz, cz + distance, scale, up[0], up[1]};
  renderer_->ResetCameraClippingRange();
}

void PlanarBodiesScene::OnCameraReset() { camera_reset_ = true; }

}  // namespace dirac::ui
