#pragma once
/// @file scene_menu.hpp
/// The 3D view's context menu: the drawn scene's settings (DrawnScene::settings, e.g. the
/// vorticity map's grid resolution) as submenus of checkable choices. It opens on a right click
/// without a drag (a right drag still zooms the camera) when the scene has settings. Ctrl+C on
/// the focused view puts its image on the clipboard.

#include <QObject>
#include <QPoint>

class QMenu;

namespace dirac::ui {

class SceneView;

class SceneMenu : public QObject {
 public:
  /// Watches `view`'s right clicks through an event filter (the view still gets every event);
  /// owned by the view. The window installs one on its 3D view.
  explicit SceneMenu(SceneView* view);

  /// Adds the settings of `view`'s scene to `menu`: one submenu per setting, one checkable
  /// action per choice (object name "sceneSetting.<setting>.<choice>"); triggering one calls
  /// DrawnScene::Choose and redraws the view if the scene changed. Returns the number of
  /// settings added (0 without a scene).
  static int Fill(QMenu& menu, SceneView& view);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  SceneView* view_;
  QPoint press_;
  bool pressed_ = false;
};

}  // namespace dirac::ui
