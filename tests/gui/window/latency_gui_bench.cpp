// Latency benchmark in the real window under Xvfb (issue 9, "Speed"): for every shipped
// scenario, 50 edits through the panel's editors, each timed from the edit (the spin box's
// valueChanged) to the first complete run of it drawn in the window (3D view rendered, plots
// repainted; MainWindow::editDrawn). Free-dynamics scenarios edit their first parameter (else
// their first free initial value); scenarios that pose a solve edit a boundary value in small
// steps, as a drag would. Prints the median and the worst per scenario and writes them as a
// Markdown table to latency.md in the build's tests/gui/ (each scenario opened and left to
// settle for 0.4 s first, as a user looks before dragging). It checks that every edit is drawn,
// not the targets (33 ms / 50 ms median), which depend on the machine. DIRAC_BENCH_SCENARIOS
// (comma-separated base names, e.g. heisenberg,suslov) restricts it to those scenarios.
// DIRAC_BENCH_SMOKE=1 (set by scripts/test.sh in CI) makes 20 edits per scenario: the same
// checks on fewer samples; the tables in docs/benchmarks.md come from full runs.
#include <QApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QTimer>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/solve_chip.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::testing::OpenWindow;

namespace {

// Edits per scenario (even: the median is the mean of the middle two).
int Edits() { return qEnvironmentVariableIntValue("DIRAC_BENCH_SMOKE") != 0 ? 20 : 50; }

// The boundary value a drag would move in each solve scenario (else the first fixed final one).
QString DraggedBoundaryValue(const dirac::Scenario& scenario) {
  for (const char* preferred : {"final.R.z", "final.psi", "final.z", "final.x"})
    if (dirac::ui::IsBoundaryValueName(scenario, preferred) &&
        dirac::ui::GetBoundaryValue(scenario, preferred))
      return preferred;
  for (const auto& info : dirac::ui::ListBoundaryValues(scenario))
    if (!info.initial && !info.horizon && dirac::ui::GetBoundaryValue(scenario, info.name))
      return QString::fromStdString(info.name);
  return {};
}

// CPU time [ms] of the whole process (GUI thread, worker, llvmpipe's threads) or of the calling
// (GUI) thread: on a machine loaded by other processes wall times stretch, CPU times much less.
double CpuMs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool Selected(const QString& file) {
  const QString filter = qEnvironmentVariable("DIRAC_BENCH_SCENARIOS");
  if (filter.isEmpty()) return true;
  return filter.split(',', Qt::SkipEmptyParts).contains(QFileInfo(file).completeBaseName());
}

}  // namespace

class LatencyBench : public QObject {
  Q_OBJECT

 private slots:
  void editToRedrawInTheWindow();
};

