#include "plots/plot_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QKeySequence>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "plots/axis_format.hpp"
#include "plots/chart_export.hpp"
#include "plots/chart_view.hpp"
#include "plots/curve_reduction.hpp"
#include "plots/phase_chart.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {
namespace {

QString FormatValue(double v) { return QString::number(v, 'g', 6); }

}  // namespace

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("plotPanel");
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(2);
  note_label_ = new QLabel(this);
  note_label_->setObjectName("plotPanel.note");
  note_label_->setAlignment(Qt::AlignCenter);
  note_label_->setStyleSheet(
      "QLabel { background: #e0a100; color: black; font-weight: bold; padding: 1px 6px; "
      "border-radius: 7px; font-size: 8pt; }");
  note_label_->setVisible(false);
  // An overlay on the first chart's title, outside the layout: showing or hiding it must not
  // resize (and so lay out again) every chart.
  empty_label_ = new QLabel(this);
  SetEmptyHint(QString());
  empty_label_->setObjectName("plotPanel.empty");
  empty_label_->setAlignment(Qt::AlignCenter);
  empty_label_->setEnabled(false);  // greyed: a hint, not content
  layout_->addWidget(empty_label_, 1);
}

void PlotPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  PlaceNote();
}

void PlotPanel::PlaceNote() {
  // In the first chart's top left corner, beside its centred title (not over it).
  const QSize size = note_label_->sizeHint();
  note_label_->setGeometry(4, 2, size.width(), size.height());
  note_label_->raise();
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::SetPlots(const std::vector<dirac::PlotSpec>& plots, double t_end) {
  specs_.clear();
  phase_specs_.clear();
  for (const dirac::PlotSpec& spec : plots)
    (spec.is_phase_portrait() ? phase_specs_ : specs_).push_back(spec);
  trajectory_.reset();
  t_end_ = t_end > 0.0 ? t_end : 1.0;
  Rebuild();
}

void PlotPanel::SetColumnQuantities(std::map<std::string, ColumnQuantity> quantities) {
  quantities_ = std::move(quantities);
  Rebuild();
}

void PlotPanel::SetAuxiliaryPlots(const std::vector<dirac::PlotSpec>& plots) {
  auxiliary_specs_ = plots;
  if (plots.empty()) auxiliary_trajectory_.reset();
  Rebuild();
}

QAbstractSeries* PlotPanel::CursorSeriesOf(int index) const {
  return index >= 0 && index < plot_count() ? plots_[static_cast<std::size_t>(index)]->cursor
                                            : nullptr;
}

int PlotPanel::IndexOf(const QChartView* view) const {
  for (std::size_t p = 0; p < plots_.size(); ++p) {
    if (plots_[p]->view == view) return static_cast<int>(p);
  }
  return -1;
}

void PlotPanel::Rebuild() {
  for (auto& plot : plots_) delete plot->view;  // the view owns its chart, series and axes
  plots_.clear();
  // The auxiliary charts right under the scenario's first one (its lead quantity, e.g. the
  // multiplier): turning them on keeps that chart in view beside them. Each chart goes into
  // the layout as it is built (built first and laid out after, the dock showed them squeezed).
  const std::size_t count = specs_.size() + auxiliary_specs_.size();
  const std::size_t a = auxiliary_specs_.size();
  plots_.resize(count);
  for (std::size_t shown = 0; shown < count; ++shown) {
    const std::size_t p = shown == 0 || a == 0 || specs_.empty() ? shown
                          : shown <= a                           ? specs_.size() + shown - 1
                                                                 : shown - a;
    const bool auxiliary = p >= specs_.size();
    const dirac::PlotSpec& spec = auxiliary ? auxiliary_specs_[p - specs_.size()] : specs_[p];
    plots_[p] = BuildPlot(p, spec, auxiliary, p == ShownLast());
    layout_->addWidget(plots_[p]->view, 1);
  }
  for (PhaseChart* chart : phase_charts_) delete chart;
  phase_charts_.clear();
  for (std::size_t i = 0; i < phase_specs_.size(); ++i) {
    auto* chart = new PhaseChart(static_cast<int>(i), phase_specs_[i], this);
    chart->SetColumnQuantities(quantities_);
    chart->SetCursorTime(cursor_);
    if (trajectory_) chart->SetTrajectory(trajectory_);
    layout_->addWidget(chart, 1);
    phase_charts_.push_back(chart);
  }
  empty_label_->setVisible(plots_.empty() && phase_charts_.empty());
  PlaceNote();  // above the new charts
}

QStringList PlotPanel::AvailableColumns() const {
  QStringList columns;
  if (trajectory_) {
    for (const std::string& c : trajectory_->columns()) columns << QString::fromStdString(c);
  } else {
    for (const auto& [name, quantity] : quantities_) columns << QString::fromStdString(name);
  }
  columns.removeAll(QStringLiteral("t"));
  return columns;
}

void PlotPanel::SetEmptyHint(const QString& hint) {
  empty_label_->setText(hint.isEmpty() ? tr("No charts. Right-click here to add one.") : hint);
}

bool PlotPanel::AddPlot(const QString& column) {
  if (!AvailableColumns().contains(column)) return false;
  const std::vector<dirac::PlotSpec> before = specs_;
  dirac::PlotSpec spec;
  spec.title = column.toStdString();
  spec.series = {spec.title};
  specs_.push_back(std::move(spec));
  Rebuild();
  emit chartsEdited(before);
  return true;
}

std::size_t PlotPanel::ShownLast() const {
  // The auxiliary charts follow the first one (Rebuild), so a later scenario chart ends the list.
  const std::size_t count = specs_.size() + auxiliary_specs_.size();
  return specs_.size() > 1 && !auxiliary_specs_.empty() ? specs_.size() - 1 : count - 1;
}

void PlotPanel::ReplacePlot(int index) {
  auto& slot = plots_[static_cast<std::size_t>(index)];
  const bool auxiliary = slot->auxiliary;
  const dirac::PlotSpec& spec =
      auxiliary ? auxiliary_specs_[static_cast<std::size_t>(index) - specs_.size()]
                : specs_[static_cast<std::size_t>(index)];
  std::unique_ptr<Plot> plot = BuildPlot(static_cast<std::size_t>(index), spec, auxiliary,
                                         static_cast<std::size_t>(index) == ShownLast());
  layout_->replaceWidget(slot->view, plot->view);
  delete slot->view;
  slot = std::move(plot);
  PlaceNote();
}

void PlotPanel::SetTimeSpan(double t_end) {
  if (!(t_end > 0.0) || t_end == t_end_) return;
  t_end_ = t_end;
  for (auto& plot : plots_) {
    if (!plot->zoomed) SetAxisRange(plot->x_axis, 0.0, t_end_);
  }
}

void PlotPanel::SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory) {
  trajectory_ = std::move(trajectory);
  for (auto& plot : plots_) {
    if (!plot->auxiliary) Fill(*plot);
  }
  for (PhaseChart* chart : phase_charts_) chart->SetTrajectory(trajectory_);
}

