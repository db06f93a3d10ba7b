#include "plots/phase_chart.hpp"

#include <QChart>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <tuple>
#include <utility>

#include "dirac/error.hpp"
#include "dirac/symbolic_lock.hpp"
#include "plots/axis_format.hpp"
#include "plots/chart_clipboard.hpp"

namespace dirac::ui {
namespace {

// The charts' palette (chart_builder.cpp), one colour per pair.
const QColor kPairColors[] = {QColor(0, 114, 178),  QColor(0, 158, 115), QColor(204, 121, 167),
                              QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66)};

QString AxisTitle(const std::vector<std::string>& names,
                  const std::map<std::string, ColumnQuantity>& quantities) {
  QStringList shown;
  QString unit;
  bool one_unit = true;
  for (const std::string& n : names) {
    if (!shown.contains(QString::fromStdString(n))) shown << QString::fromStdString(n);
    const auto it = quantities.find(n);
    const QString u = it == quantities.end() ? QString() : QString::fromStdString(it->second.unit);
    if (&n == &names.front())
      unit = u;
    else if (u != unit)
      one_unit = false;
  }
  QString title = CompactNames(shown);
  if (one_unit && !unit.isEmpty()) title += QStringLiteral(" [%1]").arg(unit);
  return title;
}

}  // namespace

PhaseChart::PhaseChart(int index, dirac::PlotSpec spec, QWidget* parent)
    : QChartView(parent), spec_(std::move(spec)) {
  const QString id = QStringLiteral("phase.%1").arg(index);
  setObjectName(id);
  setRenderHint(QPainter::Antialiasing, false);
  setRubberBand(QChartView::RectangleRubberBand);
  setFocusPolicy(Qt::ClickFocus);  // for Ctrl+C
  setMinimumHeight(220);
  chart_ = new QChart();
  chart_->setObjectName(id + ".chart");
  QFont title_font = chart_->titleFont();
  title_font.setBold(true);
  chart_->setTitleFont(title_font);
  chart_->setMargins(QMargins(4, 4, 8, 4));
  chart_->setBackgroundRoundness(0);
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->legend()->setAlignment(Qt::AlignTop);
  x_axis_ = new QValueAxis(chart_);
  y_axis_ = new QValueAxis(chart_);
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(y_axis_, Qt::AlignLeft);
  const bool section = !spec_.section.empty();
  for (std::size_t k = 0; k < spec_.pairs.size(); ++k) {
    const QColor color = kPairColors[k % std::size(kPairColors)];
    const QString name = QString::fromStdString(spec_.pairs[k][1] + " vs " + spec_.pairs[k][0]);
    QXYSeries* drawn = nullptr;
    if (section) {
      auto* points = new QScatterSeries();
      points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
      points->setMarkerSize(5.0);
      points->setColor(color);
      points->setBorderColor(color);
      points_.push_back(points);
      drawn = points;
    } else {
      auto* curve = new QLineSeries();
      QPen pen(color);
      pen.setWidth(1);
      curve->setPen(pen);
      curves_.push_back(curve);
      drawn = curve;
    }
    drawn->setObjectName(id + "." + QString::number(k));
    drawn->setName(name);
    chart_->addSeries(drawn);
    drawn->attachAxis(x_axis_);
    drawn->attachAxis(y_axis_);
    auto* cursor = new QScatterSeries();
    cursor->setObjectName(id + "." + QString::number(k) + ".cursor");
    cursor->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    cursor->setMarkerSize(9.0);
    cursor->setColor(Qt::black);
    cursor->setBorderColor(color);
    chart_->addSeries(cursor);
    cursor->attachAxis(x_axis_);
    cursor->attachAxis(y_axis_);
    for (QLegendMarker* marker : chart_->legend()->markers(cursor)) marker->setVisible(false);
    cursors_.push_back(cursor);
  }
  setChart(chart_);
  y_title_font_ = y_axis_->titleFont();
  // Titles that fit the chart's size, refitted when it changes.
  connect(chart_, &QChart::plotAreaChanged, this, [this] { FitTitles(); });
  UpdateTitle();
  SetColumnQuantities({});
}

PhaseChart::~PhaseChart() = default;

void PhaseChart::SetColumnQuantities(const std::map<std::string, ColumnQuantity>& quantities) {
  quantities_ = quantities;
  std::vector<std::string> xs, ys;
  for (const auto& pair : spec_.pairs) {
    xs.push_back(pair[0]);
    ys.push_back(pair[1]);
  }
  x_axis_->setTitleText(AxisTitle(xs, quantities_));
  y_title_full_ = AxisTitle(ys, quantities_);
  y_axis_->setTitleText(y_title_full_);
  FitTitles();
}

