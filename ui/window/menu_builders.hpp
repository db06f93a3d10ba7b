#pragma once
/// @file menu_builders.hpp
/// The workbench's actions and menus, built outside MainWindow (as ParaView's
/// pqParaViewMenuBuilders build its menus): CreateWorkbenchActions makes every action once,
/// connected to the window's slots, its clock, controller and 3D view; the Build*Menu functions
/// fill menus from them; the playback toolbar (PlaybackToolBar) shares the same actions.

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QDockWidget;
class QMenu;
class QMenuBar;
class QWidget;

namespace dirac::ui {

class MainWindow;

/// Every action of the window, owned by the window. Object names (for tests and scripts):
/// action.open, action.saveScenario, action.exportCsv, action.screenshot,
/// action.exportAnimation, action.quit, action.play, action.step, action.stepBack, action.speedUp,
/// action.speedDown, action.loop, action.reset, action.rerun, action.cancel, action.browse,
/// action.pinRun, action.clearPin, action.shortcuts, action.resetCamera, compare.nonholonomic,
/// action.gaugeTwoForm, action.undo, action.redo, action.saveSession, action.openSession,
/// action.reopenLastSession; the dock toggles are action.show.<dock>; the recent files are in the
/// menu "menu.recent".
///
/// The keyboard actions work whatever widget of the window has focus: a spin box or slider
/// would otherwise take Space, Ctrl+E, Ctrl+Left, ... for itself (InstallWindowShortcuts).
struct WorkbenchActions {
  QAction* open = nullptr;              ///< File > Open scenario… (Ctrl+O)
  QAction* save_scenario = nullptr;     ///< File > Save scenario as… (Ctrl+S, Ctrl+Shift+S)
  QAction* export_csv = nullptr;        ///< File > Export CSV… (Ctrl+E)
  QAction* screenshot = nullptr;        ///< File > Save screenshot…
  QAction* export_animation = nullptr;  ///< File > Export animation… (animation_export.hpp)
  QAction* quit = nullptr;              ///< File > Quit (Ctrl+Q)
  QAction* play = nullptr;              ///< Simulation > Play / Pause (Space)
  QAction* step = nullptr;              ///< Simulation > Step (Ctrl+Right)
  QAction* reset = nullptr;             ///< Simulation > Reset (Ctrl+Home)
  QAction* rerun = nullptr;             ///< Simulation > Rerun simulation (F5)
  QAction* cancel = nullptr;            ///< Simulation > Cancel simulation (enabled while busy)
  QAction* step_back = nullptr;         ///< Simulation > Step back (Ctrl+Left)
  QAction* speed_up = nullptr;          ///< Simulation > Faster (Ctrl+Up): next playback speed
  QAction* speed_down = nullptr;        ///< Simulation > Slower (Ctrl+Down)
  QAction* loop = nullptr;              ///< Simulation > Loop (Ctrl+L, checkable)
  QAction* browse = nullptr;            ///< File > Browse scenarios… (Ctrl+B)
  QAction* pin_run = nullptr;           ///< View > Pin this run (Ctrl+P): overlay in the plots
  QAction* clear_pin = nullptr;         ///< View > Clear pinned run
  QAction* shortcuts = nullptr;         ///< Help > Keyboard shortcuts (F1)
  QAction* reset_camera = nullptr;      ///< View > Reset camera (Ctrl+R)
  /// View > Compare with nonholonomic motion (checkable; enabled and shown for vakonomic
  /// scenarios by the window).
  QAction* compare = nullptr;
  /// View > Gauge two-form (checkable; enabled by the window for models that have it).
  QAction* gauge = nullptr;
  QAction* save_session = nullptr;    ///< File > Save session… (SessionReaction)
  QAction* open_session = nullptr;    ///< File > Open session…
  QAction* reopen_session = nullptr;  ///< File > Reopen last session on start (checkable)
  QAction* undo = nullptr;            ///< Edit > Undo (Ctrl+Z): the window's EditHistory
  QAction* redo = nullptr;            ///< Edit > Redo (Ctrl+Shift+Z, Ctrl+Y)
};

/// Creates the actions with their icons, shortcuts and tooltips, children of `window`, and
/// connects them: File actions to the window's dialogs and behaviours (CSV export, Save
/// scenario as), playback to window.clock(), rerun to window.controller(), cancel to the shown
/// result's CancelRun (enabled while the controller is busy), pin and clear to window.pins(),
/// reset camera to window.scene_view(); the play action follows the clock's playing state.
/// Compare and gauge are followed by the window's CompareReaction and GaugeView.
WorkbenchActions CreateWorkbenchActions(MainWindow& window);

/// Open, Browse scenarios, Open recent (filled from `recent()` each time it opens; choosing one
/// calls `open`), Save scenario as, Export CSV, Save screenshot, Export animation | Open session,
/// Save session, Reopen last session on start | Quit.
void BuildFileMenu(QMenu& menu, const WorkbenchActions& actions,
                   std::function<QStringList()> recent = {},
                   std::function<void(const QString&)> open = {});
/// Makes every keyboard action of `actions` work whatever widget inside `window` has focus:
/// an application event filter takes the ShortcutOverride of their key sequences away from the
/// focused widget (a spin box would keep Ctrl+E, Ctrl+Left, Space) so the action fires.
void InstallWindowShortcuts(QWidget& window, const WorkbenchActions& actions);
/// Every action with a shortcut: "<shortcut>\t<text>" lines, as Help > Keyboard shortcuts
/// lists them.
QStringList ShortcutList(const WorkbenchActions& actions);
/// Undo, Redo.
void BuildEditMenu(QMenu& menu, const WorkbenchActions& actions);
/// Adds the History dock's toggle ("action.show.history") to the Edit menu of `bar`.
void AddHistoryToggle(QMenuBar& bar, QDockWidget* history_dock);
/// Play, Step, Reset | Rerun, Cancel.
void BuildSimulationMenu(QMenu& menu, const WorkbenchActions& actions);
/// Reset camera, Compare, Gauge two-form | a show/hide toggle per dock
/// ("action.show.<name>" for a dock named "dock.<name>").
void BuildViewMenu(QMenu& menu, const WorkbenchActions& actions, const QList<QDockWidget*>& docks);
/// Keyboard shortcuts (actions.shortcuts) and About Dirac Studio (a message box over `parent`).
void BuildHelpMenu(QMenu& menu, QWidget* parent, const WorkbenchActions& actions);
/// File, Edit, Simulation, View and Help ("menu.file", "menu.edit", "menu.simulation",
/// "menu.view", "menu.help")
/// in `bar`, filled by the functions above.
void BuildMenuBar(QMenuBar& bar, const WorkbenchActions& actions, const QList<QDockWidget*>& docks,
                  QWidget* about_parent, std::function<QStringList()> recent = {},
                  std::function<void(const QString&)> open = {});

/// Enables the actions that need an open scenario (Play, Step, Step back, Reset, Rerun, Pin,
/// Save scenario, Export CSV, Export animation, Save session) when `loaded`, else disables them
/// (a window started on a missing file offers nothing that would do nothing).
void EnableScenarioActions(const WorkbenchActions& actions, bool loaded);

/// Shows the play action as Play or Pause (icon, text, tooltip).
void ShowPlayState(QAction* play, bool playing);

}  // namespace dirac::ui
