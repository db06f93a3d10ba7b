#include "window/run_presenter.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario_spec.hpp"
#include "plots/column_units.hpp"
#include "plots/default_plots.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_registry.hpp"
#include "scenes/scene_view.hpp"
#include "window/error_reporter.hpp"
#include "window/playback_toolbar.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// The run up to the time it diverged (SimulationReport::diverged_at), for the 3D view: it draws
// and frames the part that can be trusted (the rest flies off by orders of magnitude, and
// framing it left the view empty). Other snapshots as they are.
SnapshotPtr TrustedPart(const SnapshotPtr& snapshot) {
  if (!snapshot || !snapshot->complete || !snapshot->report.diverged_at || !snapshot->trajectory ||
      snapshot->trajectory->num_rows() < 2)
    return snapshot;
  const dirac::Trajectory& all = *snapshot->trajectory;
  const double diverged_at = *snapshot->report.diverged_at;
  auto part = std::make_shared<dirac::Trajectory>(all.columns());
  for (std::size_t r = 0; r < all.num_rows() && (r == 0 || all.at(r, 0) <= diverged_at); ++r)
    part->AppendRow(all.row(r));
  auto trusted = std::make_shared<SimulationSnapshot>(*snapshot);
  trusted->trajectory = std::move(part);
  return trusted;
}

}  // namespace

RunPresenter::RunPresenter(const ReactionContext& context, const RunViews& views,
                           const SceneRegistry* scenes, SceneEdit scene_edit, QObject* parent)
    : QObject(parent),
      context_(context),
      v_(views),
      scenes_(scenes),
      scene_edit_(std::move(scene_edit)) {
  if (!context_.state) return;
  connect(context_.state, &WorkbenchState::scenarioLoading, this,
          [this](const dirac::Scenario& scenario) { OnScenarioLoading(scenario); });
  connect(context_.state, &WorkbenchState::modelReady, this, &RunPresenter::OnModelReady);
}

QString RunPresenter::NoSceneMessage() {
  return tr(
      "This scenario gives no scene (view.scene), so there is nothing to draw in 3D.\n"
      "The plots and playback work.");
}

QString RunPresenter::SceneMessage() const {
  return scene_given_ ? context_.errors->scene_error() : NoSceneMessage();
}

void RunPresenter::OnScenarioLoading(const dirac::Scenario& scenario) {
  // The plots: the previous run's comparison gone; the axes' units before the charts that use
  // them.
  v_.plots->SetOverlay(PlotPanel::kComparison, nullptr, QString());
  v_.plots->SetColumnQuantities(DescribeColumns(nullptr, scenario));
  v_.clock->Pause();
  v_.clock->SetSpan(scenario.simulation.t_end);
  v_.clock->SetAvailable(0.0);
  v_.clock->SetStepSize(scenario.simulation.output_step);
  v_.clock->SetTime(0.0);
  camera_fitted_ = false;
  scene_given_ = true;  // until the new model says otherwise
  v_.scene_view->SetScene(nullptr);
  v_.plots->SetPlots(scenario.plots, scenario.simulation.t_end);
  context_.status->SetDiagnostics(tr("deriving equations…"));
  v_.toolbar->Refresh();  // the clock's new span
}

