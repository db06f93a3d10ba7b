#pragma once
/// @file scenario_browser.hpp
/// File > Browse scenarios: every scenario file of a folder with its name, description and
/// thumbnail (a shipped picture in the resources, ":/thumbnails/<file base name>.png", else the
/// application icon). Choosing one emits scenarioChosen.

#include <QDialog>
#include <QString>
#include <QStringList>

class QListWidget;
class QLabel;

namespace dirac::ui {

/// Object names: "scenarioBrowser" (the dialog), "scenarioBrowser.list" (a QListWidget; each
/// item's Qt::UserRole is the file's path, its tooltip the description),
/// "scenarioBrowser.description", "scenarioBrowser.open".
class ScenarioBrowser : public QDialog {
  Q_OBJECT

 public:
  /// Lists the *.yaml files of `folder` (sorted by file name). A file that does not parse is
  /// listed with its error as description.
  explicit ScenarioBrowser(const QString& folder, QWidget* parent = nullptr);

  /// The listed files' paths, in order.
  QStringList paths() const;
  /// Selects the row of `path` (false if it is not listed).
  bool Select(const QString& path);

 public slots:
  /// Emits scenarioChosen for the selected row and closes (nothing if none is selected).
  void OpenSelected();

 signals:
  void scenarioChosen(const QString& path);

 private:
  QListWidget* list_ = nullptr;
  QLabel* description_ = nullptr;
};

/// The thumbnail of scenario file `path` (":/thumbnails/<base name>.png"), or a null pixmap.
QString ThumbnailResource(const QString& path);

}  // namespace dirac::ui
