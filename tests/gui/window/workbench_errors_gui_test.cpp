// Errors a user can act on (issue 10): dependent and vanishing constraints, a singular edit, the
// previous result kept and marked stale, Cancel's status line, a final time of 1e9 bounded.
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>

#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/run_budget.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/shown_result.hpp"
#include "window/workbench_gui_test.hpp"

using namespace dirac::ui::testing::workbench;

namespace {

// Peak resident memory of this process [bytes] (VmHWM), -1 if unknown.
double PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return 1024.0 * std::stod(line.substr(6));
  }
  return -1.0;
}

}  // namespace

void WorkbenchGuiTest::badInputIsExplained() {
  // A duplicated constraint row: named, not "IDACalcIC failed".
  QString text = ReadText(ScenarioPath("heisenberg.yaml"));
  text.replace("  - {name: heisenberg, form: \"vz - y*vx + x*vy\", multiplier: mu}",
               "  - {name: heisenberg, form: \"vz - y*vx + x*vy\", multiplier: mu}\n"
               "  - {name: h2, form: \"2*vz - 2*y*vx + 2*x*vy\", multiplier: mu2}");
  QVERIFY(text.contains("h2"));
  const QString duplicated = dir_.filePath("duplicated.yaml");
  QVERIFY(WriteText(duplicated, text));
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(duplicated));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("constraints heisenberg and h2 are dependent at q0"),
           qPrintable(window->last_error()));
  QVERIFY(!window->last_error().contains("IDACalcIC"));
  QVERIFY(window->plot_panel()->note().contains("failed"));

  // A constraint form that vanishes at the initial point.
  const QString vanishing = dir_.filePath("vanishing.yaml");
  QVERIFY(WriteText(vanishing, R"(name: vanishing form
coordinates:
  - {name: a1, velocity: v1, initial: 0.0, initial_velocity: 0.1}
  - {name: a2, velocity: v2, initial: 0.0, initial_velocity: 0.0}
  - {name: a3, velocity: v3, initial: 0.0, initial_velocity: 0.0}
lagrangian: "(v1^2 + v2^2 + v3^2)/2"
constraints:
  - {name: c, form: "a1*v1 + a2*v2 + a3*v3", multiplier: mu}
simulation: {t_end: 1, output_step: 0.01}
view:
  scene: {type: particle}
  plots:
    - {title: "a", series: [a1]}
)"));
  QVERIFY(window->OpenScenario(vanishing));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains(
               "the constraint form c vanishes at q0 (a1 = 0, a2 = 0, a3 = 0)"),
           qPrintable(window->last_error()));

  // A singular live edit (an inertia 0): the message, and the previous result kept, stale.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
  QVERIFY(window->last_error().isEmpty());
  const SnapshotPtr good = window->controller()->latest();
  const QList<QPointF> shown = window->plot_panel()->SeriesPoints(0, 0);
  QVERIFY(!window->shown_result().stale());
  QVERIFY(window->controller()->SetValue("I1", 0.0));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("singular"), qPrintable(window->last_error()));
  QVERIFY2(window->last_error().contains("rank 2 < 3"), qPrintable(window->last_error()));
  // The long message does not widen the window (the status bar elides it).
  QVERIFY2(window->minimumSizeHint().width() <= 1600,
           qPrintable(QString::number(window->minimumSizeHint().width())));
  QVERIFY(window->shown_result().stale());
  QCOMPARE(window->shown_result().last_good(), good);
  // The last good run, still drawn (at the chart's decimation).
  const std::string column = window->plot_panel()->PlotColumns(0).front().toStdString();
  QCOMPARE(window->plot_panel()->SeriesPoints(0, 0),
           window->plot_panel()->DisplayedCurve(0, 0, good->trajectory->Column("t"),
                                                good->trajectory->Column(column)));
  QVERIFY(!shown.isEmpty());
  QVERIFY2(window->plot_panel()->note().contains("stale"),
           qPrintable(window->plot_panel()->note()));
  auto* note = window->findChild<QLabel*>("plotPanel.note");
  QVERIFY(note && note->isVisible());
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY2(diagnostics->text().contains("previous result"), qPrintable(diagnostics->text()));
  window->grab().save(OutputPath("workbench_stale.png"));
  // A good value again: fresh, not stale.
  QVERIFY(window->controller()->SetValue("I1", 1.0));
  QVERIFY(WaitForRun(*window, good->run));
  QVERIFY(!window->shown_result().stale());
  QVERIFY(window->plot_panel()->note().isEmpty());

  // A first run that fails after streaming samples (q1 ~ e^t overflows near t = 710 s): its
  // partial run stays shown and is named, not "no result".
  QVERIFY(window->OpenScenario(ScenarioPath("degenerate.yaml"), {"t_end=1000"}));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("non-finite"), qPrintable(window->last_error()));
  QVERIFY2(window->plot_panel()->note().contains("partial run up to t = "),
           qPrintable(window->plot_panel()->note()));
  QVERIFY(diagnostics->text().contains("partial run"));
  QVERIFY(!window->plot_panel()->SeriesPoints(0, 0).isEmpty());
}

