// Stacked charts that share their plot areas' left and right edges (the member AlignPlotAreas
// of PlotPanel; plot_panel.hpp): each chart's margins grow by what its axes leave less than the
// widest, so one time reads at one x in every chart.
#include <QChart>
#include <QChartView>
#include <QMetaObject>

#include <algorithm>
#include <cmath>
#include <vector>

#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {

void PlotPanel::ScheduleAlignment() {
  if (align_pending_) return;
  align_pending_ = true;
  QMetaObject::invokeMethod(
      this, [this] { AlignPlotAreas(); }, Qt::QueuedConnection);
}

void PlotPanel::SettleLayout() {
  for (int round = 0; round < 8; ++round) {
    LayOutNow();
    if (!align_pending_) break;
    AlignPlotAreas();  // the queued call finds nothing left to do
  }
}

void PlotPanel::AlignPlotAreas() {
  align_pending_ = false;
  struct Edges {
    QChart* chart;
    double left, right;  // what the axes take without the alignment's extra margin
  };
  std::vector<Edges> edges;
  double left = 0.0, right = 0.0;
  for (const auto& plot : plots_) {
    QChart* chart = plot->chart;
    const QRectF area = chart->plotArea();
    if (!plot->view->isVisible() || area.width() <= 0.0) continue;
    const QMargins m = chart->margins();
    const double l = area.left() - (m.left() - kChartMargins.left());
    const double r = chart->size().width() - area.right() - (m.right() - kChartMargins.right());
    edges.push_back({chart, l, r});
    left = std::max(left, l);
    right = std::max(right, r);
  }
  for (const Edges& e : edges) {
    const QMargins m(kChartMargins.left() + static_cast<int>(std::lround(left - e.left)),
                     kChartMargins.top(),
                     kChartMargins.right() + static_cast<int>(std::lround(right - e.right)),
                     kChartMargins.bottom());
    if (e.chart->margins() != m) e.chart->setMargins(m);
  }
}

}  // namespace dirac::ui