PhaseChart* PlotPanel::phase_chart(int index) const {
  return index >= 0 && index < phase_plot_count() ? phase_charts_[static_cast<std::size_t>(index)]
                                                  : nullptr;
}

void PlotPanel::SetAuxiliaryTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory) {
  auxiliary_trajectory_ = std::move(trajectory);
  for (auto& plot : plots_) {
    if (plot->auxiliary) Fill(*plot);
  }
}

void PlotPanel::SetOverlay(Overlay overlay, std::shared_ptr<const dirac::Trajectory> trajectory,
                           const QString& label) {
  OverlayData& data = overlays_[overlay];
  // Nothing changed (e.g. no comparison before nor after a run): no refill of every chart.
  if (trajectory == data.trajectory && label == data.label) return;
  const bool had = data.trajectory != nullptr;
  // Rebuild when the overlay appears, goes, is renamed or brings other columns.
  bool rebuild = had != (trajectory != nullptr) || label != data.label;
  if (!rebuild && trajectory && had && trajectory->columns() != data.trajectory->columns())
    rebuild = true;
  data.trajectory = std::move(trajectory);
  data.label = label;
  if (rebuild) {
    RebuildKeepingZoom();
    return;
  }
  for (auto& plot : plots_) {
    if (!plot->auxiliary) Fill(*plot);
  }
}

