#include "plots/plot_panel.hpp"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QRegularExpression>
#include <QRubberBand>
#include <QSettings>
#include <QTransform>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "plots/svg_export.hpp"
#include "scenes/scene_kit.hpp"

namespace dirac::ui {
namespace {

// Series colours: distinguishable, print-friendly (Okabe–Ito palette without orange, which the
// 3D view reserves for the particle).
const QColor kSeriesColors[] = {QColor(0, 114, 178),  QColor(0, 158, 115), QColor(204, 121, 167),
                                QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66)};
// The comparison run is magenta, as in the 3D view.
const QColor kComparisonColor(235, 60, 235);
const char* const kOverlayNames[] = {"pinned", "comparison"};

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

// About five ticks on [min, max] at a nice step, labelled so neighbours differ.
void NiceTicks(QValueAxis* axis) {
  const double span = axis->max() - axis->min();
  if (!(span > 0.0) || !std::isfinite(span)) return;
  const double step = NiceStep(span / 5.0);
  // Interval before type: a dynamic axis lays out its ticks at once.
  axis->setTickInterval(step);
  axis->setTickAnchor(std::floor(axis->min() / step) * step);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setLabelFormat(TickFormat(std::max(std::abs(axis->min()), std::abs(axis->max())), step));
}

// Sets [lo, hi] without ever asking the axis for a huge number of ticks: Qt lays the ticks out
// at once, with the interval it has, so a larger span gets its larger interval first (a span
// of 1e9 s at the old 10 s interval would be 1e8 tick items), a smaller one after.
void SetAxisRange(QValueAxis* axis, double lo, double hi) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return;
  if (axis->tickType() != QValueAxis::TicksDynamic) {
    axis->setRange(lo, hi);
    return;
  }
  const double step = NiceStep((hi - lo) / 5.0);
  if (step >= axis->tickInterval()) {
    axis->setTickInterval(step);
    axis->setTickAnchor(std::floor(lo / step) * step);
    axis->setRange(lo, hi);
  } else {
    axis->setRange(lo, hi);
    axis->setTickInterval(step);
    axis->setTickAnchor(std::floor(lo / step) * step);
  }
}

// The common prefix of `names` up to and including its last '_' ("" if none or one name).
QString UnderscorePrefix(const QStringList& names) {
  if (names.size() < 2) return {};
  QString prefix = names.front();
  for (const QString& n : names) {
    qsizetype k = 0;
    while (k < prefix.size() && k < n.size() && prefix[k] == n[k]) ++k;
    prefix.truncate(k);
  }
  const qsizetype cut = prefix.lastIndexOf('_');
  if (cut < 0) return {};
  prefix.truncate(cut + 1);
  for (const QString& n : names) {
    if (n.size() <= prefix.size()) return {};
  }
  return prefix;
}

QString FormatValue(double v) { return QString::number(v, 'g', 6); }

// The parts of the polyline `points` inside `box` (Liang–Barsky on each segment), each a
// polyline of at least two points.
QList<QList<QPointF>> ClipPolyline(const QList<QPointF>& points, const QRectF& box) {
  QList<QList<QPointF>> pieces;
  QList<QPointF> piece;
  auto flush = [&] {
    if (piece.size() >= 2) pieces.append(piece);
    piece.clear();
  };
  for (qsizetype i = 0; i + 1 < points.size(); ++i) {
    const QPointF a = points[i], b = points[i + 1];
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    double t0 = 0.0, t1 = 1.0;
    bool inside = true;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - box.left(), box.right() - a.x(), a.y() - box.top(),
                         box.bottom() - a.y()};
    for (int k = 0; k < 4 && inside; ++k) {
      if (p[k] == 0.0) {
        if (q[k] < 0.0) inside = false;
        continue;
      }
      const double r = q[k] / p[k];
      if (p[k] < 0.0) {
        if (r > t1) inside = false;
        t0 = std::max(t0, r);
      } else {
        if (r < t0) inside = false;
        t1 = std::min(t1, r);
      }
    }
    if (!inside || !std::isfinite(dx) || !std::isfinite(dy)) {
      flush();
      continue;
    }
    const QPointF start = a + t0 * (b - a), end = a + t1 * (b - a);
    if (piece.isEmpty() || t0 > 0.0) {
      flush();
      piece.append(start);
    }
    piece.append(end);
    if (t1 < 1.0) flush();
  }
  flush();
  return pieces;
}

}  // namespace

