#include "window/compare_reaction.hpp"

#include <QAction>

#include <optional>

#include "dirac/scenario_spec.hpp"
#include "run/simulation_controller.hpp"
#include "window/workbench_state.hpp"

namespace dirac::ui {
namespace {

bool IsVakonomic(const SimulationController& controller) {
  return controller.has_scenario() &&
         controller.scenario().formulation == dirac::Formulation::kVakonomic;
}

}  // namespace

CompareReaction::CompareReaction(QAction* action, SimulationController* controller,
                                 WorkbenchState* state)
    : QObject(action), action_(action), controller_(controller) {
  connect(action_, &QAction::toggled, this, &CompareReaction::Apply);
  connect(state, &WorkbenchState::scenarioLoaded, this, &CompareReaction::OnScenarioLoaded);
}

void CompareReaction::OnScenarioLoaded() {
  const bool vakonomic = IsVakonomic(*controller_);
  action_->setEnabled(vakonomic);
  action_->setVisible(vakonomic);
  Apply();
}

void CompareReaction::Apply() {
  controller_->SetComparison(IsVakonomic(*controller_) && action_->isChecked()
                                 ? std::optional(dirac::Formulation::kLagrangeDirac)
                                 : std::nullopt);
}

}  // namespace dirac::ui
