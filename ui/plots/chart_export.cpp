#include "plots/chart_export.hpp"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTransform>

#include <utility>
#include <vector>

#include "plots/chart_view.hpp"
#include "plots/curve_reduction.hpp"
#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"
#include "plots/svg_export.hpp"

namespace dirac::ui {

QString WriteChart(QChartView& view, QChart& chart, const QString& path) {
  const QSize size = view.size();
  if (QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0) {
    // QSvgGenerator (Qt 6.4) ignores clipping: the curves of a zoomed chart ran out of the plot
    // area. The chart is written without its curves, which are then drawn clipped to it.
    std::vector<std::pair<QLegendMarker*, bool>> markers;
    for (QLegendMarker* marker : chart.legend()->markers())
      markers.emplace_back(marker, marker->isVisible());
    std::vector<QLineSeries*> curves;
    for (QAbstractSeries* series : chart.series()) {
      auto* line = qobject_cast<QLineSeries*>(series);
      if (line && line->isVisible()) curves.push_back(line);
    }
    for (QLineSeries* line : curves) line->setVisible(false);
    for (const auto& [marker, visible] : markers) marker->setVisible(visible);  // entries stay
    const QString error = RenderWidgetToSvg(view, path, chart.title(), [&](QPainter& painter) {
      const QTransform to_view =
          view.viewportTransform() *
          QTransform::fromTranslate(view.viewport()->x(), view.viewport()->y());
      const QRectF area = to_view.mapRect(chart.mapRectToScene(chart.plotArea()));
      painter.setRenderHint(QPainter::Antialiasing);
      for (QLineSeries* line : curves) {
        QList<QPointF> points;
        points.reserve(line->count());
        for (const QPointF& p : line->points())
          points.append(to_view.map(chart.mapToScene(chart.mapToPosition(p, line))));
        painter.setPen(line->pen());
        for (const QList<QPointF>& piece : ClipPolyline(points, area))
          painter.drawPolyline(piece.constData(), static_cast<int>(piece.size()));
      }
    });
    for (QLineSeries* line : curves) line->setVisible(true);
    for (const auto& [marker, visible] : markers) marker->setVisible(visible);
    return error;
  }
  QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);  // twice the screen resolution
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    view.render(&painter, QRectF(QPointF(0, 0), size * 2), view.rect());
  }
  if (!image.save(path))
    return QCoreApplication::translate("PlotPanel", "cannot write %1").arg(path);
  return {};
}

QString PlotPanel::ExportChart(int index, const QString& path) const {
  if (index < 0 || index >= plot_count()) return tr("no chart %1").arg(index);
  const Plot& plot = *plots_[static_cast<std::size_t>(index)];
  HideReadout(plot.view);
  // An exported chart stands on its own: its time axis is titled ("t [s]") even where the
  // window names it only under the last chart.
  const bool time_title = plot.x_axis->isTitleVisible();
  auto lay_out = [&plot] {
    if (plot.chart->layout()) plot.chart->layout()->activate();
  };
  if (!time_title) {
    plot.x_axis->setTitleVisible(true);
    lay_out();
  }
  const QString error = WriteChart(*plot.view, *plot.chart, path);
  if (!time_title) {
    plot.x_axis->setTitleVisible(false);
    lay_out();
  }
  return error;
}

QString ExportFolder() {
  QString folder = QSettings().value("files/lastExportFolder").toString();
  if (folder.isEmpty() || !QFileInfo(folder).isDir())
    folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
  return folder;
}

void RememberExportFolder(const QString& written_path) {
  const QFileInfo info(written_path);
  QSettings().setValue("files/lastExportFolder",
                       info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString PlotPanel::ExportFolder() const { return dirac::ui::ExportFolder(); }

void PlotPanel::ExportDialog(int index, const QString& suffix) {
  const QString title =
      index >= 0 && index < plot_count()
          ? QString::fromStdString(plots_[static_cast<std::size_t>(index)]->spec.title)
          : QStringLiteral("chart");
  QString base = title;
  base.replace(QRegularExpression("[^A-Za-z0-9_-]+"), "_");
  const QString start = ExportFolder() + "/" + base + "." + suffix;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export chart"), start,
      suffix == "svg" ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  RememberExportFolder(path);
  if (const QString error = ExportChart(index, path); !error.isEmpty())
    emit errorOccurred(tr("Chart export failed: %1").arg(error));
}

}  // namespace dirac::ui