QString CompactNames(const QStringList& names) {
  const QString prefix = UnderscorePrefix(names);
  if (prefix.isEmpty()) {
    // A shared suffix from a '_' on: "q1_dot, q2_dot" -> "{q1,q2}_dot".
    QStringList reversed;
    for (QString n : names) {
      std::reverse(n.begin(), n.end());
      reversed << n;
    }
    QString common = reversed.size() > 1 ? reversed.front() : QString();
    for (const QString& r : reversed) {
      qsizetype k = 0;
      while (k < common.size() && k < r.size() && common[k] == r[k]) ++k;
      common.truncate(k);
    }
    const qsizetype cut = common.lastIndexOf('_');
    if (cut < 0) return names.join(QStringLiteral(", "));
    const qsizetype length = cut + 1;
    QStringList rest;
    for (const QString& n : names) {
      if (n.size() <= length) return names.join(QStringLiteral(", "));
      rest << n.left(n.size() - length);
    }
    return "{" + rest.join(',') + "}" + names.front().right(length);
  }
  QStringList rest;
  for (const QString& n : names) rest << n.mid(prefix.size());
  return prefix + "{" + rest.join(',') + "}";
}

struct PlotPanel::Plot {
  dirac::PlotSpec spec;
  bool auxiliary = false;  // reads auxiliary_trajectory_
  ChartView* view = nullptr;
  QChart* chart = nullptr;
  QValueAxis* x_axis = nullptr;
  std::array<QValueAxis*, 2> y_axis{};  // left, right (null if one quantity)
  // Per value axis: its title ("x, y [m]"), shorter ones ("[m]", "residual"), the units alone.
  std::array<QString, 2> title_full, title_short, title_units;
  std::array<QFont, 2> title_font;
  std::vector<QLineSeries*> series;                  // one per spec.series
  std::vector<int> series_axis;                      // 0 left, 1 right
  std::array<std::vector<QLineSeries*>, 2> overlay;  // per overlay, per spec.series (may be null)
  QLineSeries* cursor = nullptr;
  std::array<double, 2> y_min{-1.0, -1.0}, y_max{1.0, 1.0};
  bool zoomed = false;
  int displayed_points = 0;  // the decimation the curves were filled with (DisplayedPoints)
  // Pixels per unit of the time, left and right axes the curves were simplified with (0: not
  // simplified, e.g. zoomed or not laid out).
  std::array<double, 3> pixels_per_unit{};
  QString missing;  // columns the trajectory lacks
};

// The chart view of one plot: mouse and wheel to the panel.
class PlotPanel::ChartView : public QChartView {
 public:
  ChartView(QChart* chart, PlotPanel* panel) : QChartView(chart, panel), panel_(panel) {
    setMouseTracking(true);
    setRubberBand(QChartView::NoRubberBand);
    setDragMode(QGraphicsView::NoDrag);
    readout_ = new QLabel(this);
    readout_->setObjectName("plotPanel.readout");
    readout_->setStyleSheet(
        "QLabel { background: rgba(255,255,255,225); border: 1px solid #888; padding: 2px 5px; "
        "font-family: monospace; }");
    readout_->setAttribute(Qt::WA_TransparentForMouseEvents);
    readout_->hide();
  }

  QLabel* readout() const { return readout_; }

 protected:
  void wheelEvent(QWheelEvent* event) override {
    const int index = panel_->IndexOf(this);
    const int delta = event->angleDelta().y();
    if (index < 0 || delta == 0) return;
    const QPointF value = chart()->mapToValue(event->position(), CursorSeries());
    const bool time = !(event->modifiers() & Qt::ShiftModifier);
    const bool values = !(event->modifiers() & Qt::ControlModifier);
    panel_->Zoom(index, std::pow(0.999, delta), value, time, values);
    event->accept();
  }

  void mousePressEvent(QMouseEvent* event) override {
    if (event->button() != Qt::LeftButton || OnLegend(event->position())) {
      QChartView::mousePressEvent(event);
      return;
    }
    press_ = event->position().toPoint();
    last_ = press_;
    dragging_ = false;
    pressed_ = true;
    if (event->modifiers() & Qt::ShiftModifier) {
      if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
      band_->setGeometry(QRect(press_, QSize()));
      band_->show();
    }
    event->accept();
  }