void PlotPanel::RebuildKeepingZoom() {
  std::vector<bool> zoomed;
  std::vector<std::array<double, 4>> ranges;
  for (auto& plot : plots_) {
    zoomed.push_back(plot->zoomed);
    ranges.push_back(
        {plot->x_axis->min(), plot->x_axis->max(), plot->y_axis[0]->min(), plot->y_axis[0]->max()});
  }
  Rebuild();
  for (std::size_t p = 0; p < plots_.size() && p < zoomed.size(); ++p) {
    if (zoomed[p])
      ZoomTo(static_cast<int>(p), ranges[p][0], ranges[p][1], ranges[p][2], ranges[p][3]);
  }
}

const dirac::Trajectory* PlotPanel::TrajectoryOf(const Plot& plot) const {
  return plot.auxiliary ? auxiliary_trajectory_.get() : trajectory_.get();
}

void PlotPanel::LayOutNow() {
  for (auto& plot : plots_) QCoreApplication::sendPostedEvents(plot->chart, QEvent::LayoutRequest);
}

void PlotPanel::AbsorbPaintedChanges() {
  for (auto& plot : plots_) {
    const auto mode = plot->view->viewportUpdateMode();
    plot->view->setViewportUpdateMode(QGraphicsView::NoViewportUpdate);
    QCoreApplication::sendPostedEvents(plot->chart->scene(), QEvent::MetaCall);
    plot->view->setViewportUpdateMode(mode);
  }
}

int PlotPanel::DisplayedPoints(const Plot& plot) const {
  // A zoomed chart keeps the finer decimation (its curves are not re-decimated per zoom step).
  // So does a chart not laid out yet (its resize refills it if it turns out much narrower).
  const double area = plot.chart->plotArea().width();
  if (plot.zoomed || !plot.view->isVisible() || !(area > 1.0)) return kMaxDisplayedPoints;
  return std::clamp(2 * static_cast<int>(std::ceil(area)), kMinDisplayedPoints,
                    kMaxDisplayedPoints);
}

void PlotPanel::RefillIfResolutionChanged(const QChartView* view) {
  const int index = IndexOf(view);
  if (index < 0) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  const int wanted = DisplayedPoints(plot);
  // Refill when the chart got noticeably wider (or much narrower) than its curves were decimated
  // for; a few pixels of layout jitter keep the curves.
  if (wanted > plot.displayed_points + plot.displayed_points / 10 ||
      wanted < plot.displayed_points / 2)
    Fill(plot);
}

