#pragma once
// Shared by the GUI tests: paths, opening the workbench window, waiting for runs, colours.

#include <QColor>
#include <QString>
#include <QTest>

#include <cstdint>
#include <memory>

#include "main_window.hpp"
#include "simulation_controller.hpp"
#include "simulation_snapshot.hpp"

namespace dirac::ui::testing {

/// A shipped scenario file.
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

/// Generous: the machine is shared and runs under Xvfb with software OpenGL.
inline constexpr int kRunTimeoutMs = 180000;

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
