#include "window/pin_reaction.hpp"

#include <QStringList>

#include "plots/plot_panel.hpp"
#include "window/error_reporter.hpp"
#include "window/shown_result.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {

PinReaction::PinReaction(const ReactionContext& context, PlotPanel* plots, const ShownResult* shown,
                         QObject* parent)
    : QObject(parent), context_(context), plots_(plots), shown_(shown) {
  if (context_.state)
    connect(context_.state, &WorkbenchState::scenarioLoading, this,
            [this](const dirac::Scenario&, const ScenarioLoad& load) {
              if (!load.reloaded) Clear();
            });
}

QString PinReaction::PinnedLabel(const SimulationSnapshot& run) {
  // "pinned: kx = 1, ky = 2": the legend says which run it is (the first four parameters).
  QStringList values;
  if (run.run_scenario) {
    for (const dirac::Parameter& p : run.run_scenario->parameters) {
      if (values.size() == 4) {
        values << QStringLiteral("…");
        break;
      }
      values
          << QStringLiteral("%1 = %2").arg(QString::fromStdString(p.name)).arg(p.value, 0, 'g', 4);
    }
  }
  return values.isEmpty() ? tr("pinned") : tr("pinned: %1").arg(values.join(", "));
}

bool PinReaction::Pin() {
  const SnapshotPtr run = shown_->last_good();
  if (!run || !run->trajectory) {
    context_.errors->Show(tr("Nothing to pin yet: no run has finished."), false);
    return false;
  }
  PinTrajectory(run->trajectory, PinnedLabel(*run));
  context_.status->showMessage(tr("Pinned run %1: later runs are drawn over it").arg(run->run),
                               8000);
  return true;
}

void PinReaction::PinTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory,
                                const QString& label) {
  pinned_ = std::move(trajectory);
  pinned_label_ = pinned_ ? label : QString();
  plots_->SetOverlay(PlotPanel::kPinned, pinned_, pinned_label_);
}

void PinReaction::Clear() { PinTrajectory(nullptr, QString()); }

}  // namespace dirac::ui