void PlotPanel::Fill(Plot& plot) {
  const dirac::Trajectory* trajectory = TrajectoryOf(plot);
  const int max_points = DisplayedPoints(plot);
  plot.displayed_points = max_points;
  // The curves decimated for the chart's width: series s is curves[0][s], overlay o's
  // curves[1 + o][s] (absent: no such series or no such column).
  std::array<std::vector<std::optional<QList<QPointF>>>, 3> curves;
  QStringList missing;
  const std::vector<double> t =
      trajectory && !trajectory->empty() ? trajectory->Column("t") : std::vector<double>{};
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const std::string& column = plot.spec.series[s];
    if (!trajectory || !trajectory->FindColumn(column)) {
      if (trajectory) missing << QString::fromStdString(column);
      curves[0].emplace_back();
      continue;
    }
    curves[0].emplace_back(DecimateMinMax(t, trajectory->Column(column), max_points));
  }
  for (std::size_t o = 0; o < 2; ++o) {
    const dirac::Trajectory* overlay = overlays_[o].trajectory.get();
    for (std::size_t s = 0; s < plot.overlay[o].size(); ++s) {
      const bool has = plot.overlay[o][s] && overlay && !overlay->empty() &&
                       overlay->FindColumn(plot.spec.series[s]);
      curves[1 + o].push_back(
          has ? std::optional(DecimateMinMax(overlay->Column("t"),
                                             overlay->Column(plot.spec.series[s]), max_points))
              : std::nullopt);
    }
  }
  auto series_of = [&plot](std::size_t c, std::size_t s) {
    return c == 0 ? plot.series[s] : plot.overlay[c - 1][s];
  };

  // New ranges before new curves: a range change redraws every curve of the chart, so the old
  // curves go first (drawing an empty curve is free) and the new ones are drawn once.
  if (!plot.zoomed && FitRanges(plot, curves, /*apply=*/false)) {
    for (std::size_t c = 0; c < curves.size(); ++c)
      for (std::size_t s = 0; s < curves[c].size(); ++s)
        if (QLineSeries* series = series_of(c, s); series && series->count() > 0) series->clear();
    FitRanges(plot, curves, /*apply=*/true);
  }

  // Pixels per unit along each axis as filled (what DisplayedCurve simplifies with again).
  const QRectF area = plot.chart->plotArea();
  plot.pixels_per_unit = {0.0, 0.0, 0.0};
  if (!plot.zoomed && plot.view->isVisible() && area.width() > 1.0 && area.height() > 1.0) {
    plot.pixels_per_unit[0] = area.width() / (plot.x_axis->max() - plot.x_axis->min());
    for (std::size_t a = 0; a < 2; ++a)
      if (plot.y_axis[a])
        plot.pixels_per_unit[1 + a] =
            area.height() / (plot.y_axis[a]->max() - plot.y_axis[a]->min());
  }
  for (std::size_t c = 0; c < curves.size(); ++c) {
    for (std::size_t s = 0; s < curves[c].size(); ++s) {
      QLineSeries* series = series_of(c, s);
      if (!series) continue;
      if (!curves[c][s]) {
        series->clear();
        continue;
      }
      const auto axis = static_cast<std::size_t>(plot.series_axis[s]);
      series->replace(SimplifyPolyline(*curves[c][s], plot.pixels_per_unit[0],
                                       plot.pixels_per_unit[1 + axis], kCurveTolerancePixels));
    }
  }
  plot.missing = missing.join(", ");
  UpdateTitle(plot);
  UpdateCursor(plot);
  PlaceDivergenceMarks(plot);
  // New curves (and ranges) repaint the whole chart once: the graphics view's minimal updates
  // left fragments of the previous curves and tick labels on screen (seen after solves that
  // streamed several iterates). Cursor moves stay minimal updates.
  plot.view->viewport()->update();
}

