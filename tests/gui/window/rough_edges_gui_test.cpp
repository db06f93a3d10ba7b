// The window's minor rough edges of issue 40, each with the assertion that it is gone: editors
// that show 1e-9 (not 0.000000), a Boundary values group that keeps its units and labels its
// check boxes, the error dialog's quoted line in one monospace block, status messages elided
// before the run's status, tick labels "0" where the value is 0, multiplier axes with units,
// gauge directions greyed, a bound band only where every curve is out of bounds, Remove chart
// (undoable), a click in the 3D view that keeps the automatic refit, and a window started on a
// missing file that offers nothing that would do nothing. PNGs to look at: rough_edges_*.png
// in the build's test folder.
#include <QAbstractSeries>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QScrollArea>
#include <QSlider>
#include <QTest>
#include <QToolBar>
#include <QValueAxis>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "panels/number_editors.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/axis_format.hpp"
#include "plots/plot_panel.hpp"
#include "scenes/scene_view.hpp"
#include "window/error_reporter.hpp"
#include "window/main_window.hpp"
#include "window/menu_builders.hpp"
#include "window/workbench_status_bar.hpp"

using dirac::ui::MainWindow;
using dirac::ui::ParameterPanel;
using dirac::ui::PlotPanel;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

// The label Qt Charts prints for `value` with the printf `format` of an axis.
QString Label(const QString& format, double value) {
  return QString::asprintf(format.toLatin1().constData(), value);
}

// The y axis title of the chart of `plots` that shows `column` ("" if none).
QString TitleOfChartWith(const PlotPanel& plots, const QString& column) {
  for (int p = 0; p < plots.plot_count(); ++p)
    if (plots.PlotColumns(p).contains(column)) return plots.axis(p, 1)->titleText();
  return {};
}

}  // namespace

class RoughEdgesGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void editorsShowShortestNumbers();
  void boundaryValuesKeepUnitsAndLabels();
  void errorDialogKeepsTheCaretColumn();
  void statusMessagesElideBeforeTheRunStatus();
  void zeroTicksReadZero();
  void multiplierAxesHaveUnits();
  void gaugeDirectionsAreGreyed();
  void boundBandsOnlyWhereEveryCurveIsOut();
  void removeChartUndoes();
  void clickKeepsTheAutomaticRefit();
  void missingFileOffersNothing();
};

void RoughEdgesGuiTest::editorsShowShortestNumbers() {
  using dirac::ui::ShortestEditorText;
  QCOMPARE(ShortestEditorText(1e-9), QStringLiteral("1e-9"));
  QCOMPARE(ShortestEditorText(0.03), QStringLiteral("0.03"));
  QCOMPARE(ShortestEditorText(2500.0), QStringLiteral("2500"));
  QCOMPARE(ShortestEditorText(-2.5e12), QStringLiteral("-2.5e12"));
  QCOMPARE(ShortestEditorText(0.1 + 0.2), QStringLiteral("0.30000000000000004"));  // all digits
  QCOMPARE(ShortestEditorText(0.0), QStringLiteral("0"));

  // eps = 1e-9 of the minimum-time reorientation: kept and shown as such (was "0.000000", and
  // its value rounded to 0 by the spin box's decimals).
  const dirac::Scenario scenario =
      dirac::LoadScenario(ScenarioPath("reorientation_min_time.yaml").toStdString());
  ParameterPanel panel;
  panel.SetScenario(scenario);
  panel.resize(340, 900);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QDoubleSpinBox* eps = panel.editor("eps");
  QVERIFY(eps);
  QCOMPARE(eps->value(), 1e-9);
  QCOMPARE(eps->cleanText(), QStringLiteral("1e-9"));
  // Typed in scientific notation, read back exactly.
  eps->setValue(2.5e-7);
  QCOMPARE(eps->value(), 2.5e-7);
  QCOMPARE(eps->cleanText(), QStringLiteral("2.5e-7"));
  // A slider lands on its decimal grid: 0.35 of [0, 1e-3] is 3.5e-4, not 3.5000000000000005e-4.
  auto* slider = panel.findChild<QSlider*>("parameter.eps.slider");
  QVERIFY(slider);
  slider->setValue(350);
  QCOMPARE(eps->value(), 3.5e-4);
  QCOMPARE(eps->cleanText(), QStringLiteral("0.00035"));
  // Steps do not pile up float residue: three steps of 1e-5 from 0 are 3e-5.
  eps->setValue(0.0);
  eps->stepBy(3);
  QCOMPARE(eps->value(), 3e-5);
  QCOMPARE(eps->cleanText(), QStringLiteral("3e-5"));
  panel.grab().save(OutputPath("rough_edges_parameters.png"));
}