void PhaseChart::SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory) {
  trajectory_ = std::move(trajectory);
  Fill();
}

void PhaseChart::Fill() {
  problem_.clear();
  section_ = dirac::Trajectory();
  const dirac::Trajectory* run = trajectory_.get();
  QStringList missing;
  if (run) {
    for (const auto& pair : spec_.pairs)
      for (const std::string& c : pair)
        if (!run->FindColumn(c) && !missing.contains(QString::fromStdString(c)))
          missing << QString::fromStdString(c);
  }
  if (!missing.isEmpty()) problem_ = tr("no column: %1").arg(missing.join(", "));
  const bool section = !spec_.section.empty();
  if (run && !run->empty() && missing.isEmpty() && section) {
    try {
      if (!section_function_ || section_columns_ != run->columns()) {
        // GiNaC parses the expression: under the process-wide symbolic lock.
        dirac::SymbolicGuard guard;
        section_function_.reset();
        section_function_ = std::make_unique<dirac::SectionFunction>(
            spec_.section, run->columns(), "", spec_.where.line, "view.plots.section");
        section_columns_ = run->columns();
      }
      section_ = dirac::ComputePoincareSection(
          *run, *section_function_,
          dirac::ParseCrossingDirection(spec_.section_direction, "direction"));
    } catch (const dirac::Error& e) {
      problem_ = tr("section: %1").arg(QString::fromUtf8(e.what()));
      section_function_.reset();
      section_columns_.clear();
    }
  }
  for (std::size_t k = 0; k < spec_.pairs.size(); ++k) {
    QList<QPointF> points;
    if (run && !run->empty() && problem_.isEmpty()) {
      const dirac::Trajectory& source = section ? section_ : *run;
      const std::size_t cx = *source.FindColumn(spec_.pairs[k][0]);
      const std::size_t cy = *source.FindColumn(spec_.pairs[k][1]);
      const std::size_t n = source.num_rows();
      const std::size_t stride =
          section ? 1 : std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
      points.reserve(static_cast<qsizetype>(n / stride + 2));
      for (std::size_t r = 0; r < n; r += stride)
        points.append({source.at(r, cx), source.at(r, cy)});
      if (n > 0 && (n - 1) % stride != 0)
        points.append({source.at(n - 1, cx), source.at(n - 1, cy)});
    }
    if (section)
      points_[k]->replace(points);
    else
      curves_[k]->replace(points);
  }
  FitAxes();
  UpdateTitle();
  SetCursorTime(cursor_);
  viewport()->update();
}

void PhaseChart::FitAxes() {
  double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min;
  double y_min = x_min, y_max = -x_min;
  // The curves (or the section's points).
  for (std::size_t k = 0; k < spec_.pairs.size(); ++k) {
    const QList<QPointF> points = Points(static_cast<int>(k));
    for (const QPointF& p : points) {
      if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
      x_min = std::min(x_min, p.x());
      x_max = std::max(x_max, p.x());
      y_min = std::min(y_min, p.y());
      y_max = std::max(y_max, p.y());
    }
  }
  if (!(x_min <= x_max)) x_min = -1.0, x_max = 1.0;
  if (!(y_min <= y_max)) y_min = -1.0, y_max = 1.0;
  for (auto [axis, lo, hi] :
       {std::tuple{x_axis_, x_min, x_max}, std::tuple{y_axis_, y_min, y_max}}) {
    const NiceRange nice = NiceValueRange(lo, hi);
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setTickCount(nice.ticks);
    axis->setRange(nice.lo, nice.hi);
    axis->setLabelFormat(nice.format);
  }
}

void PhaseChart::UpdateTitle() {
  QString title = QString::fromStdString(spec_.title);
  if (title.isEmpty()) {
    QStringList pairs;
    for (const auto& pair : spec_.pairs)
      pairs << QString::fromStdString(pair[1] + " vs " + pair[0]);
    title = pairs.join(", ");
  }
  if (!spec_.section.empty() && problem_.isEmpty() && trajectory_) {
    const std::size_t n = section_.num_rows();
    const char* direction = spec_.section_direction == "-"      ? "decreasing"
                            : spec_.section_direction == "both" ? "either way"
                                                                : "increasing";
    title += QStringLiteral("  (%1 crossing%2 of %3 = 0, %4)")
                 .arg(n)
                 .arg(n == 1 ? "" : "s")
                 .arg(QString::fromStdString(spec_.section), QString::fromLatin1(direction));
  }
  if (!problem_.isEmpty()) title += QStringLiteral("  (%1)").arg(problem_);
  full_title_ = title;
  FitTitles();
}

