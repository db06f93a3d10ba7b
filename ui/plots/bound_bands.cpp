// The bounds of an optimal-control problem in the charts (PlotPanel::SetBounds and the members
// that build and place its items; plot_panel.hpp): dashed lines at a bounded series' min and
// max (in the series' colour where the other curves have another bound or none), the side no
// curve of the axis may reach lightly shaded up to the axis' edge, and the stretches on
// which the run sits on a bound (its solve's active arcs) drawn thick along the bound.
#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {
namespace {

// Dark red dashed lines (the colour plots of MATLAB and CasADi users give limits), the
// inadmissible side a light wash of it.
const QColor kBoundLineColor(170, 40, 40);
const QColor kBandColor(200, 40, 40, 26);
// The first series' stretches widest, the next ones narrower on top: where two series sit on
// the same bound at once (u1 and u3 at +50), both colours show.
constexpr double kActiveWidths[] = {8.0, 5.0, 2.5};  // [px]
constexpr int kActiveAlpha = 150;
const char* const kSide[] = {"min", "max"};

const dirac::VariableBound* FindBound(const std::vector<dirac::VariableBound>& bounds,
                                      const std::string& name) {
  for (const dirac::VariableBound& b : bounds)
    if (b.name == name) return &b;
  return nullptr;
}

// Which sides are bounded, by name: the chart items to build (their values may change).
std::vector<std::tuple<std::string, bool, bool>> Sides(
    const std::vector<dirac::VariableBound>& bounds) {
  std::vector<std::tuple<std::string, bool, bool>> sides;
  for (const dirac::VariableBound& b : bounds)
    sides.emplace_back(b.name, std::isfinite(b.min), std::isfinite(b.max));
  std::sort(sides.begin(), sides.end());
  return sides;
}

bool SameArcs(const std::vector<dirac::ActiveArc>& a, const std::vector<dirac::ActiveArc>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.name == y.name && x.upper == y.upper && x.t_begin == y.t_begin && x.t_end == y.t_end;
  });
}

QLineSeries* NewLine(QChart* chart, const QString& name, const QPen& pen) {
  auto* line = new QLineSeries(chart);
  line->setObjectName(name);
  line->setPen(pen);
  return line;
}

void Attach(QChart* chart, QAbstractSeries* series, QValueAxis* x, QValueAxis* y) {
  chart->addSeries(series);
  series->attachAxis(x);
  series->attachAxis(y);
  HideFromLegend(chart, series);
}

}  // namespace

void PlotPanel::SetBounds(std::vector<dirac::VariableBound> bounds,
                          std::vector<dirac::ActiveArc> active) {
  const bool rebuild = Sides(bounds) != Sides(bounds_);
  const bool arcs_changed = !SameArcs(active, active_);
  bounds_ = std::move(bounds);
  active_ = std::move(active);
  if (rebuild) {
    RebuildKeepingZoom();
    return;
  }
  for (auto& plot : plots_) {
    bool values_changed = false;
    for (std::size_t s = 0; s < plot->bounds.size(); ++s) {
      BoundItems& items = plot->bounds[s];
      const dirac::VariableBound* b = FindBound(bounds_, plot->spec.series[s]);
      if (!b || (b->min == items.min && b->max == items.max)) continue;
      items.min = b->min;
      items.max = b->max;
      values_changed = true;
    }
    if (values_changed) Fill(*plot);  // the value axes make room for the moved bound
    if (values_changed || arcs_changed) {
      PlaceBoundItems(*plot);
      DrawActiveStretches(*plot);
    }
  }
}