void WorkbenchGuiTest::cancelSaysSo() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=20000"}));
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY(QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = window->controller()->latest();
        return s && !s->complete && s->last_time() > 1.0;
      },
      kRunTimeoutMs));
  QVERIFY(diagnostics->text().startsWith("simulating"));
  window->actions().cancel->trigger();
  QVERIFY(!window->controller()->busy());
  QVERIFY2(diagnostics->text().startsWith("cancelled at t = "), qPrintable(diagnostics->text()));
  QTest::qWait(300);  // nothing late overwrites it
  QVERIFY2(diagnostics->text().startsWith("cancelled at t = "), qPrintable(diagnostics->text()));
  QVERIFY(!window->actions().cancel->isEnabled());
}

void WorkbenchGuiTest::hugeFinalTimeIsBounded() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  const double columns = static_cast<double>(window->controller()->model()->columns().size());
  // The estimate of the file's run: 50 / 0.01 + 1 samples.
  QVERIFY2(window->run_budget().text().contains("≈ 5001 samples, 400 kB"),
           qPrintable(window->run_budget().text()));
  const std::uint64_t before = window->controller()->latest()->run;

  // The final time box takes 1e9: the stored samples are decimated under the bound.
  QDoubleSpinBox* t_end = window->parameter_panel()->editor("t_end");
  QVERIFY(t_end);
  // Typed as a user would, in scientific notation (a plain QDoubleSpinBox read "1e9" as 19).
  t_end->selectAll();
  QTest::keyClicks(t_end, "1e9");
  QTest::keyClick(t_end, Qt::Key_Return);
  QCOMPARE(t_end->value(), 1e9);
  QCOMPARE(window->controller()->scenario().simulation.t_end, 1e9);
  const double step = window->controller()->scenario().simulation.output_step;
  const double samples = 1e9 / step + 1.0;
  QVERIFY2(samples * columns * 8.0 <= dirac::ui::kMaxStoredTrajectoryBytes,
           qPrintable(QString("step %1").arg(step)));
  QVERIFY(step >= 0.01);
  QVERIFY(window->last_error().isEmpty());

  // The window keeps answering while it runs: a 20 ms timer keeps firing while the run, which
  // cannot finish (1e9 s), streams. Waited for as a condition: ten ticks while the worker is
  // busy (a window frozen by the run would deliver none until the run ends). The count in a
  // given time and the longest gap depend on the load of the machine (a check of "10 ticks in
  // 3 s" saw 4 at load 11-12 beside builds), so they are reported, not asserted; the latency
  // itself is measured by gui_latency (docs/benchmarks.md).
  int ticks = 0;
  int ticks_while_busy = 0;
  qint64 longest_gap_ms = 0;
  QElapsedTimer since_tick;
  since_tick.start();
  QTimer timer;
  QObject::connect(&timer, &QTimer::timeout, [&] {
    ++ticks;
    if (window->controller()->busy()) ++ticks_while_busy;
    longest_gap_ms = std::max(longest_gap_ms, since_tick.restart());
  });
  timer.start(20);
  QVERIFY(window->controller()->busy());
  QTRY_VERIFY_WITH_TIMEOUT(ticks_while_busy >= 10 || !window->controller()->busy(), 300000);
  timer.stop();
  QVERIFY2(ticks_while_busy >= 10 || window->last_error().contains("IDAS"),
           qPrintable(
               QString("%1 ticks while busy; %2").arg(ticks_while_busy).arg(window->last_error())));
  qInfo("%d ticks, %d while the run was busy, longest gap %lld ms", ticks, ticks_while_busy,
        static_cast<long long>(longest_gap_ms));
  // Still integrating towards 1e9, or stopped by IDAS with the reason said and the previous
  // result kept (each output step of 2000 s may take more than IDAS's 500000 steps).
  const SnapshotPtr partial = window->controller()->latest();
  const bool running = window->controller()->busy();
  QVERIFY2(running || (window->shown_result().stale() && window->last_error().contains("IDAS")),
           qPrintable(window->last_error()));
  const double peak = PeakResidentBytes();
  qInfo("t_end 1e9: output step %g s, %s, %zu rows of run %llu, peak RSS %.0f MB, %d ticks: %s",
        step, running ? "running" : "stopped",
        partial->trajectory ? partial->trajectory->num_rows() : 0,
        static_cast<unsigned long long>(partial->run), peak / 1e6, ticks,
        qPrintable(window->last_error()));
  QVERIFY(peak > 0.0 && peak < 1024.0 * 1024.0 * 1024.0);
  // The UI thread answers at once: the time cursor moves.
  window->clock()->SetTime(0.5);
  QCOMPARE(window->clock()->time(), 0.5);
  window->shown_result().CancelRun();
  QVERIFY(!window->controller()->busy());
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY2(diagnostics->text().startsWith(running ? "cancelled" : "run failed"),
           qPrintable(diagnostics->text()));

  // The bound itself: a run of 1e9 s every 0.01 s with 12 columns needs ~9.6 TB.
  const dirac::ui::RunBudget b = dirac::ui::EstimateRun(1e9, 0.01, 12);
  QVERIFY(!b.within);
  QCOMPARE(b.samples, 1e11 + 1.0);
  QVERIFY(b.decimated_step >= 1e9 / (b.max_samples - 1.0));
  QVERIFY(dirac::ui::EstimateRun(50, 0.01, 12).within);
}