  void mouseMoveEvent(QMouseEvent* event) override {
    const QPoint pos = event->position().toPoint();
    if (pressed_) {
      if ((pos - press_).manhattanLength() > 4) dragging_ = true;
      if (band_ && band_->isVisible()) {
        band_->setGeometry(QRect(press_, pos).normalized());
      } else if (dragging_) {
        const QPoint d = pos - last_;
        chart()->scroll(-d.x(), d.y());
        panel_->MarkZoomed(this);
      }
      last_ = pos;
      readout_->hide();
      return;
    }
    ShowReadout(pos);
  }

  void mouseReleaseEvent(QMouseEvent* event) override {
    if (event->button() != Qt::LeftButton || !pressed_) {
      QChartView::mouseReleaseEvent(event);
      return;
    }
    pressed_ = false;
    const int index = panel_->IndexOf(this);
    if (band_ && band_->isVisible()) {
      band_->hide();
      const QRect r = band_->geometry();
      if (index >= 0 && r.width() > 4 && r.height() > 4) {
        const QPointF a = chart()->mapToValue(r.topLeft(), CursorSeries());
        const QPointF b = chart()->mapToValue(r.bottomRight(), CursorSeries());
        panel_->ZoomTo(index, a.x(), b.x(), b.y(), a.y());
      }
    } else if (!dragging_ && index >= 0 && chart()->plotArea().contains(event->position())) {
      emit panel_->seekRequested(chart()->mapToValue(event->position(), CursorSeries()).x());
    }
    event->accept();
  }

  void mouseDoubleClickEvent(QMouseEvent* event) override {
    if (const int index = panel_->IndexOf(this); index >= 0) panel_->ResetZoom(index);
    event->accept();
  }

  void contextMenuEvent(QContextMenuEvent* event) override {
    if (const int index = panel_->IndexOf(this); index >= 0)
      panel_->ShowContextMenu(index, event->globalPos());
    event->accept();
  }

  void leaveEvent(QEvent* event) override {
    readout_->hide();
    QChartView::leaveEvent(event);
  }

  void resizeEvent(QResizeEvent* event) override {
    QChartView::resizeEvent(event);
    // After the chart's layout has placed the new plot area.
    QMetaObject::invokeMethod(
        this, [this] { panel_->RefillIfResolutionChanged(this); }, Qt::QueuedConnection);
  }

 private:
  // Legend entries take their own clicks (QLegendMarker::clicked).
  bool OnLegend(const QPointF& pos) const {
    const QLegend* legend = chart()->legend();
    return legend->isVisible() &&
           legend->mapRectToScene(legend->boundingRect()).contains(mapToScene(pos.toPoint()));
  }

  QAbstractSeries* CursorSeries() const {
    const int index = panel_->IndexOf(this);
    return index >= 0 ? panel_->plots_[static_cast<std::size_t>(index)]->cursor : nullptr;
  }

  void ShowReadout(const QPoint& pos) {
    const int index = panel_->IndexOf(this);
    if (index < 0 || !chart()->plotArea().contains(pos)) {
      readout_->hide();
      return;
    }
    const double t = chart()->mapToValue(pos, CursorSeries()).x();
    readout_->setText(panel_->Readout(index, t));
    readout_->adjustSize();
    QPoint at = pos + QPoint(14, 10);
    if (at.x() + readout_->width() > width()) at.setX(pos.x() - 14 - readout_->width());
    if (at.y() + readout_->height() > height()) at.setY(height() - readout_->height());
    readout_->move(at);
    readout_->show();
    readout_->raise();
  }