void LatencyBench::editToRedrawInTheWindow() {
  auto window = OpenWindow();
  QVERIFY(window);
  const QStringList files = QDir(DIRAC_SCENARIO_DIR).entryList({"*.yaml"}, QDir::Files);
  const int edits = Edits();
  QStringList table{
      "| scenario | kind | edited | median [ms] | worst [ms] | run / solve median [ms] | "
      "arrived / plots / scene / 3D render / paint, medians [ms] | "
      "CPU per edit: process / GUI thread, median [ms] |",
      "| --- | --- | --- | ---: | ---: | ---: | --- | --- |"};
  for (const QString& file : files) {
    if (!Selected(file)) continue;
    QVERIFY(window->OpenScenario(QStringLiteral(DIRAC_SCENARIO_DIR "/") + file));
    QVERIFY2(dirac::ui::testing::WaitForRun(*window), qPrintable(file));
    // The opened scenario drawn and the view settled (its still frame, 180 ms after the last
    // fast one) before the first edit, as a user looks at a scenario before dragging a value.
    QTest::qWait(400);
    auto* controller = window->controller();
    const dirac::Scenario& scenario = controller->scenario();
    const bool solve = controller->solves();
    QString name;
    QDoubleSpinBox* editor = nullptr;
    if (solve) {
      name = DraggedBoundaryValue(scenario);
      editor = window->parameter_panel()->editor(name);
    } else if (!scenario.parameters.empty()) {
      name = QString::fromStdString(scenario.parameters.front().name);
      editor = window->parameter_panel()->editor(name);
    } else {
      for (const auto& info : controller->model()->initial_values()) {
        if (!info.free) continue;
        name = QString::fromStdString(info.name);
        editor = window->parameter_panel()->editor(name);
        break;
      }
    }
    QVERIFY2(editor, qPrintable(file + ": no editor for " + name));
    const double base = editor->value();
    // Steps of 1% of the range (parameters) or 0.01 (values), back and forth.
    const double step = solve || scenario.parameters.empty()
                            ? 0.01
                            : 0.01 * (editor->maximum() - editor->minimum());
    std::vector<double> latency, worker, process_cpu, thread_cpu;
    std::vector<double> parts[5];  // dirac::ui::RunPresenter::EditTimes
    for (int i = 0; i < edits; ++i) {
      const int k = i % 10;
      const double value = base + step * (k < 5 ? k + 1 : 9 - k);
      QEventLoop loop;
      double drawn = -1.0;
      const auto connection = connect(window.get(), &MainWindow::editDrawn, &loop, [&](double ms) {
        drawn = ms;
        loop.quit();
      });
      QTimer::singleShot(60000, &loop, &QEventLoop::quit);
      const double process0 = CpuMs(CLOCK_PROCESS_CPUTIME_ID);
      const double thread0 = CpuMs(CLOCK_THREAD_CPUTIME_ID);
      editor->setValue(value);
      if (drawn < 0) loop.exec();
      process_cpu.push_back(CpuMs(CLOCK_PROCESS_CPUTIME_ID) - process0);
      thread_cpu.push_back(CpuMs(CLOCK_THREAD_CPUTIME_ID) - thread0);
      disconnect(connection);
      QVERIFY2(drawn >= 0, qPrintable(QString("%1: edit %2 never drawn: %3")
                                          .arg(file)
                                          .arg(i)
                                          .arg(window->solve_chip().text())));
      latency.push_back(drawn);
      worker.push_back(1e3 * controller->latest()->wall_seconds);
      const dirac::ui::RunPresenter::EditTimes& times = window->last_edit_times();
      const double piece[5] = {times.arrived, times.plots, times.scene, times.render, times.paint};
      for (int k = 0; k < 5; ++k) parts[k].push_back(piece[k]);
      QTest::qWait(5);  // what the event loop has left (queued repaints) before the next edit
    }
    editor->setValue(base);
    const auto worst = std::max_element(latency.begin(), latency.end());
    qInfo(
        "%s: first edit %.1f ms (arrived %.1f, run %.1f, plots %.1f, render %.1f, paint %.1f), "
        "worst %.1f ms at edit %d",
        qPrintable(file), latency.front(), parts[0].front(), worker.front(), parts[1].front(),
        parts[3].front(), parts[4].front(), *worst, static_cast<int>(worst - latency.begin()));
    std::sort(latency.begin(), latency.end());
    std::sort(worker.begin(), worker.end());
    const double median = 0.5 * (latency[edits / 2 - 1] + latency[edits / 2]);
    const double worker_median = 0.5 * (worker[edits / 2 - 1] + worker[edits / 2]);
    QStringList breakdown;
    for (auto& part : parts) {
      std::sort(part.begin(), part.end());
      breakdown << QString::number(0.5 * (part[edits / 2 - 1] + part[edits / 2]), 'f', 1);
    }
    const QString row =
        QString("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |")
            .arg(QFileInfo(file).completeBaseName(),
                 solve ? QStringLiteral("solve") : QStringLiteral("free dynamics"), name)
            .arg(median, 0, 'f', 1)
            .arg(latency.back(), 0, 'f', 1)
            .arg(worker_median, 0, 'f', 1)
            .arg(breakdown.join(" / "))
            .arg(QString("%1 / %2")
                     .arg(Median(process_cpu), 0, 'f', 1)
                     .arg(Median(thread_cpu), 0, 'f', 1));
    qInfo("%s", qPrintable(row));
    table << row;
  }
  QFile out(QStringLiteral(DIRAC_GUI_TEST_OUTPUT_DIR "/latency.md"));
  QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Text));
  out.write((table.join('\n') + '\n').toUtf8());
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  LatencyBench bench;
  return QTest::qExec(&bench, argc, argv);
}

#include "latency_gui_bench.moc"
