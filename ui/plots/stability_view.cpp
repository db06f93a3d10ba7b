#include "plots/stability_view.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>

namespace dirac::ui {

namespace {

// Branch colours: distinct on white, in the order of the branches.
QColor StabilityBranchColour(int k) {
  static const QColor colours[] = {
      QColor(31, 119, 180), QColor(214, 39, 40),  QColor(44, 160, 44), QColor(148, 103, 189),
      QColor(255, 127, 14), QColor(23, 190, 207), QColor(140, 86, 75), QColor(227, 119, 194)};
  return colours[k % static_cast<int>(std::size(colours))];
}

QString StabilityNumber(double value) { return QString::number(value, 'g', 6); }

QValueAxis* StabilityAxis(QChart* chart, Qt::Alignment where, const QString& title) {
  auto* axis = new QValueAxis(chart);
  axis->setTitleText(title);
  axis->setLabelFormat("%.3g");
  chart->addAxis(axis, where);
  return axis;
}

void StabilityAttach(QChart* chart, QAbstractSeries* series, QValueAxis* x, QValueAxis* y) {
  chart->addSeries(series);
  series->attachAxis(x);
  series->attachAxis(y);
}

void StabilityHideMarker(QChart* chart, QAbstractSeries* series) {
  for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

QChart* StabilityChart(const QString& title) {
  auto* chart = new QChart();
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  return chart;
}

void StabilityClear(QChart* chart) {
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
}

}  // namespace

StabilityView::StabilityView(QWidget* parent) : QWidget(parent) {
  setObjectName("stabilityView");
  sweep_chart_ = StabilityChart(tr("Eigenvalues"));
  spectrum_chart_ = StabilityChart(tr("Spectrum"));
  sweep_view_ = new QChartView(sweep_chart_, this);
  sweep_view_->setObjectName("stability.sweepChart");
  sweep_view_->setRenderHint(QPainter::Antialiasing, false);  // software GL: one-pixel pens
  spectrum_view_ = new QChartView(spectrum_chart_, this);
  spectrum_view_->setObjectName("stability.spectrumChart");
  status_ = new QLabel(this);
  status_->setObjectName("stability.status");
  status_->setWordWrap(true);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("stability.cancel");
  cancel_->setEnabled(false);
  connect(cancel_, &QPushButton::clicked, this, &StabilityView::cancelRequested);

  auto* top = new QHBoxLayout();
  top->addWidget(status_, 1);
  top->addWidget(cancel_);
  auto* charts = new QHBoxLayout();
  charts->addWidget(sweep_view_, 3);
  charts->addWidget(spectrum_view_, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addLayout(charts, 1);
  setMinimumHeight(260);
  ShowMessage(tr("Open a scenario with a stability: block (docs/scenario-format.md)."));
}

void StabilityView::SetBusy(bool busy) {
  busy_ = busy;
  cancel_->setEnabled(busy);
  if (busy) status_->setText(tr("Computing the eigenvalues…"));
}

void StabilityView::ShowMessage(const QString& message) {
  status_->setText(message);
  if (!shown_) {
    StabilityClear(sweep_chart_);
    StabilityClear(spectrum_chart_);
  }
}

void StabilityView::Show(const StabilityResultPtr& result) {
  if (!result) return;
  if (result->cancelled) {
    status_->setText(shown_ ? tr("Cancelled: the curves shown are of the previous values.")
                            : tr("Cancelled."));
    return;
  }
  if (!result->error.isEmpty()) {
    status_->setText(tr("Cannot linearize: %1").arg(result->error));
    return;
  }
  shown_ = result;
  DrawSweep(*result);
  DrawSpectrum(*result);
  const auto& sweep = result->sweep;
  QStringList critical;
  for (const auto& c : sweep.critical)
    critical << QString("%1 = %2 (%3)")
                    .arg(QString::fromStdString(sweep.parameter), StabilityNumber(c.value),
                         c.collision     ? tr("collision")
                         : c.oscillatory ? (c.stabilizing ? tr("a pair turns stable")
                                                          : tr("a pair turns unstable"))
                                         : (c.stabilizing ? tr("a real root turns stable")
                                                          : tr("a real root turns unstable")));
  QStringList stable;
  for (const auto& [from, to] : sweep.stable_intervals)
    stable << QString("[%1, %2]").arg(StabilityNumber(from), StabilityNumber(to));
  status_->setText(tr("Stable for %1 in %2.  Critical: %3.")
                       .arg(QString::fromStdString(sweep.parameter),
                            stable.isEmpty() ? tr("no interval") : stable.join(", "),
                            critical.isEmpty() ? tr("none") : critical.join("; ")));
  LayOutNow();
}

void StabilityView::LayOutNow() {
  for (QChart* chart : {sweep_chart_, spectrum_chart_})
    QCoreApplication::sendPostedEvents(chart, QEvent::LayoutRequest);
}

void StabilityView::DrawSweep(const StabilityResult& result) {
  const auto& sweep = result.sweep;
  StabilityClear(sweep_chart_);
  const QString name = QString::fromStdString(sweep.parameter);
  sweep_chart_->setTitle(
      tr("Eigenvalues against %1: real parts solid, imaginary dashed").arg(name));
  QValueAxis* x = StabilityAxis(sweep_chart_, Qt::AlignBottom, name);
  QValueAxis* y = StabilityAxis(sweep_chart_, Qt::AlignLeft, tr("eigenvalue [1/s]"));
  const auto rows = sweep.eigenvalues.rows(), cols = sweep.eigenvalues.cols();
  if (rows == 0) return;
  const double x0 = std::min(sweep.values.front(), sweep.values.back());
  const double x1 = std::max(sweep.values.front(), sweep.values.back());
  // The classic figure's range: as far down as the largest positive part goes up, so that a
  // far stable branch (the bicycle's castor) leaves the chart rather than flattening the rest.
  double top = 1.0;
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j)
      top = std::max({top, sweep.eigenvalues(i, j).real(), sweep.eigenvalues(i, j).imag()});
  top *= 1.1;
  x->setRange(x0, x1);
  y->setRange(-top, top);

  // Stable intervals first (under the curves).
  for (std::size_t i = 0; i < sweep.stable_intervals.size(); ++i) {
    auto* upper = new QLineSeries(sweep_chart_);
    auto* lower = new QLineSeries(sweep_chart_);
    const auto [from, to] = sweep.stable_intervals[i];
    upper->append(from, top);
    upper->append(to, top);
    lower->append(from, -top);
    lower->append(to, -top);
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);  // removed with it on the next redraw
    lower->setParent(area);
    area->setObjectName(QString("stability.stable.%1").arg(i + 1));
    area->setName(i == 0 ? tr("stable") : QString());
    area->setColor(QColor(200, 235, 200));
    area->setBorderColor(QColor(200, 235, 200));
    StabilityAttach(sweep_chart_, area, x, y);
    if (i > 0) StabilityHideMarker(sweep_chart_, area);
  }
  auto* axis_zero = new QLineSeries(sweep_chart_);
  axis_zero->append(x0, 0.0);
  axis_zero->append(x1, 0.0);
  axis_zero->setPen(QPen(QColor(120, 120, 120), 1));
  StabilityAttach(sweep_chart_, axis_zero, x, y);
  StabilityHideMarker(sweep_chart_, axis_zero);