  PlotPanel* panel_;
  QLabel* readout_ = nullptr;
  QRubberBand* band_ = nullptr;
  QPoint press_, last_;
  bool pressed_ = false;
  bool dragging_ = false;
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

QList<QPointF> SimplifyPolyline(const QList<QPointF>& points, double x_scale, double y_scale,
                                double tolerance) {
  const qsizetype n = points.size();
  if (n < 3 || !(x_scale > 0.0) || !(y_scale > 0.0) || !std::isfinite(x_scale) ||
      !std::isfinite(y_scale))
    return points;
  for (const QPointF& p : points)
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return points;
  // Douglas-Peucker in pixels: keep the point farthest from the chord of each piece while it is
  // farther than the tolerance.
  auto px = [&](qsizetype i) { return QPointF(points[i].x() * x_scale, points[i].y() * y_scale); };
  std::vector<char> keep(static_cast<std::size_t>(n), 0);
  keep.front() = keep.back() = 1;
  std::vector<std::pair<qsizetype, qsizetype>> pieces{{0, n - 1}};
  const double tolerance2 = tolerance * tolerance;
  while (!pieces.empty()) {
    const auto [first, last] = pieces.back();
    pieces.pop_back();
    if (last - first < 2) continue;
    const QPointF a = px(first), d = px(last) - a;
    const double length2 = QPointF::dotProduct(d, d);
    double farthest = -1.0;
    qsizetype at = first;
    for (qsizetype i = first + 1; i < last; ++i) {
      const QPointF v = px(i) - a;
      const double along =
          length2 > 0.0 ? std::clamp(QPointF::dotProduct(v, d) / length2, 0.0, 1.0) : 0.0;
      const QPointF off = v - along * d;
      const double distance2 = QPointF::dotProduct(off, off);
      if (distance2 > farthest) {
        farthest = distance2;
        at = i;
      }
    }
    if (farthest <= tolerance2) continue;
    keep[static_cast<std::size_t>(at)] = 1;
    pieces.push_back({first, at});
    pieces.push_back({at, last});
  }
  QList<QPointF> kept;
  kept.reserve(static_cast<qsizetype>(std::count(keep.begin(), keep.end(), 1)));
  for (qsizetype i = 0; i < n; ++i)
    if (keep[static_cast<std::size_t>(i)]) kept.append(points[i]);
  return kept;
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

void PlotPanel::SetColumnQuantities(std::map<std::string, ColumnQuantity> quantities) {
  quantities_ = std::move(quantities);
  Rebuild();
}

void PlotPanel::SetAuxiliaryPlots(const std::vector<dirac::PlotSpec>& plots) {
  auxiliary_specs_ = plots;
  if (plots.empty()) auxiliary_trajectory_.reset();
  Rebuild();
}

int PlotPanel::IndexOf(const ChartView* view) const {
  for (std::size_t p = 0; p < plots_.size(); ++p) {
    if (plots_[p]->view == view) return static_cast<int>(p);
  }
  return -1;
}

void PlotPanel::Rebuild() {
  for (auto& plot : plots_) delete plot->view;  // the view owns its chart, series and axes
  plots_.clear();
  const std::size_t count = specs_.size() + auxiliary_specs_.size();
  for (std::size_t p = 0; p < count; ++p) {
    const bool auxiliary = p >= specs_.size();
    const dirac::PlotSpec& spec = auxiliary ? auxiliary_specs_[p - specs_.size()] : specs_[p];
    plots_.push_back(BuildPlot(p, spec, auxiliary, p + 1 == count));
    layout_->addWidget(plots_.back()->view, 1);
  }
  PlaceNote();  // above the new charts
}

void PlotPanel::ReplacePlot(int index) {
  auto& slot = plots_[static_cast<std::size_t>(index)];
  const bool auxiliary = slot->auxiliary;
  const dirac::PlotSpec& spec =
      auxiliary ? auxiliary_specs_[static_cast<std::size_t>(index) - specs_.size()]
                : specs_[static_cast<std::size_t>(index)];
  std::unique_ptr<Plot> plot =
      BuildPlot(static_cast<std::size_t>(index), spec, auxiliary, index + 1 == plot_count());
  layout_->replaceWidget(slot->view, plot->view);
  delete slot->view;
  slot = std::move(plot);
  PlaceNote();
}

std::unique_ptr<PlotPanel::Plot> PlotPanel::BuildPlot(std::size_t index,
                                                      const dirac::PlotSpec& spec, bool auxiliary,
                                                      bool last) {
  auto plot = std::make_unique<Plot>();
  plot->spec = spec;
  plot->auxiliary = auxiliary;
  const QString id = QStringLiteral("plot.%1").arg(index);

  plot->chart = new QChart();
  plot->chart->setObjectName(id + ".chart");
  plot->chart->setTitle(QString::fromStdString(spec.title));
  QFont title_font = plot->chart->titleFont();
  title_font.setBold(true);
  plot->chart->setTitleFont(title_font);
  plot->chart->setMargins(QMargins(4, 4, 8, 4));
  plot->chart->setBackgroundRoundness(0);
  plot->chart->setAnimationOptions(QChart::NoAnimation);
  plot->chart->legend()->setAlignment(Qt::AlignTop);
  plot->chart->legend()->setShowToolTips(true);

  plot->x_axis = new QValueAxis(plot->chart);
  plot->x_axis->setTitleText(QStringLiteral("t [s]"));
  // The charts share one time axis: name it once, under the last chart, to save height.
  plot->x_axis->setTitleVisible(last);
  plot->x_axis->setRange(0.0, t_end_);
  NiceTicks(plot->x_axis);
  plot->chart->addAxis(plot->x_axis, Qt::AlignBottom);

  // Quantities in order of appearance: the first on the left, any other on the right.
  QStringList names;
  for (const std::string& s : spec.series) names << QString::fromStdString(s);
  std::vector<std::string> keys;
  for (const std::string& s : spec.series) {
    const auto it = quantities_.find(s);
    keys.push_back(it == quantities_.end() ? std::string() : it->second.Key());
  }
  std::string left_key;
  for (const std::string& k : keys) {
    if (!k.empty()) {
      left_key = k;
      break;
    }
  }
  for (const std::string& k : keys) plot->series_axis.push_back(k.empty() || k == left_key ? 0 : 1);
  const bool two_axes =
      std::find(plot->series_axis.begin(), plot->series_axis.end(), 1) != plot->series_axis.end();
  for (int a = 0; a < (two_axes ? 2 : 1); ++a) {
    // "x, y [m]", "mu (multiplier)"; several quantities on one axis: "x, y [m]; vx [m/s]".
    QStringList axis_keys;
    QList<QStringList> names_of_key;
    for (std::size_t s = 0; s < spec.series.size(); ++s) {
      if (plot->series_axis[s] != a) continue;
      const QString key = QString::fromStdString(keys[s]);
      qsizetype k = axis_keys.indexOf(key);
      if (k < 0) {
        axis_keys << key;
        names_of_key.append(QStringList());
        k = axis_keys.size() - 1;
      }
      names_of_key[k] << names[static_cast<qsizetype>(s)];
    }
    QStringList parts, short_parts, unit_parts;
    for (qsizetype k = 0; k < axis_keys.size(); ++k) {
      const QString& key = axis_keys[k];
      // Kinds are named only where they are why the chart has two axes.
      const bool plain = key.isEmpty() || (key.startsWith('(') && !two_axes);
      const bool unit = !plain && !key.startsWith('(');
      parts << CompactNames(names_of_key[k]) + (plain  ? QString()
                                                : unit ? QStringLiteral(" [%1]").arg(key)
                                                       : " " + key);
      // Where the whole title does not fit the axis: the unit alone, else the names' shared
      // prefix ("residual" of residual_hidden1, residual_hidden2), else the names.
      const QString prefix = UnderscorePrefix(names_of_key[k]);
      if (unit) {
        short_parts << QStringLiteral("[%1]").arg(key);
        unit_parts << short_parts.back();
      } else {
        short_parts << (prefix.isEmpty() ? CompactNames(names_of_key[k]) : prefix.chopped(1));
      }
    }
    const QString title = parts.join(QStringLiteral("; "));
    auto* axis = new QValueAxis(plot->chart);
    axis->setObjectName(QStringLiteral("%1.axis.%2").arg(id, a == 0 ? "left" : "right"));
    axis->setTitleText(title);
    axis->setLabelFormat("%.6g");
    axis->setTickCount(5);
    QFont axis_font = axis->titleFont();
    axis_font.setPointSizeF(axis_font.pointSizeF() * 0.9);
    axis->setTitleFont(axis_font);
    plot->chart->addAxis(axis, a == 0 ? Qt::AlignLeft : Qt::AlignRight);
    plot->y_axis[static_cast<std::size_t>(a)] = axis;
    plot->title_full[static_cast<std::size_t>(a)] = title;
    plot->title_short[static_cast<std::size_t>(a)] = short_parts.join(QStringLiteral("; "));
    plot->title_units[static_cast<std::size_t>(a)] = unit_parts.join(QStringLiteral("; "));
    plot->title_font[static_cast<std::size_t>(a)] = axis_font;
  }

  // Legend entries without a shared prefix ("spatial_momentum_x" -> "x"); the axis says it.
  const QString prefix = UnderscorePrefix(names);
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const QString& name = names[static_cast<qsizetype>(s)];
    auto* series = new QLineSeries(plot->chart);
    series->setObjectName(id + "." + name);
    series->setName(prefix.isEmpty() ? name : name.mid(prefix.size()));
    QPen pen(kSeriesColors[s % std::size(kSeriesColors)]);
    pen.setWidthF(
        1.0);  // one pixel: the raster engine's fast path (wider pens are stroked as polygons)
    series->setPen(pen);
    plot->chart->addSeries(series);
    series->attachAxis(plot->x_axis);
    series->attachAxis(plot->y_axis[static_cast<std::size_t>(plot->series_axis[s])]);
    plot->series.push_back(series);
  }
  for (int o = 0; o < 2; ++o) {
    const OverlayData& overlay = overlays_[static_cast<std::size_t>(o)];
    auto& list = plot->overlay[static_cast<std::size_t>(o)];
    list.assign(spec.series.size(), nullptr);
    if (!overlay.trajectory || auxiliary) continue;
    for (std::size_t s = 0; s < spec.series.size(); ++s) {
      if (!overlay.trajectory->FindColumn(spec.series[s])) continue;
      const QString& name = names[static_cast<qsizetype>(s)];
      auto* series = new QLineSeries(plot->chart);
      series->setObjectName(id + "." + name + "." + kOverlayNames[o]);
      series->setName(QStringLiteral("%1 (%2)").arg(
          prefix.isEmpty() ? name : name.mid(prefix.size()), overlay.label));
      QColor color =
          o == kComparison ? kComparisonColor : kSeriesColors[s % std::size(kSeriesColors)];
      if (o == kPinned) color.setAlpha(150);
      QPen pen(color);
      pen.setWidthF(1.5);
      pen.setStyle(o == kComparison ? Qt::DashLine : Qt::DotLine);
      series->setPen(pen);
      plot->chart->addSeries(series);
      series->attachAxis(plot->x_axis);
      series->attachAxis(plot->y_axis[static_cast<std::size_t>(plot->series_axis[s])]);
      list[s] = series;
    }
  }

  plot->cursor = new QLineSeries(plot->chart);
  plot->cursor->setObjectName(id + ".cursor");
  QPen cursor_pen(QColor(230, 120, 0));
  cursor_pen.setWidthF(1.2);
  cursor_pen.setStyle(Qt::DashLine);
  plot->cursor->setPen(cursor_pen);
  plot->chart->addSeries(plot->cursor);
  plot->cursor->attachAxis(plot->x_axis);
  plot->cursor->attachAxis(plot->y_axis[0]);
  for (QLegendMarker* marker : plot->chart->legend()->markers(plot->cursor))
    marker->setVisible(false);
  int legend_entries = 0;
  // An overlay has one legend entry per chart, named by its label ("nonholonomic", "pinned"):
  // an entry per curve ("x (nonholonomic)", ...) made the legend elide every name. A click on it
  // hides or shows all the overlay's curves.
  for (int o = 0; o < 2; ++o) {
    std::vector<QLineSeries*> curves;
    for (QLineSeries* series : plot->overlay[static_cast<std::size_t>(o)])
      if (series) curves.push_back(series);
    if (curves.empty()) continue;
    for (std::size_t c = 0; c < curves.size(); ++c) {
      for (QLegendMarker* marker : plot->chart->legend()->markers(curves[c])) {
        marker->setVisible(c == 0);
        if (c != 0) continue;
        ++legend_entries;
        marker->setLabel(overlays_[static_cast<std::size_t>(o)].label);
        QLegend* legend = plot->chart->legend();
        QObject::connect(marker, &QLegendMarker::clicked, plot->chart, [marker, curves, legend] {
          const bool visible = !curves.front()->isVisible();
          // The legend shows a curve's entry when the curve is shown: keep only the first.
          for (QLineSeries* series : curves) {
            series->setVisible(visible);
            for (QLegendMarker* other : legend->markers(series)) other->setVisible(other == marker);
          }
          QColor label = marker->labelBrush().color();
          label.setAlphaF(visible ? 1.0 : 0.35);
          marker->setLabelBrush(label);
        });
      }
    }
  }
  auto is_overlay = [&plot](const QAbstractSeries* series) {
    for (const auto& list : plot->overlay)
      if (std::find(list.begin(), list.end(), series) != list.end()) return true;
    return false;
  };
  for (QLegendMarker* marker : plot->chart->legend()->markers()) {
    if (marker->series() == plot->cursor || is_overlay(marker->series())) continue;
    ++legend_entries;
    // A click on an entry hides or shows its curve (the entry stays, faded).
    QObject::connect(marker, &QLegendMarker::clicked, plot->chart, [marker] {
      QAbstractSeries* series = marker->series();
      series->setVisible(!series->isVisible());
      marker->setVisible(true);
      QColor label = marker->labelBrush().color();
      label.setAlphaF(series->isVisible() ? 1.0 : 0.35);
      marker->setLabelBrush(label);
    });
  }
  plot->chart->legend()->setVisible(legend_entries > 1);

  plot->view = new ChartView(plot->chart, this);
  plot->view->setObjectName(id);
  plot->view->setRenderHint(QPainter::Antialiasing);
  plot->view->setMinimumHeight(kMinChartHeight);
  plot->view->setToolTip(
      tr("Wheel: zoom · drag: pan · Shift+drag: zoom to rectangle · double-click: reset · "
         "click: move the time cursor · right-click: columns, export"));
  // The tick step follows the shown span (zoomed or not).
  QValueAxis* x_axis = plot->x_axis;
  connect(x_axis, &QValueAxis::rangeChanged, plot->chart, [x_axis] { NiceTicks(x_axis); });
  // Axis titles that fit the axis' length (Qt would elide them, units first).
  Plot* raw = plot.get();
  connect(plot->chart, &QChart::plotAreaChanged, plot->chart, [raw] { FitAxisTitles(*raw); });
  Fill(*plot);
  return plot;
}

void PlotPanel::FitAxisTitles(Plot& plot) {
  const double room = plot.chart->plotArea().height() - 8.0;
  if (!(room > 0.0)) return;
  const bool legend = plot.chart->legend()->isVisible();
  for (std::size_t a = 0; a < 2; ++a) {
    QValueAxis* axis = plot.y_axis[a];
    if (!axis) continue;
    // The whole title, smaller, then the short one; with a legend naming the curves, at last
    // the units alone (or no title).
    QFont small = plot.title_font[a];
    small.setPointSizeF(small.pointSizeF() * 0.8);
    const std::pair<const QString*, const QFont*> choices[] = {
        {&plot.title_full[a], &plot.title_font[a]},
        {&plot.title_full[a], &small},
        {&plot.title_short[a], &plot.title_font[a]},
        {&plot.title_short[a], &small},
        {legend ? &plot.title_units[a] : &plot.title_short[a], &small}};
    auto [text, font] = choices[std::size(choices) - 1];
    for (const auto& [t, f] : choices) {
      if (QFontMetricsF(*f).horizontalAdvance(*t) <= room) {
        text = t;
        font = f;
        break;
      }
    }
    if (axis->titleFont() != *font) axis->setTitleFont(*font);
    if (axis->titleText() != *text) axis->setTitleText(*text);
  }
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
    std::vector<bool> zoomed;
    std::vector<std::array<double, 4>> ranges;
    for (auto& plot : plots_) {
      zoomed.push_back(plot->zoomed);
      ranges.push_back({plot->x_axis->min(), plot->x_axis->max(), plot->y_axis[0]->min(),
                        plot->y_axis[0]->max()});
    }
    Rebuild();
    for (std::size_t p = 0; p < plots_.size() && p < zoomed.size(); ++p) {
      if (zoomed[p])
        ZoomTo(static_cast<int>(p), ranges[p][0], ranges[p][1], ranges[p][2], ranges[p][3]);
    }
    return;
  }
  for (auto& plot : plots_) {
    if (!plot->auxiliary) Fill(*plot);
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

void PlotPanel::RefillIfResolutionChanged(const ChartView* view) {
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
    const double lo = nice_low * step, hi = nice_high * step;
    const double interval = (hi - lo) / std::max(1, ticks - 1);
    const QString format = TickFormat(std::max(std::abs(lo), std::abs(hi)), interval);
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
  // Spans the left axis' shown range (zoomed or not), a little beyond so it reaches the edges.
  const double lo = plot.zoomed ? plot.y_axis[0]->min() : plot.y_min[0];
  const double hi = plot.zoomed ? plot.y_axis[0]->max() : plot.y_max[0];
  plot.cursor->replace(QList<QPointF>{QPointF(cursor_, lo), QPointF(cursor_, hi)});
}

void PlotPanel::MarkZoomed(const ChartView* view) {
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
  series.push_back(name);
  ReplacePlot(index);
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
  series.erase(it);
  ReplacePlot(index);
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

QString PlotPanel::ExportChart(int index, const QString& path) const {
  if (index < 0 || index >= plot_count()) return tr("no chart %1").arg(index);
  ChartView* view = plots_[static_cast<std::size_t>(index)]->view;
  view->readout()->hide();
  const QSize size = view->size();
  if (QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0) {
    // QSvgGenerator (Qt 6.4) ignores clipping: the curves of a zoomed chart ran out of the plot
    // area. The chart is written without its curves, which are then drawn clipped to it.
    QChart* chart = plots_[static_cast<std::size_t>(index)]->chart;
    std::vector<std::pair<QLegendMarker*, bool>> markers;
    for (QLegendMarker* marker : chart->legend()->markers())
      markers.emplace_back(marker, marker->isVisible());
    std::vector<QLineSeries*> curves;
    for (QAbstractSeries* series : chart->series()) {
      auto* line = qobject_cast<QLineSeries*>(series);
      if (line && line->isVisible()) curves.push_back(line);
    }
    for (QLineSeries* line : curves) line->setVisible(false);
    for (const auto& [marker, visible] : markers) marker->setVisible(visible);  // entries stay
    const QString error = RenderWidgetToSvg(*view, path, chart->title(), [&](QPainter& painter) {
      const QTransform to_view =
          view->viewportTransform() *
          QTransform::fromTranslate(view->viewport()->x(), view->viewport()->y());
      const QRectF area = to_view.mapRect(chart->mapRectToScene(chart->plotArea()));
      painter.setRenderHint(QPainter::Antialiasing);
      for (QLineSeries* line : curves) {
        QList<QPointF> points;
        points.reserve(line->count());
        for (const QPointF& p : line->points())
          points.append(to_view.map(chart->mapToScene(chart->mapToPosition(p, line))));
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
    view->render(&painter, QRectF(QPointF(0, 0), size * 2), view->rect());
  }
  if (!image.save(path)) return tr("cannot write %1").arg(path);
  return {};
}

void PlotPanel::ExportDialog(int index, const QString& suffix) {
  const QString title =
      index >= 0 && index < plot_count()
          ? QString::fromStdString(plots_[static_cast<std::size_t>(index)]->spec.title)
          : QStringLiteral("chart");
  QString base = title;
  base.replace(QRegularExpression("[^A-Za-z0-9_-]+"), "_");
  // The folder of the last export, else the window's remembered last folder.
  QString folder = last_export_dir_;
  if (folder.isEmpty()) folder = QSettings().value("files/lastFolder").toString();
  const QString start = (folder.isEmpty() ? QString() : folder + "/") + base + "." + suffix;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export chart"), start,
      suffix == "svg" ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  last_export_dir_ = QFileInfo(path).absolutePath();
  QSettings().setValue("files/lastFolder", last_export_dir_);
  if (const QString error = ExportChart(index, path); !error.isEmpty())
    emit errorOccurred(tr("Chart export failed: %1").arg(error));
}

void PlotPanel::ShowContextMenu(int index, const QPoint& global) {
  QMenu menu(this);
  menu.setObjectName("plotPanel.menu");
  const QStringList shown = PlotColumns(index);
  QMenu* add = menu.addMenu(tr("Add column"));
  const dirac::Trajectory* trajectory = TrajectoryOf(*plots_[static_cast<std::size_t>(index)]);
  if (trajectory) {
    for (const std::string& c : trajectory->columns()) {
      const QString column = QString::fromStdString(c);
      if (column == "t" || shown.contains(column)) continue;
      QString text = column;
      if (const auto q = quantities_.find(c); q != quantities_.end() && !q->second.Key().empty())
        text += "  " + QString::fromStdString(q->second.Key());
      add->addAction(text, this, [this, index, column] { AddColumn(index, column); });
    }
  }
  add->setEnabled(!add->isEmpty());
  if (shown.size() > 1) {
    QMenu* remove = menu.addMenu(tr("Remove column"));
    for (const QString& column : shown)
      remove->addAction(column, this, [this, index, column] { RemoveColumn(index, column); });
  }
  menu.addSeparator();
  menu.addAction(tr("Reset zoom"), this, [this, index] { ResetZoom(index); });
  menu.addAction(tr("Export chart as PNG…"), this, [this, index] { ExportDialog(index, "png"); });
  menu.addAction(tr("Export chart as SVG…"), this, [this, index] { ExportDialog(index, "svg"); });
  menu.addSeparator();
  menu.addAction(tr("Pin this run for comparison"), this, [this] { emit pinRequested(); });
  QAction* unpin =
      menu.addAction(tr("Clear the pinned run"), this, [this] { emit unpinRequested(); });
  unpin->setEnabled(has_overlay(kPinned));
  menu.exec(global);
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
