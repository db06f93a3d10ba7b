#include "scene_kit.hpp"

#include <vtkActor.h>
#include <vtkAlgorithm.h>
#include <vtkAxesActor.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
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
  text->GetTextProperty()->SetColor(0.95, 0.75, 0.70);
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

void RequireColumn(const dirac::SceneOptions& options, const std::string& key,
                   const std::string& name, const std::vector<std::string>& columns) {
  if (name.empty()) options.Fail(key, "missing required key");
  if (!IndexOf(columns, name)) options.Fail(key, "'" + name + "' names no trajectory column");
}

}  // namespace dirac::ui
