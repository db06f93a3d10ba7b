#include "window/window_settings.hpp"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

#include "run/playback_clock.hpp"
#include "window/studio_application.hpp"

namespace dirac::ui {

QStringList WindowSettings::RecentFiles() {
  return QSettings().value("files/recent").toStringList();
}

void WindowSettings::AddRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList files = RecentFiles();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  QSettings().setValue("files/recent", files);
}

QString WindowSettings::LastFolder(const QString& scenario_path) {
  const QString folder = QSettings().value("files/lastFolder").toString();
  if (!folder.isEmpty() && QFileInfo(folder).isDir()) return folder;
  return scenario_path.isEmpty() ? ScenarioDirectory() : QFileInfo(scenario_path).absolutePath();
}

QString WindowSettings::SuggestedPath(const QString& scenario_path, const char* suffix,
                                      const char* fallback) {
  const QString name = scenario_path.isEmpty()
                           ? QString(fallback)
                           : QFileInfo(scenario_path).completeBaseName() + suffix;
  return LastFolder(scenario_path) + "/" + name;
}

void WindowSettings::SetLastFolder(const QString& file_or_folder) {
  const QFileInfo info(file_or_folder);
  QSettings().setValue("files/lastFolder",
                       info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

void WindowSettings::Restore(QMainWindow& window, QAction& loop) {
  QSettings settings;
  if (settings.contains("window/geometry"))
    window.restoreGeometry(settings.value("window/geometry").toByteArray());
  if (settings.contains("window/state"))
    window.restoreState(settings.value("window/state").toByteArray());
  if (settings.contains("playback/speed")) {
    const double speed = settings.value("playback/speed").toDouble();
    if (auto* box = window.findChild<QComboBox*>("playback.speed")) {
      const int index = box->findData(speed);
      if (index >= 0) box->setCurrentIndex(index);
    }
  }
  loop.setChecked(settings.value("playback/loop", false).toBool());
  restored_ = true;
}

void WindowSettings::Save(const QMainWindow& window, const PlaybackClock& clock,
                          const QAction& loop) {
  QSettings settings;
  settings.setValue("window/geometry", window.saveGeometry());
  settings.setValue("window/state", window.saveState());
  settings.setValue("playback/speed", clock.speed());
  settings.setValue("playback/loop", loop.isChecked());
}

}  // namespace dirac::ui
