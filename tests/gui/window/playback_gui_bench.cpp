// Playback benchmark in the real window under Xvfb (issue 9, "Playback is smooth at 60 frames
// per second"): every shipped scenario (or those named in DIRAC_BENCH_SCENARIOS, comma-separated
// base names) is opened, run, and played for a few seconds of wall-clock time. It records:
//  - the frame interval: the wall time between successive ticks of the playback clock (its
//    16 ms timer; a tick that comes late because the GUI thread was busy means a dropped frame);
//  - the work of each frame: the time the GUI thread spent in events (the tick itself, the 3D
//    render, the charts' paint, the rest) from one tick to the next, measured in
//    QApplication::notify;
//  - dropped frames: 16.7 ms slots that passed without a tick (interval / 16.7 ms - 1, rounded);
//  - the CPU time per frame of the whole process (GUI thread, llvmpipe's rasterizer threads) and
//    of the GUI thread: on a machine loaded by other processes the wall times stretch, these
//    much less; and the 3D resolution scale of the view's fast frames (DIRAC_FAST_FRAME_SCALE);
//  - a breakdown of one frame's pieces, each timed synchronously 100 times at playback times:
//    the scene's SetTime (poses, trail), the plots' SetCursorTime, the 3D render (RenderFast,
//    wall and process CPU) and the charts' repaint.
// Prints a Markdown table and writes it to playback.md in the build's tests/gui/. It checks
// that playback advanced, not the 16.7 ms budget, which depends on the machine.
// DIRAC_BENCH_SMOKE=1 (set by scripts/test.sh in CI) plays 1.5 s per scenario and times the
// pieces 30 times: the same checks on fewer samples; the tables in docs/benchmarks.md come from
// full runs.
#include <QAbstractScrollArea>
#include <QApplication>
#include <QChartView>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::testing::OpenWindow;

namespace {

constexpr double kBudgetMs = 1000.0 / 60.0;
// Wall-clock playback per scenario and synchronous samples of the frame's pieces.
bool Smoke() { return qEnvironmentVariableIntValue("DIRAC_BENCH_SMOKE") != 0; }
int PlayMs() { return Smoke() ? 1500 : 4000; }
int PieceSamples() { return Smoke() ? 30 : 100; }
constexpr int kWarmUpFrames = 10;

enum class Kind { kTick, kRender, kCharts, kOther };

// Times every top-level event the GUI thread handles, by kind.
class TimedApplication : public QApplication {
 public:
  using QApplication::QApplication;

  bool notify(QObject* receiver, QEvent* event) override {
    if (!recording) return QApplication::notify(receiver, event);
    // The 3D render and the charts' paint are counted where they happen (a chart's paint runs
    // inside the window's UpdateRequest); the rest of a top-level event goes to its kind.
    const bool top = depth_ == 0;
    const Kind kind = Classify(receiver, event);
    const bool piece = !top && (kind == Kind::kRender || kind == Kind::kCharts) && !in_piece_;
    if (!top && !piece) {
      ++depth_;
      const bool result = QApplication::notify(receiver, event);
      --depth_;
      return result;
    }
    if (top) {
      ticked = false;
      attributed_ = 0.0;
    }
    if (piece) in_piece_ = true;
    ++depth_;
    QElapsedTimer timer;
    timer.start();
    const bool result = QApplication::notify(receiver, event);
    const double ms = static_cast<double>(timer.nsecsElapsed()) * 1e-6;
    --depth_;
    if (piece) {
      in_piece_ = false;
      busy[static_cast<int>(kind)] += ms;
      attributed_ += ms;
    } else {
      const Kind outer = ticked ? Kind::kTick : kind;
      busy[static_cast<int>(outer)] += std::max(0.0, ms - attributed_);
      busy_total += ms;
    }
    return result;
  }

  static Kind Classify(QObject* receiver, QEvent* event) {
    if (qobject_cast<dirac::ui::SceneView*>(receiver) &&
        (event->type() == QEvent::MetaCall || event->type() == QEvent::Paint))
      return Kind::kRender;
    if (event->type() == QEvent::Paint) {
      for (QObject* o = receiver; o; o = o->parent())
        if (qobject_cast<QChartView*>(o)) return Kind::kCharts;
    }
    return Kind::kOther;
  }

