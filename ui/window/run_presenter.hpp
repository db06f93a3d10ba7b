#pragma once
/// @file run_presenter.hpp
/// Shows runs: the model's scene and plots when it is ready, each snapshot in the 3D view, the
/// plots, the clock, the toolbar and the status bar, and the time cursor; times an edit from the
/// edit to its run drawn.

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/trajectory.hpp"
#include "dirac/view_spec.hpp"
#include "run/simulation_snapshot.hpp"
#include "window/reaction_context.hpp"

namespace dirac::ui {

class SceneRegistry;

class RunPresenter : public QObject {
  Q_OBJECT

 public:
  /// How a scene edits values (SceneContext::edit).
  using SceneEdit = std::function<void(const std::vector<std::pair<std::string, double>>&)>;
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

  /// The scene comes from `scenes`; it edits values through `scene_edit`. Follows the state's
  /// scenarioLoading (OnScenarioLoading) and modelReady (OnModelReady).
  RunPresenter(const ReactionContext& context, const RunViews& views, const SceneRegistry* scenes,
               SceneEdit scene_edit, QObject* parent);

  /// `scenario` is loading: no scene until its model is ready (the camera is fitted to its
  /// first run); no comparison; the charts the file names, with the units it gives; the clock
  /// paused at 0 over its span; the status line says that the equations are being derived.
  void OnScenarioLoading(const dirac::Scenario& scenario);
  /// What the 3D view says for a scenario without `view.scene` (a notice, not an error).
  static QString NoSceneMessage();
  /// What the 3D view says while a run is shown: the scene's error, NoSceneMessage() for a
  /// scenario without `view.scene`, else "".
  QString SceneMessage() const;
  /// The model is ready: builds its scene (an error is shown in the 3D view and the status bar,
  /// the run goes on; without `view.scene` the view says so, NoSceneMessage) and the plots (the
  /// scenario's, or DefaultPlots if it names none; axes with the units and kinds of the model's
  /// columns). The charts the window makes up itself follow the columns of the run shown
  /// (PlotsFor), and the plots draw the bounds of the run's problem with its active arcs; then
  /// the newest run, if any (ShowLatest).
  void OnModelReady();
  /// The charts for a run with `trajectory`'s columns (null: before any run). The scenario's
  /// own charts as written (a column it lacks is named in the chart's title); the ones the
  /// window makes up, the defaults of a scenario without view.plots and "Hidden-constraint
  /// residuals" (the model's kHiddenConstraintResidual columns), with the run's columns only,
  /// a chart left without any dropped. So a solve by collocation, whose runs carry its mesh
  /// nodes' states and controls rather than the model's columns, gets no empty charts.
  std::vector<dirac::PlotSpec> PlotsFor(const dirac::Trajectory* trajectory) const;
  /// Shows the newest snapshot, if any, and says that the model is running.
  void ShowLatest();
  /// Shows `snapshot` in the plots, the clock, the 3D view and the toolbar (the last good run
  /// after a failure or a cancel).
  void Show(const SnapshotPtr& snapshot);
  /// An edit starts now: the first complete run after it is timed.
  void StartEdit();
  /// A snapshot arrived (SimulationController::snapshotReady): shown in every view; a complete
  /// one that answers the newest edit is drawn at once and timed.
  void OnSnapshot(const SnapshotPtr& snapshot);
  /// The time cursor moved: the 3D view and the charts follow.
  void OnTimeChanged(double t);

  /// Milliseconds from the newest edit to the first complete snapshot of it drawn in the 3D
  /// view and the plots (-1 before any).
  double last_edit_latency_ms() const { return last_edit_latency_ms_; }
  const EditTimes& last_edit_times() const { return last_edit_times_; }

 signals:
  /// The first complete run after an edit was drawn: 3D view rendered and plots repainted,
  /// `ms` after the edit.
  void editDrawn(double ms);

 private:
  void FinishEditFrame(double waited_from, EditTimes times);
  /// The plots' charts for the snapshot's columns (rebuilt only when they change), its bounds
  /// and active arcs.
  void FitPlotsTo(const SimulationSnapshot& snapshot);
  double SinceEdit() const;

  ReactionContext context_;
  RunViews v_;
  const SceneRegistry* scenes_;
  bool scene_given_ = true;  // the scenario has a `view.scene`
  SceneEdit scene_edit_;
  bool camera_fitted_ = false;
  std::vector<dirac::PlotSpec> given_plots_;  // the scenario's charts, or the defaults
  bool plots_made_up_ = false;                // given_plots_ are the defaults
  std::vector<std::string> hidden_columns_;   // the model's hidden-constraint residuals
  std::vector<dirac::PlotSpec> shown_plots_;  // what the plot panel was given
  QElapsedTimer edit_timer_;                  // since the newest edit, until its run is drawn
  std::uint64_t edit_run_ = 0;                // runs after this one answer the edit
  double last_edit_latency_ms_ = -1.0;
  EditTimes last_edit_times_;
};

}  // namespace dirac::ui
