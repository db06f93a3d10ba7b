#pragma once
// Shared by the GUI tests: paths, opening the workbench window, waiting for runs, colours.

#include <QColor>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QList>
#include <QMetaEnum>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dirac/trajectory.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "window/main_window.hpp"
#include "window/solve_chip.hpp"

namespace dirac::ui::testing {

/// A shipped scenario file.
/// The drawn curve `c` (piecewise linear through its points, t = x increasing) at time `t`.
inline double CurveAt(const QList<QPointF>& c, double t) {
  const auto after =
      std::upper_bound(c.begin(), c.end(), t, [](double x, const QPointF& p) { return x < p.x(); });
  if (after == c.begin()) return c.front().y();
  if (after == c.end()) return c.back().y();
  const QPointF& p = *(after - 1);
  const QPointF& q = *after;
  return q.x() > p.x() ? p.y() + (q.y() - p.y()) * (t - p.x()) / (q.x() - p.x()) : q.y();
}

/// Largest |a(t) - b(t)| between two drawn curves over the times both span, taken at every
/// point of either (the charts simplify curves, so two runs' curves keep different samples).
/// NaN if they share no span.
inline double CurveDifference(const QList<QPointF>& a, const QList<QPointF>& b) {
  if (a.isEmpty() || b.isEmpty()) return std::numeric_limits<double>::quiet_NaN();
  const double t0 = std::max(a.front().x(), b.front().x());
  const double t1 = std::min(a.back().x(), b.back().x());
  if (!(t0 <= t1)) return std::numeric_limits<double>::quiet_NaN();
  double d = 0.0;
  for (const auto* curve : {&a, &b})
    for (const QPointF& p : *curve)
      if (p.x() >= t0 && p.x() <= t1)
        d = std::max(d, std::abs(CurveAt(a, p.x()) - CurveAt(b, p.x())));
  return d;
}

/// CurveDifference's largest value over the pairs of curves (a[s], b[s]) that share a span.
inline double CurveDifference(const std::vector<QList<QPointF>>& a,
                              const std::vector<QList<QPointF>>& b) {
  double d = 0.0;
  for (std::size_t s = 0; s < std::min(a.size(), b.size()); ++s) {
    const double ds = CurveDifference(a[s], b[s]);
    if (std::isfinite(ds)) d = std::max(d, ds);
  }
  return d;
}

inline QString ScenarioPath(const QString& file) {
  return QStringLiteral(DIRAC_SCENARIO_DIR "/") + file;
}
/// Where a test writes its images.
inline QString OutputPath(const QString& file) {
  return QStringLiteral(DIRAC_GUI_TEST_OUTPUT_DIR "/") + file;
}
/// The bodies' saturated orange (255, 140, 0) under lighting.
inline bool IsOrange(QRgb c) {
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return r > 120 && g > 0.35 * r && g < 0.75 * r && b < 0.25 * r;
}

/// The two ends of the vorticity map's cool-warm colours: saturated red and blue.
inline bool IsWarmRed(QRgb c) { return qRed(c) > 150 && qGreen(c) < 90 && qBlue(c) < 100; }
inline bool IsCoolBlue(QRgb c) { return qBlue(c) > 150 && qRed(c) < 110 && qGreen(c) < 140; }

/// Generous: the machine is shared and runs under Xvfb with software OpenGL.
inline constexpr int kRunTimeoutMs = 180000;

/// Measures how long the GUI thread's event loop goes without turning: a 10 ms timer ticks from
/// construction; largest_ms() is the longest time between ticks (or since the last one) [ms].
class EventLoopGaps : public QObject {
 public:
  EventLoopGaps() {
    clock_.start();
    tick_.setInterval(10);
    QObject::connect(&tick_, &QTimer::timeout, [this] {
      const qint64 now = clock_.elapsed();
      largest_ = std::max(largest_, now - last_);
      last_ = now;
    });
    tick_.start();
    // Every event delivered on any object passes here first: the longest time between two
    // deliveries is spent in the handling of the first of them (the 10 ms tick bounds idle
    // stretches), so its receiver and type name what held the loop.
    QCoreApplication::instance()->installEventFilter(this);
  }
  ~EventLoopGaps() override { QCoreApplication::instance()->removeEventFilter(this); }
  double largest_ms() const {
    return static_cast<double>(std::max(largest_, clock_.elapsed() - last_));
  }
  /// The event whose handling took longest since construction, with its duration: "12.3 ms in
  /// QEvent::MetaCall to dirac::ui::GaugeView 'name'" ("" before any event).
  QString longest_event() const {
    return longest_ns_ == 0 ? QString()
                            : QStringLiteral("%1 ms in %2")
                                  .arg(static_cast<double>(longest_ns_) / 1e6, 0, 'f', 1)
                                  .arg(longest_what_);
  }

