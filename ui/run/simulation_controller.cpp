// The simulation controller on the GUI thread: the scenario, edits, cancel, submitting jobs and
// receiving what the worker posts (snapshots, models, stages, solve iterates, gauge results). The
// worker's side (deriving, integrating, solving, the gauge two-form) is controller_worker.cpp.
#include "run/simulation_controller.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "dirac/error.hpp"
#include "dirac/symbolic_lock.hpp"
#include "run/boundary_values.hpp"

namespace dirac::ui {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kDefaultDebounceMs = 0;  // latest request wins; no fixed delay

}  // namespace

double SimulationController::SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string FormulationLabel(dirac::Formulation formulation) {
  switch (formulation) {
    case dirac::Formulation::kVakonomic:
      return "vakonomic (Skinner–Rusk)";
    case dirac::Formulation::kConstraintAlgorithm:
      return "nonholonomic (constraint algorithm)";
    case dirac::Formulation::kAuto:
    case dirac::Formulation::kLagrangeDirac:
      return "nonholonomic (Lagrange–Dirac)";
    default:  // formulations never used as a comparison
      return "other formulation";
  }
}

bool SupportsGaugeTwoForm(const dirac::Model* model) {
  return model && model->offers_gauge_two_form();
}

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  setObjectName("simulationController");
  qRegisterMetaType<dirac::ui::SnapshotPtr>();
  qRegisterMetaType<dirac::ui::GaugeResultPtr>();
  active_cancel_ = std::make_shared<std::atomic<bool>>(false);
  derive_cancel_ = std::make_shared<std::atomic<bool>>(false);
  derivation_clock_.setInterval(250);
  connect(&derivation_clock_, &QTimer::timeout, this, &SimulationController::derivationProgress);
  gauge_clock_.setInterval(250);
  connect(&gauge_clock_, &QTimer::timeout, this, &SimulationController::gaugeProgress);
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDefaultDebounceMs);
  connect(&debounce_, &QTimer::timeout, this, &SimulationController::Submit);
  worker_ = std::thread([this] { WorkerLoop(); });
}

SimulationController::~SimulationController() {
  stopping_ = true;
  wanted_run_ = 0;
  active_cancel_->store(true);
  derive_cancel_->store(true);  // a derivation ends at its next checkpoint
  {
    std::lock_guard lock(mutex_);
    pending_.reset();
  }
  wake_.notify_all();
  worker_.join();
  // The worker is gone: release this controller's models here (still under the lock, in case
  // another controller's worker is deriving).
  std::lock_guard symbolic(SymbolicMutex());
  mailbox_.Clear();  // calls not yet run may hold models
  std::lock_guard lock(mutex_);
  retired_.clear();
  model_.reset();
  worker_model_.reset();
  worker_comparison_model_.reset();
}

void SimulationController::LoadScenario(dirac::Scenario scenario) {
  debounce_.stop();
  StopDerivationFlag();  // the previous scenario's derivation, if still running
  deriving_ = false;
  scenario_ = std::move(scenario);
  ++scenario_id_;
  Retire(std::move(model_));
  model_.reset();
  latest_.reset();
  latest_gauge_.reset();
  StopGaugeClock();
  SolveStatus status;
  if (PosesSolve(scenario_)) status.state = SolveStatus::State::kSolving;
  SetSolveStatus(status);
  Submit();
}

void SimulationController::SetSolveStatus(SolveStatus status) {
  // The optimum shown is stale unless it is the one just solved.
  status.stale = status.state != SolveStatus::State::kSolved && latest_ && latest_->solve &&
                 latest_->solve->converged;
  solve_status_ = std::move(status);
  emit solveStatusChanged();
}

void SimulationController::SetGaugeTwoForm(bool enabled) {
  if (enabled == gauge_) return;
  gauge_ = enabled;
  latest_gauge_.reset();
  if (has_scenario()) Restart();
}

void SimulationController::SetComparison(std::optional<dirac::Formulation> formulation) {
  if (formulation == comparison_) return;
  comparison_ = formulation;
  if (has_scenario()) Restart();
}

void SimulationController::Retire(std::shared_ptr<const dirac::Model> model) {
  if (!model) return;
  std::lock_guard lock(mutex_);
  retired_.push_back(std::move(model));
}

void SimulationController::SweepRetired() {
  std::lock_guard symbolic(SymbolicMutex());
  std::vector<std::shared_ptr<const dirac::Model>> doomed;
  {
    std::lock_guard lock(mutex_);
    // use_count() == 1: only this list holds it, so nobody can copy it any more.
    const auto last = std::partition(retired_.begin(), retired_.end(),
                                     [](const auto& model) { return model.use_count() > 1; });
    doomed.assign(std::make_move_iterator(last), std::make_move_iterator(retired_.end()));
    retired_.erase(last, retired_.end());
  }
  doomed.clear();  // under SymbolicMutex(), outside mutex_
}

