#pragma once
/// @file scene_text.hpp
/// The 2D text overlays every 3D scene uses, styled alike: a legend in the lower-left corner
/// and a centred message shown instead of the scene when it cannot be drawn.

#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

namespace dirac::ui {

/// Light grey 14 pt multi-line text at the lower-left corner (12, 10) px.
inline vtkSmartPointer<vtkTextActor> MakeLegendText() {
  auto text = vtkSmartPointer<vtkTextActor>::New();
  text->GetTextProperty()->SetFontSize(14);
  text->GetTextProperty()->SetColor(0.80, 0.82, 0.87);
  text->GetTextProperty()->SetLineSpacing(1.2);
  text->SetDisplayPosition(12, 10);
  return text;
}

/// A hidden, centred 16 pt warning-coloured message at normalised height `y`.
inline vtkSmartPointer<vtkTextActor> MakeMessageText(double y) {
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

}  // namespace dirac::ui
