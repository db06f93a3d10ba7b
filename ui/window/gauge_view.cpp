#include "window/gauge_view.hpp"

#include <QAction>
#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>

#include <vector>

#include "dirac/view_spec.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "window/error_reporter.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// The plots of the gauge two-form (columns of dirac::GaugeTwoForm::Compute).
std::vector<dirac::PlotSpec> GaugePlots() {
  return {{"Gauge two-form B_t", {"B_norm", "omega_change"}, {}},
          {"Identity residual |phi_t* Omega - Omega - B_t|", {"identity_residual"}, {}}};
}

}  // namespace

GaugeView::GaugeView(const ReactionContext& context, QAction* action, PlotPanel* plots,
                     QScrollArea* plot_scroll, PlaybackClock* clock)
    : QObject(action),
      context_(context),
      action_(action),
      plots_(plots),
      plot_scroll_(plot_scroll),
      clock_(clock) {
  connect(action_, &QAction::toggled, this, &GaugeView::Apply);
  if (context_.state) {
    connect(context_.state, &WorkbenchState::scenarioLoading, this, &GaugeView::OnScenarioLoading);
    connect(context_.state, &WorkbenchState::modelReady, this, &GaugeView::OnModelReady);
  }
  connect(context_.controller, &SimulationController::gaugeReady, this, &GaugeView::OnGauge);
  connect(context_.controller, &SimulationController::gaugeProgress, this, [this] {
    const SimulationController* c = context_.controller;
    if (c->computing_gauge())
      context_.status->ShowGaugeProgress(c->gauge_time(), c->scenario().simulation.t_end,
                                         c->gauge_seconds());
  });
}

void GaugeView::OnScenarioLoading() {
  action_->setEnabled(false);  // until the model shows whether it applies
  plots_->SetAuxiliaryPlots({});
}

void GaugeView::OnModelReady() {
  action_->setEnabled(SupportsGaugeTwoForm(context_.controller->model().get()));
  Apply();
}

void GaugeView::Apply() {
  // The controller computes it only for models that have it, so the choice may stay on while
  // a scenario loads: a model that has it then gets it in its first run.
  context_.controller->SetGaugeTwoForm(action_->isChecked());
  const bool shown =
      action_->isChecked() && SupportsGaugeTwoForm(context_.controller->model().get());
  if (shown == (plots_->auxiliary_plot_count() > 0)) return;
  plots_->SetAuxiliaryPlots(shown ? GaugePlots() : std::vector<dirac::PlotSpec>{});
  scroll_pending_ = shown;
  if (shown) {
    plots_->SetTimeSpan(context_.controller->scenario().simulation.t_end);
    if (const GaugeResultPtr gauge = context_.controller->latest_gauge())
      plots_->SetAuxiliaryTrajectory(gauge->trajectory);
    plots_->SetCursorTime(clock_->time());
  }
}

void GaugeView::OnGauge(const GaugeResultPtr& result) {
  if (result->cancelled) {
    // The charts would show another run's B_t beside this run: empty until the next result.
    plots_->SetAuxiliaryTrajectory(nullptr);
    context_.status->ShowGauge(*result);
    return;
  }
  if (plots_->auxiliary_plot_count() > 0) {
    plots_->SetAuxiliaryTrajectory(result->trajectory);
    if (scroll_pending_) {
      // Newly turned on: bring its two charts into view with the first chart above them (the
      // panel shows them there), once; the user scrolls after that.
      scroll_pending_ = false;
      ScrollToPlot(0);
    }
  }
  if (!result->error.empty())
    context_.errors->Show(tr("Gauge two-form: %1").arg(QString::fromStdString(result->error)),
                          false);
  context_.status->ShowGauge(*result);
}

void GaugeView::ScrollToPlot(int index) {
  auto* view = plots_->findChild<QWidget*>(QStringLiteral("plot.%1").arg(index));
  if (!view) return;
  plots_->layout()->activate();  // positions of charts added in this turn of the loop
  plot_scroll_->verticalScrollBar()->setValue(view->y());
}

}  // namespace dirac::ui
