#include "window/constraints_reaction.hpp"

#include <QDockWidget>

#include "panels/constraint_panel.hpp"
#include "run/simulation_controller.hpp"
#include "window/workbench_state.hpp"

namespace dirac::ui {

ConstraintsReaction::ConstraintsReaction(const ReactionContext& context, ConstraintPanel* panel,
                                         QDockWidget* dock)
    : QObject(dock), context_(context), panel_(panel), dock_(dock) {
  connect(context_.state, &WorkbenchState::scenarioLoading, this,
          [this] { panel_->ShowMessage(tr("Deriving the model…")); });
  connect(context_.state, &WorkbenchState::modelReady, this, &ConstraintsReaction::OnModelReady);
}

void ConstraintsReaction::OnModelReady() {
  // The constraint chain (shown when there is one).
  panel_->SetModel(context_.controller->model().get(), context_.controller->scenario());
  dock_->setVisible(panel_->has_chain());
}

}  // namespace dirac::ui
