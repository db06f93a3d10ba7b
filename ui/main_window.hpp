#pragma once
/// @file main_window.hpp
/// The workbench window: parameter panel, 3D view and plots around one simulation controller
/// and one playback clock.

#include <QImage>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include "scene_registry.hpp"
#include "simulation_snapshot.hpp"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSlider;

namespace dirac::ui {

class ConstraintPanel;
class ParameterPanel;
class PlaybackClock;
class PlotPanel;
class SceneView;
class SimulationController;

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
  /// Writes the newest trajectory (atomically) to `path` as CSV. Shows the error and returns
  /// false if there is none yet or it cannot be written.
  bool ExportCsv(const QString& path);
  /// Saves the scenario with the current parameter values and initial conditions (atomically)
  /// to `path`; reopening it reproduces the run. Shows the error and returns false on failure.
  bool SaveScenarioAs(const QString& path);
  /// Plays from the start and pauses at `t` [s], extending the final time if needed.
  void PlayTo(double t);
  /// Makes sure the simulated span reaches `t` [s] (raises t_end and restarts if not).
  void EnsureSpanCovers(double t);
  /// The whole window as on screen, 3D view included (QScreen::grabWindow).
  QImage GrabWindowImage();

  /// Whether scenario errors also open a message box (off for scripted runs).
  void set_error_dialogs(bool enabled) { error_dialogs_ = enabled; }
  /// The last error shown ("" if none since the last successful load).
  const QString& last_error() const { return last_error_; }

  SimulationController* controller() const { return controller_; }
  PlaybackClock* clock() const { return clock_; }
  ParameterPanel* parameter_panel() const { return parameter_panel_; }
  PlotPanel* plot_panel() const { return plot_panel_; }
  SceneView* scene_view() const { return scene_view_; }
  ConstraintPanel* constraint_panel() const { return constraint_panel_; }
  QDockWidget* constraint_dock() const { return constraint_dock_; }
  /// "Compare with nonholonomic motion" (objectName "compare.nonholonomic"): enabled for
  /// vakonomic scenarios; checked, each run also simulates the scenario as a Lagrange–Dirac
  /// (nonholonomic) system and the 3D view draws it in magenta.
  QAction* compare_action() const { return compare_action_; }
  /// Checks or unchecks the comparison (as the menu action does).
  void SetCompare(bool enabled);
  /// View > "Gauge two-form" (objectName "action.gaugeTwoForm"): enabled when the model is a
  /// regular Lagrangian on TQ with constraints (SupportsGaugeTwoForm); checked, each run also
  /// computes dirac::ComputeGaugeTwoForm and the plots gain "Gauge two-form B_t" (B_norm,
  /// omega_change) and "Identity residual |phi_t* Omega - Omega - B_t|" (identity_residual).
  QAction* gauge_action() const { return gauge_action_; }
  /// Checks or unchecks the gauge two-form (as the menu action does).
  void SetGaugeTwoForm(bool enabled);

 public slots:
  void OpenScenarioDialog();
  void ExportCsvDialog();
  void SaveScenarioDialog();
  void SaveScreenshotDialog();

 signals:
  /// An error was shown to the user.
  void errorShown(const QString& message);

 private:
  void BuildActions();
  void BuildToolBar();
  void BuildDocks();
  void BuildStatusBar();
  void ShowError(const QString& message, bool dialog);
  void ClearError();

  void OnModelReady();
  void UpdateComparison();
  void UpdateGaugeTwoForm();
  void OnGauge(const GaugeResultPtr& result);
  void OnSnapshot(const SnapshotPtr& snapshot);
  void OnFailed(const QString& message);
  void OnValueEdited(const QString& name, double value);
  void OnTimeChanged(double t);
  void OnBusyChanged(bool busy);
  void UpdateTimeWidgets();
  void UpdatePlayAction(bool playing);

  SceneRegistry scenes_ = SceneRegistry::WithBuiltinScenes();
  SimulationController* controller_ = nullptr;
  PlaybackClock* clock_ = nullptr;
  ParameterPanel* parameter_panel_ = nullptr;
  PlotPanel* plot_panel_ = nullptr;
  SceneView* scene_view_ = nullptr;

  QAction* open_action_ = nullptr;
  QAction* export_action_ = nullptr;
  QAction* save_scenario_action_ = nullptr;
  QAction* screenshot_action_ = nullptr;
  QAction* quit_action_ = nullptr;
  QAction* play_action_ = nullptr;
  QAction* step_action_ = nullptr;
  QAction* reset_action_ = nullptr;
  QAction* restart_action_ = nullptr;
  QAction* cancel_action_ = nullptr;
  QAction* reset_camera_action_ = nullptr;
  QAction* compare_action_ = nullptr;
  QAction* gauge_action_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QComboBox* speed_ = nullptr;
  QSlider* time_slider_ = nullptr;
  QLabel* time_label_ = nullptr;
  QLabel* error_label_ = nullptr;
  QLabel* diagnostics_label_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QDockWidget* parameter_dock_ = nullptr;
  QDockWidget* plot_dock_ = nullptr;
  QDockWidget* constraint_dock_ = nullptr;
  ConstraintPanel* constraint_panel_ = nullptr;

  QString scenario_path_;
  QString last_error_;
  QString scene_error_;  // why the 3D view is empty, "" if it is not
  bool error_dialogs_ = true;
  bool camera_fitted_ = false;
};

}  // namespace dirac::ui
