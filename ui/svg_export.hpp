#pragma once
/// @file svg_export.hpp
/// A widget drawn into an SVG file (QSvgGenerator). Its own small library (dirac_ui_svg), so
/// only it compiles against Qt SVG.

#include <QString>

class QWidget;

namespace dirac::ui {

/// Renders `widget` as it is shown into the SVG file `path` (its size as view box, `title` as
/// the document title). Returns "" on success, else the error.
QString RenderWidgetToSvg(QWidget& widget, const QString& path, const QString& title);

}  // namespace dirac::ui