 protected:
  bool eventFilter(QObject* receiver, QEvent* event) override {
    const qint64 now = clock_.nsecsElapsed();
    if (!previous_what_.isEmpty() && now - previous_ns_ > longest_ns_) {
      longest_ns_ = now - previous_ns_;
      longest_what_ = previous_what_;
    }
    previous_ns_ = now;
    const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type());
    previous_what_ =
        QStringLiteral("%1 to %2 '%3'")
            .arg(type ? QString::fromLatin1(type) : QString::number(event->type()),
                 QString::fromLatin1(receiver->metaObject()->className()), receiver->objectName());
    return false;
  }

 private:
  QElapsedTimer clock_;
  QTimer tick_;
  qint64 last_ = 0, largest_ = 0;
  qint64 previous_ns_ = 0, longest_ns_ = 0;
  QString previous_what_, longest_what_;
};

/// How much longer than its own CPU time a fixed piece of work takes on this thread now:
/// wall / thread CPU time of a busy loop of 30 ms CPU, the median of three (1 on a quiet
/// machine; about 2 to 3 with a CPU hog on every core beside the test).
inline double ContentionNow() {
  const auto thread_cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  double ratios[3];
  for (int k = 0; k < 3; ++k) {
    QElapsedTimer wall;
    wall.start();
    const double cpu0 = thread_cpu();
    volatile double sink = 0.0;
    while (thread_cpu() - cpu0 < 0.03)
      for (int i = 0; i < 1000; ++i) sink = sink + 1e-9 * i;
    ratios[k] = 1e-9 * static_cast<double>(wall.nsecsElapsed()) / (thread_cpu() - cpu0);
  }
  std::sort(std::begin(ratios), std::end(ratios));
  return std::max(1.0, ratios[1]);
}

/// A latency bound stated for a quiet machine, scaled by how loaded the machine is around the
/// measured interval: construct it before, ask Bound() after (the larger of ContentionNow()
/// at both ends, at most 10). The code's own latency is asserted (a regression of more than the
/// factor still fails), not the machine's: CI once failed an "opened in under 500 ms" at
/// 523 ms with a build beside the test.
class LatencyBudget {
 public:
  LatencyBudget() : before_(ContentionNow()) {}
  double Bound(double quiet_ms) {
    if (after_ == 0.0) after_ = ContentionNow();
    return quiet_ms * std::min(10.0, std::max(before_, after_));
  }
  QString Describe(double measured_ms, double quiet_ms) {
    return QStringLiteral("%1 ms against %2 ms (quiet-machine bound %3 ms x contention %4)")
        .arg(measured_ms, 0, 'f', 1)
        .arg(Bound(quiet_ms), 0, 'f', 1)
        .arg(quiet_ms)
        .arg(Bound(quiet_ms) / quiet_ms, 0, 'f', 2);
  }

 private:
  double before_;
  double after_ = 0.0;
};

