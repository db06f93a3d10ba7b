#include "plots/chart_export.hpp"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QTransform>

#include <utility>
#include <vector>

#include "plots/curve_reduction.hpp"
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

}  // namespace dirac::ui
