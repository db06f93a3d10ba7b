#include "plot_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

#include "scene_kit.hpp"

namespace dirac::ui {
namespace {

// Series colours: distinguishable, print-friendly (Okabe–Ito palette without orange, which the
// 3D view reserves for the particle).
const QColor kSeriesColors[] = {QColor(0, 114, 178),  QColor(0, 158, 115), QColor(204, 121, 167),
                                QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66)};

// A printf format that tells ticks `interval` apart for values up to `max_abs`: fixed-point for
// moderate magnitudes, scientific for very large or very small ones.
QString TickFormat(double max_abs, double interval) {
  if (!(interval > 0.0)) return QStringLiteral("%.6g");
  const int interval_exponent = static_cast<int>(std::floor(std::log10(interval)));
  if (max_abs >= 1e5 || (max_abs > 0.0 && max_abs < 1e-3)) {
    const int value_exponent = static_cast<int>(std::floor(std::log10(max_abs)));
    return QStringLiteral("%.%1e").arg(std::clamp(value_exponent - interval_exponent, 1, 12));
  }
  return QStringLiteral("%.%1f").arg(std::clamp(-interval_exponent, 0, 12));
}

void SetTimeAxis(QValueAxis* axis, double t_end) {
  axis->setRange(0.0, t_end);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0.0);
  axis->setTickInterval(NiceStep(t_end / 5.0));  // about five ticks
  axis->setLabelFormat("%g");
}

}  // namespace

struct PlotPanel::Plot {
  dirac::PlotSpec spec;
  bool auxiliary = false;  // reads auxiliary_trajectory_
  QChartView* view = nullptr;
  QChart* chart = nullptr;
  QValueAxis* x_axis = nullptr;
  QValueAxis* y_axis = nullptr;
  std::vector<QLineSeries*> series;
  QLineSeries* cursor = nullptr;
  double y_min = -1.0, y_max = 1.0;
  QString missing;  // columns the trajectory lacks
};

QList<QPointF> DecimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                              int max_points) {
  const std::size_t n = std::min(x.size(), y.size());
  QList<QPointF> points;
  if (n <= static_cast<std::size_t>(std::max(max_points, 2))) {
    points.reserve(static_cast<qsizetype>(n));
    for (std::size_t i = 0; i < n; ++i) points.append(QPointF(x[i], y[i]));
    return points;
  }
  const std::size_t buckets = static_cast<std::size_t>(max_points / 2);
  points.reserve(static_cast<qsizetype>(2 * buckets + 1));
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = b * n / buckets;
    const std::size_t end = (b + 1) * n / buckets;
    std::size_t lo = begin, hi = begin;
    for (std::size_t i = begin; i < end; ++i) {
      if (y[i] < y[lo]) lo = i;
      if (y[i] > y[hi]) hi = i;
    }
    const std::size_t first = std::min(lo, hi), second = std::max(lo, hi);
    points.append(QPointF(x[first], y[first]));
    if (second != first) points.append(QPointF(x[second], y[second]));
  }
  if (points.last().x() != x[n - 1]) points.append(QPointF(x[n - 1], y[n - 1]));
  return points;
}

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("plotPanel");
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(2);
  note_label_ = new QLabel(this);
  note_label_->setObjectName("plotPanel.note");
  note_label_->setAlignment(Qt::AlignCenter);
  note_label_->setStyleSheet(
      "QLabel { background: #e0a100; color: black; font-weight: bold; padding: 2px 10px; "
      "border-radius: 8px; }");
  note_label_->setVisible(false);
  // An overlay on the first chart's title, outside the layout: showing or hiding it must not
  // resize (and so lay out again) every chart.
}

void PlotPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  PlaceNote();
}