bool PlotPanel::FitRanges(Plot& plot, const CurveSet& curves, bool apply) {
  bool changes = false;
  for (std::size_t a = 0; a < 2; ++a) {
    QValueAxis* axis = plot.y_axis[a];
    if (!axis) continue;
    double y_min = std::numeric_limits<double>::infinity();
    double y_max = -std::numeric_limits<double>::infinity();
    for (const auto& set : curves) {
      for (std::size_t s = 0; s < set.size(); ++s) {
        if (plot.series_axis[s] != static_cast<int>(a) || !set[s]) continue;
        for (const QPointF& p : *set[s]) {
          if (std::isfinite(p.y())) {
            y_min = std::min(y_min, p.y());
            y_max = std::max(y_max, p.y());
          }
        }
      }
    }
    if (!(y_min <= y_max)) continue;
    const bool bounded = IncludeBounds(plot, static_cast<int>(a), y_min, y_max);
    // The nice range is computed here in one step: the axis changes (and its chart lays out
    // again) only when it does, not twice on every edit.
    const NiceRange nice = NiceValueRange(y_min, y_max, bounded);
    const double lo = nice.lo, hi = nice.hi;
    const int ticks = nice.ticks;
    const QString& format = nice.format;
    const bool range_changes = axis->min() != lo || axis->max() != hi;
    changes = changes || range_changes || axis->tickType() != QValueAxis::TicksFixed ||
              axis->tickCount() != ticks || axis->labelFormat() != format;
    if (!apply) continue;
    plot.y_min[a] = lo;
    plot.y_max[a] = hi;
    if (axis->tickType() != QValueAxis::TicksFixed) axis->setTickType(QValueAxis::TicksFixed);
    if (axis->tickCount() != ticks) axis->setTickCount(ticks);
    if (range_changes) axis->setRange(lo, hi);
    if (axis->labelFormat() != format) axis->setLabelFormat(format);
  }
  const bool time_changes = plot.x_axis->min() != 0.0 || plot.x_axis->max() != t_end_;
  if (apply && time_changes) SetAxisRange(plot.x_axis, 0.0, t_end_);
  return changes || time_changes;
}

void PlotPanel::UpdateTitle(Plot& plot) {
  QString title = QString::fromStdString(plot.spec.title);
  if (!plot.missing.isEmpty()) title += tr("  (no column: %1)").arg(plot.missing);
  // On two lines where one does not fit the chart (Qt cut it: "…the first six compone...").
  const double room = plot.chart->size().width() - 40.0;
  if (room > 0.0 && QFontMetricsF(plot.chart->titleFont()).horizontalAdvance(title) > room)
    title = BrokenInTwo(title.toHtmlEscaped());
  if (title != plot.chart->title()) plot.chart->setTitle(title);  // a new title lays out again
}

void PlotPanel::SetNote(const QString& note) {
  if (note == note_) return;
  note_ = note;
  // One label above the charts: retitling every chart would lay them all out again.
  note_label_->setText(note);
  note_label_->setVisible(!note.isEmpty());
  PlaceNote();
}

void PlotPanel::SetCursorTime(double t) {
  // A jump (Reset, a seek) repaints the whole chart: the graphics view's minimal update left
  // the old dashed line behind in some charts.
  const bool jump = std::abs(t - cursor_) > 0.02 * t_end_;
  cursor_ = t;
  for (auto& plot : plots_) {
    UpdateCursor(*plot);
    if (jump) plot->view->viewport()->update();
  }
  for (PhaseChart* chart : phase_charts_) chart->SetCursorTime(t);
}

void PlotPanel::UpdateCursor(Plot& plot) {
  // Spans the left axis' shown range (zoomed or not), a little beyond so it reaches the edges.
  const double lo = plot.zoomed ? plot.y_axis[0]->min() : plot.y_min[0];
  const double hi = plot.zoomed ? plot.y_axis[0]->max() : plot.y_max[0];
  plot.cursor->replace(QList<QPointF>{QPointF(cursor_, lo), QPointF(cursor_, hi)});
}

void PlotPanel::MarkZoomed(const QChartView* view) {
  const int index = IndexOf(view);
  if (index < 0) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  const bool was_zoomed = plot.zoomed;
  plot.zoomed = true;
  // Finer curves for the magnified view (Fill keeps a zoomed chart's ranges).
  if (!was_zoomed && DisplayedPoints(plot) != plot.displayed_points) Fill(plot);
  for (QValueAxis* axis : plot.y_axis) {
    if (axis) NiceTicks(axis);
  }
  UpdateCursor(plot);
  plot.view->viewport()->update();  // see Fill
}

