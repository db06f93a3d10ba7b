#pragma once
/// @file menu_builders.hpp
/// The workbench's actions and menus, built outside MainWindow (as ParaView's
/// pqParaViewMenuBuilders build its menus): CreateWorkbenchActions makes every action once,
/// connected to the window's slots, its clock, controller and 3D view; the Build*Menu functions
/// fill menus from them; the playback toolbar (PlaybackToolBar) shares the same actions.

#include <QList>

class QAction;
class QDockWidget;
class QMenu;
class QMenuBar;
class QWidget;

namespace dirac::ui {

class MainWindow;

/// Every action of the window, owned by the window. Object names (for tests and scripts):
/// action.open, action.saveScenario, action.exportCsv, action.screenshot, action.quit,
/// action.play, action.step, action.reset, action.rerun, action.cancel, action.resetCamera,
/// compare.nonholonomic, action.gaugeTwoForm; the dock toggles are action.show.<dock>.
struct WorkbenchActions {
  QAction* open = nullptr;           ///< File > Open scenario… (Ctrl+O)
  QAction* save_scenario = nullptr;  ///< File > Save scenario as… (Ctrl+Shift+S)
  QAction* export_csv = nullptr;     ///< File > Export CSV… (Ctrl+E)
  QAction* screenshot = nullptr;     ///< File > Save screenshot…
  QAction* quit = nullptr;           ///< File > Quit (Ctrl+Q)
  QAction* play = nullptr;           ///< Simulation > Play / Pause (Space)
  QAction* step = nullptr;           ///< Simulation > Step (Ctrl+Right)
  QAction* reset = nullptr;          ///< Simulation > Reset (Ctrl+Home)
  QAction* rerun = nullptr;          ///< Simulation > Rerun simulation (F5)
  QAction* cancel = nullptr;         ///< Simulation > Cancel simulation (enabled while busy)
  QAction* reset_camera = nullptr;   ///< View > Reset camera (Ctrl+R)
  /// View > Compare with nonholonomic motion (checkable; enabled and shown for vakonomic
  /// scenarios by the window).
  QAction* compare = nullptr;
  /// View > Gauge two-form (checkable; enabled by the window for models that have it).
  QAction* gauge = nullptr;
};

/// Creates the actions with their icons, shortcuts and tooltips, children of `window`, and
/// connects them: File actions to the window's dialog slots, playback to window.clock(),
/// rerun and cancel to window.controller() (cancel follows busyChanged), reset camera to
/// window.scene_view(), compare and gauge to the window's UpdateComparison and
/// UpdateGaugeTwoForm; the play action follows the clock's playing state.
WorkbenchActions CreateWorkbenchActions(MainWindow& window);

/// Open, Save scenario as, Export CSV, Save screenshot | Quit.
void BuildFileMenu(QMenu& menu, const WorkbenchActions& actions);
/// Play, Step, Reset | Rerun, Cancel.
void BuildSimulationMenu(QMenu& menu, const WorkbenchActions& actions);
/// Reset camera, Compare, Gauge two-form | a show/hide toggle per dock
/// ("action.show.<name>" for a dock named "dock.<name>").
void BuildViewMenu(QMenu& menu, const WorkbenchActions& actions, const QList<QDockWidget*>& docks);
/// About Dirac Studio (a message box over `parent`).
void BuildHelpMenu(QMenu& menu, QWidget* parent);
/// File, Simulation, View and Help ("menu.file", "menu.simulation", "menu.view", "menu.help")
/// in `bar`, filled by the functions above.
void BuildMenuBar(QMenuBar& bar, const WorkbenchActions& actions, const QList<QDockWidget*>& docks,
                  QWidget* about_parent);

/// Shows the play action as Play or Pause (icon, text, tooltip).
void ShowPlayState(QAction* play, bool playing);

}  // namespace dirac::ui
