#pragma once
/// @file svg_export.hpp
/// A widget drawn into an SVG file (QSvgGenerator). Its own small library (dirac_ui_svg), so
/// only it compiles against Qt SVG.

#include <QString>

#include <functional>

class QPainter;
class QWidget;

namespace dirac::ui {

/// Renders `widget` as it is shown into the SVG file `path` (its size as view box, `title` as
/// the document title: rich text such as a chart title, written as its plain text, escaped;
/// text at the widget's dpi), then calls `draw_over` (if set) with the
/// painter in the widget's coordinates. Returns "" on success, else the error.
QString RenderWidgetToSvg(QWidget& widget, const QString& path, const QString& title,
                          const std::function<void(QPainter&)>& draw_over = {});

}  // namespace dirac::ui
