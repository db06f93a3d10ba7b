#pragma once
/// @file window_settings.hpp
/// What the window remembers across sessions (QSettings): its geometry and dock layout, the
/// playback speed and loop, the recent scenario files and the last folder of the file dialogs.

#include <QString>
#include <QStringList>

class QAction;
class QMainWindow;

namespace dirac::ui {

class PlaybackClock;

/// Restore reads the settings once (interactive runs only; `--screenshot` runs neither read nor
/// write them); from then on the window saves them when it closes (`restored()`).
class WindowSettings {
 public:
  /// How many recent files File > Open recent keeps.
  static constexpr int kMaxRecentFiles = 10;

  /// Recently opened scenario files, newest first (QSettings "files/recent").
  static QStringList RecentFiles();
  /// Puts `path` (made absolute) first in the recent files.
  static void AddRecentFile(const QString& path);
  /// The folder the file dialogs start in: the last one used ("files/lastFolder") if it still
  /// exists, else the folder of `scenario_path`, else the shipped scenarios' folder.
  static QString LastFolder(const QString& scenario_path);
  /// Where a save dialog starts: LastFolder(scenario_path) / the scenario's base name + `suffix`
  /// (`fallback` without a scenario).
  static QString SuggestedPath(const QString& scenario_path, const char* suffix,
                               const char* fallback);
  /// Remembers the folder of `file_or_folder` for the next dialog.
  static void SetLastFolder(const QString& file_or_folder);

  /// Restores the window's geometry and dock state, the playback speed (the "playback.speed"
  /// box among the window's children) and `loop`'s check state.
  void Restore(QMainWindow& window, QAction& loop);
  /// Saves what Restore restores.
  static void Save(const QMainWindow& window, const PlaybackClock& clock, const QAction& loop);
  /// Whether Restore ran (the window saves on close only then).
  bool restored() const { return restored_; }

 private:
  bool restored_ = false;
};

}  // namespace dirac::ui
