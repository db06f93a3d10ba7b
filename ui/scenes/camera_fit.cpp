#include "scenes/camera_fit.hpp"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace dirac::ui {
namespace {

// The largest |x| and |y| of the bounds' corners in view coordinates ([-1, 1] across the view).
std::array<double, 2> ViewExtent(vtkRenderer* renderer, const std::array<double, 6>& b) {
  std::array<double, 2> extent{0.0, 0.0};
  for (int c = 0; c < 8; ++c) {
    renderer->SetWorldPoint(b[c & 1], b[2 + ((c >> 1) & 1)], b[4 + ((c >> 2) & 1)], 1.0);
    renderer->WorldToView();
    const double* v = renderer->GetViewPoint();
    extent[0] = std::max(extent[0], std::abs(v[0]));
    extent[1] = std::max(extent[1], std::abs(v[1]));
  }
  return extent;
}

}  // namespace

void FitCameraToBand(vtkRenderer* renderer, const std::array<double, 6>& bounds,
                     const ViewBand& band) {
  vtkCamera* camera = renderer->GetActiveCamera();
  camera->SetWindowCenter(0.0, 0.0);
  const double free_height = std::max(0.4 * band.height, band.height - band.top - band.bottom);
  const double free_width = std::max(0.4 * band.width, band.width - 2.0 * band.side);
  // Half the free band in view units; the box is centred on the focal point, so it must fit
  // both halves. Twice: a perspective camera's zoom is not quite linear in the view's extent.
  const double half_x = free_width / band.width, half_y = free_height / band.height;
  for (int pass = 0; pass < 2; ++pass) {
    const std::array<double, 2> extent = ViewExtent(renderer, bounds);
    if (!(extent[0] > 0.0) || !(extent[1] > 0.0)) return;
    camera->Zoom(0.96 * std::min(half_x / extent[0], half_y / extent[1]));
  }
  // The band's middle, in view coordinates: the focal point is drawn there.
  const double middle = (band.bottom + 0.5 * free_height) / band.height * 2.0 - 1.0;
  camera->SetWindowCenter(0.0, -middle);
}

std::array<double, 4> ProjectedBounds(vtkRenderer* renderer, const std::array<double, 6>& b) {
  std::array<double, 4> box{1e300, -1e300, 1e300, -1e300};
  for (int c = 0; c < 8; ++c) {
    renderer->SetWorldPoint(b[c & 1], b[2 + ((c >> 1) & 1)], b[4 + ((c >> 2) & 1)], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    box[0] = std::min(box[0], d[0]);
    box[1] = std::max(box[1], d[0]);
    box[2] = std::min(box[2], d[1]);
    box[3] = std::max(box[3], d[1]);
  }
  return box;
}

}  // namespace dirac::ui