void PhaseChart::FitTitles() {
  // The chart's title on two lines where one does not fit (Qt cut it: "…(24 crossings of
  // valpha = 0..."), as the charts against time do.
  QString title = full_title_;
  const double room = chart_->size().width() - 40.0;
  if (room > 0.0 && QFontMetricsF(chart_->titleFont()).horizontalAdvance(title) > room)
    title = BrokenInTwo(title.toHtmlEscaped());
  if (title != chart_->title()) chart_->setTitle(title);
  // The value axis' title: smaller, then the names over the unit ("valpha [ra..." was cut).
  const double height = chart_->plotArea().height() - 8.0;
  if (!(height > 0.0)) return;
  QFont font = y_title_font_;
  QString text = y_title_full_;
  auto fits = [&] {
    double longest = 0.0;
    for (const QString& line : text.split(QStringLiteral("<br>")))
      longest = std::max(longest, QFontMetricsF(font).horizontalAdvance(line));
    return longest <= height;
  };
  if (!fits()) font.setPointSizeF(font.pointSizeF() * 0.8);
  if (!fits()) {
    const qsizetype unit = y_title_full_.lastIndexOf(QStringLiteral(" ["));
    text = unit > 0 ? y_title_full_.left(unit) + "<br>" + y_title_full_.mid(unit + 1)
                    : BrokenInTwo(y_title_full_);
  }
  if (y_axis_->titleFont() != font) y_axis_->setTitleFont(font);
  if (y_axis_->titleText() != text) y_axis_->setTitleText(text);
}

void PhaseChart::SetCursorTime(double t) {
  cursor_ = t;
  const dirac::Trajectory* run = trajectory_.get();
  for (std::size_t k = 0; k < cursors_.size(); ++k) {
    QList<QPointF> mark;
    if (run && !run->empty() && problem_.isEmpty()) {
      const std::size_t r = run->RowAtTime(t);
      mark.append({run->at(r, *run->FindColumn(spec_.pairs[k][0])),
                   run->at(r, *run->FindColumn(spec_.pairs[k][1]))});
    }
    cursors_[k]->replace(mark);
  }
}

QList<QPointF> PhaseChart::Points(int pair) const {
  if (pair < 0 || pair >= static_cast<int>(spec_.pairs.size())) return {};
  const auto k = static_cast<std::size_t>(pair);
  return spec_.section.empty() ? curves_[k]->points() : points_[k]->points();
}

QList<QPointF> PhaseChart::CursorPoint(int pair) const {
  if (pair < 0 || pair >= static_cast<int>(cursors_.size())) return {};
  return cursors_[static_cast<std::size_t>(pair)]->points();
}

QString PhaseChart::VisibleCsv() const {
  const dirac::Trajectory* run = trajectory_.get();
  if (!run || run->empty() || !problem_.isEmpty()) return {};
  const dirac::Trajectory& rows = spec_.section.empty() ? *run : section_;
  std::vector<std::size_t> columns{0};
  QStringList header{QStringLiteral("t")};
  for (const auto& pair : spec_.pairs) {
    for (const std::string& name : pair) {
      const std::size_t c = *rows.FindColumn(name);
      if (std::find(columns.begin(), columns.end(), c) != columns.end()) continue;
      columns.push_back(c);
      header << QString::fromStdString(name);
    }
  }
  QString csv = header.join(',') + '\n';
  std::vector<double> values(columns.size());
  for (std::size_t r = 0; r < rows.num_rows(); ++r) {
    for (std::size_t k = 0; k < columns.size(); ++k) values[k] = rows.at(r, columns[k]);
    csv += CsvLine(values);
  }
  return csv;
}

void PhaseChart::Copy() { CopyToClipboard(WidgetImage(*this), VisibleCsv()); }

void PhaseChart::keyPressEvent(QKeyEvent* event) {
  if (event->matches(QKeySequence::Copy)) {
    Copy();
    event->accept();
    return;
  }
  QChartView::keyPressEvent(event);
}

}  // namespace dirac::ui
