// Stacked charts that share their plot areas' left and right edges (the member AlignPlotAreas
// of PlotPanel; plot_panel.hpp): each chart's margins grow by what its axes leave less than the
// widest, so one time reads at one x in every chart.
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QMetaObject>

#include <algorithm>
#include <cmath>
#include <utility>
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
  // The widgets' own layouts first (the dock, the scroll area, the charts' views): a chart is
  // laid out for its final size only once its view has it.
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  // Then the charts and their alignment, always (not only when one is pending: a picture must
  // not depend on what the event loop happened to run before it), until a round moves nothing.
  for (int round = 0; round < 8; ++round) {
    LayOutNow();
    const bool moved = AlignPlotAreas();
    LayOutNow();
    if (!moved && !align_pending_) break;
  }
}

bool PlotPanel::LaidOut() const {
  for (const auto& plot : plots_) {
    if (!plot->view->isVisible()) continue;
    QGraphicsLayout* layout = plot->chart->layout();
    if ((layout && !layout->isActivated()) || plot->chart->size() != QSizeF(plot->view->size()))
      return false;
  }
  return !align_pending_ && AlignmentMargins().empty();
}

std::vector<std::pair<QChart*, QMargins>> PlotPanel::AlignmentMargins() const {
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
  std::vector<std::pair<QChart*, QMargins>> changes;
  for (const Edges& e : edges) {
    const QMargins m(kChartMargins.left() + static_cast<int>(std::lround(left - e.left)),
                     kChartMargins.top(),
                     kChartMargins.right() + static_cast<int>(std::lround(right - e.right)),
                     kChartMargins.bottom());
    if (e.chart->margins() != m) changes.emplace_back(e.chart, m);
  }
  return changes;
}

bool PlotPanel::AlignPlotAreas() {
  align_pending_ = false;
  const auto changes = AlignmentMargins();
  for (const auto& [chart, margins] : changes) chart->setMargins(margins);
  return !changes.empty();
}

}  // namespace dirac::ui