void PlotPanel::PlaceNote() {
  const QSize size = note_label_->sizeHint();
  note_label_->setGeometry((width() - size.width()) / 2, 2, size.width(), size.height());
  note_label_->raise();
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::SetPlots(const std::vector<dirac::PlotSpec>& plots, double t_end) {
  specs_ = plots;
  trajectory_.reset();
  t_end_ = t_end > 0.0 ? t_end : 1.0;
  Rebuild();
}

void PlotPanel::SetAuxiliaryPlots(const std::vector<dirac::PlotSpec>& plots) {
  auxiliary_specs_ = plots;
  if (plots.empty()) auxiliary_trajectory_.reset();
  Rebuild();
}

void PlotPanel::Rebuild() {
  for (auto& plot : plots_) delete plot->view;  // the view owns its chart, series and axes
  plots_.clear();

  std::vector<dirac::PlotSpec> plots = specs_;
  plots.insert(plots.end(), auxiliary_specs_.begin(), auxiliary_specs_.end());
  for (std::size_t p = 0; p < plots.size(); ++p) {
    auto plot = std::make_unique<Plot>();
    plot->spec = plots[p];
    plot->auxiliary = p >= specs_.size();
    const QString id = QStringLiteral("plot.%1").arg(p);

    plot->chart = new QChart();
    plot->chart->setObjectName(id + ".chart");
    plot->chart->setTitle(QString::fromStdString(plots[p].title));
    QFont title_font = plot->chart->titleFont();
    title_font.setBold(true);
    plot->chart->setTitleFont(title_font);
    plot->chart->setMargins(QMargins(4, 4, 8, 4));
    plot->chart->setBackgroundRoundness(0);
    plot->chart->setAnimationOptions(QChart::NoAnimation);
    plot->chart->legend()->setAlignment(Qt::AlignTop);

    plot->x_axis = new QValueAxis(plot->chart);
    plot->x_axis->setTitleText(QStringLiteral("t [s]"));
    // The charts share one time axis: name it once, under the last chart, to save height.
    plot->x_axis->setTitleVisible(p + 1 == plots.size());
    SetTimeAxis(plot->x_axis, t_end_);
    plot->y_axis = new QValueAxis(plot->chart);
    QStringList names;
    for (const std::string& s : plots[p].series) names << QString::fromStdString(s);
    plot->y_axis->setTitleText(names.join(QStringLiteral(", ")));
    plot->y_axis->setLabelFormat("%.6g");
    plot->y_axis->setTickCount(5);
    plot->chart->addAxis(plot->x_axis, Qt::AlignBottom);
    plot->chart->addAxis(plot->y_axis, Qt::AlignLeft);

    for (std::size_t s = 0; s < plots[p].series.size(); ++s) {
      auto* series = new QLineSeries(plot->chart);
      series->setObjectName(id + "." + names[static_cast<qsizetype>(s)]);
      series->setName(names[static_cast<qsizetype>(s)]);
      QPen pen(kSeriesColors[s % std::size(kSeriesColors)]);
      pen.setWidthF(1.8);
      series->setPen(pen);
      plot->chart->addSeries(series);
      series->attachAxis(plot->x_axis);
      series->attachAxis(plot->y_axis);
      plot->series.push_back(series);
    }

    plot->cursor = new QLineSeries(plot->chart);
    plot->cursor->setObjectName(id + ".cursor");
    QPen cursor_pen(QColor(230, 120, 0));
    cursor_pen.setWidthF(1.2);
    cursor_pen.setStyle(Qt::DashLine);
    plot->cursor->setPen(cursor_pen);
    plot->chart->addSeries(plot->cursor);
    plot->cursor->attachAxis(plot->x_axis);
    plot->cursor->attachAxis(plot->y_axis);
    for (QLegendMarker* marker : plot->chart->legend()->markers(plot->cursor))
      marker->setVisible(false);
    plot->chart->legend()->setVisible(plot->series.size() > 1);

    plot->view = new QChartView(plot->chart, this);
    plot->view->setObjectName(id);
    plot->view->setRenderHint(QPainter::Antialiasing);
    plot->view->setMinimumHeight(160);
    layout_->addWidget(plot->view, 1);
    Fill(*plot, plot->auxiliary ? auxiliary_trajectory_.get() : trajectory_.get());
    plots_.push_back(std::move(plot));
  }
  PlaceNote();  // above the new charts
}

void PlotPanel::SetTimeSpan(double t_end) {
  if (!(t_end > 0.0) || t_end == t_end_) return;
  t_end_ = t_end;
  for (auto& plot : plots_) SetTimeAxis(plot->x_axis, t_end_);
}

void PlotPanel::SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory) {
  trajectory_ = std::move(trajectory);
  for (auto& plot : plots_) {
    if (!plot->auxiliary) Fill(*plot, trajectory_.get());
  }
}