void RunPresenter::OnModelReady() {
  const std::shared_ptr<const dirac::Model> model = context_.controller->model();
  const dirac::Scenario& scenario = context_.controller->scenario();
  std::unique_ptr<DrawnScene> scene;
  // No `view.scene` in the file (its location is unset): a model written with bodies is drawn by
  // the bodies scene; any other has nothing to draw, and no error to report.
  scene_given_ = scenario.scene.where.line != 0 || scenario.multibody.present();
  if (scene_given_) {
    try {
      if (scenario.scene.where.line != 0) {
        scene = scenes_->Create(SceneContext{scenario, model, scene_edit_});
      } else {
        dirac::Scenario with_bodies_scene = scenario;
        with_bodies_scene.scene.type = "bodies";
        scene = scenes_->Create(SceneContext{with_bodies_scene, model, scene_edit_});
      }
    } catch (const std::exception& e) {
      context_.errors->SetSceneError(tr("3D view: %1").arg(QString::fromStdString(e.what())));
    }
  }
  v_.scene_view->SetScene(std::move(scene));
  v_.scene_view->SetMessage(SceneMessage());

  v_.plots->SetColumnQuantities(DescribeColumns(model.get(), scenario));
  plots_made_up_ = scenario.plots.empty();
  given_plots_ = plots_made_up_ ? DefaultPlots(*model) : scenario.plots;
  hidden_columns_ = model->ColumnsOfKind(dirac::ColumnKind::kHiddenConstraintResidual);
  shown_plots_ = PlotsFor(nullptr);
  v_.plots->SetBounds(scenario.optimal_control.bounds, {});
  v_.plots->SetPlots(shown_plots_, scenario.simulation.t_end);
  ShowLatest();  // the run may have streamed samples while the model was being built
}

std::vector<dirac::PlotSpec> RunPresenter::PlotsFor(const dirac::Trajectory* trajectory) const {
  auto has = [trajectory](const std::string& column) {
    return trajectory && trajectory->FindColumn(column).has_value();
  };
  auto keep_columns_of_run = [&](dirac::PlotSpec spec) {
    if (trajectory) std::erase_if(spec.series, [&](const std::string& c) { return !has(c); });
    return spec;
  };
  std::vector<dirac::PlotSpec> plots;
  for (const dirac::PlotSpec& spec : given_plots_) {
    dirac::PlotSpec shown = plots_made_up_ ? keep_columns_of_run(spec) : spec;
    if (!shown.series.empty() || shown.is_phase_portrait()) plots.push_back(std::move(shown));
  }
  dirac::PlotSpec hidden{"Hidden-constraint residuals", hidden_columns_, {}};
  // Before any run, none: the chart comes with the first run that carries the residuals.
  std::erase_if(hidden.series, [&](const std::string& c) { return !has(c); });
  if (!hidden.series.empty()) plots.push_back(std::move(hidden));
  return plots;
}

void RunPresenter::FitPlotsTo(const SimulationSnapshot& snapshot) {
  if (snapshot.trajectory) {
    std::vector<dirac::PlotSpec> wanted = PlotsFor(snapshot.trajectory.get());
    const auto same = [](const dirac::PlotSpec& a, const dirac::PlotSpec& b) {
      return a.title == b.title && a.series == b.series;
    };
    if (!std::equal(wanted.begin(), wanted.end(), shown_plots_.begin(), shown_plots_.end(), same)) {
      shown_plots_ = std::move(wanted);
      v_.plots->SetPlots(shown_plots_, snapshot.t_end);
    }
  }
  const dirac::Scenario& run =
      snapshot.run_scenario ? *snapshot.run_scenario : context_.controller->scenario();
  const bool optimum = snapshot.solve && snapshot.solve->converged;
  v_.plots->SetBounds(run.optimal_control.bounds, optimum ? snapshot.solve->report.active_arcs
                                                          : std::vector<dirac::ActiveArc>{});
}

void RunPresenter::ShowLatest() {
  if (const SnapshotPtr latest = context_.controller->latest()) {
    v_.scene_view->SetSnapshot(TrustedPart(latest));
    v_.scene_view->SetTime(v_.clock->time());
    FitPlotsTo(*latest);
    v_.plots->SetTrajectory(latest->trajectory);
    v_.plots->SetCursorTime(v_.clock->time());
  }
  context_.status->SetDiagnostics(context_.controller->solves() ? tr("solving…")
                                                                : tr("simulating…"));
}

