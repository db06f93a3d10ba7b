#pragma once
/// @file main_window.hpp
/// The workbench window: composes the parameter panel, the 3D view, the plots and the
/// constraints panel around one simulation controller and one playback clock. Its actions and
/// menus come from menu_builders, the toolbar is a PlaybackToolBar, the status bar a
/// WorkbenchStatusBar.

#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "run/simulation_snapshot.hpp"
#include "scenes/scene_registry.hpp"
#include "window/menu_builders.hpp"

class QAction;
class QDockWidget;
class QLabel;

namespace dirac::ui {

class ConstraintPanel;
class ScenarioBrowser;
class ParameterPanel;
class PlaybackClock;
class PlaybackToolBar;
class PlotPanel;
class SceneView;
class SimulationController;
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
  /// Where ExportCsv records the parameter values of the run: nowhere, in "# name = value unit"
  /// comment lines before the CSV header (dirac::ReadCsv skips them), or in a sidecar
  /// "<base>.parameters.yaml" next to the CSV (both written atomically).
  enum class CsvParameters { kNone, kHeaderComment, kSidecar };
  /// Writes the newest trajectory (atomically) to `path` as CSV. Shows the error and returns
  /// false if there is none yet or it cannot be written.
  bool ExportCsv(const QString& path, CsvParameters parameters = CsvParameters::kNone);
  /// The sidecar file ExportCsv writes for `csv_path`.
  static QString ParameterSidecarPath(const QString& csv_path);
  /// Recently opened scenario files, newest first (QSettings "files/recent", at most 10).
  QStringList recent_files() const;
  /// Restores the window layout (geometry, docks), the playback speed and (for the dialogs) the
  /// last folder from QSettings; from then on they are saved when the window closes.
  void RestoreSettings();
  /// Saves what RestoreSettings restores.
  void SaveSettings() const;
  /// The open scenario browser, or null.
  ScenarioBrowser* scenario_browser() const { return browser_; }
  /// Saves the scenario with the current parameter values and initial conditions (atomically)
  /// to `path`; reopening it reproduces the run. Shows the error and returns false on failure.
  bool SaveScenarioAs(const QString& path);
  /// Plays from the start and pauses at `t` [s], extending the final time if needed.
  void PlayTo(double t);
  /// Makes sure the simulated span reaches `t` [s] (raises t_end and restarts if not).
  void EnsureSpanCovers(double t);
  /// The whole window as on screen, 3D view included (QScreen::grabWindow).
  QImage GrabWindowImage();
  /// Pins the newest complete run: the plots draw it dotted under every later run (View > Pin
  /// this run, or a chart's context menu) until ClearPinnedRun or another scenario is opened.
  /// Returns false if there is no complete run yet.
  bool PinCurrentRun();
  void ClearPinnedRun();
  /// The last complete run of the current scenario that did not fail (what stays shown, marked
  /// stale, when a later run fails or is cancelled); null before the first.
  SnapshotPtr last_good_run() const { return last_good_; }
  /// Whether the shown result is stale (a later run failed or was cancelled).
  bool showing_stale() const { return stale_; }
  /// The storage estimate of the current settings ("status.budget": samples, bytes, bound).
  QString budget_text() const;

  /// Whether scenario errors also open a message box (off for scripted runs).
  void set_error_dialogs(bool enabled) { error_dialogs_ = enabled; }
  /// The last error shown ("" if none since the last successful load).
  const QString& last_error() const { return last_error_; }
  /// The solve chip's text ("solveStatus"; "" for scenarios without a solve).
  QString solve_status_text() const;
  /// Milliseconds from the newest edit (panel or scene) to the first complete snapshot of it
  /// drawn in the 3D view and the plots (-1 before any).
  double last_edit_latency_ms() const { return last_edit_latency_ms_; }
  /// Where the last edit's latency went [ms]: from the edit to its complete snapshot reaching
  /// the GUI thread (`arrived`: the run on the worker and the handoff), the scene's
  /// SetSnapshot / SetTime and camera (`scene`), filling the charts' series (`plots`, while the
  /// 3D frame renders on the view's render thread), the 3D frame itself (`render`: VTK's render
  /// and the read back, overlapping `plots`), and from the end of the GUI thread's own work to
  /// the window repainted (`paint`: the rest of the 3D frame, then one repaint of the 3D view and
  /// the charts).
  struct EditTimes {
    double arrived = 0.0, plots = 0.0, scene = 0.0, render = 0.0, paint = 0.0;
  };
  const EditTimes& last_edit_times() const { return last_edit_times_; }