void RoughEdgesGuiTest::boundaryValuesKeepUnitsAndLabels() {
  const dirac::Scenario scenario =
      dirac::LoadScenario(ScenarioPath("so3_spline.yaml").toStdString());
  QScrollArea scroll;  // as in the window: the dock's width, 300 px at the narrowest
  scroll.setWidgetResizable(true);
  scroll.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the rows fit its width
  auto* owned = new ParameterPanel;                             // the scroll area owns it
  ParameterPanel& panel = *owned;
  panel.SetScenario(scenario);
  scroll.setWidget(owned);
  scroll.resize(300, 900);
  scroll.show();
  QVERIFY(QTest::qWaitForWindowExposed(&scroll));
  QTest::qWait(50);
  int units = 0;
  for (QCheckBox* fixed : panel.findChildren<QCheckBox*>()) {
    const QString name = fixed->objectName();
    if (!name.startsWith("boundary.") || !name.endsWith(".fixed")) continue;
    // Named for assistive technology, and its column headed "fixed".
    QVERIFY2(fixed->accessibleName().endsWith(" fixed"), qPrintable(name));
    const QString base = name.chopped(6);
    auto* unit = panel.findChild<QLabel*>(base + ".unit");
    auto* spin = panel.findChild<QDoubleSpinBox*>(base);
    QVERIFY2(spin, qPrintable(base));
    QVERIFY2(spin->suffix().isEmpty(), qPrintable(spin->suffix()));  // the unit is a label now
    if (!unit) continue;
    ++units;
    // The whole unit shows (the suffix was cut to "rad/"), inside the dock's width.
    QVERIFY2(
        unit->isVisible() && unit->width() >= unit->fontMetrics().horizontalAdvance(unit->text()),
        qPrintable(base + ": " + unit->text()));
    const int right = unit->mapTo(scroll.viewport(), QPoint(unit->width(), 0)).x();
    QVERIFY2(
        right <= scroll.viewport()->width(),
        qPrintable(
            QString("%1 ends at %2 of %3").arg(base).arg(right).arg(scroll.viewport()->width())));
  }
  QVERIFY2(units >= 6, qPrintable(QString::number(units)));  // w1..w3 at 0 and T at least
  QCOMPARE(panel.findChild<QLabel*>("boundary.initial.w1.unit")->text(), QStringLiteral("rad/s"));
  auto* heading = panel.findChild<QLabel*>("parameterPanel.boundary.fixedHeading0");
  QVERIFY(heading && heading->isVisible() && heading->text() == "fixed");
  scroll.grab().save(OutputPath("rough_edges_boundary.png"));
}

void RoughEdgesGuiTest::errorDialogKeepsTheCaretColumn() {
  const QString message =
      "Cannot open scenario:\nbad.yaml:3: invalid YAML: column 13: ']' is never closed\n"
      "  3 | parameters: [ {name: k, default: 1.0}\n"
      "    |             ^";
  const QString html = dirac::ui::ErrorDialogHtml(message);
  // The quoted line and the caret in one block that keeps spaces and never wraps.
  QVERIFY2(html.contains("<pre style=\"font-family: monospace; white-space: pre;\">  3 | "
                         "parameters: [ {name: k, default: 1.0}\n    |             ^</pre>"),
           qPrintable(html));
  QVERIFY2(html.startsWith("<p>Cannot open scenario:</p>"), qPrintable(html));

  QMainWindow parent;
  parent.resize(600, 400);
  dirac::ui::WorkbenchStatusBar status;
  dirac::ui::ErrorReporter errors(&status, &parent);
  parent.show();
  QVERIFY(QTest::qWaitForWindowExposed(&parent));
  errors.Show(message, true);
  auto* box = parent.findChild<QMessageBox*>("errorDialog");
  QVERIFY(box);
  QCOMPARE(box->textFormat(), Qt::RichText);
  QCOMPARE(box->text(), html);
  QVERIFY(QTest::qWaitForWindowExposed(box));
  box->grab().save(OutputPath("rough_edges_error_dialog.png"));
  box->close();
}

