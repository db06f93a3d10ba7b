#include "window/session_reaction.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <exception>
#include <memory>

#include "dirac/csv.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/error_reporter.hpp"
#include "window/main_window.hpp"
#include "window/window_settings.hpp"
#include "window/workbench_state.hpp"

namespace dirac::ui {

SessionReaction::SessionReaction(MainWindow& window, QAction* reopen)
    : QObject(&window), window_(window) {
  reopen->setChecked(ReopenLastOnStart());
  connect(reopen, &QAction::toggled, this, &SessionReaction::SetReopenLastOnStart);
  connect(&window_.state(), &WorkbenchState::runFinished, this, [this] {
    // After the presenter has drawn the run (its first-run camera fit and charts).
    if (pending_)
      QMetaObject::invokeMethod(this, &SessionReaction::RestoreAfterRun, Qt::QueuedConnection);
  });
}

Session SessionReaction::Capture() const {
  Session s;
  s.scenario = QFileInfo(window_.scenario_path()).absoluteFilePath();
  s.overrides = window_.state().overrides();
  s.camera = window_.scene_view()->camera_pose();
  s.charts = window_.plot_panel()->plot_specs();
  s.compare = window_.compare_action()->isChecked();
  s.gauge = window_.gauge_action()->isChecked();
  s.loop = window_.actions().loop->isChecked();
  s.time = window_.clock()->time();
  for (QDockWidget* dock : window_.findChildren<QDockWidget*>())
    s.docks.emplace_back(dock->objectName().section('.', 1), dock->isVisible());
  return s;
}

bool SessionReaction::Save(const QString& path) {
  Session session = Capture();
  if (window_.pins().pinned()) {
    session.pinned_csv = PinnedCsvPath(QFileInfo(path).absoluteFilePath());
    session.pinned_label = window_.pins().pinned_label();
  }
  try {
    if (!session.pinned_csv.isEmpty())
      dirac::WriteCsv(*window_.pins().pinned(), session.pinned_csv.toStdString());
    WriteSession(session, path);
  } catch (const std::exception& e) {
    window_.error_reporter().Show(tr("Cannot save the session:\n%1").arg(e.what()),
                                  window_.error_reporter().dialogs());
    return false;
  }
  window_.statusBar()->showMessage(tr("Session saved to %1").arg(path), 8000);
  return true;
}

bool SessionReaction::Open(const QString& path, bool restore_time) {
  Session session;
  try {
    session = ReadSession(path);
  } catch (const std::exception& e) {
    window_.error_reporter().Show(tr("Cannot open the session:\n%1").arg(e.what()),
                                  window_.error_reporter().dialogs());
    return false;
  }
  window_.compare_action()->setChecked(session.compare);
  window_.gauge_action()->setChecked(session.gauge);
  window_.actions().loop->setChecked(session.loop);
  if (!window_.OpenScenario(session.scenario, session.overrides)) return false;
  for (const auto& [name, shown] : session.docks)
    if (auto* dock = window_.findChild<QDockWidget*>("dock." + name)) dock->setVisible(shown);
  pending_ = std::move(session);
  restore_time_ = restore_time;
  return true;
}

void SessionReaction::RestoreAfterRun() {
  if (!pending_) return;
  const Session session = std::move(*pending_);
  pending_.reset();
  SnapshotPtr run = window_.controller()->latest();
  if (session.charts) window_.plot_panel()->SetPlots(*session.charts, run ? run->t_end : 0.0);
  if (run) window_.plot_panel()->SetTrajectory(run->trajectory);
  if (session.camera) window_.scene_view()->SetCameraPose(*session.camera);
  if (!session.pinned_csv.isEmpty()) {
    try {
      window_.pins().PinTrajectory(std::make_shared<const dirac::Trajectory>(
                                       dirac::ReadCsv(session.pinned_csv.toStdString())),
                                   session.pinned_label);
    } catch (const std::exception& e) {
      window_.error_reporter().Show(tr("The session's pinned run: %1").arg(e.what()), false);
    }
  }
  if (restore_time_) window_.clock()->SetTime(session.time);
  emit restored();
}

void SessionReaction::SaveDialog() {
  const QString path = QFileDialog::getSaveFileName(
      &window_, tr("Save session"),
      WindowSettings::SuggestedPath(window_.scenario_path(), ".session.json", "dirac.session.json"),
      tr("Dirac Studio sessions (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  WindowSettings::SetLastFolder(path);
  Save(path);
}

void SessionReaction::OpenDialog() {
  const QString path = QFileDialog::getOpenFileName(
      &window_, tr("Open session"), WindowSettings::LastFolder(window_.scenario_path()),
      tr("Dirac Studio sessions (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  WindowSettings::SetLastFolder(path);
  Open(path);
}

bool SessionReaction::ReopenLastOnStart() {
  return QSettings().value("session/reopenLast", false).toBool();
}

void SessionReaction::SetReopenLastOnStart(bool reopen) {
  QSettings().setValue("session/reopenLast", reopen);
}

QString SessionReaction::LastSessionPath() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/last-session.json";
}

void SessionReaction::SaveLastIfWanted() {
  if (!ReopenLastOnStart() || window_.scenario_path().isEmpty()) return;
  QDir().mkpath(QFileInfo(LastSessionPath()).absolutePath());
  Save(LastSessionPath());
}

}  // namespace dirac::ui
