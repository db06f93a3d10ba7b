#include "run/simulation_controller.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "dirac/build_model.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dirac/symbolic_lock.hpp"
#include "run/boundary_values.hpp"

namespace dirac::ui {
namespace {

using Clock = std::chrono::steady_clock;

// Partial results are published at most this often: copying the trajectory so far is O(rows).
constexpr auto kPublishInterval = std::chrono::milliseconds(40);
// The first partial result waits longer: a run that ends sooner is published once, whole,
// instead of making the GUI draw a partial one just before it.
constexpr auto kFirstPublish = std::chrono::milliseconds(90);
constexpr int kDefaultDebounceMs = 0;  // latest request wins; no fixed delay
constexpr int kWorkerNiceness = 5;     // the worker thread's nice value (Linux)

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

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

void SimulationController::WorkerLoop() {
#ifdef __linux__
  // Below the GUI thread: on a busy machine a derivation or integration must not delay the
  // window's answers (the scheduler favours the GUI; on an idle core nothing changes).
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kWorkerNiceness);
#endif
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
      if (stopping_) return;
      job = std::move(*pending_);
      pending_.reset();
      worker_active_ = true;
    }
    RunJob(job);
    worker_free_ns_ = Clock::now().time_since_epoch().count();
    worker_active_ = false;
  }
}

void SimulationController::RunJob(const Job& job) {
  const auto start = Clock::now();
  SweepRetired();
  try {
    if (worker_scenario_id_ != job.scenario_id || !worker_model_) {
      {
        std::lock_guard symbolic(SymbolicMutex());
        worker_comparison_model_.reset();
        worker_comparison_id_ = 0;
        worker_model_.reset();
        worker_scenario_id_ = 0;
      }
      worker_model_ = Derive(job, *job.scenario);
      worker_scenario_id_ = job.scenario_id;
      worker_warm_start_ = {};
      worker_has_optimum_ = false;
      mailbox_.Post([this, id = job.scenario_id, model = worker_model_]() mutable {
        OnModelDerived(id, std::move(model));
      });
    }
    if (Superseded(job.run)) return;
    if (job.scenario->optimal_control.present || worker_model_->has_boundary_value_problem()) {
      RunSolve(job, start);
      return;
    }

    const dirac::SimulationInput input = dirac::SimulationInput::FromScenario(*job.scenario);
    auto make_snapshot = [&](std::shared_ptr<const dirac::Trajectory> trajectory) {
      auto snapshot = std::make_shared<SimulationSnapshot>();
      snapshot->run_scenario = job.scenario;
      snapshot->run = job.run;
      snapshot->scenario = job.scenario_id;
      snapshot->trajectory = std::move(trajectory);
      snapshot->parameters = input.parameters;
      snapshot->t_end = input.spec.t_end;
      snapshot->wall_seconds = SecondsSince(start);
      return snapshot;
    };
    auto publish = [this](std::shared_ptr<SimulationSnapshot> snapshot) {
      mailbox_.Post([this, s = SnapshotPtr(std::move(snapshot))] { OnSnapshot(s); });
    };

    auto last_publish = start;
    Clock::duration interval = kFirstPublish;
    partial_in_flight_.store(false);
    const dirac::SimulationProgress progress = [&](const dirac::Trajectory& so_far) {
      if (Superseded(job.run)) return false;
      const auto drawing = std::chrono::nanoseconds(2 * partial_draw_ns_.load());
      if (!partial_in_flight_.load() &&
          Clock::now() - last_publish >= std::max(interval, drawing)) {
        partial_in_flight_.store(true);
        const auto copy_start = Clock::now();
        publish(make_snapshot(std::make_shared<const dirac::Trajectory>(so_far)));
        last_publish = Clock::now();
        // Copying grows with the run; keep it under ~10% of the worker's time.
        interval = std::max<Clock::duration>(kPublishInterval, 10 * (last_publish - copy_start));
      }
      return true;
    };

    dirac::SimulationReport report;
    dirac::Trajectory result = worker_model_->Simulate(input, progress, &report);
    if (report.cancelled || Superseded(job.run)) return;
    auto snapshot = make_snapshot(std::make_shared<const dirac::Trajectory>(std::move(result)));
    snapshot->complete = true;
    snapshot->report = report;
    const bool gauge = job.gauge && SupportsGaugeTwoForm(worker_model_.get());
    snapshot->gauge_pending = gauge;

    if (job.comparison) {
      // Same scenario, same values, other formulation. Its failure never fails the main run.
      dirac::Scenario other = *job.scenario;
      other.formulation = *job.comparison;
      other.plots.clear();  // may name columns only the main formulation has (e.g. momenta)
      if (worker_comparison_id_ != job.scenario_id ||
          worker_comparison_formulation_ != job.comparison) {
        {
          std::lock_guard symbolic(SymbolicMutex());
          worker_comparison_model_.reset();
        }
        worker_comparison_error_.clear();
        try {
          worker_comparison_model_ = Derive(job, other);
        } catch (const dirac::DerivationCancelled&) {
          throw;
        } catch (const std::exception& e) {
          worker_comparison_error_ = e.what();
        }
        worker_comparison_id_ = job.scenario_id;
        worker_comparison_formulation_ = job.comparison;
      }
      snapshot->comparison_label = FormulationLabel(*job.comparison);
      snapshot->comparison_error = worker_comparison_error_;
      if (worker_comparison_model_) {
        try {
          dirac::SimulationReport other_report;
          dirac::Trajectory other_result = worker_comparison_model_->Simulate(
              dirac::SimulationInput::FromScenario(other),
              [&](const dirac::Trajectory&) { return !Superseded(job.run); }, &other_report);
          if (other_report.cancelled || Superseded(job.run)) return;
          snapshot->comparison = std::make_shared<const dirac::Trajectory>(std::move(other_result));
        } catch (const std::exception& e) {
          snapshot->comparison_error = e.what();
        }
      }
      if (!snapshot->comparison_error.empty()) {
        snapshot->comparison_error =
            "comparison (" + snapshot->comparison_label + "): " + snapshot->comparison_error;
      }
      snapshot->wall_seconds = SecondsSince(start);
    }
    publish(std::move(snapshot));
    if (gauge) {
      const dirac::GaugeTwoForm* form = nullptr;
      {
        // Derived on first request (GiNaC): under the lock every derivation takes, stopped
        // like one.
        dirac::DerivationScope scope({job.derive_cancel.get(), {}});
        std::lock_guard<std::mutex> lock(SymbolicMutex());
        form = worker_model_->gauge_two_form();
      }
      if (form) RunGauge(job, *form, input);
    }
  } catch (const dirac::DerivationCancelled&) {
    // Stopped by the GUI thread (another scenario, Cancel, quitting): no failure to report.
  } catch (const dirac::Error& e) {
    mailbox_.Post([this, run = job.run, message = std::string(e.what())] {
      OnFailed(run, QString::fromStdString(message));
    });
  } catch (const std::exception& e) {
    mailbox_.Post([this, run = job.run, message = std::string(e.what())] {
      OnFailed(run, QStringLiteral("Internal error: %1").arg(QString::fromStdString(message)));
    });
  }
}