bool SimulationController::SetValue(const QString& name, double value) {
  return Apply({{name, value}});
}

bool SimulationController::SetValues(const std::vector<std::pair<QString, double>>& values) {
  std::vector<std::pair<QString, std::optional<double>>> list;
  for (const auto& [name, value] : values) list.emplace_back(name, value);
  return Apply(list);
}

bool SimulationController::SetBoundaryValue(const QString& name, std::optional<double> value) {
  return Apply({{name, value}});
}

bool SimulationController::SetEditedValues(
    const std::vector<std::pair<QString, std::optional<double>>>& values) {
  return Apply(values);
}

bool SimulationController::RestoreResult(const SnapshotPtr& result) {
  if (!result || !result->complete || !result->run_scenario || result->scenario != scenario_id_ ||
      !model_ || gauge_ || comparison_)
    return false;
  debounce_.stop();
  scenario_ = *result->run_scenario;
  Supersede();  // the running job (an edit's, if any) is of other values
  {
    std::lock_guard lock(mutex_);
    pending_.reset();
  }
  auto copy = std::make_shared<SimulationSnapshot>(*result);
  copy->run = run_;
  copy->gauge_pending = false;
  DeliverSnapshot(std::move(copy));
  SetBusy(false);
  return true;
}

bool SimulationController::Apply(
    const std::vector<std::pair<QString, std::optional<double>>>& values) {
  if (!has_scenario()) return false;
  dirac::Scenario edited = scenario_;  // all or nothing
  try {
    for (const auto& [qname, value] : values) {
      const std::string name = qname.toStdString();
      if (!value || IsBoundaryValueName(edited, name)) {
        ui::SetBoundaryValue(edited, name, value);
      } else {
        dirac::ApplyOverride(edited, name, *value);
      }
    }
  } catch (const dirac::Error& e) {
    emit failed(QString::fromStdString(e.what()));
    return false;
  }
  scenario_ = std::move(edited);
  Edited();
  return true;
}

void SimulationController::Edited() {
  Supersede();  // cancel the running job (or solve) now
  if (solves()) {
    SolveStatus status;
    status.state = SolveStatus::State::kSolving;
    SetSolveStatus(status);
  }
  if (debounce_.interval() <= 0) {
    Submit();
    return;
  }
  SetBusy(true);
  debounce_.start();
}

void SimulationController::Supersede() {
  superseded_at_ns_ =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  wanted_run_ = ++run_;
  active_cancel_->store(true);
}

void SimulationController::Restart() {
  if (!has_scenario()) return;
  debounce_.stop();
  if (solves()) {
    SolveStatus status;
    status.state = SolveStatus::State::kSolving;
    SetSolveStatus(status);
  }
  Submit();
}

void SimulationController::StopDerivationFlag() {
  derive_cancel_->store(true);
  derive_cancel_ = std::make_shared<std::atomic<bool>>(false);
}

bool SimulationController::StopDerivation() {
  const bool was_busy = busy_;
  StopDerivationFlag();
  if (deriving_) {
    deriving_ = false;
    derivation_clock_.stop();
    emit derivationProgress();
  }
  return was_busy;
}

bool SimulationController::StopWork() {
  const bool was_busy = StopDerivation();
  debounce_.stop();
  Supersede();
  {
    std::lock_guard lock(mutex_);
    pending_.reset();
  }
  StopGaugeClock();
  return was_busy;
}

double SimulationController::derivation_seconds() const {
  return deriving_ ? SecondsSince(derivation_start_) : 0.0;
}

double SimulationController::gauge_seconds() const {
  return computing_gauge_ ? SecondsSince(gauge_start_) : 0.0;
}

void SimulationController::StopGaugeClock() {
  if (!computing_gauge_) return;
  computing_gauge_ = false;
  gauge_clock_.stop();
  emit gaugeProgress();
}

void SimulationController::Cancel() {
  debounce_.stop();
  StopDerivation();
  Supersede();
  if (computing_gauge_) {
    auto result = std::make_shared<GaugeResult>();
    result->run = latest_ ? latest_->run : 0;
    result->scenario = scenario_id_;
    result->cancelled = true;
    result->reached = gauge_time_;
    result->wall_seconds = gauge_seconds();
    StopGaugeClock();
    emit gaugeReady(result);
  }
  {
    std::lock_guard lock(mutex_);
    pending_.reset();
  }
  SetBusy(false);
  if (solves() && solve_status_.state == SolveStatus::State::kSolving) {
    SolveStatus status;
    status.state = SolveStatus::State::kFailed;
    status.message = "cancelled";
    SetSolveStatus(status);
  }
}

