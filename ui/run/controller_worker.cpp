// The simulation controller's worker thread (one job at a time, latest request wins): derives
// the model under the symbolic lock with stage reports and the derivation's cancel flag,
// integrates or solves, optionally the comparison formulation and the gauge two-form, and posts
// every result and progress report to the GUI thread through the mailbox. The GUI thread's side
// is simulation_controller.cpp.
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
#include "run/simulation_controller.hpp"

namespace dirac::ui {
namespace {

using Clock = std::chrono::steady_clock;

// Partial results are published at most this often: copying the trajectory so far is O(rows).
constexpr auto kPublishInterval = std::chrono::milliseconds(40);
// The first partial result waits longer: a run that ends sooner is published once, whole,
// instead of making the GUI draw a partial one just before it.
constexpr auto kFirstPublish = std::chrono::milliseconds(90);
constexpr int kWorkerNiceness = 5;  // the worker thread's nice value (Linux)

}  // namespace

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

}  // namespace dirac::ui
