#include "window/stability_dock.hpp"

#include "dirac/simulation_types.hpp"
#include "plots/stability_view.hpp"
#include "run/simulation_controller.hpp"
#include "window/workbench_state.hpp"

namespace dirac::ui {

namespace {

// What a request depends on besides the model: every live value of the scenario.
std::vector<double> StabilityValuesOf(const dirac::Scenario& scenario) {
  const dirac::SimulationInput input = dirac::SimulationInput::FromScenario(scenario);
  std::vector<double> values = input.parameters;
  values.insert(values.end(), input.q0.begin(), input.q0.end());
  values.insert(values.end(), input.v0.begin(), input.v0.end());
  return values;
}

}  // namespace

StabilityDock::StabilityDock(SimulationController* controller, WorkbenchState* state,
                             QWidget* parent)
    : QDockWidget(tr("Stability"), parent), controller_(controller) {
  connect(state, &WorkbenchState::scenarioLoading, this, &StabilityDock::OnScenarioLoading);
  connect(state, &WorkbenchState::modelReady, this, &StabilityDock::OnModelReady);
  setObjectName("dock.stability");
  setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
              QDockWidget::DockWidgetClosable);
  view_ = new StabilityView(this);
  setWidget(view_);
  worker_ = new StabilityWorker(this);
  connect(worker_, &StabilityWorker::resultReady, view_, &StabilityView::Show);
  connect(worker_, &StabilityWorker::busyChanged, view_, &StabilityView::SetBusy);
  connect(view_, &StabilityView::cancelRequested, worker_, &StabilityWorker::Cancel);
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) Recompute(false);
  });
  // Every run follows an edit (panel, 3D view, undo): the values are compared, so a run that
  // changed nothing the linearization reads costs nothing.
  connect(controller_, &SimulationController::snapshotReady, this,
          [this] { OnValuesMaybeChanged(); });
  hide();
}

void StabilityDock::OnScenarioLoading() {
  model_ready_ = false;
  requested_values_.clear();
  worker_->Cancel();
  view_->ShowMessage(tr("Deriving the model…"));
}

void StabilityDock::OnModelReady() {
  model_ready_ = true;
  Recompute(true);
}

void StabilityDock::OnValuesMaybeChanged() { Recompute(false); }

void StabilityDock::Recompute(bool force) {
  if (!model_ready_ || !isVisible() || !controller_->has_scenario() || !controller_->model())
    return;
  const dirac::Scenario& scenario = controller_->scenario();
  if (!scenario.stability.present) {
    view_->ShowMessage(
        tr("This scenario has no stability: block: add one to choose the "
           "operating point and the swept parameter (docs/scenario-format.md)."));
    return;
  }
  std::vector<double> values;
  try {
    values = StabilityValuesOf(scenario);
  } catch (const std::exception& e) {
    view_->ShowMessage(QString::fromStdString(e.what()));
    return;
  }
  if (!force && values == requested_values_) return;
  requested_values_ = std::move(values);
  worker_->Request(controller_->model(), scenario);
}

}  // namespace dirac::ui
