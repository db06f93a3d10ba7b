#include "window/edit_router.hpp"

#include <optional>

#include "dirac/scenario.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/playback_toolbar.hpp"
#include "window/run_budget_guard.hpp"
#include "window/run_presenter.hpp"

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

void EditRouter::OnValueEdited(const QString& name, double value) {
  presenter_->StartEdit();
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
}

void EditRouter::OnBoundaryFreed(const QString& name) {
  presenter_->StartEdit();
  if (!controller_->SetBoundaryValue(name, std::nullopt)) return;
  AfterEdit(name, 0.0);
}

void EditRouter::OnSceneEdited(const std::vector<std::pair<std::string, double>>& values) {
  presenter_->StartEdit();
  std::vector<std::pair<QString, double>> list;
  for (const auto& [name, value] : values) list.emplace_back(QString::fromStdString(name), value);
  if (!controller_->SetValues(list)) return;
  panel_->SyncBoundaryValues(controller_->scenario());
  v_.scene_view->SetScenarioValues(controller_->scenario());
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