  SimulationController* controller() const { return controller_; }
  PlaybackClock* clock() const { return clock_; }
  ParameterPanel* parameter_panel() const { return parameter_panel_; }
  PlotPanel* plot_panel() const { return plot_panel_; }
  SceneView* scene_view() const { return scene_view_; }
  ConstraintPanel* constraint_panel() const { return constraint_panel_; }
  QDockWidget* constraint_dock() const { return constraint_dock_; }
  const WorkbenchActions& actions() const { return actions_; }
  /// "Compare with nonholonomic motion" (objectName "compare.nonholonomic"): enabled for
  /// vakonomic scenarios; checked, each run also simulates the scenario as a Lagrange–Dirac
  /// (nonholonomic) system and the 3D view draws it in magenta.
  QAction* compare_action() const { return actions_.compare; }
  /// Checks or unchecks the comparison (as the menu action does).
  void SetCompare(bool enabled);
  /// View > "Gauge two-form" (objectName "action.gaugeTwoForm"): enabled when the model has
  /// the capability (Model::gauge_two_form(), a regular Lagrangian on TQ with constraints);
  /// checked, each run also computes it and the plots gain "Gauge two-form B_t" (B_norm,
  /// omega_change) and "Identity residual |phi_t* Omega - Omega - B_t|" (identity_residual).
  QAction* gauge_action() const { return actions_.gauge; }
  /// Checks or unchecks the gauge two-form (as the menu action does).
  void SetGaugeTwoForm(bool enabled);

 public slots:
  void OpenScenarioDialog();
  void ExportCsvDialog();
  void SaveScenarioDialog();
  void SaveScreenshotDialog();
  /// File > Browse scenarios: a non-modal ScenarioBrowser over the shipped scenario folder
  /// (ScenarioDirectory()); choosing one opens it.
  ScenarioBrowser* BrowseScenarios();
  /// Simulation > Cancel: stops the run and says so in the status line (what is shown: the
  /// partial run up to where it stopped, or the previous result, marked stale).
  void CancelRun();
  /// Follows the compare action: the controller compares iff it is checked and applies.
  void UpdateComparison();
  /// Follows the gauge action: the controller computes the gauge two-form iff it is checked;
  /// its two charts are shown iff the current model has it.
  void UpdateGaugeTwoForm();

 signals:
  /// An error was shown to the user.
  void errorShown(const QString& message);
  /// The first complete run after an edit (panel or 3D view) was drawn: 3D view rendered and
  /// plots repainted, `ms` after the edit (last_edit_latency_ms()).
  void editDrawn(double ms);

 protected:
  /// A scenario file (*.yaml, *.yml) dropped onto the window opens.
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void BuildDocks();
  void AddRecentFile(const QString& path);
  QString LastFolder() const;
  void SetLastFolder(const QString& file_or_folder);
  void ShowError(const QString& message, bool dialog);
  void ClearError();

  void OnModelReady();
  void OnGauge(const GaugeResultPtr& result);
  void OnSnapshot(const SnapshotPtr& snapshot);
  void OnFailed(const QString& message);
  void OnValueEdited(const QString& name, double value);
  void OnBoundaryFreed(const QString& name);
  void OnSceneEdited(const std::vector<std::pair<std::string, double>>& values);
  void AfterEdit(const QString& name, double value);
  void OnSolveStatus();
  void OnTimeChanged(double t);
  void ShowSnapshot(const SnapshotPtr& snapshot);
  void UpdateNote();
  void UpdateBudget();
  /// Scrolls the plot dock so chart `index` is at its top.
  void ScrollToPlot(int index);
  /// Applies the storage bound to an edit of t_end / horizon / output_step: false if refused.
  bool GuardRunLength(const QString& name, double value);

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

  QString scenario_path_;
  QString last_error_;
  QString scene_error_;  // why the 3D view is empty, "" if it is not
  bool error_dialogs_ = true;
  bool camera_fitted_ = false;
  SnapshotPtr last_good_;  // newest complete, successful run of this scenario
  bool stale_ = false;     // the plots show last_good_ after a failure / cancel
  QString run_note_;       // the stale note of a failed / cancelled run
  QLabel* budget_label_ = nullptr;
  ScenarioBrowser* browser_ = nullptr;
  bool settings_restored_ = false;
  bool scroll_to_gauge_ = false;  // scroll the gauge charts into view when they first fill
  QElapsedTimer edit_timer_;      // since the newest edit, until its run is drawn
  std::uint64_t edit_run_ = 0;    // runs after this one answer the edit
  double last_edit_latency_ms_ = -1.0;
  EditTimes last_edit_times_;
};

}  // namespace dirac::ui
