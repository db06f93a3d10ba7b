#pragma once
/// @file shown_result.hpp
/// Which result the window shows and what it says about it: the last good run, kept and marked
/// stale when a later run fails or is cancelled, and the note over the plots.

#include <QObject>
#include <QString>

#include "run/simulation_snapshot.hpp"
#include "window/reaction_context.hpp"

namespace dirac::ui {

class ConstraintPanel;
class PlotPanel;
class RunPresenter;
class SceneView;

/// The note over the plots ("plotPanel.note") says "stale: the last run failed — showing the
/// previous result", "stale: re-solving", "not solved: initial guess", … ; the diagnostics line
/// and the 3D view say the same.
class ShownResult : public QObject {
  Q_OBJECT

 public:
  /// Shows results through `presenter`; says what is shown over the plots, the 3D view and the
  /// Constraints panel (when there is no model). Resets on the state's scenarioLoading.
  ShownResult(const ReactionContext& context, RunPresenter* presenter, PlotPanel* plots,
              SceneView* scene_view, ConstraintPanel* constraints, QObject* parent);

  /// A new scenario: no last good run, nothing stale, no note.
  void Reset();
  /// A snapshot arrived: a complete one becomes the last good run (not stale).
  void OnSnapshot(const SnapshotPtr& snapshot);
  /// The run (or the derivation) failed with `message`: said over the 3D view, in the status
  /// bar and over the plots; the last good run is shown again, stale, else the partial run.
  void OnFailed(const QString& message);
  /// Simulation > Cancel: stops the run and says so in the status line (what is shown: the
  /// partial run up to where it stopped, or the previous result, marked stale).
  void CancelRun();
  /// Sets the note over the plots from the run's note and the solve's status.
  void UpdateNote();

  /// The last complete run of the current scenario that did not fail; null before the first.
  SnapshotPtr last_good() const { return last_good_; }
  /// Whether the shown result is stale (a later run failed or was cancelled).
  bool stale() const { return stale_; }

 private:
  ReactionContext context_;
  RunPresenter* presenter_;
  PlotPanel* plots_;
  SceneView* scene_view_;
  ConstraintPanel* constraints_;
  SnapshotPtr last_good_;  // newest complete, successful run of this scenario
  bool stale_ = false;     // the plots show last_good_ after a failure / cancel
  QString run_note_;       // the stale note of a failed / cancelled run
};

}  // namespace dirac::ui
