#pragma once
/// @file main_window.hpp
/// The workbench window: constructs the parameter panel, the 3D view, the plots and the
/// constraints panel around one simulation controller and one playback clock, lays them out and
/// makes the window's behaviours, each a small class of its own that subscribes itself to the
/// moments of the window's state (WorkbenchState; window/README.md, "A load's path"):
/// edits (EditRouter), the runs shown (RunPresenter, ShownResult), the solve chip, the run
/// budget, Compare, the gauge view, pinned runs, CSV export, Save scenario as, drops, errors
/// and settings. Its actions and menus come from menu_builders, the toolbar is a
/// PlaybackToolBar, the status bar a WorkbenchStatusBar.

#include <QImage>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <memory>

#include "scenes/scene_registry.hpp"
#include "window/csv_export.hpp"
#include "window/error_reporter.hpp"
#include "window/menu_builders.hpp"
#include "window/pin_reaction.hpp"
#include "window/run_budget_guard.hpp"
#include "window/run_presenter.hpp"
#include "window/scenario_saver.hpp"
#include "window/window_settings.hpp"

class QAction;
class QDockWidget;
class QScrollArea;

namespace dirac::ui {

class CompareReaction;
class ConstraintPanel;
class EditHistory;
class EditRouter;
class GaugeView;
class ScenarioBrowser;
class ParameterPanel;
class PlaybackClock;
class PlaybackToolBar;
class PlotPanel;
class SceneView;
class ShownResult;
class SimulationController;
class SolveChip;
class StabilityDock;
class ScenarioReload;
class SessionReaction;
class WorkbenchState;
class WorkbenchStatusBar;

/// Errors never escape: they appear in the status bar ("status.error") and, for scenario
/// loading when dialogs are enabled, in a non-modal message box ("errorDialog").
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads a scenario file, applies NAME=VALUE overrides in order and starts a run. On failure
  /// shows the error, keeps the previous scenario and returns false.
  bool OpenScenario(const QString& path, const QStringList& overrides = {});
  /// Reads the open file `path` again after a change on disk (ScenarioReload) with the user's
  /// `overrides` where they still apply (each tried alone; those the file no longer takes are
  /// named in the status bar); the pinned run and the undo history stay. On a file that does
  /// not read, as OpenScenario: the error names file and line, the last good result stays.
  bool ReloadScenario(const QString& path, const QStringList& overrides);
  /// Restores the window layout (geometry, docks), the playback speed and loop from QSettings;
  /// from then on they are saved when the window closes (WindowSettings).
  void RestoreSettings();
  /// Saves what RestoreSettings restores.
  void SaveSettings() const;
  /// Plays from the start and pauses at `t` [s], extending the final time if needed.
  void PlayTo(double t);
  /// Makes sure the simulated span reaches `t` [s] (raises t_end and restarts if not).
  void EnsureSpanCovers(double t);
  /// The whole window as on screen, 3D view included (QScreen::grabWindow).
  QImage GrabWindowImage();

  /// Whether scenario errors also open a message box (off for scripted runs).
  void set_error_dialogs(bool enabled) { errors_->set_dialogs(enabled); }
  /// Whether an opened scenario goes to File > Open recent (not for a scripted --screenshot).
  void set_remember_recent(bool remember) { remember_recent_ = remember; }
  /// The last error shown ("" if none since the last successful load).
  const QString& last_error() const { return errors_->last_error(); }
  /// Milliseconds from the newest edit (panel or scene) to the first complete snapshot of it
  /// drawn in the 3D view and the plots (-1 before any); where they went.
  double last_edit_latency_ms() const { return presenter_->last_edit_latency_ms(); }
  const RunPresenter::EditTimes& last_edit_times() const { return presenter_->last_edit_times(); }
  /// The file of the current scenario ("" before the first).
  const QString& scenario_path() const;

