#pragma once
/// @file error_reporter.hpp
/// Errors as the user sees them: the status bar's error line, optionally a non-modal message
/// box, and the error of the 3D view that stays reported while its scenario is loaded.

#include <QObject>
#include <QString>

class QWidget;

namespace dirac::ui {

class WorkbenchState;
class WorkbenchStatusBar;

/// The error dialog's rich text for `message`: its prose escaped and wrapped, its quoted source
/// lines ("  16 | text" and the caret line "     |    ^") in one monospace block that never
/// wraps, so the caret stands under the column it names.
QString ErrorDialogHtml(const QString& message);

/// Shows errors in `status` ("status.error") and, when dialogs are enabled and asked for, in a
/// non-modal message box ("errorDialog") over `dialog_parent`. Never throws.
class ErrorReporter : public QObject {
  Q_OBJECT

 public:
  /// A scenario loading (`state`'s scenarioLoading; may be null) clears the error line and the
  /// 3D view's error.
  ErrorReporter(WorkbenchStatusBar* status, QWidget* dialog_parent,
                WorkbenchState* state = nullptr);

  /// Shows `message` in the status bar (and a message box if `dialog` and dialogs are on).
  void Show(const QString& message, bool dialog);
  /// Clears the error line; the scene error, if any, is shown again.
  void Clear();
  /// The 3D view's error ("3D view: …"), kept while its scenario is loaded; "" clears it. A
  /// non-empty one is shown at once.
  void SetSceneError(const QString& message);
  const QString& scene_error() const { return scene_error_; }
  /// The last error shown ("" if none since the last Clear without a scene error).
  const QString& last_error() const { return last_error_; }
  /// Whether errors that ask for a dialog open one (off for scripted runs).
  void set_dialogs(bool enabled) { dialogs_ = enabled; }
  bool dialogs() const { return dialogs_; }

 signals:
  /// An error was shown to the user.
  void errorShown(const QString& message);

 private:
  WorkbenchStatusBar* status_;
  QWidget* dialog_parent_;
  QString last_error_;
  QString scene_error_;
  bool dialogs_ = true;
};

}  // namespace dirac::ui
