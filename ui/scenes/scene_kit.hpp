#pragma once
/// @file scene_kit.hpp
/// What every drawn scene (particle, rigid_body, planar_bodies) shares, written once: name
/// lookup, small 3-vector helpers, the actor factory, the view's background colours, the fading
/// trail, the text overlays (legend and message, one style), axis label style, the nice tick
/// step (also used by the plot panel's time axes) and the options every scene reads.

#include <vtkSmartPointer.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/scene_options.hpp"

namespace dirac {
struct Scenario;
}

class vtkActor;
class vtkAlgorithm;
class vtkAxesActor;
class vtkMatrix4x4;
class vtkPoints;
class vtkPolyData;
class vtkProp;
class vtkRenderer;
class vtkProperty;
class vtkTextActor;

namespace dirac::ui {

using Vec3 = std::array<double, 3>;
/// RGB in [0, 1].
using Color = std::array<double, 3>;
/// RGB in 0..255, as the image checks of the tests see it.
using Rgb = std::array<unsigned char, 3>;

// ---- names and numbers --------------------------------------------------------------------

/// Position of `name` in `names`, if it is there.
std::optional<std::size_t> IndexOf(const std::vector<std::string>& names, const std::string& name);
/// `value` as printf's "%g" writes it (for legends and messages).
std::string FormatNumber(double value);
/// 1, 2 or 5 times a power of ten, near `value` (> 0; otherwise 1): grid spacing, tick interval.
double NiceStep(double value);

// ---- vectors --------------------------------------------------------------------------------

Vec3 Cross(const Vec3& a, const Vec3& b);
double Norm(const Vec3& a);
/// Two unit vectors (u, w) spanning the plane orthogonal to the unit vector n; (u, w, n) is
/// right-handed.
std::pair<Vec3, Vec3> PlaneBasis(const Vec3& n);
/// A matrix taking the unit arrow along +x (vtkArrowSource) to one from `origin` along `v` (as
/// long as v), `thickness` times as thick as the source. Null for a zero vector.
vtkSmartPointer<vtkMatrix4x4> ArrowMatrix(const Vec3& origin, const Vec3& v, double thickness);

// ---- rotations (3x3 row-major) ----------------------------------------------------------

using Rotation = std::array<double, 9>;
/// exp of the rotation vector v (Rodrigues): the rotation by |v| about v / |v|.
Rotation RotationFromVector(const Vec3& v);
/// log R as a rotation vector (|v| in [0, pi]); accurate near 0 and pi.
Vec3 RotationVectorOf(const Rotation& R);
/// The product a b.
Rotation Multiply(const Rotation& a, const Rotation& b);

// ---- colours ------------------------------------------------------------------------------

/// The saturated orange every scene draws its main body in (the particle, the rigid body, the
/// first planar body); no other prop uses it, so image checks can find it.
inline constexpr Rgb kSceneOrange{255, 140, 0};
/// The names of the planar scenes' body / point palette, in order (for their legends).
inline constexpr const char* kPaletteNames[] = {"orange", "blue", "green", "purple"};
/// Trail samples a scene keeps when its `trail:` option is not given.
inline constexpr std::size_t kDefaultTrailSamples = 500;
/// The view's background (SceneView, solid) and what old trail samples fade towards.
inline constexpr Color kBackground{0.13, 0.14, 0.18};
/// The ground plane of the scenes that have one (unlit: see DrawnScene::Ground).
inline constexpr Color kGroundColor{0.18, 0.195, 0.235};

Color ToColor(const Rgb& rgb);
/// `color` faded towards kBackground: weight 1 is `color`, 0 the background.
Rgb Fade(const Color& color, double weight);

// ---- actors -------------------------------------------------------------------------------

/// An actor drawing `data` through a new mapper.
vtkSmartPointer<vtkActor> MakeActor(vtkPolyData* data);
/// An actor drawing the edges of `source`'s polygons as line cells (vtkExtractEdges). Use it
/// instead of a wireframe representation or EdgeVisibility: with software OpenGL, polygons drawn
/// as lines take a slow path (a triangulated sphere in wireframe cost ~10 ms per frame).
vtkSmartPointer<vtkActor> MakeEdgesActor(vtkAlgorithm* source);
/// An actor drawing the output of `source` (a vtkPolyDataAlgorithm) through a new mapper.
vtkSmartPointer<vtkActor> MakeActor(vtkAlgorithm* source);
/// A hidden "ghost" of `source` (a boundary value drawn in the scene): translucent faces with
/// `opacity` and clear wire-frame edges of `line_width`, both in `rgb`.
void MakeGhost(vtkAlgorithm* source, const Rgb& rgb, double opacity, double line_width,
               vtkSmartPointer<vtkActor>& faces, vtkSmartPointer<vtkActor>& edges);
/// A lit solid look: colour, ambient, diffuse, specular and specular power.
void SetSolidLook(vtkProperty* property, const Color& color, double ambient, double diffuse,
                  double specular, double specular_power);
/// An unlit look for lines, wire frames and flat marks: `color` (none: the data's scalars, e.g.
/// a fading trail), opacity and line width.
void SetFlatLook(vtkProperty* property, const std::optional<Color>& color, double opacity = 1.0,
                 double line_width = 1.0);
/// Axis captions of `axes`: 16 pt, no bold, no shadow, italic or not, in `color` if given.
void StyleAxisLabels(vtkAxesActor* axes, bool italic, const std::optional<Color>& color = {});
/// Makes `data` the open polyline through `points` in order (no cell for fewer than two).
void SetPolyline(vtkPolyData* data, vtkPoints* points);
void SetPolyline(vtkPolyData* data, const std::vector<Vec3>& points);

// ---- the fading trail ---------------------------------------------------------------------

/// First row of a trail of `samples` samples ending at `row` (row + 1, i.e. none, if
/// samples == 0).
std::size_t TrailStart(std::size_t row, std::size_t samples);
/// Fade weight of sample `i` of `count` (0.15 for the oldest, 1 for the newest).
double TrailWeight(std::size_t i, std::size_t count);
/// Fills `data` with the polyline through `points` (oldest first), coloured from the background
/// towards `color` as the samples get newer (scalars "trail_colors"; map them directly).
void FillFadingTrail(vtkPolyData* data, const std::vector<Vec3>& points, const Color& color);

// ---- text overlays ------------------------------------------------------------------------

/// Light grey 14 pt multi-line text at the lower-left corner (12, 10) px.
vtkSmartPointer<vtkTextActor> MakeLegendText();
/// A hidden, centred 16 pt warning-coloured message at normalised height `y`.
vtkSmartPointer<vtkTextActor> MakeMessageText(double y);
/// Sets the text of `overlay` and shows it iff the text is not empty.
void ShowText(vtkTextActor* overlay, const std::string& text);

/// True if the prop under display point (x, y) of `renderer` is `prop` (what a drag grabs).
bool PicksProp(vtkRenderer* renderer, int x, int y, vtkProp* prop);

/// Fills `data` with a grid of line cells over [x0, x1] x [y0, y1] at height z: nx + 1 lines
/// along y and ny + 1 along x (nx, ny >= 1). Line cells, not a plane drawn as wireframe: with
/// software OpenGL, polygons in wireframe go through a slow path.
void SetGridLines(vtkPolyData* data, const std::array<double, 4>& rect, int nx, int ny, double z);

/// A globe of radius `radius` about the origin as line cells: `meridians` meridians (an even
/// number, drawn as meridians / 2 great circles through the poles) and `parallels` circles of
/// latitude equally spaced between the poles, each circle a closed polyline of `segments`.
vtkSmartPointer<vtkPolyData> GlobeLines(double radius, int meridians, int parallels, int segments);

/// True if the rectangle [x0, x1] x [y0, y1] (`rect`) of the plane at height z covers the whole
/// viewport of `renderer` with its current camera: the rays through the viewport's four corners
/// all meet the plane inside the rectangle and within the clipping range.
bool PlaneFillsView(vtkRenderer* renderer, const std::array<double, 4>& rect, double z);
/// The text of `overlay` ("" if it has none, or if `visible_only` and it is hidden).
std::string TextOf(vtkTextActor* overlay, bool visible_only = false);

// ---- options every scene reads ------------------------------------------------------------

/// `trail`: a whole number of samples >= 0 (default `fallback`). Throws ScenarioError.
std::size_t TrailOption(const dirac::SceneOptions& options, std::size_t fallback);
/// A finite number > 0 at `key` (default `fallback`). Throws ScenarioError.
double PositiveOption(const dirac::SceneOptions& options, const std::string& key, double fallback);
/// A positive length given as a number or as a parameter's name (e.g. `radius: R`): its value
/// in `scenario` and the parameter's name ("" for a number).
struct LengthOption {
  double value = 0.0;
  std::string parameter;
};
/// `text` read as a LengthOption; nullopt if it is neither a parameter of `scenario` nor a
/// number, or if the value is not a positive finite number. Throws nothing.
std::optional<LengthOption> PositiveNumberOrParameter(const dirac::Scenario& scenario,
                                                      const std::string& text);
/// `text` as a parameter of `scenario` (its current value) or a number, any finite value (a
/// marker's centre); nullopt otherwise. Throws nothing.
std::optional<LengthOption> NumberOrParameter(const dirac::Scenario& scenario,
                                              const std::string& text);
/// A trajectory column named at `key` (an entry of `columns`). Throws ScenarioError naming it.
void RequireColumn(const dirac::SceneOptions& options, const std::string& key,
                   const std::string& name, const std::vector<std::string>& columns);

}  // namespace dirac::ui
