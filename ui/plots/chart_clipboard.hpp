#pragma once
/// @file chart_clipboard.hpp
/// What Copy (Ctrl+C) puts on the clipboard for a chart: its image and the data it shows as CSV
/// text, in one QMimeData (image/png through setImageData, "text/csv" and text/plain), so that
/// an image editor pastes the picture and a spreadsheet or editor the numbers.

#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

class QMimeData;
class QWidget;

namespace dirac::ui {

/// A new QMimeData (the clipboard takes ownership) holding `image` and `csv`.
QMimeData* ChartMimeData(const QImage& image, const QString& csv);
/// `value` as the CSV files write it: the shortest text that reads back as the same double.
QString CsvNumber(double value);
/// One CSV line of `values`.
QString CsvLine(const std::vector<double>& values);
/// `widget` as shown, at its device pixel ratio (what Copy puts as the image).
QImage WidgetImage(QWidget& widget);
/// Puts `image` and `csv` on the system clipboard.
void CopyToClipboard(const QImage& image, const QString& csv);

}  // namespace dirac::ui
