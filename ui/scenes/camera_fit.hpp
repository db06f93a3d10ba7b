#pragma once
/// @file camera_fit.hpp
/// Framing a scene's bounds in the part of the 3D view that text leaves free: under the top row
/// (the time, a scene's readout, the first-screen hint) and above the legend.

#include <array>

class vtkRenderer;

namespace dirac::ui {

/// The free band of a view, in device pixels: the view's size and the rows (top, bottom) and
/// columns (each side) that overlays cover.
struct ViewBand {
  double width = 0.0;
  double height = 0.0;
  double top = 0.0;
  double bottom = 0.0;
  double side = 0.0;
};

/// Zooms `renderer`'s camera (already aimed at the bounds' centre and placed at their fitting
/// distance) so that the eight corners of `bounds` (xmin, xmax, ymin, ymax, zmin, zmax) fill the
/// band's width or height, and moves the window centre so the focal point sits in the band's
/// middle. Needs the renderer's window sized to the band's width and height.
void FitCameraToBand(vtkRenderer* renderer, const std::array<double, 6>& bounds,
                     const ViewBand& band);

/// Where the corners of `bounds` are drawn: (xmin, xmax, ymin, ymax) in display pixels, y up.
std::array<double, 4> ProjectedBounds(vtkRenderer* renderer, const std::array<double, 6>& bounds);

}  // namespace dirac::ui