  // Branch names: the dominant states of the nearest mode at the current value.
  auto label = [&](Eigen::Index j) {
    const std::complex<double> at_current = [&] {
      // The branch's value nearest the current parameter value.
      Eigen::Index best = 0;
      for (Eigen::Index i = 0; i < rows; ++i)
        if (std::abs(sweep.values[static_cast<std::size_t>(i)] - result.current_value) <
            std::abs(sweep.values[static_cast<std::size_t>(best)] - result.current_value))
          best = i;
      return sweep.eigenvalues(best, j);
    }();
    // Modes are listed once per conjugate pair, with Im >= 0.
    const std::complex<double> target(at_current.real(), std::abs(at_current.imag()));
    const dirac::LinearMode* nearest = nullptr;
    for (const auto& mode : result.current.modes)
      if (!nearest || std::abs(mode.eigenvalue - target) < std::abs(nearest->eigenvalue - target))
        nearest = &mode;
    QStringList states;
    if (nearest)
      for (const auto& s : nearest->dominant) states << QString::fromStdString(s);
    return QString("λ%1%2").arg(j + 1).arg(states.isEmpty() ? QString() : ": " + states.join(", "));
  };
  for (Eigen::Index j = 0; j < cols; ++j) {
    const QColor colour = StabilityBranchColour(static_cast<int>(j));
    auto* re = new QLineSeries(sweep_chart_);
    re->setObjectName(QString("stability.re.%1").arg(j + 1));
    re->setName(label(j));
    bool upper_complex = false, lower_part = false;
    QList<QPointF> re_points, im_points;
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double v = sweep.values[static_cast<std::size_t>(i)];
      const std::complex<double> l = sweep.eigenvalues(i, j);
      re_points.append(QPointF(v, l.real()));
      im_points.append(QPointF(v, l.imag()));
      upper_complex |= l.imag() > 1e-9 * std::max(1.0, std::abs(l));
      lower_part |= l.imag() < -1e-9 * std::max(1.0, std::abs(l));
    }
    re->replace(re_points);
    re->setPen(QPen(colour, 2));
    StabilityAttach(sweep_chart_, re, x, y);
    if (upper_complex && !lower_part) {
      auto* im = new QLineSeries(sweep_chart_);
      im->setObjectName(QString("stability.im.%1").arg(j + 1));
      im->replace(im_points);
      im->setPen(QPen(colour, 2, Qt::DashLine));
      StabilityAttach(sweep_chart_, im, x, y);
      StabilityHideMarker(sweep_chart_, im);
    }
  }
  // Critical values as points on the axis, and the current value as a vertical line.
  auto* marks = new QScatterSeries(sweep_chart_);
  marks->setObjectName("stability.critical");
  marks->setName(tr("critical"));
  marks->setMarkerSize(8);
  marks->setColor(Qt::black);
  for (const auto& c : sweep.critical) marks->append(c.value, 0.0);
  StabilityAttach(sweep_chart_, marks, x, y);
  auto* current = new QLineSeries(sweep_chart_);
  current->setObjectName("stability.current");
  current->setName(tr("%1 = %2").arg(name, StabilityNumber(result.current_value)));
  current->append(result.current_value, -top);
  current->append(result.current_value, top);
  current->setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
  StabilityAttach(sweep_chart_, current, x, y);
}

