#pragma once
/// @file chart_export.hpp
/// A chart written to a file as it is shown: PNG at twice the screen resolution, or SVG.

#include <QString>

class QChart;
class QChartView;

namespace dirac::ui {

/// Writes `chart` as `view` shows it: PNG (or any raster format Qt knows) by suffix at twice the
/// screen resolution, or SVG for ".svg" (QSvgGenerator, at the screen's dpi; it ignores
/// clipping, so the chart is written without its curves, which are then drawn clipped to the
/// plot area). Returns "" on success, else the error.
QString WriteChart(QChartView& view, QChart& chart, const QString& path);

/// The one folder the export dialogs start in (Export CSV, Save screenshot, Export chart,
/// Export animation): the folder the last export of any of them went to (QSettings
/// "files/lastExportFolder"), else the user's documents, else home; never the scenario's folder
/// (the source or install tree).
QString ExportFolder();
/// Remembers the folder of `written_path` (a file, or a folder itself) for ExportFolder().
void RememberExportFolder(const QString& written_path);

}  // namespace dirac::ui