  bool recording = false;
  bool ticked = false;  // the playback clock ticked inside the current top-level event
  double busy[4] = {0, 0, 0, 0};
  double busy_total = 0.0;

 private:
  int depth_ = 0;
  bool in_piece_ = false;
  double attributed_ = 0.0;  // of the current top-level event, counted as render / charts
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double k = p * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(std::floor(k));
  const std::size_t j = std::min(i + 1, v.size() - 1);
  return v[i] + (k - static_cast<double>(i)) * (v[j] - v[i]);
}

double MedianOf(std::vector<double> v) { return Percentile(std::move(v), 0.5); }

// CPU time [ms] of the whole process (all threads: the GUI thread, llvmpipe's rasterizer
// threads, the worker) or of the calling thread. On a loaded machine wall times stretch with
// the other processes' load; CPU times do not.
double CpuMs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}
double ProcessCpuMs() { return CpuMs(CLOCK_PROCESS_CPUTIME_ID); }
double ThreadCpuMs() { return CpuMs(CLOCK_THREAD_CPUTIME_ID); }

bool Selected(const QString& file) {
  const QString filter = qEnvironmentVariable("DIRAC_BENCH_SCENARIOS");
  if (filter.isEmpty()) return true;
  return filter.split(',', Qt::SkipEmptyParts).contains(QFileInfo(file).completeBaseName());
}

}  // namespace

class PlaybackBench : public QObject {
  Q_OBJECT

 private slots:
  void playbackFrameTimes();
};

