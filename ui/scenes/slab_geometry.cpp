#include "scenes/slab_geometry.hpp"

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>
#include <numbers>

namespace dirac::ui {
namespace {

// A slab over a rounded rectangle length x width (centred at the origin, long side along x)
// between heights z0 and z1, with normals: flat top and bottom, rounded sides.
// The rounded rectangle length x width (centred, long side along x): x, y, normal x, normal y.
std::vector<std::array<double, 4>> RoundedOutline(double length, double width) {
  const double r = std::min(0.3 * width, 0.2 * length);
  const double cx = 0.5 * length - r, cy = 0.5 * width - r;
  constexpr int kArc = 10;                     // segments per corner
  std::vector<std::array<double, 4>> outline;  // x, y, normal x, normal y
  const double centres[4][2] = {{cx, cy}, {-cx, cy}, {-cx, -cy}, {cx, -cy}};
  for (int c = 0; c < 4; ++c) {
    for (int k = 0; k <= kArc; ++k) {
      const double phi = 0.5 * std::numbers::pi * (c + static_cast<double>(k) / kArc);
      outline.push_back({centres[c][0] + r * std::cos(phi), centres[c][1] + r * std::sin(phi),
                         std::cos(phi), std::sin(phi)});
    }
  }
  return outline;
}

}  // namespace

// The edges of a slab's top and bottom faces as two closed loops (a ghost of the body).
vtkSmartPointer<vtkPolyData> SlabEdges(double length, double width, double z0, double z1) {
  const std::vector<std::array<double, 4>> outline = RoundedOutline(length, width);
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  for (double z : {z0, z1}) {
    const vtkIdType first = points->GetNumberOfPoints();
    for (const auto& p : outline) points->InsertNextPoint(p[0], p[1], z);
    lines->InsertNextCell(static_cast<vtkIdType>(outline.size() + 1));
    for (std::size_t i = 0; i <= outline.size(); ++i)
      lines->InsertCellPoint(first + static_cast<vtkIdType>(i % outline.size()));
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

vtkSmartPointer<vtkPolyData> RoundedSlab(double length, double width, double z0, double z1) {
  const std::vector<std::array<double, 4>> outline = RoundedOutline(length, width);
  const vtkIdType n = static_cast<vtkIdType>(outline.size());
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto normals = vtkSmartPointer<vtkFloatArray>::New();
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  // Top (ids 0..n-1), bottom (n..2n-1), side top ring (2n..3n-1), side bottom ring (3n..4n-1).
  for (const auto& p : outline) {
    points->InsertNextPoint(p[0], p[1], z1);
    normals->InsertNextTuple3(0, 0, 1);
  }
  for (const auto& p : outline) {
    points->InsertNextPoint(p[0], p[1], z0);
    normals->InsertNextTuple3(0, 0, -1);
  }
  for (double z : {z1, z0}) {
    for (const auto& p : outline) {
      points->InsertNextPoint(p[0], p[1], z);
      normals->InsertNextTuple3(p[2], p[3], 0);
    }
  }
  polys->InsertNextCell(n);
  for (vtkIdType i = 0; i < n; ++i) polys->InsertCellPoint(i);
  polys->InsertNextCell(n);
  for (vtkIdType i = n - 1; i >= 0; --i) polys->InsertCellPoint(n + i);
  for (vtkIdType i = 0; i < n; ++i) {
    const vtkIdType j = (i + 1) % n;
    const vtkIdType quad[4] = {3 * n + i, 3 * n + j, 2 * n + j, 2 * n + i};
    polys->InsertNextCell(4, quad);
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  data->GetPointData()->SetNormals(normals);
  return data;
}

// A triangle on the top face pointing along the body's +x axis (its heading).
vtkSmartPointer<vtkPolyData> HeadingMarker(double length, double width, double z) {
  const double a = 0.45 * std::min(width, 0.5 * length);
  const double tip = 0.5 * length - 0.12 * std::min(width, length);
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->InsertNextPoint(tip, 0.0, z);
  points->InsertNextPoint(tip - a, 0.6 * a, z);
  points->InsertNextPoint(tip - a, -0.6 * a, z);
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  const vtkIdType triangle[3] = {0, 1, 2};
  polys->InsertNextCell(3, triangle);
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  return data;
}

// A flat ribbon of half width `h` at height z along `centres` (x, y, fade weight), coloured
// from the background towards kSlabTrailColor by the weight (the scene kit's fading trail as a
// ribbon: wide GL lines made of many pixel-short segments render as stripes).
void FillRibbon(vtkPolyData* data, const std::vector<std::array<double, 3>>& centres, double h,
                double z) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  colors->SetName("trail_colors");
  auto strips = vtkSmartPointer<vtkCellArray>::New();
  const std::size_t n = centres.size();
  if (n >= 2) {
    double nx = 0.0, ny = 1.0;  // last good normal
    strips->InsertNextCell(static_cast<vtkIdType>(2 * n));
    for (std::size_t i = 0; i < n; ++i) {
      const auto& a = centres[i > 0 ? i - 1 : 0];
      const auto& b = centres[i + 1 < n ? i + 1 : n - 1];
      const double dx = b[0] - a[0], dy = b[1] - a[1], d = std::hypot(dx, dy);
      if (d > 0.0) {
        nx = -dy / d;
        ny = dx / d;
      }
      const auto& p = centres[i];
      const Rgb rgb = Fade(kSlabTrailColor, p[2]);
      for (double side : {1.0, -1.0}) {
        strips->InsertCellPoint(
            points->InsertNextPoint(p[0] + side * h * nx, p[1] + side * h * ny, z));
        colors->InsertNextTypedTuple(rgb.data());
      }
    }
  }
  data->SetPoints(points);
  data->SetStrips(strips);
  data->GetPointData()->SetScalars(colors);
  data->Modified();
}

}  // namespace dirac::ui