void RoughEdgesGuiTest::statusMessagesElideBeforeTheRunStatus() {
  QMainWindow window;
  auto* status = new dirac::ui::WorkbenchStatusBar(&window);
  window.setStatusBar(status);
  window.resize(900, 300);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  status->SetDiagnostics("complete: max |constraint| 3.1e-13, energy drift 2.2e-12, 5001 samples");
  const QString long_message =
      "A run that would store more than the bound stores fewer samples: output step 0.01 s "
      "became 0.05 s for 20000000 samples of 12 columns (the run budget of the window)";
  status->showMessage(long_message, 20000);
  auto* message = window.findChild<QLabel*>("status.message");
  auto* diagnostics = window.findChild<QLabel*>("status.diagnostics");
  QVERIFY(message && diagnostics);
  QTRY_VERIFY(message->isVisible());
  QCOMPARE(message->text(), long_message);
  // Apart from the run's status, elided (its text is wider than it).
  const int text_end = message->mapTo(status, message->contentsRect().topRight()).x();
  QVERIFY2(text_end + 8 < diagnostics->geometry().left(),
           qPrintable(QString("%1 vs %2").arg(text_end).arg(diagnostics->geometry().left())));
  QVERIFY(message->fontMetrics().horizontalAdvance(long_message) > message->contentsRect().width());
  window.grab().save(OutputPath("rough_edges_status.png"));
  status->clearMessage();
  QTRY_VERIFY(!message->isVisible());
}

void RoughEdgesGuiTest::zeroTicksReadZero() {
  using namespace dirac::ui;
  // The data ranges of the issue and random ones over 60 decades: the tick at 0 is computed
  // as exactly 0 (labelled "0.0", never "-0.0", "2.0e-28" or "-1.1e+09").
  std::vector<std::pair<double, double>> ranges = {
      {-0.3, 0.7}, {-3.3e-12, 4.1e-12}, {-2.2e25, 1.7e25}, {-1.1, 0.3}, {-0.35, 0.75}};
  std::mt19937_64 random(40);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    const double scale = std::pow(10.0, -30.0 + 60.0 * unit(random));
    const double lo = -unit(random) * scale;
    ranges.emplace_back(lo, lo + (0.01 + 3.0 * unit(random)) * scale);
  }
  int with_zero = 0;
  for (const auto& [y_min, y_max] : ranges) {
    for (const bool fine : {false, true}) {
      const NiceRange r = NiceValueRange(y_min, y_max, fine);
      const std::vector<double> ticks = FixedTickValues(r.lo, r.hi, r.ticks);
      const double step = (r.hi - r.lo) / (r.ticks - 1);
      for (const double t : ticks) {
        if (std::abs(t) > 1e-6 * step) continue;
        ++with_zero;
        QVERIFY2(t == 0.0, qPrintable(QString("[%1, %2]: %3 labelled %4")
                                          .arg(y_min)
                                          .arg(y_max)
                                          .arg(t)
                                          .arg(Label(r.format, t))));
        QVERIFY(!Label(r.format, t).startsWith('-'));
      }
    }
    // A zoomed axis' dynamic ticks (NiceTicks): the same.
    const double step = (y_max - y_min) / 5.0;
    const DynamicTicks d = ExactZeroDynamicTicks(y_min, y_max, step);
    QVERIFY(std::abs(d.interval - step) <= 1e-12 * step);
    const double nominal = std::floor(y_min / step) * step;
    QVERIFY(std::abs(d.anchor - nominal) <= 1e-12 * step ||
            std::abs(d.anchor - (nominal + step)) <= 1e-12 * step);
    for (const double t : DynamicTickValues(y_min, y_max, d.interval, d.anchor))
      if (std::abs(t) <= 1e-6 * step) QVERIFY2(t == 0.0, qPrintable(QString::number(t)));
  }
  QVERIFY(with_zero > 1000);
}