void StabilityView::DrawSpectrum(const StabilityResult& result) {
  StabilityClear(spectrum_chart_);
  const QString name = QString::fromStdString(result.sweep.parameter);
  spectrum_chart_->setTitle(
      tr("Spectrum at %1 = %2").arg(name, StabilityNumber(result.current_value)));
  spectrum_chart_->legend()->setVisible(false);
  QValueAxis* x = StabilityAxis(spectrum_chart_, Qt::AlignBottom, tr("Re λ [1/s]"));
  QValueAxis* y = StabilityAxis(spectrum_chart_, Qt::AlignLeft, tr("Im λ [1/s]"));
  double reach = 1.0;
  for (const auto& l : result.current.eigenvalues)
    reach = std::max({reach, std::abs(l.real()), std::abs(l.imag())});
  reach *= 1.1;
  x->setRange(-reach, reach);
  y->setRange(-reach, reach);
  x->applyNiceNumbers();
  y->applyNiceNumbers();
  reach = std::max(x->max(), y->max());
  // The stable half plane shaded, the imaginary axis drawn.
  auto* upper = new QLineSeries(spectrum_chart_);
  auto* lower = new QLineSeries(spectrum_chart_);
  upper->append(-reach, reach);
  upper->append(0.0, reach);
  lower->append(-reach, -reach);
  lower->append(0.0, -reach);
  auto* half = new QAreaSeries(upper, lower);
  upper->setParent(half);
  lower->setParent(half);
  half->setColor(QColor(200, 235, 200));
  half->setBorderColor(QColor(200, 235, 200));
  StabilityAttach(spectrum_chart_, half, x, y);
  for (const auto& [x0, y0, x1, y1] : {std::array<double, 4>{0.0, -reach, 0.0, reach},
                                       std::array<double, 4>{-reach, 0.0, reach, 0.0}}) {
    auto* line = new QLineSeries(spectrum_chart_);
    line->append(x0, y0);
    line->append(x1, y1);
    line->setPen(QPen(QColor(120, 120, 120), 1));
    StabilityAttach(spectrum_chart_, line, x, y);
  }
  auto* points = new QScatterSeries(spectrum_chart_);
  points->setObjectName("stability.spectrum");
  points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  points->setMarkerSize(10);
  points->setColor(QColor(214, 39, 40));
  for (const auto& l : result.current.eigenvalues) points->append(l.real(), l.imag());
  StabilityAttach(spectrum_chart_, points, x, y);
}

}  // namespace dirac::ui
