#pragma once
/// @file edit_router.hpp
/// Edits, from the parameter panel or from the 3D view, to the run: each edit goes to the
/// controller (the run length through the budget guard), the other editors follow, and its run
/// is timed until drawn.

#include <QObject>
#include <QString>

#include <string>
#include <utility>
#include <vector>

#include "window/run_presenter.hpp"
#include "window/workbench_state.hpp"

namespace dirac::ui {

class ParameterPanel;
class RunBudgetGuard;
class ShownResult;
class SimulationController;

class EditRouter : public QObject {
  Q_OBJECT

 public:
  /// Edits go to `controller` (the run length through `budget`); `panel` and the views follow;
  /// `presenter` times them.
  EditRouter(SimulationController* controller, ParameterPanel* panel, const RunViews& views,
             RunBudgetGuard* budget, RunPresenter* presenter, QObject* parent);
  /// Every applied edit is told to `state` (WorkbenchState::NoteEdit: the overrides, undo) with
  /// the values before it and, when `shown` shows their settled result, that result. The panel
  /// follows `state`: its editors rebuilt for each scenario loaded (scrolled to the top; then
  /// editorsRebuilt), the initial values added when the model is ready.
  void set_state(WorkbenchState* state, const ShownResult* shown);

  /// A value edited in the panel (ParameterPanel::valueChanged, dirac::ApplyOverride names).
  /// An edit of the run length the budget refuses puts the editor back.
  void OnValueEdited(const QString& name, double value);
  /// A boundary value set free in the panel (ParameterPanel::boundaryValueFreed).
  void OnBoundaryFreed(const QString& name);
  /// Values edited in the 3D view (SceneContext::edit), applied as one request; the panel
  /// follows.
  void OnSceneEdited(const std::vector<std::pair<std::string, double>>& values);
  /// Undo (`forward` false: the values before) or redo (the values after) of `edit`: shows
  /// `result` again when the controller can (SimulationController::RestoreResult), else runs
  /// the values; the panel, the scene and the time span follow. Told to the state as an edit
  /// from the history. False if the controller refused the values.
  bool Replay(const ValueEdit& edit, bool forward, const SnapshotPtr& result);
  /// The complete run of the current values if it is the one shown (nothing running, nothing
  /// stale, not a partial run), else null.
  SnapshotPtr SettledResult() const;

 signals:
  /// The parameter panel's editors were rebuilt for a newly loaded scenario (new sliders).
  void editorsRebuilt();

 private:
  void AfterEdit(const QString& name, double value);
  // The changes an edit of `names` may make (the run length brings its companions), with their
  // values now; NoteEdit fills in the values after.
  ValueEdit Before(const QStringList& names, ValueEdit::Source source) const;
  void NoteEdit(ValueEdit edit);

  SimulationController* controller_;
  ParameterPanel* panel_;
  RunViews v_;
  RunBudgetGuard* budget_;
  RunPresenter* presenter_;
  WorkbenchState* state_ = nullptr;
  const ShownResult* shown_ = nullptr;
};

}  // namespace dirac::ui
