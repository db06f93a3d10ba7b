#include "scenes/scene_kit.hpp"

#include <vtkPropCollection.h>
#include <vtkPropPicker.h>
#include <vtkRenderer.h>

#include <vtkActor.h>
#include <vtkAlgorithm.h>
#include <vtkAxesActor.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkExtractEdges.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "dirac/scenario_spec.hpp"

namespace dirac::ui {

std::optional<std::size_t> IndexOf(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

std::string FormatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

double NiceStep(double value) {
  if (!(value > 0.0) || !std::isfinite(value)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  const double f = value / power;
  return power * (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0);
}

Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double Norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

std::pair<Vec3, Vec3> PlaneBasis(const Vec3& n) {
  const Vec3 helper = std::abs(n[2]) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
  Vec3 u = Cross(helper, n);
  const double nu = Norm(u);
  for (double& c : u) c /= nu;
  return {u, Cross(n, u)};
}

vtkSmartPointer<vtkMatrix4x4> ArrowMatrix(const Vec3& origin, const Vec3& v, double thickness) {
  const double length = Norm(v);
  if (!(length > 0.0) || !std::isfinite(length)) return nullptr;
  const Vec3 d{v[0] / length, v[1] / length, v[2] / length};
  const auto [u, w] = PlaneBasis(d);
  auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int k = 0; k < 3; ++k) {
    matrix->SetElement(k, 0, d[k] * length);
    matrix->SetElement(k, 1, u[k] * thickness);
    matrix->SetElement(k, 2, w[k] * thickness);
    matrix->SetElement(k, 3, origin[k]);
  }
  return matrix;
}

Rotation RotationFromVector(const Vec3& v) {
  const double theta = Norm(v);
  // sin(theta)/theta and (1 - cos(theta))/theta^2, by their series near 0.
  const double a = theta < 1e-6 ? 1.0 - theta * theta / 6.0 : std::sin(theta) / theta;
  const double b =
      theta < 1e-6 ? 0.5 - theta * theta / 24.0 : (1.0 - std::cos(theta)) / (theta * theta);
  const double x = v[0], y = v[1], z = v[2];
  // R = I + a K + b K^2 with K = [v]x.
  return {1 - b * (y * y + z * z), -a * z + b * x * y,      a * y + b * x * z,
          a * z + b * x * y,       1 - b * (x * x + z * z), -a * x + b * y * z,
          -a * y + b * x * z,      a * x + b * y * z,       1 - b * (x * x + y * y)};
}

Vec3 RotationVectorOf(const Rotation& R) {
  auto at = [&](int i, int j) { return R[3 * i + j]; };
  const Vec3 w{(at(2, 1) - at(1, 2)) / 2, (at(0, 2) - at(2, 0)) / 2, (at(1, 0) - at(0, 1)) / 2};
  const double sin_theta = Norm(w);
  const double cos_theta = std::clamp((at(0, 0) + at(1, 1) + at(2, 2) - 1) / 2, -1.0, 1.0);
  const double theta = std::atan2(sin_theta, cos_theta);
  if (cos_theta >= 0) {
    const double f = sin_theta < 1e-6 ? 1 + sin_theta * sin_theta / 6 : theta / sin_theta;
    return {f * w[0], f * w[1], f * w[2]};
  }
  // theta > pi/2: the axis from the symmetric part, its sign from w.
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (at(i, i) > at(k, k)) k = i;
  Vec3 n{};
  for (int i = 0; i < 3; ++i)
    n[i] = ((at(i, k) + at(k, i)) / 2 - (i == k ? cos_theta : 0.0)) / (1 - cos_theta);
  const double norm = Norm(n);
  const double sign = n[0] * w[0] + n[1] * w[1] + n[2] * w[2] < 0 ? -1.0 : 1.0;
  for (double& e : n) e *= sign * theta / norm;
  return n;
}

Rotation Multiply(const Rotation& a, const Rotation& b) {
  Rotation c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

Color ToColor(const Rgb& rgb) { return {rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0}; }

Rgb Fade(const Color& color, double weight) {
  Rgb rgb{};
  for (int k = 0; k < 3; ++k) {
    const double c = kBackground[k] + weight * (color[k] - kBackground[k]);
    rgb[k] = static_cast<unsigned char>(std::lround(255 * std::clamp(c, 0.0, 1.0)));
  }
  return rgb;
}

vtkSmartPointer<vtkActor> MakeActor(vtkPolyData* data) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

vtkSmartPointer<vtkActor> MakeActor(vtkAlgorithm* source) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

void SetSolidLook(vtkProperty* property, const Color& color, double ambient, double diffuse,
                  double specular, double specular_power) {
  property->SetColor(color[0], color[1], color[2]);
  property->SetAmbient(ambient);
  property->SetDiffuse(diffuse);
  property->SetSpecular(specular);
  property->SetSpecularPower(specular_power);
}

void SetFlatLook(vtkProperty* property, const std::optional<Color>& color, double opacity,
                 double line_width) {
  if (color) property->SetColor((*color)[0], (*color)[1], (*color)[2]);
  property->SetOpacity(opacity);
  property->SetLineWidth(static_cast<float>(line_width));
  property->LightingOff();
}

void StyleAxisLabels(vtkAxesActor* axes, bool italic, const std::optional<Color>& color) {
  for (vtkCaptionActor2D* caption : {axes->GetXAxisCaptionActor2D(), axes->GetYAxisCaptionActor2D(),
                                     axes->GetZAxisCaptionActor2D()}) {
    caption->GetTextActor()->SetTextScaleModeToNone();
    vtkTextProperty* text = caption->GetCaptionTextProperty();
    text->SetFontSize(16);
    if (color) text->SetColor((*color)[0], (*color)[1], (*color)[2]);
    text->BoldOff();
    text->SetItalic(italic);
    text->ShadowOff();
  }
}

void SetPolyline(vtkPolyData* data, vtkPoints* points) {
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  const vtkIdType n = points->GetNumberOfPoints();
  if (n >= 2) {
    lines->InsertNextCell(n);
    for (vtkIdType i = 0; i < n; ++i) lines->InsertCellPoint(i);
  }
  data->SetPoints(points);
  data->SetLines(lines);
  data->Modified();
}

void SetPolyline(vtkPolyData* data, const std::vector<Vec3>& points) {
  auto vtk_points = vtkSmartPointer<vtkPoints>::New();
  vtk_points->SetNumberOfPoints(static_cast<vtkIdType>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i)
    vtk_points->SetPoint(static_cast<vtkIdType>(i), points[i].data());
  SetPolyline(data, vtk_points);
}

std::size_t TrailStart(std::size_t row, std::size_t samples) {
  if (samples == 0) return row + 1;
  return row + 1 > samples ? row + 1 - samples : 0;
}

double TrailWeight(std::size_t i, std::size_t count) {
  return count > 1 ? 0.15 + 0.85 * static_cast<double>(i) / static_cast<double>(count - 1) : 1.0;
}

void FillFadingTrail(vtkPolyData* data, const std::vector<Vec3>& points, const Color& color) {
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  colors->SetName("trail_colors");
  const std::size_t n = points.size();
  colors->SetNumberOfTuples(static_cast<vtkIdType>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const Rgb rgb = Fade(color, TrailWeight(i, n));
    colors->SetTypedTuple(static_cast<vtkIdType>(i), rgb.data());
  }
  SetPolyline(data, points);
  data->GetPointData()->SetScalars(colors);
}

vtkSmartPointer<vtkTextActor> MakeLegendText() {
  auto text = vtkSmartPointer<vtkTextActor>::New();
  text->GetTextProperty()->SetFontSize(14);
  text->GetTextProperty()->SetColor(0.80, 0.82, 0.87);
  text->GetTextProperty()->SetLineSpacing(1.2);
  text->SetDisplayPosition(12, 10);
  return text;
}

vtkSmartPointer<vtkTextActor> MakeMessageText(double y) {
  auto text = vtkSmartPointer<vtkTextActor>::New();
  text->GetTextProperty()->SetFontSize(16);
  text->GetTextProperty()->SetColor(0.98, 0.86, 0.82);
  // On a dark box: readable over the orange body too (light text on orange was not).
  text->GetTextProperty()->SetBackgroundColor(0.10, 0.11, 0.13);
  text->GetTextProperty()->SetBackgroundOpacity(0.85);
  text->GetTextProperty()->SetFrame(true);
  text->GetTextProperty()->SetFrameColor(0.75, 0.35, 0.30);
  text->GetTextProperty()->SetJustificationToCentered();
  text->GetTextProperty()->SetVerticalJustificationToCentered();
  text->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  text->GetPositionCoordinate()->SetValue(0.5, y);
  text->VisibilityOff();
  return text;
}

void ShowText(vtkTextActor* overlay, const std::string& text) {
  overlay->SetInput(text.c_str());
  overlay->SetVisibility(!text.empty());
}

std::string TextOf(vtkTextActor* overlay, bool visible_only) {
  const char* text = overlay->GetInput();
  if (!text || (visible_only && !overlay->GetVisibility())) return "";
  return text;
}

std::size_t TrailOption(const dirac::SceneOptions& options, std::size_t fallback) {
  const double trail = options.Number("trail", static_cast<double>(fallback));
  if (!(trail >= 0.0) || trail != std::floor(trail) || trail > 1e9)
    options.Fail("trail", "expected a whole number of samples >= 0, got " + FormatNumber(trail));
  return static_cast<std::size_t>(trail);
}

double PositiveOption(const dirac::SceneOptions& options, const std::string& key, double fallback) {
  const double value = options.Number(key, fallback);
  if (!(value > 0.0)) options.Fail(key, "expected a positive number, got " + FormatNumber(value));
  return value;
}

std::optional<LengthOption> PositiveNumberOrParameter(const dirac::Scenario& scenario,
                                                      const std::string& text) {
  const std::optional<LengthOption> out = NumberOrParameter(scenario, text);
  if (!out || !(out->value > 0.0)) return std::nullopt;
  return out;
}

std::optional<LengthOption> NumberOrParameter(const dirac::Scenario& scenario,
                                              const std::string& text) {
  LengthOption out;
  const auto parameter = std::find_if(scenario.parameters.begin(), scenario.parameters.end(),
                                      [&](const dirac::Parameter& p) { return p.name == text; });
  if (parameter != scenario.parameters.end()) {
    out = {parameter->value, text};
  } else {
    char* end = nullptr;
    out.value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') return std::nullopt;
  }
  if (!std::isfinite(out.value)) return std::nullopt;
  return out;
}

void RequireColumn(const dirac::SceneOptions& options, const std::string& key,
                   const std::string& name, const std::vector<std::string>& columns) {
  if (name.empty()) options.Fail(key, "missing required key");
  if (!IndexOf(columns, name)) options.Fail(key, "'" + name + "' names no trajectory column");
}

bool PicksProp(vtkRenderer* renderer, int x, int y, vtkProp* prop) {
  auto picker = vtkSmartPointer<vtkPropPicker>::New();
  auto candidates = vtkSmartPointer<vtkPropCollection>::New();
  candidates->AddItem(prop);
  return picker->PickProp(x, y, renderer, candidates) && picker->GetViewProp() == prop;
}

void SetGridLines(vtkPolyData* data, const std::array<double, 4>& rect, int nx, int ny, double z) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  auto add_line = [&](double ax, double ay, double bx, double by) {
    const vtkIdType ids[2] = {points->InsertNextPoint(ax, ay, z),
                              points->InsertNextPoint(bx, by, z)};
    lines->InsertNextCell(2, ids);
  };
  const auto [x0, x1, y0, y1] = rect;
  nx = std::max(nx, 1);
  ny = std::max(ny, 1);
  for (int i = 0; i <= nx; ++i) {
    const double x = i == nx ? x1 : x0 + (x1 - x0) * i / nx;
    add_line(x, y0, x, y1);
  }
  for (int j = 0; j <= ny; ++j) {
    const double y = j == ny ? y1 : y0 + (y1 - y0) * j / ny;
    add_line(x0, y, x1, y);
  }
  data->SetPoints(points);
  data->SetLines(lines);
  data->Modified();
}

vtkSmartPointer<vtkPolyData> GlobeLines(double radius, int meridians, int parallels, int segments) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  auto circle = [&](auto point_at) {
    const vtkIdType first = points->GetNumberOfPoints();
    for (int i = 0; i < segments; ++i) {
      const Vec3 p = point_at(2.0 * std::numbers::pi * i / segments);
      points->InsertNextPoint(p.data());
    }
    lines->InsertNextCell(segments + 1);
    for (int i = 0; i <= segments; ++i) lines->InsertCellPoint(first + i % segments);
  };
  for (int m = 0; m < meridians; ++m) {
    // Half as many great circles as meridians: each is two meridians.
    if (2 * m >= meridians) break;
    const double longitude = 2.0 * std::numbers::pi * m / meridians;
    const double c = std::cos(longitude), s = std::sin(longitude);
    circle([&](double a) {
      return Vec3{radius * std::sin(a) * c, radius * std::sin(a) * s, radius * std::cos(a)};
    });
  }
  for (int k = 1; k <= parallels; ++k) {
    const double latitude = -0.5 * std::numbers::pi + std::numbers::pi * k / (parallels + 1);
    const double r = radius * std::cos(latitude), z = radius * std::sin(latitude);
    circle([&](double a) { return Vec3{r * std::cos(a), r * std::sin(a), z}; });
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

bool PlaneFillsView(vtkRenderer* renderer, const std::array<double, 4>& rect, double z) {
  int width = 0, height = 0, x = 0, y = 0;
  renderer->GetTiledSizeAndOrigin(&width, &height, &x, &y);
  if (width <= 0 || height <= 0) return false;
  auto world = [renderer](double dx, double dy, double dz) {
    renderer->SetDisplayPoint(dx, dy, dz);
    renderer->DisplayToWorld();
    const double* p = renderer->GetWorldPoint();
    return Vec3{p[0] / p[3], p[1] / p[3], p[2] / p[3]};
  };
  const double corners[4][2] = {{static_cast<double>(x), static_cast<double>(y)},
                                {static_cast<double>(x + width), static_cast<double>(y)},
                                {static_cast<double>(x), static_cast<double>(y + height)},
                                {static_cast<double>(x + width), static_cast<double>(y + height)}};
  for (const auto& corner : corners) {
    const Vec3 near = world(corner[0], corner[1], 0.0);  // on the near clipping plane
    const Vec3 far = world(corner[0], corner[1], 1.0);   // on the far one
    const double dz = far[2] - near[2];
    if (!(std::abs(dz) > 0.0)) return false;
    const double s = (z - near[2]) / dz;
    if (!(s >= 0.0 && s <= 1.0)) return false;
    const double hx = near[0] + s * (far[0] - near[0]);
    const double hy = near[1] + s * (far[1] - near[1]);
    if (!(hx > rect[0] && hx < rect[1] && hy > rect[2] && hy < rect[3])) return false;
  }
  return true;
}

vtkSmartPointer<vtkActor> MakeEdgesActor(vtkAlgorithm* source) {
  auto edges = vtkSmartPointer<vtkExtractEdges>::New();
  edges->SetInputConnection(source->GetOutputPort());
  return MakeActor(edges);
}

void MakeGhost(vtkAlgorithm* source, const Rgb& rgb, double opacity, double line_width,
               vtkSmartPointer<vtkActor>& faces, vtkSmartPointer<vtkActor>& edges) {
  faces = MakeActor(source);
  SetSolidLook(faces->GetProperty(), ToColor(rgb), 0.5, 0.6, 0.1, 10);
  faces->GetProperty()->SetOpacity(opacity);
  faces->VisibilityOff();
  edges = MakeEdgesActor(source);
  SetFlatLook(edges->GetProperty(), ToColor(rgb), 1.0, line_width);
  edges->VisibilityOff();
}

}  // namespace dirac::ui
