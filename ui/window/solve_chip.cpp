#include "window/solve_chip.hpp"

#include "run/simulation_controller.hpp"
#include "window/shown_result.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {

SolveChip::SolveChip(const ReactionContext& context, ShownResult* shown)
    : QObject(context.status), context_(context), shown_(shown) {
  connect(context_.controller, &SimulationController::solveStatusChanged, this,
          &SolveChip::OnSolveStatus);
}

QString SolveChip::text() const { return SolveStatusText(context_.controller->solve_status()); }

void SolveChip::OnSolveStatus() {
  context_.status->ShowSolve(context_.controller->solve_status());
  shown_->UpdateNote();
}

}  // namespace dirac::ui