void PlaybackBench::playbackFrameTimes() {
  auto* app = static_cast<TimedApplication*>(QCoreApplication::instance());
  auto window = OpenWindow();
  QVERIFY(window);
  const QStringList files = QDir(DIRAC_SCENARIO_DIR).entryList({"*.yaml"}, QDir::Files);
  QStringList table{
      "| scenario | frames | interval median [ms] | interval p95 [ms] | dropped | work median "
      "[ms] | work p95 [ms] | over 16.7 ms | tick / 3D render / charts / other, median [ms] | "
      "CPU per frame: process / GUI thread [ms] | 3D scale | "
      "SetTime / cursor / render / charts repaint [ms] | render CPU (process) [ms] |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | --- | ---: |"};
  for (const QString& file : files) {
    if (!Selected(file)) continue;
    QVERIFY(window->OpenScenario(QStringLiteral(DIRAC_SCENARIO_DIR "/") + file));
    QVERIFY2(dirac::ui::testing::WaitForRun(*window), qPrintable(file));
    if (!window->scene_view()->scene()) {
      qInfo("%s: no 3D scene, skipped", qPrintable(file));
      continue;
    }
    QTest::qWait(300);  // the first layout and the smooth frame
    auto* clock = window->clock();
    const double span = clock->span();
    clock->Reset();
    clock->SetSpeed(std::min(1.0, 0.9 * span / (PlayMs() * 1e-3)));

    // Playback: one record per tick.
    std::vector<double> interval, work, tick_ms, render_ms, chart_ms, other_ms;
    QElapsedTimer wall;
    double last_tick = -1.0;
    double last_busy[4] = {0, 0, 0, 0};
    int frames = 0;
    const auto connection = connect(clock, &dirac::ui::PlaybackClock::timeChanged, this, [&] {
      app->ticked = true;
      const double now = static_cast<double>(wall.nsecsElapsed()) * 1e-6;
      ++frames;
      if (last_tick >= 0.0 && frames > kWarmUpFrames) {
        // The work since the previous tick (its own tick event is still running: the tick's
        // time is that of the previous one, counted when that event ended).
        double parts[4];
        for (int k = 0; k < 4; ++k) parts[k] = app->busy[k] - last_busy[k];
        interval.push_back(now - last_tick);
        work.push_back(parts[0] + parts[1] + parts[2] + parts[3]);
        tick_ms.push_back(parts[0]);
        render_ms.push_back(parts[1]);
        chart_ms.push_back(parts[2]);
        other_ms.push_back(parts[3]);
      }
      for (int k = 0; k < 4; ++k) last_busy[k] = app->busy[k];
      last_tick = now;
    });
    wall.start();
    app->recording = true;
    const double process_cpu0 = ProcessCpuMs(), thread_cpu0 = ThreadCpuMs();
    // At least PlayMs() of playback and enough frames for the statistics, looping if need be:
    // a condition, not a wall time (a loaded machine plays fewer frames a second; this once
    // counted 12 where 21 were needed).
    const bool looped = clock->loop();
    clock->SetLoop(true);
    clock->Play();
    const bool enough = QTest::qWaitFor(
        [&] { return wall.elapsed() >= PlayMs() && interval.size() > 20; },
        dirac::ui::testing::kRunTimeoutMs);
    clock->Pause();
    clock->SetLoop(looped);
    const double process_cpu = ProcessCpuMs() - process_cpu0;
    const double thread_cpu = ThreadCpuMs() - thread_cpu0;
    const int played = frames;
    const double scale = window->scene_view()->fast_scale();
    app->recording = false;
    disconnect(connection);
    QVERIFY2(enough,
             qPrintable(QString("%1: only %2 frames played").arg(file).arg(interval.size())));
    int dropped = 0;
    for (double ms : interval)
      dropped += std::max(0, static_cast<int>(std::lround(ms / kBudgetMs)) - 1);
    const int over = static_cast<int>(
        std::count_if(work.begin(), work.end(), [](double ms) { return ms > kBudgetMs; }));

    // The pieces of one frame, each timed synchronously at playback times.
    std::vector<double> set_time, cursor, render, render_cpu, repaint;
    auto* view = window->scene_view();
    auto* plots = window->plot_panel();
    const int samples = PieceSamples();
    for (int i = 0; i < samples; ++i) {
      const double t = span * (0.2 + 0.6 * i / samples);
      QElapsedTimer timer;
      timer.start();
      view->scene()->SetTime(t);
      set_time.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-6);
      timer.restart();
      plots->SetCursorTime(t);
      cursor.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-6);
      timer.restart();
      const double cpu0 = ProcessCpuMs();
      view->RenderFast();
      render.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-6);
      render_cpu.push_back(ProcessCpuMs() - cpu0);
      timer.restart();
      plots->repaint();
      repaint.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-6);
    }
    QTest::qWait(250);

    const QString row =
        QString("| %1 | %2 | %3 | %4 | %5 (%6%) | %7 | %8 | %9 | %10 | %11 | %12 | %13 | %14 |")
            .arg(QFileInfo(file).completeBaseName())
            .arg(interval.size())
            .arg(MedianOf(interval), 0, 'f', 1)
            .arg(Percentile(interval, 0.95), 0, 'f', 1)
            .arg(dropped)
            .arg(100.0 * dropped / (dropped + static_cast<double>(interval.size())), 0, 'f', 0)
            .arg(MedianOf(work), 0, 'f', 1)
            .arg(Percentile(work, 0.95), 0, 'f', 1)
            .arg(over)
            .arg(QString("%1 / %2 / %3 / %4")
                     .arg(MedianOf(tick_ms), 0, 'f', 1)
                     .arg(MedianOf(render_ms), 0, 'f', 1)
                     .arg(MedianOf(chart_ms), 0, 'f', 1)
                     .arg(MedianOf(other_ms), 0, 'f', 1))
            .arg(QString("%1 / %2")
                     .arg(process_cpu / std::max(1, played), 0, 'f', 1)
                     .arg(thread_cpu / std::max(1, played), 0, 'f', 1))
            .arg(scale, 0, 'f', 2)
            .arg(QString("%1 / %2 / %3 / %4")
                     .arg(MedianOf(set_time), 0, 'f', 2)
                     .arg(MedianOf(cursor), 0, 'f', 2)
                     .arg(MedianOf(render), 0, 'f', 1)
                     .arg(MedianOf(repaint), 0, 'f', 1))
            .arg(MedianOf(render_cpu), 0, 'f', 1);
    qInfo("%s", qPrintable(row));
    table << row;
  }
  QFile out(QStringLiteral(DIRAC_GUI_TEST_OUTPUT_DIR "/playback.md"));
  QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Text));
  out.write((table.join('\n') + '\n').toUtf8());
}

int main(int argc, char** argv) {
  TimedApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  PlaybackBench bench;
  return QTest::qExec(&bench, argc, argv);
}

#include "playback_gui_bench.moc"