void SimulationController::Submit() {
  if (!has_scenario()) return;
  superseded_at_ns_ =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  active_cancel_->store(true);  // the job before this one, if still running
  active_cancel_ = std::make_shared<std::atomic<bool>>(false);
  StopGaugeClock();  // the gauge two-form of the run before, if still computing
  Job job{++run_,        scenario_id_, std::make_shared<const dirac::Scenario>(scenario_),
          comparison_,   gauge_,       active_cancel_,
          derive_cancel_};
  wanted_run_ = job.run;
  if (!model_ && !deriving_) {  // this job derives the model first
    deriving_ = true;
    derivation_stage_ = tr("starting");
    derivation_start_ = Clock::now();
    derivation_clock_.start();
    emit derivationProgress();
  }
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(job);
  }
  wake_.notify_one();
  SetBusy(true);
}

void SimulationController::SetBusy(bool busy) {
  if (busy_ == busy) return;
  busy_ = busy;
  emit busyChanged(busy);
}

bool SimulationController::Superseded(std::uint64_t run) const {
  return stopping_ || wanted_run_.load() != run;
}

void SimulationController::OnDerivationStage(std::uint64_t scenario_id, const QString& stage) {
  if (scenario_id != scenario_id_ || !deriving_) return;
  derivation_stage_ = stage;
  emit derivationProgress();
}

void SimulationController::OnModelDerived(std::uint64_t scenario_id,
                                          std::shared_ptr<const dirac::Model> model) {
  if (scenario_id != scenario_id_) {  // a newer scenario was loaded meanwhile
    Retire(std::move(model));
    return;
  }
  if (deriving_) {
    deriving_ = false;
    derivation_clock_.stop();
    emit derivationProgress();
  }
  // A re-derived model of the same scenario: the old one is destroyed on the worker, under the
  // symbolic lock, like every model (see Retire).
  Retire(std::move(model_));
  model_ = std::move(model);
  emit modelReady();
}

void SimulationController::OnSnapshot(SnapshotPtr snapshot) {
  if (!snapshot->complete && !snapshot->solve) {
    // A partial run: timed, and the worker told when it has been drawn (see partial_in_flight_).
    const auto start = Clock::now();
    struct Drawn {
      SimulationController* self;
      Clock::time_point start;
      ~Drawn() {
        self->partial_draw_ns_.store(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        self->partial_in_flight_.store(false);
      }
    } drawn{this, start};
    DeliverSnapshot(std::move(snapshot));
    return;
  }
  DeliverSnapshot(std::move(snapshot));
}

void SimulationController::DeliverSnapshot(SnapshotPtr snapshot) {
  if (snapshot->run != run_ || snapshot->scenario != scenario_id_) return;  // stale
  latest_ = snapshot;
  if (snapshot->complete && !snapshot->gauge_pending) SetBusy(false);
  if (snapshot->complete && snapshot->gauge_pending) {
    computing_gauge_ = true;
    gauge_time_ = 0.0;
    gauge_start_ = Clock::now();
    gauge_clock_.start();
  }
  if (snapshot->solve) {
    const SolveResult& solve = *snapshot->solve;
    SolveStatus status = solve_status_;  // a failure (OnSolveFailed) came first
    if (solve.converged) {
      status = SolveStatus{};
      status.state = SolveStatus::State::kSolved;
      status.residual = solve.report.residual;
      status.iterations = solve.report.iterations;
      status.stored_jacobian_iterations = solve.report.stored_jacobian_iterations;
      status.cost = solve.cost;
      status.seconds = snapshot->wall_seconds;
      status.warm_started = solve.report.warm_started;
    } else {
      status.showing_guess = true;
    }
    SetSolveStatus(status);
  }
  emit snapshotReady(snapshot);
}

void SimulationController::OnSolveProgress(std::uint64_t run, const dirac::NewtonIterate& it) {
  if (run != run_ || solve_status_.state != SolveStatus::State::kSolving) return;
  SolveStatus status = solve_status_;
  status.iteration = it.iteration;
  status.residual = it.residual;
  status.continuation = it.continuation;
  SetSolveStatus(status);
}

void SimulationController::OnSolveFailed(std::uint64_t run, const QString& message) {
  if (run != run_) return;
  SolveStatus status;
  status.state = SolveStatus::State::kFailed;
  status.message = message.toStdString();
  SetSolveStatus(status);
  SetBusy(false);
}

void SimulationController::OnGaugeProgress(std::uint64_t run, double t) {
  if (run != run_ || !computing_gauge_) return;
  gauge_time_ = t;
  emit gaugeProgress();
}

void SimulationController::OnGauge(GaugeResultPtr result) {
  if (result->run != run_ || result->scenario != scenario_id_ || !gauge_) return;  // stale
  StopGaugeClock();
  latest_gauge_ = result;
  SetBusy(false);
  emit gaugeReady(result);
}

void SimulationController::OnFailed(std::uint64_t run, const QString& message) {
  if (run != run_) return;
  StopGaugeClock();
  if (deriving_ && !model_) {  // the derivation failed
    deriving_ = false;
    derivation_clock_.stop();
    emit derivationProgress();
  }
  SetBusy(false);
  emit failed(message);
}

}  // namespace dirac::ui
