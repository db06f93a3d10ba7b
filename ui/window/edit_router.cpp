#include "window/edit_router.hpp"

#include <QScrollArea>

#include <optional>

#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/playback_toolbar.hpp"
#include "window/run_budget_guard.hpp"
#include "window/run_presenter.hpp"
#include "window/shown_result.hpp"

namespace dirac::ui {

EditRouter::EditRouter(SimulationController* controller, ParameterPanel* panel,
                       const RunViews& views, RunBudgetGuard* budget, RunPresenter* presenter,
                       QObject* parent)
    : QObject(parent),
      controller_(controller),
      panel_(panel),
      v_(views),
      budget_(budget),
      presenter_(presenter) {}

void EditRouter::set_state(WorkbenchState* state, const ShownResult* shown) {
  state_ = state;
  shown_ = shown;
  // After the controller took the scenario: the panel reads its values from there.
  connect(state_, &WorkbenchState::scenarioLoaded, this, [this] {
    panel_->SetScenario(controller_->scenario());
    for (QWidget* w = panel_->parentWidget(); w; w = w->parentWidget()) {
      if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
        scroll->ensureVisible(0, 0);  // a new scenario's editors from the top
        break;
      }
    }
    emit editorsRebuilt();
  });
  connect(state_, &WorkbenchState::modelReady, this, [this] {
    // The model's initial values, free or not.
    panel_->SetModel(*controller_->model(), controller_->scenario());
  });
}

SnapshotPtr EditRouter::SettledResult() const {
  if (!shown_ || controller_->busy() || shown_->stale()) return nullptr;
  const SnapshotPtr latest = controller_->latest();
  return latest && latest == shown_->last_good() && latest->complete ? latest : nullptr;
}

ValueEdit EditRouter::Before(const QStringList& names, ValueEdit::Source source) const {
  ValueEdit edit;
  edit.source = source;
  edit.before_result = SettledResult();
  QStringList all = names;
  // The budget guard may change the output step with the run length, and the horizon and
  // t_end are the one T.
  for (const QString& name : names)
    if (RunBudgetGuard::Guards(name))
      all << "t_end"
          << "horizon"
          << "output_step";
  all.removeDuplicates();
  for (const QString& name : all) {
    if (const auto value = EditedValue(controller_->scenario(), name))
      edit.changes.push_back({name, *value, *value});
  }
  return edit;
}

void EditRouter::NoteEdit(ValueEdit edit) {
  if (!state_) return;
  std::vector<ValueEdit::Change> changed;
  for (ValueEdit::Change& change : edit.changes) {
    if (const auto now = EditedValue(controller_->scenario(), change.name)) change.after = *now;
    if (change.after != change.before) changed.push_back(change);
  }
  if (changed.empty()) return;  // nothing changed (a value set to itself)
  edit.changes = std::move(changed);
  state_->NoteEdit(edit);
}

bool EditRouter::Replay(const ValueEdit& edit, bool forward, const SnapshotPtr& result) {
  presenter_->StartEdit();
  if (!controller_->RestoreResult(result)) {
    std::vector<std::pair<QString, std::optional<double>>> values;
    for (const ValueEdit::Change& change : edit.changes)
      values.emplace_back(change.name, forward ? change.after : change.before);
    if (!controller_->SetEditedValues(values)) return false;
  }
  const dirac::Scenario& scenario = controller_->scenario();
  for (const ValueEdit::Change& change : edit.changes) {
    const std::optional<double> value = forward ? change.after : change.before;
    if (value) {
      panel_->SyncValue(change.name, *value);
      AfterEdit(change.name, *value);
    }
  }
  panel_->SyncBoundaryValues(scenario);
  v_.scene_view->SetScenarioValues(scenario);
  budget_->Update();
  if (state_) {
    ValueEdit replayed;
    replayed.source = ValueEdit::Source::kHistory;
    for (const ValueEdit::Change& change : edit.changes)
      replayed.changes.push_back({change.name, forward ? change.before : change.after,
                                  forward ? change.after : change.before});
    state_->NoteEdit(replayed);
  }
  return true;
}

void EditRouter::OnValueEdited(const QString& name, double value) {
  presenter_->StartEdit();
  ValueEdit edit = Before({name}, ValueEdit::Source::kPanel);
  if (RunBudgetGuard::Guards(name)) {
    if (!budget_->Apply(name, value)) {
      panel_->SyncValue(
          name, dirac::CurrentValue(controller_->scenario(), name.toStdString()).value_or(value));
      return;
    }
  } else if (!controller_->SetValue(name, value)) {
    // Refused (a bound above its max, ...): the controller said why; the editor goes back.
    if (const auto current = dirac::CurrentValue(controller_->scenario(), name.toStdString()))
      panel_->SyncValue(name, *current);
    return;
  }
  AfterEdit(name, value);
  budget_->Update();
  NoteEdit(std::move(edit));
}

void EditRouter::OnBoundaryFreed(const QString& name) {
  presenter_->StartEdit();
  ValueEdit edit = Before({name}, ValueEdit::Source::kPanel);
  if (!controller_->SetBoundaryValue(name, std::nullopt)) return;
  AfterEdit(name, 0.0);
  NoteEdit(std::move(edit));
}

void EditRouter::OnSceneEdited(const std::vector<std::pair<std::string, double>>& values) {
  presenter_->StartEdit();
  std::vector<std::pair<QString, double>> list;
  QStringList names;
  for (const auto& [name, value] : values) {
    list.emplace_back(QString::fromStdString(name), value);
    names << QString::fromStdString(name);
  }
  ValueEdit edit = Before(names, ValueEdit::Source::kScene);
  if (!controller_->SetValues(list)) return;
  panel_->SyncBoundaryValues(controller_->scenario());
  v_.scene_view->SetScenarioValues(controller_->scenario());
  NoteEdit(std::move(edit));
}

void EditRouter::AfterEdit(const QString& name, double value) {
  if (name == "t_end" || name == "horizon") {
    // With an optimal_control block they are the one T.
    panel_->SyncValue(name == "t_end" ? "horizon" : "t_end", value);
    v_.clock->SetSpan(value);
    v_.plots->SetTimeSpan(value);
    v_.toolbar->Refresh();
  }
  v_.scene_view->SetScenarioValues(controller_->scenario());
}

}  // namespace dirac::ui
