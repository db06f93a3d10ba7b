#pragma once
/// @file scenario_reload.hpp
/// Reload on save: the open scenario file is watched, and read again when it changes on disk,
/// with the user's edits in the panel (WorkbenchState::overrides) where they still apply;
/// Rerun runs the file as it is now.

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>

#include "window/reaction_context.hpp"

class QFileSystemWatcher;

namespace dirac::ui {

/// Editors that save by writing a new file and renaming it over the old one (vim, many IDEs)
/// end the watch of the old file: the path is watched again, and its folder is watched too so
/// that a file that reappears is seen. Changes are coalesced for a moment (an editor may write
/// in steps) and compared with what was loaded (bytes, modification time): a change reloads.
/// A file that no longer reads (a syntax error half way through an edit) is reported by the
/// window as any bad file, naming file and line; the last good result stays and the next save
/// reloads again.
class ScenarioReload : public QObject {
  Q_OBJECT

 public:
  /// `reopen(path, overrides)` reads the file again keeping what of `overrides` still applies
  /// (MainWindow::ReloadScenario), returning whether it could be read.
  using Reopen = std::function<bool(const QString& path, const QStringList& overrides)>;
  /// Watches the file of each load (the state's scenarioLoaded) and, after a reload, says in
  /// the status bar what became of the edits.
  ScenarioReload(const ReactionContext& context, Reopen reopen, QObject* parent);

  /// Reads the open file again now (if it changed on disk) keeping the overrides; false if it
  /// changed and cannot be read.
  bool ReloadIfChanged();
  /// Simulation > Rerun: the file as it is now (reloaded if it changed), else the same values
  /// again.
  void Rerun();
  /// Reloads done since the window opened (successful or not).
  int reloads() const { return reloads_; }
  /// The file and folder watched (for tests).
  QStringList watched() const;

 signals:
  /// The open file was read again after a change on disk; `ok` false if it could not be.
  void reloaded(bool ok);

 private:
  void Watch(const QString& path);
  void OnChanged();

  WorkbenchState* state_;
  SimulationController* controller_;
  WorkbenchStatusBar* status_;
  Reopen reopen_;
  QFileSystemWatcher* watcher_;
  QTimer settle_;  // coalesces the writes of one save
  int reloads_ = 0;
  QByteArray failed_bytes_;  // a file that did not read: not read again until it changes
};

}  // namespace dirac::ui