void SimulationController::RunSolve(const Job& job, Clock::time_point start) {
  // Compiled tapes only (no GiNaC): runs without SymbolicMutex(). A newer request sets
  // job.cancel, which the solve polls inside its integrations.
  dirac::SolveOptions options;
  options.cancel = job.cancel.get();
  options.progress = [this, &job](const dirac::NewtonIterate& iterate) {
    if (Superseded(job.run)) return false;
    mailbox_.Post([this, run = job.run, iterate] { OnSolveProgress(run, iterate); });
    return true;
  };
  if (worker_has_optimum_ && worker_warm_start_.valid()) options.warm_start = &worker_warm_start_;
  auto given_up = [this, &job] {
    if (!Superseded(job.run)) return false;
    const auto now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
            .count();
    last_cancel_latency_ms_ = 1e-6 * static_cast<double>(now - superseded_at_ns_.load());
    ++cancelled_solves_;
    return true;
  };
  // A cancelled integration may also end in an exception: superseded, it is no failure.
  auto solve = [&]() -> std::optional<dirac::OptimalControlSolution> {
    try {
      // Collocation derives its controlled equations (GiNaC) before it solves: under the lock.
      std::unique_lock<std::mutex> symbolic;
      if (dirac::ChosenMethod(*job.scenario) == dirac::OptimalControlMethod::kCollocation)
        symbolic = std::unique_lock<std::mutex>(SymbolicMutex());
      dirac::OptimalControlSolution solution =
          dirac::SolveOptimalControl(*worker_model_, *job.scenario, options);
      if (given_up()) return std::nullopt;
      return solution;
    } catch (const std::exception&) {
      if (given_up()) return std::nullopt;
      throw;
    }
  };
  std::optional<dirac::OptimalControlSolution> attempt = solve();
  if (!attempt) return;
  if (!attempt->report.converged && options.warm_start && attempt->report.method != "collocation") {
    // The previous optimum was too far away: from the scenario's own initial guess (collocation
    // has done that itself: IPOPT once more from the scenario's guess).
    options.warm_start = nullptr;
    attempt = solve();
    if (!attempt) return;
  }
  dirac::OptimalControlSolution& solution = *attempt;

  const dirac::SimulationInput input = dirac::SimulationInput::FromScenario(*job.scenario);
  auto snapshot = std::make_shared<SimulationSnapshot>();
  snapshot->run = job.run;
  snapshot->scenario = job.scenario_id;
  snapshot->run_scenario = job.scenario;
  snapshot->parameters = input.parameters;
  snapshot->t_end = input.spec.t_end;
  snapshot->complete = true;
  SolveResult result{solution.report.converged, solution.report, solution.cost,
                     solution.hamiltonian_drift};
  if (result.converged) {
    // A free horizon: the run ends at the solved T (not at the guess).
    if (solution.report.final_time > 0.0) snapshot->t_end = solution.report.final_time;
    worker_warm_start_ = std::move(solution.warm_start);
    worker_has_optimum_ = true;
    snapshot->trajectory =
        std::make_shared<const dirac::Trajectory>(std::move(solution.trajectory));
  } else {
    std::string message = solution.report.message;
    if (message.empty())
      message = QStringLiteral("not converged (best max |F| %1)")
                    .arg(solution.report.best_residual, 0, 'e', 2)
                    .toStdString();
    const bool show_guess = !worker_has_optimum_;
    if (show_guess) {
      // No optimum of this scenario yet: show the motion from the initial guess, marked so.
      dirac::SimulationReport report;
      dirac::Trajectory guess = worker_model_->Simulate(
          input, [&](const dirac::Trajectory&) { return !Superseded(job.run); }, &report);
      if (report.cancelled || Superseded(job.run)) return;
      snapshot->trajectory = std::make_shared<const dirac::Trajectory>(std::move(guess));
      snapshot->report = report;
    }
    mailbox_.Post([this, run = job.run, message = std::move(message)] {
      OnSolveFailed(run, QString::fromStdString(message));
    });
    if (!show_guess) return;
  }
  snapshot->solve = std::move(result);
  snapshot->wall_seconds = SecondsSince(start);
  mailbox_.Post([this, s = SnapshotPtr(std::move(snapshot))] { OnSnapshot(s); });
}

