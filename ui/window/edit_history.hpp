#pragma once
/// @file edit_history.hpp
/// Edit > Undo / Redo: every edit of the window (values typed, sliders, ghosts dragged in the
/// 3D view, bounds, boundary values set free, the view toggles) as a step of one QUndoStack,
/// shown in the History dock (a QUndoView).

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

#include "dirac/view_spec.hpp"

#include "run/simulation_snapshot.hpp"
#include "window/workbench_state.hpp"

class QAction;
class QDockWidget;
class QUndoStack;
class QWidget;

namespace dirac::ui {

class EditRouter;
class ParameterPanel;
class PlotPanel;

/// Listens to WorkbenchState::editApplied and pushes one command per edit. A gesture is one
/// step: the edits made while a panel slider is held or while a button is held in the 3D
/// view (a ghost dragged) merge into one, from the value before the press to the value at the
/// release. Undo and redo go back through EditRouter::Replay, which shows the run kept for
/// those values when it can (the exact result, not a re-solve), else runs them. A newly
/// opened scenario clears the history; a reload after a change on disk keeps it (its steps
/// apply by name).
class EditHistory : public QObject {
  Q_OBJECT

 public:
  EditHistory(WorkbenchState* state, EditRouter* router, ParameterPanel* panel, QWidget* scene_view,
              QObject* parent);
  ~EditHistory() override;

  QUndoStack* stack() const { return stack_; }
  /// Makes `undo` and `redo` (the menu's actions) undo and redo, enabled and named after the
  /// step they would take ("Undo kx = 1.2").
  void ConnectActions(QAction* undo, QAction* redo);
  /// Records `action`'s user toggles (its `triggered`) as steps: a view toggle (Compare, the
  /// gauge two-form, a dock shown or hidden).
  void RecordToggles(QAction* action, const QString& what);
  /// Records the user's chart edits (PlotPanel::chartsEdited: a chart added, a column added or
  /// removed) as steps; undo and redo set the charts back (PlotPanel::SetPlots) and fill them
  /// with `shown()`'s run.
  void RecordCharts(PlotPanel* plots, std::function<SnapshotPtr()> shown);
  /// Sets the charts while replaying; used by the commands.
  void ReplayCharts(const std::vector<dirac::PlotSpec>& specs);
  /// A dock "History" ("dock.history") with the list of steps (a QUndoView: a click goes back
  /// to that step), hidden until asked for.
  QDockWidget* MakeDock(QWidget* window);
  /// True while undo or redo applies a step.
  bool replaying() const { return replaying_; }

  /// Applies one step's values (forward: redo) through the router; used by the commands.
  void Replay(const ValueEdit& edit, bool forward, const SnapshotPtr& result);
  /// The router's settled result (null if none); used by the commands.
  SnapshotPtr SettledResult() const;
  /// Sets a toggle while replaying (its `triggered` not recorded again).
  void ReplayToggle(QAction* action, bool checked);

  /// The gesture open now (0 if none): edits with the same one merge.
  int gesture() const { return gesture_open_ ? gesture_ : 0; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void OnEditApplied(const ValueEdit& edit);
  void WatchSliders();
  void BeginGesture();
  void EndGesture() { gesture_open_ = false; }

  WorkbenchState* state_;
  EditRouter* router_;
  ParameterPanel* panel_;
  QUndoStack* stack_;
  PlotPanel* plots_ = nullptr;
  std::function<SnapshotPtr()> shown_;
  int gesture_ = 0;
  bool gesture_open_ = false;
  bool replaying_ = false;
};

}  // namespace dirac::ui
