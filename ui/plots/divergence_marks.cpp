// A run that diverged (SimulationReport::diverged_at) in the charts (PlotPanel::SetDivergedAt
// and the member that places its marks; plot_panel.hpp): a solid red line at the time it left
// its bound and the rest of the time axis washed in red, so that what follows is not read as a
// result.
#include <QAreaSeries>
#include <QBrush>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {
namespace {

const QColor kDivergedLineColor(200, 30, 30);
const QColor kDivergedBandColor(200, 30, 30, 30);

}  // namespace

void PlotPanel::SetDivergedAt(std::optional<double> t) {
  if (t == diverged_at_) return;
  diverged_at_ = t;
  for (auto& plot : plots_) {
    if (!plot->auxiliary) PlaceDivergenceMarks(*plot);
  }
}

void PlotPanel::PlaceDivergenceMarks(Plot& plot) {
  const bool wanted = diverged_at_.has_value() && !plot.auxiliary;
  if (!wanted) {
    if (plot.diverged) {
      plot.chart->removeSeries(plot.diverged_band);
      plot.chart->removeSeries(plot.diverged);
      delete plot.diverged_band;  // owns its two boundary lines
      delete plot.diverged;
      plot.diverged_band = nullptr;
      plot.diverged = nullptr;
    }
    return;
  }
  const QString id = plot.view->objectName();  // "plot.<i>"
  if (!plot.diverged) {
    auto* upper = new QLineSeries(plot.chart);
    auto* lower = new QLineSeries(plot.chart);
    plot.diverged_band = new QAreaSeries(upper, lower);
    plot.diverged_band->setObjectName(id + ".diverged.band");
    plot.diverged_band->setPen(Qt::NoPen);
    plot.diverged_band->setBrush(kDivergedBandColor);
    plot.chart->addSeries(plot.diverged_band);
    plot.diverged_band->attachAxis(plot.x_axis);
    plot.diverged_band->attachAxis(plot.y_axis[0]);
    HideFromLegend(plot.chart, plot.diverged_band);

    plot.diverged = new QLineSeries(plot.chart);
    plot.diverged->setObjectName(id + ".diverged");
    QPen pen(kDivergedLineColor);
    pen.setWidthF(2.0);
    plot.diverged->setPen(pen);
    plot.chart->addSeries(plot.diverged);
    plot.diverged->attachAxis(plot.x_axis);
    plot.diverged->attachAxis(plot.y_axis[0]);
    HideFromLegend(plot.chart, plot.diverged);
  }
  // Across the left axis' shown range, like the time cursor; the band to the end of the run.
  const double lo = plot.zoomed ? plot.y_axis[0]->min() : plot.y_min[0];
  const double hi = plot.zoomed ? plot.y_axis[0]->max() : plot.y_max[0];
  const double t = *diverged_at_;
  const double end = std::max(t, t_end_);
  plot.diverged->replace(QList<QPointF>{QPointF(t, lo), QPointF(t, hi)});
  plot.diverged_band->upperSeries()->replace(QList<QPointF>{QPointF(t, hi), QPointF(end, hi)});
  plot.diverged_band->lowerSeries()->replace(QList<QPointF>{QPointF(t, lo), QPointF(end, lo)});
}

}  // namespace dirac::ui
