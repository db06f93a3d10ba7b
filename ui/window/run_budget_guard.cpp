#include "window/run_budget_guard.hpp"

#include <QCoreApplication>
#include <QLabel>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"
#include "run/playback_clock.hpp"
#include "run/run_budget.hpp"
#include "run/simulation_controller.hpp"
#include "window/error_reporter.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// Columns of a run of `scenario`: the model's, else a guess from the scenario (t, q, v, a
// multiplier and a residual per constraint, the energy).
std::size_t ColumnCount(const dirac::Model* model, const dirac::Scenario& scenario) {
  if (model) return model->columns().size();
  return 2 + 2 * scenario.coordinates.size() + 2 * scenario.constraints.size() +
         scenario.algebroid.fibre.size();
}

QString BudgetExplanation(double t_end, double output_step, std::size_t columns,
                          const RunBudget& b) {
  return QCoreApplication::translate(
             "RunBudgetGuard",
             "t_end = %1 s at output step %2 s: %3 samples × %4 columns ≈ %5, over the "
             "bound of %6 (%7 samples)")
      .arg(t_end, 0, 'g', 6)
      .arg(output_step, 0, 'g', 6)
      .arg(FormatCount(b.samples))
      .arg(columns)
      .arg(FormatBytes(b.bytes), FormatBytes(kMaxStoredTrajectoryBytes))
      .arg(FormatCount(b.max_samples));
}

// What was done first: the status bar cuts a long message at its permanent widgets.
QString DecimationNotice(double t_end, double output_step, std::size_t columns,
                         const RunBudget& b) {
  return QCoreApplication::translate("RunBudgetGuard",
                                     "Output step raised to %1 s (stored samples decimated): %2")
      .arg(b.decimated_step, 0, 'g', 6)
      .arg(BudgetExplanation(t_end, output_step, columns, b));
}

}  // namespace

RunBudgetGuard::RunBudgetGuard(const ReactionContext& context, PlaybackClock* clock,
                               QObject* parent)
    : QObject(parent), context_(context), clock_(clock) {
  label_ = new QLabel(context.status);
  label_->setObjectName("status.budget");
  context.status->addPermanentWidget(label_);
  if (!context_.state) return;
  connect(context_.state, &WorkbenchState::scenarioLoaded, this, [this](const ScenarioLoad& load) {
    Update();
    // A reload's own notice (ScenarioReload) takes the status line.
    if (!load.budget_notice.isEmpty() && !load.reloaded)
      context_.status->showMessage(load.budget_notice, 20000);
  });
  connect(context_.state, &WorkbenchState::modelReady, this, &RunBudgetGuard::Update);
}

bool RunBudgetGuard::Guards(const QString& name) {
  return name == "t_end" || name == "horizon" || name == "output_step";
}

QString RunBudgetGuard::FitToBound(dirac::Scenario& scenario) {
  dirac::SimulationSpec& sim = scenario.simulation;
  const std::size_t columns = ColumnCount(nullptr, scenario);
  const RunBudget b = EstimateRun(sim.t_end, sim.output_step, columns);
  if (b.within) return {};
  const QString notice = DecimationNotice(sim.t_end, sim.output_step, columns, b);
  sim.output_step = b.decimated_step;
  return notice;
}

bool RunBudgetGuard::Apply(const QString& name, double value) {
  const dirac::SimulationSpec& sim = context_.controller->scenario().simulation;
  const bool step_edit = name == "output_step";
  const double t_end = step_edit ? sim.t_end : value;
  const double step = step_edit ? value : sim.output_step;
  const std::size_t columns =
      ColumnCount(context_.controller->model().get(), context_.controller->scenario());
  const RunBudget b = EstimateRun(t_end, step, columns);
  if (b.within) return context_.controller->SetValue(name, value);
  if (step_edit) {
    context_.errors->Show(tr("Refused: %1. Choose a larger output step or a shorter final time.")
                              .arg(BudgetExplanation(t_end, step, columns, b)),
                          false);
    return false;
  }
  // Decimate: store every n-th sample (a coarser output step), and say so.
  if (!context_.controller->SetValues({{"output_step", b.decimated_step}, {name, value}}))
    return false;
  context_.status->showMessage(DecimationNotice(t_end, step, columns, b), 20000);
  return true;
}

void RunBudgetGuard::Update() {
  if (!context_.controller->has_scenario()) return;
  const dirac::SimulationSpec& sim = context_.controller->scenario().simulation;
  const std::size_t columns =
      ColumnCount(context_.controller->model().get(), context_.controller->scenario());
  const RunBudget b = EstimateRun(sim.t_end, sim.output_step, columns);
  label_->setText(
      tr("·   storage ≈ %1 samples, %2").arg(FormatCount(b.samples), FormatBytes(b.bytes)));
  label_->setToolTip(
      tr("Estimated from the final time %1 s and the output step %2 s with %3 columns. Runs "
         "store at most %4 (%5 samples of these columns); longer ones store fewer samples.")
          .arg(sim.t_end, 0, 'g', 6)
          .arg(sim.output_step, 0, 'g', 6)
          .arg(columns)
          .arg(FormatBytes(kMaxStoredTrajectoryBytes))
          .arg(FormatCount(b.max_samples)));
  clock_->SetStepSize(sim.output_step);
}

QString RunBudgetGuard::text() const { return label_->text(); }

}  // namespace dirac::ui