void RoughEdgesGuiTest::multiplierAxesHaveUnits() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rolling_disk.yaml");
  const QString disk = TitleOfChartWith(*window->plot_panel(), "Fx");
  QVERIFY2(disk.contains("[N]") && disk.contains("force"), qPrintable(disk));
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "lc_circuit.yaml");
  const QString circuit = TitleOfChartWith(*window->plot_panel(), "mu1");
  QVERIFY2(circuit.contains("[V]") && circuit.contains("voltage"), qPrintable(circuit));
  const int voltages = window->plot_panel()->FindPlot("KVL voltages (multipliers)");
  QVERIFY(voltages >= 0);
  QVERIFY2(window->plot_panel()->Readout(voltages, 0.0).contains(" V"),
           qPrintable(window->plot_panel()->Readout(voltages, 0.0)));

  // Gauge directions (the LC circuit's v2, v3, v4: v2' = lambda1): greyed, saying why.
  for (const char* name : {"v2", "v3", "v4"}) {
    QDoubleSpinBox* editor = window->parameter_panel()->editor(name);
    QVERIFY2(editor && !editor->isEnabled(), name);
    QVERIFY2(editor->toolTip().contains("gauge direction"), qPrintable(editor->toolTip()));
  }
  QVERIFY(window->parameter_panel()->editor("v1")->isEnabled());
  QVERIFY(window->findChild<QLabel*>("parameterPanel.gaugeNote"));
}

void RoughEdgesGuiTest::gaugeDirectionsAreGreyed() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "point_vortices.yaml");
  int greyed = 0;
  for (const char* name : {"vx1", "vy1", "vx2", "vy2"}) {
    QDoubleSpinBox* editor = window->parameter_panel()->editor(name);
    if (!editor) continue;
    ++greyed;
    QVERIFY2(!editor->isEnabled(), name);
    QVERIFY2(editor->toolTip().contains("does not depend on"), qPrintable(editor->toolTip()));
  }
  QCOMPARE(greyed, 4);
  QVERIFY(window->parameter_panel()->editor("x1")->isEnabled());
  window->parameter_panel()->grab().save(OutputPath("rough_edges_gauge.png"));
}

void RoughEdgesGuiTest::boundBandsOnlyWhereEveryCurveIsOut() {
  auto window = OpenWindow();
  QVERIFY(window);
  // so3_spline with |u2|, |u3| <= 2 on one side and u3 <= 2 on the other: u1 is free.
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml"),
                               {"bounds.u2.min=-2", "bounds.u3.min=-2", "bounds.u3.max=2"}));
  QVERIFY2(dirac::ui::testing::WaitForOptimum(*window, 0), qPrintable(window->last_error()));
  PlotPanel& plots = *window->plot_panel();
  const int torques = plots.FindPlot("Torques");
  QVERIFY(torques >= 0);
  auto item = [&](const QString& name) -> QAbstractSeries* {
    for (QAbstractSeries* s : plots.chart(torques)->series())
      if (s->objectName() == QStringLiteral("plot.%1.%2").arg(torques).arg(name)) return s;
    return nullptr;
  };
  QVERIFY(item("u3.bound.max") && item("u3.band.max") && item("u2.band.min"));
  QTRY_VERIFY(item("u3.bound.max")->isVisible());
  // No band: u1 has no bound there, so its curve beyond 2 or -2 is no violation.
  QVERIFY(!item("u3.band.max")->isVisible());
  QVERIFY(!item("u2.band.min")->isVisible());
  // u3's own line, in u3's colour.
  QCOMPARE(static_cast<QLineSeries*>(item("u3.bound.max"))->pen().color(),
           static_cast<QLineSeries*>(item("u3"))->pen().color());
  window->findChild<QWidget*>(QStringLiteral("plot.%1").arg(torques))
      ->grab()
      .save(OutputPath("rough_edges_bounds.png"));

  // All three bounded alike (reorientation: |u| <= 50): one band per side, in the bound colour.
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml"),
                               {"bounds.u1.min=-3", "bounds.u1.max=3", "bounds.u2.min=-3",
                                "bounds.u2.max=3", "bounds.u3.min=-3", "bounds.u3.max=3"}));
  QVERIFY2(dirac::ui::testing::WaitForOptimum(*window, 0), qPrintable(window->last_error()));
  const int again = plots.FindPlot("Torques");
  auto shown = [&](const QString& name) {
    for (QAbstractSeries* s : plots.chart(again)->series())
      if (s->objectName() == QStringLiteral("plot.%1.%2").arg(again).arg(name))
        return s->isVisible();
    return false;
  };
  QTRY_VERIFY(shown("u1.band.max") && shown("u1.band.min"));
  QVERIFY(!shown("u2.band.max") && !shown("u3.band.min"));  // one band, not three stacked
}

