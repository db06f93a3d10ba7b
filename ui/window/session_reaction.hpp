#pragma once
/// @file session_reaction.hpp
/// File > Save session / Open session, `dirac-studio --session FILE` and "Reopen last session
/// on start": a user's working state (session_file.hpp) written and brought back.

#include <QObject>
#include <QString>

#include <optional>

#include "window/session_file.hpp"

class QAction;

namespace dirac::ui {

class MainWindow;

/// Capture reads the window now; Open opens the session's scenario with its overrides and
/// view toggles at once, and the camera, the charts, the pinned run (read from the CSV saved
/// beside the session) and the time cursor once its first run has been shown (before, the
/// window's first-run camera fit and default charts would replace them): restored() then.
class SessionReaction : public QObject {
  Q_OBJECT

 public:
  /// `reopen` is the checkable action "Reopen last session on start" it follows.
  SessionReaction(MainWindow& window, QAction* reopen);

  /// The window's working state now.
  Session Capture() const;
  /// Writes Capture() to `path` (and the pinned run, if any, to PinnedCsvPath(path)); false
  /// with the error shown if it cannot.
  bool Save(const QString& path);
  /// Opens session `path`; false with the error shown (naming the file and key) if it cannot
  /// be read or its scenario cannot be opened. `restore_time` false leaves the time cursor to
  /// the caller (`--play-to`).
  bool Open(const QString& path, bool restore_time = true);
  /// True from Open until the parts that wait for the first run are restored.
  bool restoring() const { return pending_.has_value(); }
  void SaveDialog();
  void OpenDialog();

  /// QSettings "session/reopenLast": on start, the window reopens the session it saved when it
  /// last closed (LastSessionPath()).
  static bool ReopenLastOnStart();
  static void SetReopenLastOnStart(bool reopen);
  /// Where the window keeps its working state when it closes (in the application's data
  /// folder): "last-session.json".
  static QString LastSessionPath();
  /// Saves the working state to LastSessionPath() if the setting is on (on close).
  void SaveLastIfWanted();

 signals:
  /// The parts of an opened session that wait for the first run were restored.
  void restored();

 private:
  void RestoreAfterRun();

  MainWindow& window_;
  std::optional<Session> pending_;
  bool restore_time_ = true;
};

}  // namespace dirac::ui