void PlotPanel::Zoom(int index, double factor, QPointF center, bool time, bool values) {
  if (index < 0 || index >= plot_count() || !(factor > 0.0)) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  auto scale = [factor](QValueAxis* axis, double c) {
    SetAxisRange(axis, c + (axis->min() - c) * factor, c + (axis->max() - c) * factor);
  };
  if (time) scale(plot.x_axis, center.x());
  if (values) {
    // The right axis zooms about the same relative height as the left one.
    QValueAxis* left = plot.y_axis[0];
    const double rel = (center.y() - left->min()) / (left->max() - left->min());
    scale(left, center.y());
    if (QValueAxis* right = plot.y_axis[1])
      scale(right, right->min() + rel * (right->max() - right->min()));
  }
  MarkZoomed(plot.view);
}

void PlotPanel::ZoomTo(int index, double t0, double t1, double y0, double y1) {
  if (index < 0 || index >= plot_count() || !(t1 > t0) || !(y1 > y0)) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  QValueAxis* left = plot.y_axis[0];
  if (QValueAxis* right = plot.y_axis[1]) {
    const double span = left->max() - left->min();
    const double a = (y0 - left->min()) / span, b = (y1 - left->min()) / span;
    const double r0 = right->min(), rs = right->max() - right->min();
    SetAxisRange(right, r0 + a * rs, r0 + b * rs);
  }
  SetAxisRange(plot.x_axis, t0, t1);
  SetAxisRange(left, y0, y1);
  MarkZoomed(plot.view);
}

void PlotPanel::ResetZoom(int index) {
  if (index < 0 || index >= plot_count()) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  plot.zoomed = false;
  Fill(plot);  // the curves at the unzoomed decimation, the ranges refitted
}

int PlotPanel::displayed_points(int index) const {
  if (index < 0 || index >= plot_count()) return 0;
  return plots_[static_cast<std::size_t>(index)]->displayed_points;
}

bool PlotPanel::zoomed(int index) const {
  return index >= 0 && index < plot_count() && plots_[static_cast<std::size_t>(index)]->zoomed;
}

QValueAxis* PlotPanel::axis(int index, int which) const {
  if (index < 0 || index >= plot_count()) return nullptr;
  const Plot& plot = *plots_[static_cast<std::size_t>(index)];
  if (which == 0) return plot.x_axis;
  return which == 1 || which == 2 ? plot.y_axis[static_cast<std::size_t>(which - 1)] : nullptr;
}

QStringList PlotPanel::PlotColumns(int index) const {
  QStringList out;
  if (index < 0 || index >= plot_count()) return out;
  for (const std::string& s : plots_[static_cast<std::size_t>(index)]->spec.series)
    out << QString::fromStdString(s);
  return out;
}

bool PlotPanel::AddColumn(int index, const QString& column) {
  if (index < 0 || index >= plot_count()) return false;
  std::vector<dirac::PlotSpec>& specs =
      plots_[static_cast<std::size_t>(index)]->auxiliary ? auxiliary_specs_ : specs_;
  const std::size_t at = plots_[static_cast<std::size_t>(index)]->auxiliary
                             ? static_cast<std::size_t>(index) - specs_.size()
                             : static_cast<std::size_t>(index);
  auto& series = specs[at].series;
  const std::string name = column.toStdString();
  if (std::find(series.begin(), series.end(), name) != series.end()) return false;
  const std::vector<dirac::PlotSpec> before = specs_;
  series.push_back(name);
  ReplacePlot(index);
  if (!plots_[static_cast<std::size_t>(index)]->auxiliary) emit chartsEdited(before);
  return true;
}

bool PlotPanel::RemoveColumn(int index, const QString& column) {
  if (index < 0 || index >= plot_count()) return false;
  const bool auxiliary = plots_[static_cast<std::size_t>(index)]->auxiliary;
  std::vector<dirac::PlotSpec>& specs = auxiliary ? auxiliary_specs_ : specs_;
  const std::size_t at =
      auxiliary ? static_cast<std::size_t>(index) - specs_.size() : static_cast<std::size_t>(index);
  auto& series = specs[at].series;
  const auto it = std::find(series.begin(), series.end(), column.toStdString());
  if (it == series.end()) return false;
  const std::vector<dirac::PlotSpec> before = specs_;
  series.erase(it);
  ReplacePlot(index);
  if (!auxiliary) emit chartsEdited(before);
  return true;
}