void PlotPanel::AddBoundItems(Plot& plot, const QString& chart_id) {
  plot.bounds.assign(plot.spec.series.size(), BoundItems{});
  if (plot.auxiliary) return;
  QPen line_pen(kBoundLineColor);
  line_pen.setWidthF(1.2);
  line_pen.setStyle(Qt::DashLine);
  bool any = false;
  for (std::size_t s = 0; s < plot.spec.series.size(); ++s) {
    const dirac::VariableBound* b = FindBound(bounds_, plot.spec.series[s]);
    if (!b) continue;
    BoundItems& items = plot.bounds[s];
    items.min = b->min;
    items.max = b->max;
    QValueAxis* y = plot.y_axis[static_cast<std::size_t>(plot.series_axis[s])];
    const QString id = chart_id + "." + QString::fromStdString(plot.spec.series[s]);
    for (int side = 0; side < 2; ++side) {
      if (!std::isfinite(side == 0 ? b->min : b->max)) continue;
      any = true;
      // The band first: the dashed line and the curves are drawn over it.
      auto* band = new QAreaSeries(plot.chart);
      band->setObjectName(id + ".band." + kSide[side]);
      band->setUpperSeries(new QLineSeries(band));
      band->setLowerSeries(new QLineSeries(band));
      band->setPen(Qt::NoPen);
      band->setBrush(kBandColor);
      Attach(plot.chart, band, plot.x_axis, y);
      items.band[static_cast<std::size_t>(side)] = band;
      QLineSeries* line = NewLine(plot.chart, id + ".bound." + kSide[side], line_pen);
      Attach(plot.chart, line, plot.x_axis, y);
      items.line[static_cast<std::size_t>(side)] = line;
    }
  }
  if (!any) return;
  // The lines span the time axis and the bands reach the value axis' edge, whatever the view.
  Plot* raw = &plot;
  auto place = [this, raw] { PlaceBoundItems(*raw); };
  connect(plot.x_axis, &QValueAxis::rangeChanged, plot.chart, place);
  for (QValueAxis* axis : plot.y_axis)
    if (axis) connect(axis, &QValueAxis::rangeChanged, plot.chart, place);
}

bool PlotPanel::IsBoundItem(const Plot& plot, const QAbstractSeries* series) {
  for (const BoundItems& items : plot.bounds) {
    for (std::size_t side = 0; side < 2; ++side)
      if (series == items.line[side] || series == items.band[side]) return true;
    if (std::find(items.active.begin(), items.active.end(), series) != items.active.end())
      return true;
  }
  return false;
}

void PlotPanel::PlaceBoundItems(Plot& plot) {
  const double x0 = plot.x_axis->min(), x1 = plot.x_axis->max();
  for (std::size_t s = 0; s < plot.bounds.size(); ++s) {
    BoundItems& items = plot.bounds[s];
    const QValueAxis* y = plot.y_axis[static_cast<std::size_t>(plot.series_axis[s])];
    const double lo = y->min(), hi = y->max();
    for (std::size_t side = 0; side < 2; ++side) {
      if (!items.line[side]) continue;
      const double v = side == 0 ? items.min : items.max;
      // Series sharing a bound (u1, u2, u3 in [-50, 50]) show one line and one band: stacked,
      // the translucent bands darkened.
      bool shown_before = false;
      for (std::size_t e = 0; e < s; ++e)
        shown_before = shown_before ||
                       (plot.series_axis[e] == plot.series_axis[s] && plot.bounds[e].line[side] &&
                        (side == 0 ? plot.bounds[e].min : plot.bounds[e].max) == v);
      // The band shades what no curve of the axis may reach: beyond the loosest bound of its
      // side, and only when every curve on the axis has one there (a bound of u3 alone must
      // not make a free u1 look out of bounds). A line that is not every curve's bound takes
      // its curve's colour.
      bool all_bounded = true, all_same = true;
      double loosest = v;
      for (std::size_t e = 0; e < plot.bounds.size(); ++e) {
        if (plot.series_axis[e] != plot.series_axis[s]) continue;
        const double w = side == 0 ? plot.bounds[e].min : plot.bounds[e].max;
        if (!plot.bounds[e].line[side]) {
          all_bounded = all_same = false;
          continue;
        }
        all_same = all_same && w == v;
        loosest = side == 0 ? std::min(loosest, w) : std::max(loosest, w);
      }
      const bool band_shown = !shown_before && all_bounded && loosest == v;
      for (const auto& [item, shown] :
           {std::pair{static_cast<QAbstractSeries*>(items.line[side]), !shown_before},
            std::pair{static_cast<QAbstractSeries*>(items.band[side]), band_shown}}) {
        if (item->isVisible() == shown) continue;
        item->setVisible(shown);
        HideFromLegend(plot.chart, item);  // a series shown again shows its legend entry
      }
      QPen pen = items.line[side]->pen();
      const QColor color =
          all_same || s >= plot.series.size() ? kBoundLineColor : plot.series[s]->pen().color();
      if (pen.color() != color) {
        pen.setColor(color);
        items.line[side]->setPen(pen);
      }
      items.line[side]->replace({QPointF(x0, v), QPointF(x1, v)});
      // From the bound (kept inside the axis: QSvgGenerator draws areas unclipped) outwards to
      // the axis' edge.
      const double inner = std::clamp(v, lo, hi), outer = side == 0 ? lo : hi;
      items.band[side]->upperSeries()->replace(
          {QPointF(x0, std::max(inner, outer)), QPointF(x1, std::max(inner, outer))});
      items.band[side]->lowerSeries()->replace(
          {QPointF(x0, std::min(inner, outer)), QPointF(x1, std::min(inner, outer))});
    }
  }
}

