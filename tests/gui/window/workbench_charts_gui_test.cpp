// The charts answer (issue 10): pan, rectangle zoom, reset, hover readout, click-to-seek, legend
// toggles, added columns; units and a second axis; pinned and compared runs.
#include <QApplication>
#include <QChart>
#include <QDoubleSpinBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/axis_format.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/workbench_gui_test.hpp"

using namespace dirac::ui::testing::workbench;

namespace {

void SendMouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  QMouseEvent event(type, QPointF(pos), target->mapToGlobal(QPointF(pos)), button, buttons,
                    modifiers);
  QApplication::sendEvent(target, &event);
}

// Whether every value axis title of every chart fits its axis' length (Qt elides one that does
// not, units first).
bool AxisTitlesFit(PlotPanel& plots) {
  for (int p = 0; p < plots.plot_count(); ++p) {
    for (int a = 1; a <= 2; ++a) {
      const QValueAxis* axis = plots.axis(p, a);
      if (axis && QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()) >
                      plots.chart(p)->plotArea().height())
        return false;
    }
  }
  return true;
}

}  // namespace

void WorkbenchGuiTest::chartsAnswer() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  const int p = 0;  // "Multiplier mu(t)"
  QTRY_VERIFY(LaidOut(*plots, p));
  QChart* chart = plots->chart(p);
  QWidget* viewport = Viewport(*window, p);
  QValueAxis* time = plots->axis(p, 0);
  QValueAxis* left = plots->axis(p, 1);
  const double t_end = window->controller()->scenario().simulation.t_end;
  QCOMPARE(time->min(), 0.0);
  QCOMPARE(time->max(), t_end);

  // Every chart keeps its minimum height (the dock scrolls instead of squeezing).
  for (int i = 0; i < plots->plot_count(); ++i) {
    auto* view = window->findChild<QWidget*>(QStringLiteral("plot.%1").arg(i));
    QVERIFY(view->height() >= PlotPanel::kMinChartHeight);
  }

  // Hover: the readout names the time and the value of mu at the nearest sample.
  const QPoint centre = PlotCentre(chart);
  SendMouse(viewport, QEvent::MouseMove, centre, Qt::NoButton, Qt::NoButton);
  auto* readout = window->findChild<QLabel*>("plotPanel.readout");
  QVERIFY(readout && readout->isVisible());
  const double t_hover = chart->mapToValue(centre).x();
  const SnapshotPtr run = window->controller()->latest();
  const std::size_t row = run->trajectory->RowAtTime(t_hover);
  const double mu = run->trajectory->at(row, run->trajectory->ColumnIndex("mu"));
  QVERIFY2(readout->text().contains(QStringLiteral("mu = %1").arg(QString::number(mu, 'g', 6))),
           qPrintable(readout->text()));
  QVERIFY(std::abs(run->trajectory->at(row, 0) - t_hover) <= 0.01 + 1e-9);

  // Click (no drag): the shared time cursor moves there.
  SendMouse(viewport, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
  SendMouse(viewport, QEvent::MouseButtonRelease, centre, Qt::LeftButton, Qt::NoButton);
  QVERIFY2(std::abs(window->clock()->time() - t_hover) < 1e-6 * t_end + 1e-9,
           qPrintable(QString("%1 vs %2").arg(window->clock()->time()).arg(t_hover)));
  QVERIFY(!plots->zoomed(p));

  // Drag: pans (the time range moves left by the dragged span, its width stays).
  const double width = time->max() - time->min();
  SendMouse(viewport, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
  for (int dx = 10; dx <= 100; dx += 10)
    SendMouse(viewport, QEvent::MouseMove, centre + QPoint(dx, 0), Qt::NoButton, Qt::LeftButton);
  SendMouse(viewport, QEvent::MouseButtonRelease, centre + QPoint(100, 0), Qt::LeftButton,
            Qt::NoButton);
  QVERIFY(plots->zoomed(p));
  QVERIFY2(time->min() < -0.1 * width, qPrintable(QString::number(time->min())));
  QVERIFY(std::abs((time->max() - time->min()) - width) < 1e-9 * width);

  // Double-click resets.
  SendMouse(viewport, QEvent::MouseButtonDblClick, centre, Qt::LeftButton, Qt::LeftButton);
  QVERIFY(!plots->zoomed(p));
  QCOMPARE(time->min(), 0.0);
  QCOMPARE(time->max(), t_end);

  // Shift + drag: zoom to the rectangle.
  const QRectF area = chart->plotArea();
  const QPoint a = (area.topLeft() + QPointF(0.25 * area.width(), 0.25 * area.height())).toPoint();
  const QPoint b = (area.topLeft() + QPointF(0.5 * area.width(), 0.75 * area.height())).toPoint();
  const QPointF va = chart->mapToValue(a), vb = chart->mapToValue(b);
  SendMouse(viewport, QEvent::MouseButtonPress, a, Qt::LeftButton, Qt::LeftButton,
            Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseMove, (a + b) / 2, Qt::NoButton, Qt::LeftButton,
            Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseMove, b, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton,
            Qt::ShiftModifier);
  QVERIFY(plots->zoomed(p));
  QVERIFY2(std::abs(time->min() - va.x()) < 0.01 * t_end &&
               std::abs(time->max() - vb.x()) < 0.01 * t_end,
           qPrintable(QString("[%1, %2] vs [%3, %4]")
                          .arg(time->min())
                          .arg(time->max())
                          .arg(va.x())
                          .arg(vb.x())));
  QVERIFY(std::abs(left->max() - va.y()) < 0.02 * std::abs(va.y() - vb.y()));
  QVERIFY(std::abs(left->min() - vb.y()) < 0.02 * std::abs(va.y() - vb.y()));
  // A zoomed chart keeps its view when a new run arrives.
  const double zoom_min = time->min();
  const std::uint64_t before = window->controller()->latest()->run;
  window->parameter_panel()->editor("ky")->setValue(2.2);
  QVERIFY(WaitForRun(*window, before));
  QCOMPARE(time->min(), zoom_min);
  plots->ResetZoom(p);

  // Any trajectory column added from the list, and removed again.
  QVERIFY(plots->AddColumn(p, "x"));
  QCOMPARE(plots->PlotColumns(p), QStringList({"mu", "x"}));
  auto* x_series = window->plot_panel()->FindSeries("plot.0.x");
  QVERIFY(x_series && x_series->count() > 10);
  QCOMPARE(x_series->at(0).y(), 1.0);  // x(0) = 1 in heisenberg.yaml
  // Legend: a click on an entry hides its curve, another shows it.
  QChart* chart_now = plots->chart(p);
  QLegendMarker* x_marker = nullptr;
  for (QLegendMarker* marker : chart_now->legend()->markers())
    if (marker->series()->objectName() == "plot.0.x") x_marker = marker;
  QVERIFY(x_marker);
  emit x_marker->clicked();
  QVERIFY(!plots->SeriesVisible(p, "x"));
  QVERIFY(x_marker->labelBrush().color().alphaF() < 0.5);  // the entry stays, faded
  QVERIFY(!plots->Readout(p, 1.0).contains("x = "));
  emit x_marker->clicked();
  QVERIFY(plots->SeriesVisible(p, "x"));
  QVERIFY(x_marker->labelBrush().color().alphaF() > 0.99);
  QVERIFY(plots->RemoveColumn(p, "x"));
  QCOMPARE(plots->PlotColumns(p), QStringList({"mu"}));
}

void WorkbenchGuiTest::unitsAndAxes() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  // Elroy's beanie: Position [x, y, theta] mixes a position with an angle in rad: two axes.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  const int position = plots->FindPlot("Position");
  QVERIFY(position >= 0);
  QVERIFY(plots->axis(position, 2));
  // Each axis in words with its unit (issue 23: not "theta [rad]", "x, y (group)").
  QVERIFY2(plots->axis(position, 2)->titleText() == "theta: angle [rad]",
           qPrintable(plots->axis(position, 2)->titleText()));
  QVERIFY2(plots->axis(position, 1)->titleText() == "x, y: group element",
           qPrintable(plots->axis(position, 1)->titleText()));

  // Heisenberg: x, y, z in m, their velocities in m/s on the right axis when added.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  QVERIFY(plots->AddColumn(0, "x"));
  QVERIFY(plots->AddColumn(0, "y"));
  QVERIFY(plots->AddColumn(0, "vx"));
  // mu (a multiplier) stays on the left; x, y [m] and vx [m/s] go right, each in words.
  QVERIFY2(plots->axis(0, 1)->titleText() == "mu: multiplier",
           qPrintable(plots->axis(0, 1)->titleText()));
  QVERIFY2(plots->axis(0, 2)->titleText() == "x, y: positions [m]; vx: velocity [m/s]",
           qPrintable(plots->axis(0, 2)->titleText()));
  QVERIFY(plots->Readout(0, 0.0).contains("x = 1 m"));

  // Rigid body: the momentum legend names differ (not three identical truncated names).
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
  const int momentum = plots->FindPlot("Spatial angular momentum R I w");
  QVERIFY(momentum >= 0);
  QStringList labels;
  for (QLegendMarker* marker : plots->chart(momentum)->legend()->markers())
    if (!marker->series()->objectName().endsWith(".cursor")) labels << marker->label();
  QCOMPARE(labels, QStringList({"x", "y", "z"}));
  // The axis says it in words (issue 23), not the raw "spatial_momentum_{x,y,z}".
  const QString momentum_title = plots->axis(momentum, 1)->titleText();
  QVERIFY2(momentum_title.endsWith("spatial momentum"), qPrintable(momentum_title));
  // The legend's text fits: no elision.
  for (const QString& label : labels) QVERIFY(!label.contains(QChar(0x2026)));
  QCOMPARE(dirac::ui::CompactNames({"spatial_momentum_x", "spatial_momentum_y"}),
           QString("spatial_momentum_{x,y}"));
  QCOMPARE(dirac::ui::CompactNames({"w1", "w2"}), QString("w1, w2"));
  QCOMPARE(dirac::ui::CompactNames({"q1_dot", "q2_dot", "q4_dot"}), QString("{q1,q2,q4}_dot"));
  window->grab().save(OutputPath("workbench_rigid_body.png"));

  // Four charts of the LC circuit: every axis title fits its axis (was "{q1,q2,q4}_dot [..."),
  // the unit of the currents included.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "lc_circuit.yaml");
  QTRY_VERIFY(AxisTitlesFit(*plots));
  const int currents = plots->FindPlot("Currents");
  QVERIFY(currents >= 0);
  QVERIFY2(plots->axis(currents, 1)->titleText().contains("[C/s]"),
           qPrintable(plots->axis(currents, 1)->titleText()));
}

