// Copy of a chart (Ctrl+C, the context menu's Copy): its image and its visible data as CSV
// (chart_clipboard.hpp); PlotPanel::VisibleCsv and PlotPanel::CopyChart.
#include "plots/chart_clipboard.hpp"

#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QMimeData>
#include <QPixmap>
#include <QValueAxis>
#include <QWidget>

#include <charconv>

#include "plots/chart_view.hpp"
#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {

QMimeData* ChartMimeData(const QImage& image, const QString& csv) {
  auto* data = new QMimeData();
  data->setImageData(image);
  data->setData(QStringLiteral("text/csv"), csv.toUtf8());
  data->setText(csv);
  return data;
}

QString CsvNumber(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return QString::fromLatin1(buffer, static_cast<qsizetype>(end - buffer));
}

QString CsvLine(const std::vector<double>& values) {
  QStringList cells;
  for (const double v : values) cells << CsvNumber(v);
  return cells.join(',') + '\n';
}

QImage WidgetImage(QWidget& widget) { return widget.grab().toImage(); }

void CopyToClipboard(const QImage& image, const QString& csv) {
  QApplication::clipboard()->setMimeData(ChartMimeData(image, csv));
}

QString PlotPanel::VisibleCsv(int index) const {
  if (index < 0 || index >= plot_count()) return {};
  const Plot& plot = *plots_[static_cast<std::size_t>(index)];
  const dirac::Trajectory* trajectory = TrajectoryOf(plot);
  if (!trajectory || trajectory->empty()) return {};
  // The curves shown (not hidden from the legend) of columns the run has, over the time axis'
  // shown range.
  std::vector<std::size_t> columns{0};
  QStringList header{QStringLiteral("t")};
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const auto c = trajectory->FindColumn(plot.spec.series[s]);
    if (!c || !plot.series[s]->isVisible()) continue;
    columns.push_back(*c);
    header << QString::fromStdString(plot.spec.series[s]);
  }
  QString csv = header.join(',') + '\n';
  const double t0 = plot.x_axis->min(), t1 = plot.x_axis->max();
  std::vector<double> values(columns.size());
  for (std::size_t r = 0; r < trajectory->num_rows(); ++r) {
    const double t = trajectory->at(r, 0);
    if (t < t0 || t > t1) continue;
    for (std::size_t k = 0; k < columns.size(); ++k) values[k] = trajectory->at(r, columns[k]);
    csv += CsvLine(values);
  }
  return csv;
}

void PlotPanel::CopyChart(int index) {
  if (index < 0 || index >= plot_count()) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  HideReadout(plot.view);
  CopyToClipboard(WidgetImage(*plot.view), VisibleCsv(index));
}

}  // namespace dirac::ui