void PlotPanel::SetSeriesVisible(int index, const QString& column, bool visible) {
  if (index < 0 || index >= plot_count()) return;
  Plot& plot = *plots_[static_cast<std::size_t>(index)];
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    if (QString::fromStdString(plot.spec.series[s]) != column) continue;
    plot.series[s]->setVisible(visible);
    for (QLegendMarker* marker : plot.chart->legend()->markers(plot.series[s])) {
      marker->setVisible(true);
      QColor label = marker->labelBrush().color();
      label.setAlphaF(visible ? 1.0 : 0.35);
      marker->setLabelBrush(label);
    }
  }
}

bool PlotPanel::SeriesVisible(int index, const QString& column) const {
  if (index < 0 || index >= plot_count()) return false;
  const Plot& plot = *plots_[static_cast<std::size_t>(index)];
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    if (QString::fromStdString(plot.spec.series[s]) == column) return plot.series[s]->isVisible();
  }
  return false;
}

QString PlotPanel::Readout(int index, double t) const {
  if (index < 0 || index >= plot_count()) return {};
  const Plot& plot = *plots_[static_cast<std::size_t>(index)];
  const dirac::Trajectory* trajectory = TrajectoryOf(plot);
  if (!trajectory || trajectory->empty()) return tr("t = %1 s").arg(FormatValue(t));
  const std::size_t row = trajectory->RowAtTime(t);
  QStringList lines{tr("t = %1 s").arg(FormatValue(trajectory->at(row, 0)))};
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    if (!plot.series[s]->isVisible()) continue;
    const std::string& column = plot.spec.series[s];
    const auto c = trajectory->FindColumn(column);
    if (!c) continue;
    QString line = QStringLiteral("%1 = %2").arg(QString::fromStdString(column),
                                                 FormatValue(trajectory->at(row, *c)));
    if (const auto q = quantities_.find(column); q != quantities_.end() && !q->second.unit.empty())
      line += " " + QString::fromStdString(q->second.unit);
    lines << line;
  }
  return lines.join('\n');
}

int PlotPanel::FindPlot(const QString& title) const {
  for (std::size_t p = 0; p < plots_.size(); ++p) {
    if (QString::fromStdString(plots_[p]->spec.title) == title) return static_cast<int>(p);
  }
  return -1;
}

QChart* PlotPanel::chart(int plot) const {
  return plot >= 0 && plot < plot_count() ? plots_[static_cast<std::size_t>(plot)]->chart : nullptr;
}

QLineSeries* PlotPanel::FindSeries(const QString& object_name) const {
  for (const auto& plot : plots_) {
    for (QAbstractSeries* series : plot->chart->series()) {
      if (series->objectName() == object_name) return qobject_cast<QLineSeries*>(series);
    }
  }
  return nullptr;
}

QList<QPointF> PlotPanel::DisplayedCurve(int plot, int series, const std::vector<double>& t,
                                         const std::vector<double>& y) const {
  if (plot < 0 || plot >= plot_count()) return {};
  const Plot& p = *plots_[static_cast<std::size_t>(plot)];
  if (series < 0 || series >= static_cast<int>(p.series.size())) return {};
  const auto axis = static_cast<std::size_t>(p.series_axis[static_cast<std::size_t>(series)]);
  return SimplifyPolyline(DecimateMinMax(t, y, p.displayed_points), p.pixels_per_unit[0],
                          p.pixels_per_unit[1 + axis], kCurveTolerancePixels);
}

QList<QPointF> PlotPanel::SeriesPoints(int plot, int series) const {
  if (plot < 0 || plot >= plot_count()) return {};
  const Plot& p = *plots_[static_cast<std::size_t>(plot)];
  if (series < 0 || series >= static_cast<int>(p.series.size())) return {};
  return p.series[static_cast<std::size_t>(series)]->points();
}

}  // namespace dirac::ui