/// Every point of a drawn curve is a sample (t_k, y_k) of `column` of `trajectory` (the charts
/// decimate and simplify, never interpolate), and the curve spans the run from its first to its
/// last sample. "" if so, else what is wrong. Independent of the chart's size and of when it
/// was laid out (unlike a count of points).
inline QString CurveDrawsColumn(const QList<QPointF>& curve, const dirac::Trajectory& trajectory,
                                const std::string& column) {
  if (trajectory.num_rows() < 2) return "the run has fewer than two samples";
  if (curve.size() < 2) return QStringLiteral("%1 points drawn").arg(curve.size());
  const std::vector<double> t = trajectory.Column("t");
  const std::vector<double> y = trajectory.Column(column);
  if (curve.front().x() != t.front() || curve.back().x() != t.back())
    return QStringLiteral("the curve spans [%1, %2], the run [%3, %4]")
        .arg(curve.front().x())
        .arg(curve.back().x())
        .arg(t.front())
        .arg(t.back());
  for (const QPointF& p : curve) {
    const auto at = std::lower_bound(t.begin(), t.end(), p.x());
    if (at == t.end() || *at != p.x())
      return QStringLiteral("point at t = %1 is not a sample time").arg(p.x(), 0, 'g', 17);
    const double value = y[static_cast<std::size_t>(at - t.begin())];
    if (p.y() != value && !(std::isnan(p.y()) && std::isnan(value)))
      return QStringLiteral("point (%1, %2) is not the sample %3")
          .arg(p.x(), 0, 'g', 17)
          .arg(p.y(), 0, 'g', 17)
          .arg(value, 0, 'g', 17);
  }
  return {};
}

/// A shown, exposed 1600x1000 main window with error dialogs off; null if it never appears.
inline std::unique_ptr<MainWindow> OpenWindow() {
  auto window = std::make_unique<MainWindow>();
  window->set_error_dialogs(false);
  window->resize(1600, 1000);
  window->show();
  if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
  return window;
}

/// Waits until the controller has published a complete run newer than `after_run`.
inline bool WaitForRun(MainWindow& window, std::uint64_t after_run = 0) {
  auto* c = window.controller();
  return QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = c->latest();
        return !c->busy() && s && s->complete && s->run > after_run;
      },
      kRunTimeoutMs);
}

/// Waits for a converged optimum newer than `after_run`; false (with the chip in the log) if the
/// solve failed or timed out.
inline bool WaitForOptimum(MainWindow& window, std::uint64_t after_run) {
  auto* c = window.controller();
  const bool done = QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = c->latest();
        return (!c->busy() && s && s->complete && s->run > after_run) ||
               c->solve_status().state == SolveStatus::State::kFailed;
      },
      kRunTimeoutMs);
  const SnapshotPtr s = c->latest();
  if (!done || !s || !s->solve || !s->solve->converged || s->run <= after_run) {
    qWarning("no optimum: %s", qPrintable(window.solve_chip().text()));
    return false;
  }
  return true;
}

/// Opens the shipped scenario `file` in `window` and waits for its first complete run. Returns
/// "" on success, else what failed (with the window's last error), for QVERIFY2.
inline QString OpenAndRun(MainWindow& window, const QString& file) {
  if (!window.OpenScenario(ScenarioPath(file)))
    return "cannot open " + file + ": " + window.last_error();
  if (!WaitForRun(window)) return "run of " + file + " did not finish: " + window.last_error();
  return {};
}

}  // namespace dirac::ui::testing

/// In a test function: opens the shipped scenario `file` in `window` (a MainWindow&) and waits
/// for its first complete run, failing the test with what went wrong.
#define DIRAC_VERIFY_OPEN_AND_RUN(window, file)                                      \
  do {                                                                               \
    const QString dirac_failed = ::dirac::ui::testing::OpenAndRun((window), (file)); \
    QVERIFY2(dirac_failed.isEmpty(), qPrintable(dirac_failed));                      \
  } while (false)