void WorkbenchGuiTest::pinnedAndComparedRuns() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  const SnapshotPtr pinned_run = window->controller()->latest();
  QVERIFY(window->pins().Pin());
  QVERIFY(plots->has_overlay(PlotPanel::kPinned));
  const std::uint64_t before = window->controller()->latest()->run;
  window->parameter_panel()->editor("ky")->setValue(3.0);
  QVERIFY(WaitForRun(*window, before));
  auto* pinned = window->plot_panel()->FindSeries("plot.0.mu.pinned");
  QVERIFY(pinned);
  // The pinned run, as it was, at the chart's decimation.
  const QList<QPointF> mu_pinned = plots->DisplayedCurve(0, 0, pinned_run->trajectory->Column("t"),
                                                         pinned_run->trajectory->Column("mu"));
  QCOMPARE(pinned->points(), mu_pinned);
  QVERIFY(plots->SeriesPoints(0, 0) != mu_pinned);  // the new run differs
  window->pins().Clear();
  QVERIFY(!window->plot_panel()->FindSeries("plot.0.mu.pinned"));

  // Compare: the nonholonomic motion of the vakonomic scenario in the plots (y = 0 line).
  QVERIFY(window->OpenScenario(ScenarioPath("vakonomic_heisenberg.yaml")));
  window->compare_action()->setChecked(true);
  QVERIFY2(WaitForRun(*window), qPrintable(window->last_error()));
  QVERIFY(QTest::qWaitFor([&] { return window->controller()->latest()->comparison != nullptr; },
                          kRunTimeoutMs));
  const int position = plots->FindPlot("Position");
  auto* y_other =
      window->plot_panel()->FindSeries(QStringLiteral("plot.%1.y.comparison").arg(position));
  QVERIFY(y_other && y_other->count() > 10);
  double max_y = 0.0;
  for (const QPointF& p : y_other->points()) max_y = std::max(max_y, std::abs(p.y()));
  QVERIFY2(max_y < 1e-8, qPrintable(QString::number(max_y)));
  auto* y_main = window->plot_panel()->FindSeries(QStringLiteral("plot.%1.y").arg(position));
  double max_main = 0.0;
  for (const QPointF& p : y_main->points()) max_main = std::max(max_main, std::abs(p.y()));
  QVERIFY(max_main > 0.5);  // the vakonomic circle about (0, -1)
  QVERIFY(y_other->name().contains("nonholonomic"));
  // One legend entry for the overlay ("nonholonomic"), not one per curve: x, y, z, nonholonomic.
  // (Marker items report visible once their rebuilt chart is shown.)
  auto entries = [&] {
    QStringList labels;
    for (QLegendMarker* marker : plots->chart(position)->legend()->markers())
      if (marker->isVisible()) labels << marker->label();
    return labels;
  };
  QTRY_COMPARE(entries(), QStringList({"x", "y", "z", "nonholonomic (dashed)"}));
  // Each nonholonomic curve dashed in its own curve's colour (issue 40: all magenta, x, y and z
  // could not be told apart).
  QCOMPARE(y_other->pen().color(), y_main->pen().color());
  QCOMPARE(y_other->pen().style(), Qt::DashLine);
  auto* x_main = plots->FindSeries(QStringLiteral("plot.%1.x").arg(position));
  auto* x_other = plots->FindSeries(QStringLiteral("plot.%1.x.comparison").arg(position));
  QVERIFY(x_main && x_other);
  QCOMPARE(x_other->pen().color(), x_main->pen().color());
  QVERIFY(x_other->pen().color() != y_other->pen().color());
  window->compare_action()->setChecked(false);
}
