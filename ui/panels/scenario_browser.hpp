#pragma once
/// @file scenario_browser.hpp
/// File > Browse scenarios: every scenario file of a folder with its name, description and
/// thumbnail (a shipped picture in the resources, ":/thumbnails/<file base name>.png", else the
/// application icon), grouped (simulation, constraint algorithm, optimal control) and searchable.
/// Choosing one emits scenarioChosen.

#include <QDialog>
#include <QString>
#include <QStringList>

class QFileInfo;
class QIcon;
class QLabel;
class QLineEdit;
class QListWidget;

namespace dirac::ui {

/// Object names: "scenarioBrowser" (the dialog), "scenarioBrowser.search" (a QLineEdit: the
/// rows whose name, file name or description hold every word; Enter opens the selected one),
/// "scenarioBrowser.list" (a QListWidget; a group's heading row first, then each file's item,
/// whose Qt::UserRole is the file's path, its tooltip the description),
/// "scenarioBrowser.description", "scenarioBrowser.open".
class ScenarioBrowser : public QDialog {
  Q_OBJECT

 public:
  /// Lists the *.yaml files of `folder` (sorted by file name). A file that does not parse is
  /// listed with its error as description.
  explicit ScenarioBrowser(const QString& folder, QWidget* parent = nullptr);

  /// The listed files' paths, in order (by group, then file name).
  QStringList paths() const;
  /// The paths the search leaves shown, in order.
  QStringList shown_paths() const;
  /// The group headings shown (those with a shown file), in order.
  QStringList shown_headings() const;
  /// Selects the row of `path` (shown even if the search hid it; false if it is not listed).
  bool Select(const QString& path);

 public slots:
  /// Emits scenarioChosen for the selected row and closes (nothing if none is selected).
  void OpenSelected();

 signals:
  void scenarioChosen(const QString& path);

 private:
  static constexpr int kHeadingRole = Qt::UserRole + 1;
  void AddItem(const QFileInfo& file, const QIcon& fallback);
  void Filter(const QString& text);

  QLineEdit* search_ = nullptr;
  QListWidget* list_ = nullptr;
  QLabel* description_ = nullptr;
};

/// The thumbnail of scenario file `path` (":/thumbnails/<base name>.png"), or a null pixmap.
QString ThumbnailResource(const QString& path);

}  // namespace dirac::ui