void RoughEdgesGuiTest::removeChartUndoes() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "point_vortices.yaml");
  PlotPanel& plots = *window->plot_panel();
  const int count = plots.plot_count();
  const QStringList second = plots.PlotColumns(1);
  std::unique_ptr<QMenu> menu = plots.ContextMenu(1);
  auto* remove = menu->findChild<QAction*>("plotPanel.removeChart");
  QVERIFY(remove && remove->isEnabled());
  remove->trigger();
  QCOMPARE(plots.plot_count(), count - 1);
  QVERIFY(plots.PlotColumns(1) != second);
  // Edit > Undo brings it back, in its place.
  QVERIFY(window->actions().undo->isEnabled());
  window->actions().undo->trigger();
  QTRY_COMPARE(plots.plot_count(), count);
  QCOMPARE(plots.PlotColumns(1), second);
  window->actions().redo->trigger();
  QTRY_COMPARE(plots.plot_count(), count - 1);
}

void RoughEdgesGuiTest::clickKeepsTheAutomaticRefit() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "point_vortices.yaml");
  dirac::ui::SceneView* view = window->scene_view();
  view->ResetCamera();
  QVERIFY(!view->camera_moved_by_user());
  const QPoint centre = view->rect().center();
  QTest::mouseClick(view, Qt::LeftButton, {}, centre);
  QVERIFY2(!view->camera_moved_by_user(), "a click took the camera from the automatic refit");
  // A drag does.
  QTest::mousePress(view, Qt::LeftButton, {}, centre);
  for (int k = 1; k <= 6; ++k) {
    QMouseEvent move(QEvent::MouseMove, QPointF(centre + QPoint(12 * k, 5 * k)),
                     view->mapToGlobal(QPointF(centre + QPoint(12 * k, 5 * k))), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &move);
  }
  QTest::mouseRelease(view, Qt::LeftButton, {}, centre + QPoint(72, 30));
  QVERIFY(view->camera_moved_by_user());
}

void RoughEdgesGuiTest::missingFileOffersNothing() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(!window->OpenScenario("/nonexistent/missing.yaml"));
  const dirac::ui::WorkbenchActions& a = window->actions();
  for (QAction* action : {a.play, a.step, a.step_back, a.reset, a.rerun, a.export_csv,
                          a.save_scenario, a.export_animation, a.pin_run})
    QVERIFY2(!action->isEnabled(), qPrintable(action->objectName()));
  QVERIFY(a.open->isEnabled());
  // The empty plot pane says how to start, and offers no disabled "Add chart".
  auto* empty = window->findChild<QLabel*>("plotPanel.empty");
  QVERIFY(empty && empty->isVisible());
  QVERIFY2(empty->text().contains("No scenario open"), qPrintable(empty->text()));
  QVERIFY(window->plot_panel()->ContextMenu(-1)->isEmpty());
  window->grab().save(OutputPath("rough_edges_missing_file.png"));
  // A scenario enables them.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "point_vortices.yaml");
  for (QAction* action : {a.play, a.step, a.rerun, a.export_csv})
    QVERIFY2(action->isEnabled(), qPrintable(action->objectName()));

  // At the narrowest width the toolbar's buttons go icon-only rather than hiding Rerun and
  // Cancel behind "»"; at 1280 px they keep their texts.
  auto* toolbar = window->findChild<QToolBar*>("toolbar.playback");
  QVERIFY(toolbar);
  window->resize(window->minimumSizeHint().width(), 720);
  QTRY_VERIFY(window->width() <= 1100);
  for (QAction* action : {a.rerun, a.cancel}) {
    QWidget* button = toolbar->widgetForAction(action);
    QVERIFY(button);
    QTRY_VERIFY2(button->isVisible() && button->geometry().right() < toolbar->width(),
                 qPrintable(action->objectName()));
  }
  window->grab().save(OutputPath("rough_edges_narrow.png"));
  window->resize(1280, 720);
  QTRY_COMPARE(toolbar->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
  window->grab().save(OutputPath("rough_edges_1280.png"));
}

QTEST_MAIN(RoughEdgesGuiTest)
#include "rough_edges_gui_test.moc"