  SimulationController* controller() const { return controller_; }
  PlaybackClock* clock() const { return clock_; }
  ParameterPanel* parameter_panel() const { return parameter_panel_; }
  PlotPanel* plot_panel() const { return plot_panel_; }
  SceneView* scene_view() const { return scene_view_; }
  ConstraintPanel* constraint_panel() const { return constraint_panel_; }
  QDockWidget* constraint_dock() const { return constraint_dock_; }
  const WorkbenchActions& actions() const { return actions_; }
  /// "Compare with nonholonomic motion" (objectName "compare.nonholonomic", CompareReaction).
  QAction* compare_action() const { return actions_.compare; }
  /// View > "Gauge two-form" (objectName "action.gaugeTwoForm", GaugeView).
  QAction* gauge_action() const { return actions_.gauge; }
  /// View > Stability (objectName "dock.stability"; its toggle "action.show.stability").
  StabilityDock* stability_dock() const { return stability_; }
  /// The open scenario browser, or null.
  ScenarioBrowser* scenario_browser() const { return browser_; }

  /// The window's state: the open file, its overrides, the moments behaviours listen to.
  WorkbenchState& state() const { return *state_; }
  /// Reload on save.
  ScenarioReload& reload() const { return *reload_; }
  /// Edit > Undo / Redo.
  EditHistory& history() const { return *history_; }
  /// File > Save session / Open session.
  SessionReaction& session() const { return *session_; }
  /// Where errors are shown.
  ErrorReporter& error_reporter() const { return *errors_; }
  /// The window's behaviours.
  CsvExport& csv_export() { return *csv_export_; }
  ScenarioSaver& scenario_saver() { return *saver_; }
  PinReaction& pins() { return *pins_; }
  ShownResult& shown_result() const { return *shown_; }
  const RunBudgetGuard& run_budget() const { return *budget_; }
  const SolveChip& solve_chip() const { return *solve_chip_; }

 public slots:
  void OpenScenarioDialog();
  void SaveScreenshotDialog();
  /// File > Browse scenarios: a non-modal ScenarioBrowser over the shipped scenario folder
  /// (ScenarioDirectory()); choosing one opens it.
  ScenarioBrowser* BrowseScenarios();
  /// Simulation > Rerun: the scenario file as it is on disk now (reloaded if it changed, with
  /// the edits), else the same values again.
  void Rerun();

 signals:
  /// An error was shown to the user.
  void errorShown(const QString& message);
  /// The first complete run after an edit (panel or 3D view) was drawn: 3D view rendered and
  /// plots repainted, `ms` after the edit (last_edit_latency_ms()).
  void editDrawn(double ms);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void BuildDocks();
  void Wire();
  /// Reads `path`, applies `overrides` and hands it over through WorkbenchState::Load.
  bool Load(const QString& path, const QStringList& overrides, bool reload);

  SceneRegistry scenes_ = SceneRegistry::WithBuiltinScenes();
  SimulationController* controller_ = nullptr;
  PlaybackClock* clock_ = nullptr;
  SceneView* scene_view_ = nullptr;
  WorkbenchActions actions_;
  PlaybackToolBar* toolbar_ = nullptr;
  WorkbenchStatusBar* status_ = nullptr;
  ParameterPanel* parameter_panel_ = nullptr;
  PlotPanel* plot_panel_ = nullptr;
  ConstraintPanel* constraint_panel_ = nullptr;
  QDockWidget* parameter_dock_ = nullptr;
  QDockWidget* plot_dock_ = nullptr;
  QDockWidget* constraint_dock_ = nullptr;
  QScrollArea* plot_scroll_ = nullptr;
  ScenarioBrowser* browser_ = nullptr;
  bool remember_recent_ = true;
  bool docks_sized_ = false;  // showEvent

  // The behaviours, in the order they are made (QObjects are children of the window or of
  // their action; the others are owned here).
  ErrorReporter* errors_ = nullptr;
  WorkbenchState* state_ = nullptr;
  WindowSettings settings_;
  RunPresenter* presenter_ = nullptr;
  ShownResult* shown_ = nullptr;
  RunBudgetGuard* budget_ = nullptr;
  SolveChip* solve_chip_ = nullptr;
  EditRouter* edits_ = nullptr;
  PinReaction* pins_ = nullptr;
  CompareReaction* compare_ = nullptr;
  GaugeView* gauge_ = nullptr;
  StabilityDock* stability_ = nullptr;
  std::unique_ptr<CsvExport> csv_export_;
  std::unique_ptr<ScenarioSaver> saver_;
  ScenarioReload* reload_ = nullptr;
  EditHistory* history_ = nullptr;
  SessionReaction* session_ = nullptr;
  QDockWidget* history_dock_ = nullptr;
};

}  // namespace dirac::ui
