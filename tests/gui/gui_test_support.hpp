#pragma once
// Shared by the GUI tests: opening the workbench window and waiting for runs.

#include <QTest>

#include <cstdint>
#include <memory>

#include "main_window.hpp"
#include "simulation_controller.hpp"
#include "simulation_snapshot.hpp"

namespace dirac::ui::testing {

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

}  // namespace dirac::ui::testing
