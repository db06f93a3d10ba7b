#include "window/pin_reaction.hpp"

#include "plots/plot_panel.hpp"
#include "window/error_reporter.hpp"
#include "window/shown_result.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {

bool PinReaction::Pin() {
  const SnapshotPtr run = shown_->last_good();
  if (!run || !run->trajectory) {
    context_.errors->Show(tr("Nothing to pin yet: no run has finished."), false);
    return false;
  }
  plots_->SetOverlay(PlotPanel::kPinned, run->trajectory, tr("pinned"));
  context_.status->showMessage(tr("Pinned run %1: later runs are drawn over it").arg(run->run),
                               8000);
  return true;
}

void PinReaction::Clear() { plots_->SetOverlay(PlotPanel::kPinned, nullptr, QString()); }

}  // namespace dirac::ui