void RunPresenter::Show(const SnapshotPtr& snapshot) {
  FitPlotsTo(*snapshot);
  v_.plots->SetTimeSpan(snapshot->t_end);
  v_.plots->SetTrajectory(snapshot->trajectory);
  v_.clock->SetSpan(snapshot->t_end);
  v_.clock->SetAvailable(snapshot->complete ? snapshot->t_end : snapshot->last_time());
  v_.scene_view->SetSnapshot(TrustedPart(snapshot));
  v_.scene_view->SetTime(v_.clock->time());
  v_.plots->SetDivergedAt(snapshot->complete ? snapshot->report.diverged_at : std::nullopt);
  v_.plots->SetCursorTime(v_.clock->time());
  v_.toolbar->Refresh();  // "t = … / <the shown run's final time>"
}

void RunPresenter::StartEdit() {
  edit_run_ = context_.controller->latest() ? context_.controller->latest()->run : 0;
  edit_timer_.start();
}

double RunPresenter::SinceEdit() const {
  return static_cast<double>(edit_timer_.nsecsElapsed()) * 1e-6;
}

void RunPresenter::OnSnapshot(const SnapshotPtr& snapshot) {
  const bool answers_edit =
      snapshot->complete && edit_timer_.isValid() && snapshot->run > edit_run_;
  EditTimes times;
  if (answers_edit) times.arrived = SinceEdit();
  if (snapshot->complete) {
    // Compare's other formulation, drawn dashed in the plots (as in 3D, in magenta).
    v_.plots->SetOverlay(PlotPanel::kComparison, snapshot->comparison,
                         snapshot->comparison ? tr("nonholonomic") : QString());
  }
  v_.clock->SetSpan(snapshot->t_end);
  v_.clock->SetAvailable(snapshot->complete ? snapshot->t_end : snapshot->last_time());
  v_.scene_view->SetSnapshot(TrustedPart(snapshot));
  v_.scene_view->SetTime(v_.clock->time());
  // Follow the first run as it grows; afterwards refit to each finished run unless the user has
  // placed the camera.
  if (!camera_fitted_) {
    v_.scene_view->ResetCamera();
    camera_fitted_ = snapshot->complete;
  } else if (snapshot->complete) {
    v_.scene_view->FitCameraUnlessUserMoved();
  }
  if (answers_edit) {
    times.scene = SinceEdit() - times.arrived;
    // Draw now (not at the next turn of the event loop) so the latency covers the drawing: the
    // 3D frame renders on the view's render thread while this thread fills the charts.
    v_.scene_view->StartFastFrame();
  }
  const double plots_start = answers_edit ? SinceEdit() : 0.0;
  v_.plots->SetDivergedAt(snapshot->complete ? snapshot->report.diverged_at : std::nullopt);
  FitPlotsTo(*snapshot);
  v_.plots->SetTimeSpan(snapshot->t_end);
  v_.plots->SetTrajectory(snapshot->trajectory);
  v_.plots->SetCursorTime(v_.clock->time());
  if (answers_edit) times.plots = SinceEdit() - plots_start;
  if (snapshot->complete) {
    context_.errors->Clear();
    if (!snapshot->comparison_error.empty())
      context_.errors->Show(QString::fromStdString(snapshot->comparison_error), false);
  }
  context_.status->ShowRun(*snapshot);
  v_.toolbar->Refresh();
  if (answers_edit) FinishEditFrame(SinceEdit(), times);
}

void RunPresenter::FinishEditFrame(double waited_from, EditTimes times) {
  // The charts (laid out now, not at the next turn of the event loop) are painted and put on
  // screen while the 3D frame is still rendering on its thread; then the 3D view alone. The
  // charts' scenes take in their items' changes without painting them a second time.
  v_.plots->LayOutNow();
  v_.plots->repaint();
  v_.plots->AbsorbPaintedChanges();
  v_.scene_view->FinishFrame();
  last_edit_latency_ms_ = SinceEdit();
  times.render = v_.scene_view->last_render_ms();
  times.paint = last_edit_latency_ms_ - waited_from;
  last_edit_times_ = times;
  edit_timer_.invalidate();
  emit editDrawn(last_edit_latency_ms_);
}

void RunPresenter::OnTimeChanged(double t) {
  v_.scene_view->SetTime(t);
  v_.plots->SetCursorTime(t);
}

}  // namespace dirac::ui
