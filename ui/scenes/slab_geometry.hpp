#pragma once
/// @file slab_geometry.hpp
/// The planar bodies' shapes: rounded slabs, their outlines, heading markers and the fading
/// ribbon of a trail (VTK poly data, in the body's frame or the plane z = const).

#include <vtkSmartPointer.h>

#include <array>
#include <vector>

#include "scenes/scene_kit.hpp"

class vtkPolyData;

namespace dirac::ui {

/// The trail ribbon's colour (and the trail centre's), faded from the background.
inline constexpr Color kSlabTrailColor{1.0, 0.88, 0.35};

/// The edges of a slab's top and bottom faces (a rounded rectangle length x width, centred, long
/// side along x, between heights z0 and z1) as two closed loops: a ghost of the body.
vtkSmartPointer<vtkPolyData> SlabEdges(double length, double width, double z0, double z1);
/// A slab over that rounded rectangle between heights z0 and z1, with normals: flat top and
/// bottom, rounded sides.
vtkSmartPointer<vtkPolyData> RoundedSlab(double length, double width, double z0, double z1);
/// A triangle on the top face (height z) pointing along the body's +x axis (its heading).
vtkSmartPointer<vtkPolyData> HeadingMarker(double length, double width, double z);
/// Fills `data` with a flat ribbon of half width `h` at height z along `centres` (x, y, fade
/// weight), coloured from the background towards kSlabTrailColor by the weight (the scene kit's
/// fading trail as a ribbon: wide GL lines made of many pixel-short segments render as stripes).
void FillRibbon(vtkPolyData* data, const std::vector<std::array<double, 3>>& centres, double h,
                double z);

}  // namespace dirac::ui
