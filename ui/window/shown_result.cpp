#include "window/shown_result.hpp"

#include "panels/constraint_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/error_reporter.hpp"
#include "window/run_presenter.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// "diverged at t = … s: …" for a run whose report says it diverged, else "".
QString DivergedNote(const SimulationSnapshot& snapshot) {
  const auto& t = snapshot.report.diverged_at;
  if (!t) return {};
  return QObject::tr("diverged at t = %1 s: not to be trusted after the red line (%2)")
      .arg(FormatSeconds(*t), QString::fromStdString(snapshot.report.divergence));
}

}  // namespace

ShownResult::ShownResult(const ReactionContext& context, RunPresenter* presenter, PlotPanel* plots,
                         SceneView* scene_view, ConstraintPanel* constraints, QObject* parent)
    : QObject(parent),
      context_(context),
      presenter_(presenter),
      plots_(plots),
      scene_view_(scene_view),
      constraints_(constraints) {
  if (context_.state)
    connect(context_.state, &WorkbenchState::scenarioLoading, this, &ShownResult::Reset);
}

void ShownResult::Reset() {
  last_good_.reset();
  stale_ = false;
  run_note_.clear();
  plots_->SetNote(QString());
}

void ShownResult::OnSnapshot(const SnapshotPtr& snapshot) {
  if (!snapshot->complete) return;
  last_good_ = snapshot;
  stale_ = false;
  run_note_ = DivergedNote(*snapshot);
  scene_view_->SetMessage(presenter_->SceneMessage());
  UpdateNote();
}

void ShownResult::UpdateNote() {
  QString note = run_note_;
  if (context_.controller->solves()) {
    const SolveStatus& status = context_.controller->solve_status();
    if (status.stale) {
      note = status.state == SolveStatus::State::kFailed ? tr("stale: the solve failed")
                                                         : tr("stale: re-solving");
    } else if (status.state == SolveStatus::State::kFailed && status.showing_guess) {
      note = tr("not solved: initial guess");
    }
  }
  plots_->SetNote(note);
}

void ShownResult::OnFailed(const QString& message) {
  const bool derivation_failed = !context_.controller->model();
  context_.errors->Show(message, derivation_failed);
  // Said where the result would be: over the 3D view, and over the plots.
  scene_view_->SetMessage(
      tr("%1\n%2").arg(derivation_failed ? tr("No model:") : tr("The run failed:"), message));
  if (derivation_failed) {
    constraints_->ShowMessage(tr("No model: %1").arg(message));
    context_.status->SetDiagnostics(tr("no model"));
    run_note_ = tr("no model");
  } else if (last_good_ && last_good_->trajectory) {
    presenter_->Show(last_good_);  // not the partial run that failed
    stale_ = true;
    run_note_ = tr("stale: the last run failed — showing the previous result");
    context_.status->SetDiagnostics(tr("run failed — the previous result is shown (stale)"));
  } else if (const SnapshotPtr partial = context_.controller->latest();
             partial && partial->trajectory && partial->trajectory->num_rows() > 1) {
    // No earlier result, but the failed run streamed samples: they stay shown, and are named.
    run_note_ =
        tr("the run failed: partial run up to t = %1 s").arg(FormatSeconds(partial->last_time()));
    context_.status->SetDiagnostics(tr("run failed — the partial run is shown"));
  } else {
    run_note_ = tr("no result: the run failed");
    context_.status->SetDiagnostics(tr("run failed"));
  }
  UpdateNote();
}

void ShownResult::CancelRun() {
  const bool was_busy = context_.controller->busy();
  // Only the gauge two-form of the shown run was left: that run stays, complete and current.
  const bool gauge_only = context_.controller->computing_gauge();
  const double gauge_reached = context_.controller->gauge_time();
  context_.controller->Cancel();
  if (!was_busy || context_.controller->solves()) return;  // the solve chip says it for solves
  const SnapshotPtr latest = context_.controller->latest();
  if (gauge_only && latest && latest->complete) {
    run_note_ = tr("gauge two-form cancelled at t = %1 s: the run is shown without it")
                    .arg(FormatSeconds(gauge_reached));
    if (const QString diverged = DivergedNote(*latest); !diverged.isEmpty())
      run_note_ += QStringLiteral("; ") + diverged;
    // The status line's run summary keeps its gauge note (GaugeView, WorkbenchStatusBar).
  } else if (latest && !latest->complete && latest != last_good_) {
    context_.status->SetDiagnostics(
        tr("cancelled at t = %1 s of %2 s: the partial run is shown")
            .arg(FormatSeconds(latest->last_time()), FormatSeconds(latest->t_end)));
    run_note_ = tr("cancelled: partial run up to t = %1 s").arg(FormatSeconds(latest->last_time()));
  } else if (last_good_) {
    presenter_->Show(last_good_);
    stale_ = true;
    context_.status->SetDiagnostics(tr("cancelled: the previous result is shown (stale)"));
    run_note_ = tr("stale: cancelled — showing the previous result");
  } else {
    context_.status->SetDiagnostics(tr("cancelled before any result"));
    run_note_ = tr("cancelled");
  }
  UpdateNote();
}

}  // namespace dirac::ui