void PlotPanel::SetAuxiliaryTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory) {
  auxiliary_trajectory_ = std::move(trajectory);
  for (auto& plot : plots_) {
    if (plot->auxiliary) Fill(*plot, auxiliary_trajectory_.get());
  }
}

void PlotPanel::Fill(Plot& plot, const dirac::Trajectory* trajectory) {
  QStringList missing;
  double y_min = std::numeric_limits<double>::infinity();
  double y_max = -std::numeric_limits<double>::infinity();
  const std::vector<double> t =
      trajectory && !trajectory->empty() ? trajectory->Column("t") : std::vector<double>{};
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const std::string& column = plot.spec.series[s];
    if (!trajectory || !trajectory->FindColumn(column)) {
      if (trajectory) missing << QString::fromStdString(column);
      plot.series[s]->clear();
      continue;
    }
    const std::vector<double> y = trajectory->Column(column);
    for (double v : y) {
      if (std::isfinite(v)) {
        y_min = std::min(y_min, v);
        y_max = std::max(y_max, v);
      }
    }
    plot.series[s]->replace(DecimateMinMax(t, y, kMaxDisplayedPoints));
  }
  plot.missing = missing.join(", ");
  UpdateTitle(plot);

  if (y_min <= y_max) {
    // A constant signal (e.g. a conserved energy) gets a small relative band, not noise zoom.
    const double magnitude = std::max(std::abs(y_min), std::abs(y_max));
    const double span = std::max({y_max - y_min, 1e-6 * magnitude, 1e-12});
    const double mid = 0.5 * (y_min + y_max);
    // QValueAxis::applyNiceNumbers' rounding, computed here: the axis changes (and its chart
    // lays out again) only when the nice range does, not twice on every edit.
    auto nice = [](double x, bool ceiling) {
      const double z = std::pow(10.0, std::floor(std::log10(x)));
      const double q = x / z;
      if (ceiling) return (q <= 1.0 ? 1.0 : q <= 2.0 ? 2.0 : q <= 5.0 ? 5.0 : 10.0) * z;
      return (q < 1.5 ? 1.0 : q < 3.0 ? 2.0 : q < 7.0 ? 5.0 : 10.0) * z;
    };
    const double low = mid - 0.55 * span, high = mid + 0.55 * span;
    const double step = nice(nice(high - low, true) / 4.0, false);
    const double nice_low = std::floor(low / step), nice_high = std::ceil(high / step);
    const int ticks = static_cast<int>(nice_high - nice_low) + 1;
    plot.y_min = nice_low * step;
    plot.y_max = nice_high * step;
    if (plot.y_axis->tickCount() != ticks) plot.y_axis->setTickCount(ticks);
    if (plot.y_axis->min() != plot.y_min || plot.y_axis->max() != plot.y_max)
      plot.y_axis->setRange(plot.y_min, plot.y_max);
    const double interval = (plot.y_max - plot.y_min) / std::max(1, ticks - 1);
    const QString format =
        TickFormat(std::max(std::abs(plot.y_min), std::abs(plot.y_max)), interval);
    if (plot.y_axis->labelFormat() != format) plot.y_axis->setLabelFormat(format);
  }
  UpdateCursor(plot);
}

void PlotPanel::UpdateTitle(Plot& plot) {
  QString title = QString::fromStdString(plot.spec.title);
  if (!plot.missing.isEmpty()) title += tr("  (no column: %1)").arg(plot.missing);
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
  cursor_ = t;
  for (auto& plot : plots_) UpdateCursor(*plot);
}

void PlotPanel::UpdateCursor(Plot& plot) {
  plot.cursor->replace(QList<QPointF>{QPointF(cursor_, plot.y_min), QPointF(cursor_, plot.y_max)});
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

QList<QPointF> PlotPanel::SeriesPoints(int plot, int series) const {
  if (plot < 0 || plot >= plot_count()) return {};
  const Plot& p = *plots_[static_cast<std::size_t>(plot)];
  if (series < 0 || series >= static_cast<int>(p.series.size())) return {};
  return p.series[static_cast<std::size_t>(series)]->points();
}

}  // namespace dirac::ui
