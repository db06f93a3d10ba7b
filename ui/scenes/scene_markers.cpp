#include "scenes/scene_markers.hpp"

#include <vtkActor.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "scenes/scene_kit.hpp"

namespace dirac::ui {
namespace {

constexpr int kMarkerSides = 96;  // of the disc and its rim

bool IsNumberText(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

// A value written as a number or a parameter's name, at `key` of `options`; >= 0 if asked.
double MarkerValue(const dirac::Scenario& scenario, const dirac::SceneOptions& options,
                   const std::string& key, bool nonnegative, std::string& text) {
  if (!options.Has(key)) options.Fail(key, "missing required key (a number or a parameter)");
  text = options.String(key);
  const std::optional<LengthOption> value = NumberOrParameter(scenario, text);
  if (!value || (nonnegative && value->value < 0.0))
    options.Fail(key, std::string("expected a ") + (nonnegative ? "non-negative " : "") +
                          "number or a parameter's name, got '" + text + "'");
  return value->value;
}

// The unit circle about the origin in the plane z = 0: a filled polygon or its rim (a polyline).
vtkSmartPointer<vtkRegularPolygonSource> UnitCircle(bool filled) {
  auto circle = vtkSmartPointer<vtkRegularPolygonSource>::New();
  circle->SetNumberOfSides(kMarkerSides);
  circle->SetRadius(1.0);
  circle->SetGeneratePolygon(filled);
  circle->SetGeneratePolyline(!filled);
  return circle;
}

// "xo = 2" for a parameter, "2" for a number.
std::string MarkerValueText(const std::string& text, double value) {
  const std::string number = FormatNumber(value);
  return IsNumberText(text) ? number : text + " = " + number;
}

}  // namespace

SceneMarkers::SceneMarkers(const dirac::Scenario& scenario, const dirac::SceneOptions& options,
                           double z, double height)
    : z_(z), height_(height) {
  const std::vector<dirac::SceneOptions> specs = options.Maps("markers");
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const dirac::SceneOptions& m = specs[i];
    const std::string shape = m.String("shape", "disc");
    if (shape != "disc") m.Fail("shape", "expected 'disc', got '" + shape + "'");
    Marker marker;
    marker.x = MarkerValue(scenario, m, "x", false, marker.x_text);
    marker.y = MarkerValue(scenario, m, "y", false, marker.y_text);
    marker.radius = MarkerValue(scenario, m, "radius", true, marker.radius_text);
    marker.label = m.String("label", "marker " + std::to_string(i + 1));
    m.CheckKeys({"shape", "x", "y", "radius", "label"});
    const Color rim = ToColor(kMarkerRim);
    if (height_ > 0.0) {
      // An upright cylinder: the source's axis is y, from 0 to 1 (Place stands it up).
      auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();
      cylinder->SetRadius(1.0);
      cylinder->SetHeight(1.0);
      cylinder->SetCenter(0.0, 0.5, 0.0);
      cylinder->SetResolution(kMarkerSides);
      marker.fill = MakeActor(cylinder);
      SetSolidLook(marker.fill->GetProperty(), Color{0.62, 0.22, 0.24}, 0.35, 0.7, 0.2, 20);
    } else {
      marker.fill = MakeActor(UnitCircle(true));
      SetFlatLook(marker.fill->GetProperty(), Color{0.42, 0.17, 0.20});
    }
    marker.rim = MakeActor(UnitCircle(false));
    SetFlatLook(marker.rim->GetProperty(), rim, 1.0, 2.0);
    Place(marker);
    markers_.push_back(std::move(marker));
  }
}

void SceneMarkers::Place(Marker& marker) const {
  const double r = marker.radius;
  auto fill = vtkSmartPointer<vtkMatrix4x4>::New();
  if (height_ > 0.0) {
    // (sx, sy, sz) -> (x + r sx, y - r sz, height sy): the source's y axis stood up along z.
    fill->Zero();
    fill->SetElement(0, 0, r);
    fill->SetElement(1, 2, -r);
    fill->SetElement(2, 1, height_);
    fill->SetElement(3, 3, 1.0);
  } else {
    fill->SetElement(0, 0, r);
    fill->SetElement(1, 1, r);
    fill->SetElement(2, 3, z_);
  }
  fill->SetElement(0, 3, marker.x);
  fill->SetElement(1, 3, marker.y);
  marker.fill->SetUserMatrix(fill);
  auto rim = vtkSmartPointer<vtkMatrix4x4>::New();
  rim->SetElement(0, 0, r);
  rim->SetElement(1, 1, r);
  rim->SetElement(0, 3, marker.x);
  rim->SetElement(1, 3, marker.y);
  rim->SetElement(2, 3, height_ > 0.0 ? height_ + 0.002 : z_ + 0.001);
  marker.rim->SetUserMatrix(rim);
  marker.fill->SetVisibility(r > 0.0);  // a zero radius draws nothing (and no singular matrix)
  marker.rim->SetVisibility(r > 0.0);
}

void SceneMarkers::AddTo(vtkRenderer* renderer) const {
  for (const Marker& marker : markers_) {
    renderer->AddActor(marker.fill);
    renderer->AddActor(marker.rim);
  }
}

void SceneMarkers::SetLevel(double z) {
  if (z == z_) return;
  z_ = z;
  for (Marker& marker : markers_) Place(marker);
}

bool SceneMarkers::OnScenarioEdited(const dirac::Scenario& scenario) {
  bool changed = false;
  for (Marker& marker : markers_) {
    bool moved = false;
    for (auto [text, value, nonnegative] :
         {std::tuple{&marker.x_text, &marker.x, false},
          std::tuple{&marker.y_text, &marker.y, false},
          std::tuple{&marker.radius_text, &marker.radius, true}}) {
      const std::optional<LengthOption> now = NumberOrParameter(scenario, *text);
      if (!now || (nonnegative && now->value < 0.0) || now->value == *value) continue;
      *value = now->value;
      moved = true;
    }
    if (moved) Place(marker);
    changed = changed || moved;
  }
  return changed;
}

std::optional<std::array<double, 4>> SceneMarkers::Extent() const {
  if (markers_.empty()) return std::nullopt;
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::array<double, 4> e{inf, -inf, inf, -inf};
  for (const Marker& m : markers_) {
    e[0] = std::min(e[0], m.x - m.radius);
    e[1] = std::max(e[1], m.x + m.radius);
    e[2] = std::min(e[2], m.y - m.radius);
    e[3] = std::max(e[3], m.y + m.radius);
  }
  return e;
}

std::string SceneMarkers::LegendLines() const {
  std::string out;
  for (const Marker& m : markers_) {
    if (!out.empty()) out += '\n';
    out += std::string("red ") + (height_ > 0.0 ? "cylinder" : "disc") + ": " + m.label +
           ", centre (" + MarkerValueText(m.x_text, m.x) + ", " + MarkerValueText(m.y_text, m.y) +
           "), radius " + MarkerValueText(m.radius_text, m.radius);
  }
  return out;
}

}  // namespace dirac::ui