void SimulationController::RunGauge(const Job& job, const dirac::GaugeTwoForm& gauge,
                                    const dirac::SimulationInput& input) {
  // Its own error boundary: a failure is reported in the result and never fails the main run.
  const auto start = Clock::now();
  auto result = std::make_shared<GaugeResult>();
  result->run = job.run;
  result->scenario = job.scenario_id;
  try {
    // Derived once with the model: Compute evaluates compiled tapes only (no GiNaC), so it runs
    // without SymbolicMutex().
    // Asked every 5 ms (also inside long steps): a newer request or Cancel stops it there.
    // How far it got is posted at most every 100 ms.
    auto posted = start;
    dirac::Trajectory trajectory = gauge.Compute(input, [&](const dirac::Trajectory& so_far) {
      if (Superseded(job.run)) return false;
      if (Clock::now() - posted >= std::chrono::milliseconds(100) && !so_far.empty()) {
        posted = Clock::now();
        mailbox_.Post([this, run = job.run, t = so_far.at(so_far.num_rows() - 1, 0)] {
          OnGaugeProgress(run, t);
        });
      }
      return true;
    });
    if (Superseded(job.run)) return;
    result->trajectory = std::make_shared<const dirac::Trajectory>(std::move(trajectory));
  } catch (const std::exception& e) {
    if (Superseded(job.run)) return;
    result->error = e.what();
  }
  result->wall_seconds = SecondsSince(start);
  mailbox_.Post([this, r = GaugeResultPtr(std::move(result))] { OnGauge(r); });
}

std::shared_ptr<const dirac::Model> SimulationController::Derive(const Job& job,
                                                                 const dirac::Scenario& scenario) {
  dirac::DerivationObserver observer;
  observer.cancel = job.derive_cancel.get();
  observer.on_stage = [this, id = job.scenario_id](const std::string& stage) {
    mailbox_.Post([this, id, stage] { OnDerivationStage(id, QString::fromStdString(stage)); });
  };
  dirac::DerivationScope scope(std::move(observer));
  std::lock_guard symbolic(SymbolicMutex());
  return dirac::BuildModel(scenario);
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