void PlotPanel::DrawActiveStretches(Plot& plot) {
  for (std::size_t s = 0; s < plot.bounds.size(); ++s) {
    BoundItems& items = plot.bounds[s];
    for (QLineSeries* old : items.active) {
      plot.chart->removeSeries(old);
      delete old;
    }
    items.active.clear();
    if (!items.line[0] && !items.line[1]) continue;
    QColor color = plot.series[s]->pen().color();
    color.setAlpha(kActiveAlpha);
    QPen pen(color);
    pen.setWidthF(kActiveWidths[s % std::size(kActiveWidths)]);
    pen.setCapStyle(Qt::FlatCap);  // ends at the stretch's node times
    const QString id = plot.series[s]->objectName() + ".active.";
    QValueAxis* y = plot.y_axis[static_cast<std::size_t>(plot.series_axis[s])];
    for (const dirac::ActiveArc& arc : active_) {
      if (arc.name != plot.spec.series[s]) continue;
      const double v = arc.upper ? items.max : items.min;
      if (!std::isfinite(v)) continue;
      QLineSeries* line =
          NewLine(plot.chart, id + QString::number(static_cast<int>(items.active.size())), pen);
      line->replace({QPointF(arc.t_begin, v), QPointF(arc.t_end, v)});
      Attach(plot.chart, line, plot.x_axis, y);
      items.active.push_back(line);
    }
  }
}

bool PlotPanel::IncludeBounds(const Plot& plot, int axis, double& y_min, double& y_max) {
  if (!(y_min <= y_max)) return false;
  // A bound far from the data (x <= 1000 of a motion within [0, 1]) would squash the curves.
  const double reach =
      3.0 * std::max(y_max - y_min, 1e-12 * std::max(std::abs(y_min), std::abs(y_max)));
  bool any = false;
  for (std::size_t s = 0; s < plot.bounds.size(); ++s) {
    const BoundItems& items = plot.bounds[s];
    if (plot.series_axis[s] != axis) continue;
    for (std::size_t side = 0; side < 2; ++side) {
      const double v = side == 0 ? items.min : items.max;
      if (!items.line[side] || v < y_min - reach || v > y_max + reach) continue;
      y_min = std::min(y_min, v);
      y_max = std::max(y_max, v);
      any = true;
    }
  }
  return any;
}

}  // namespace dirac::ui
