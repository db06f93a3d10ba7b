#pragma once
/// @file simulation_controller.hpp
/// Derives the scenario's dirac::Model and runs Model::Simulate on a worker thread; publishes
/// immutable snapshots to the GUI thread.

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "run/simulation_snapshot.hpp"
#include "run/worker_mailbox.hpp"

namespace dirac::ui {

/// What the status chip says about the solve of a scenario that poses one (an
/// `optimal_control:` or `boundary_value:` block): GUI-thread state of the controller.
struct SolveStatus {
  enum class State { kNone, kSolving, kSolved, kFailed };
  State state = State::kNone;  ///< kNone: the scenario poses no solve
  int iteration = 0;           ///< solving: Newton iterations so far (0: none yet)
  double residual = 0.0;      ///< solving: max |F| after the last iteration; solved: at the optimum
  double continuation = 1.0;  ///< solving: homotopy parameter of the last iteration
  int iterations = 0;         ///< solved: Newton iterations in all
  int stored_jacobian_iterations = 0;  ///< solved: of them, quasi-Newton on the stored Jacobian
  double cost = 0.0;                   ///< solved: cost of the optimum
  double seconds = 0.0;        ///< solved: worker wall time from the request to the sampled optimum
  bool warm_started = false;   ///< solved: from the previous optimum
  std::string message;         ///< failed: why (the engine's message, or "cancelled")
  bool stale = false;          ///< the optimum shown is of earlier values (not solving / failed)
  bool showing_guess = false;  ///< failed before any optimum: the unsolved initial guess is shown
};

/// A short human name of a formulation for legends: "vakonomic", "nonholonomic (Lagrange–Dirac)".
std::string FormulationLabel(dirac::Formulation formulation);

/// True if `model` (may be null) has the gauge two-form capability (Model::gauge_two_form()).
bool SupportsGaugeTwoForm(const dirac::Model* model);

/// Owns the current scenario and one worker thread. The GUI edits values through SetValue();
/// edits are queued as a pending request (latest wins) and picked up by the worker, which
/// derives the model (dirac::BuildModel) once per scenario and then only re-integrates with new
/// numbers. All public functions and all signals live on the GUI thread.
///
/// Models are derived and destroyed on the worker under SymbolicMutex() (GiNaC is not thread
/// safe): a model the GUI lets go of is retired to the worker, which destroys it once nobody
/// else holds it. GUI code may keep shared_ptr copies of model() as long as it likes.
class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(QObject* parent = nullptr);
  /// Cancels the running job and joins the worker.
  ~SimulationController() override;

  /// Replaces the scenario: cancels any run, derives the new model on the worker, simulates.
  void LoadScenario(dirac::Scenario scenario);

  /// Sets a parameter, an initial condition, a setting (see dirac::ApplyOverride) or a boundary
  /// value (boundary_values.hpp: initial.<q>, final.<q>, horizon) by its scenario name. Cancels
  /// the running job (or solve) at once and starts the next one at once (or after the debounce
  /// interval, if one is set); the worker always takes the newest request. Returns false and
  /// emits failed() if the name is unknown.
  bool SetValue(const QString& name, double value);
  /// Several values at once (one run), e.g. the three components of a dragged attitude.
  bool SetValues(const std::vector<std::pair<QString, double>>& values);
  /// Fixes a boundary value at `value` or frees it (nullopt), then re-solves as SetValue.
  bool SetBoundaryValue(const QString& name, std::optional<double> value);
  /// Several values, nullopt freeing a boundary value, as one edit (one run), all or nothing;
  /// what undo and redo apply (EditHistory).
  bool SetEditedValues(const std::vector<std::pair<QString, std::optional<double>>>& values);
  /// Shows `result` again instead of computing it: the values become those of its run
  /// (SimulationSnapshot::run_scenario), the running job is superseded and a copy of it is
  /// published as the newest run (snapshotReady), without the worker. Undo and redo use it so
  /// that the previous result comes back exactly (a solve re-run from another warm start would
  /// land within its tolerance, not on the same bytes). False, and nothing done, unless
  /// `result` is a complete run of the current scenario and model with run_scenario set, and
  /// neither the comparison nor the gauge two-form is on (their results are not kept).
  bool RestoreResult(const SnapshotPtr& result);

  /// With a formulation, every run also simulates the same scenario (same values, Lagrangian,
  /// constraints and initial point) with `scenario.formulation = formulation` and publishes it
  /// as SimulationSnapshot::comparison; nothing turns that off. Restarts the run if it changes.
  void SetComparison(std::optional<dirac::Formulation> formulation);
  std::optional<dirac::Formulation> comparison() const { return comparison_; }

  /// When enabled, every run whose model SupportsGaugeTwoForm() also computes the model's
  /// gauge two-form (GaugeTwoForm::Compute, compiled tapes only, so without SymbolicMutex())
  /// with the run's values after the main run, on the worker, cancelled and restarted with the
  /// run; the result (or its error, which never fails the main run) arrives through
  /// gaugeReady(). Restarts the run if it changes.
  void SetGaugeTwoForm(bool enabled);
  bool gauge_two_form() const { return gauge_; }
  /// The newest gauge result of the current scenario (maybe of an earlier run), else null.
  GaugeResultPtr latest_gauge() const { return latest_gauge_; }
  /// True while the worker computes the gauge two-form of the newest complete run (its main
  /// run is shown; the gauge result follows).
  bool computing_gauge() const { return computing_gauge_; }
  /// While computing_gauge(): how far the gauge integration has got [s of model time], and the
  /// wall time since it started [s].
  double gauge_time() const { return gauge_time_; }
  double gauge_seconds() const;

  /// Starts a run with the current values now (no debounce).
  void Restart();
  /// Stops the running job, and the derivation if one is running (it ends at its next
  /// checkpoint, within a fraction of a second); the last published snapshot stays. Every
  /// stage of a job (derivation, integration, comparison, gauge two-form, solve) polls for it,
  /// so the worker is free (worker_active() false) within about 100 ms. A gauge two-form being
  /// computed is reported through gaugeReady() with GaugeResult::cancelled set.
  void Cancel();
  /// Stops a running derivation so that the symbolic lock is free within a fraction of a second
  /// (e.g. before the GUI thread reads another scenario); returns whether one was running. A
  /// stopped derivation of the current scenario restarts with the next run (Restart()).
  bool StopDerivation();
  /// Stops everything the worker does for the current scenario (its derivation as
  /// StopDerivation(), the run, comparison, gauge two-form or solve, and a pending request),
  /// e.g. before the window reads another scenario file, so that the worker is free within a
  /// fraction of a second; returns whether anything was running or pending. Restart() resumes.
  bool StopWork();
  /// True from LoadScenario() until its model is derived (or its derivation failed or stopped).
  bool deriving() const { return deriving_; }
  /// The stage the derivation of the current scenario is in ("compiling the residual"), and
  /// its wall time so far [s]; "" when not deriving.
  QString derivation_stage() const { return deriving_ ? derivation_stage_ : QString(); }
  double derivation_seconds() const;

  /// Debounce interval for SetValue [ms]; 0 (the default) submits every edit at once.
  void set_debounce_ms(int ms) { debounce_.setInterval(ms); }

  bool has_scenario() const { return scenario_id_ != 0; }
  /// The scenario with the current (edited) values.
  const dirac::Scenario& scenario() const { return scenario_; }
  /// The derived model of the current scenario; null until modelReady().
  std::shared_ptr<const dirac::Model> model() const { return model_; }
  /// The newest snapshot of the current run (may be partial), null before the first one.
  SnapshotPtr latest() const { return latest_; }
  /// True while a run is pending or in progress.
  bool busy() const { return busy_; }
  /// True while the worker thread is inside a job (deriving, integrating, solving or unwinding
  /// a cancelled one); any thread may ask.
  bool worker_active() const { return worker_active_.load(); }
  /// When the worker last left a job (finished, failed or given up), on the steady clock; any
  /// thread may ask. With worker_active() false, the time a cancel took to free it.
  std::chrono::steady_clock::time_point worker_free_since() const {
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(worker_free_ns_.load()));
  }
  /// True if the current scenario poses a solve (optimal_control: or boundary_value:): every
  /// run solves it with dirac::SolveOptimalControl (warm-started from the previous optimum of
  /// the scenario) and publishes the sampled optimum.
  bool solves() const { return solve_status_.state != SolveStatus::State::kNone; }
  const SolveStatus& solve_status() const { return solve_status_; }
  /// Solves given up because a newer request superseded them, and for the newest such, the
  /// time from the request (which set the solve's cancel flag) to the worker being free [ms].
  int cancelled_solves() const { return cancelled_solves_.load(); }
  double last_cancel_latency_ms() const { return last_cancel_latency_ms_.load(); }

 signals:
  /// The model of the current scenario was derived (once per LoadScenario).
  void modelReady();
  /// The derivation of the current scenario entered a stage, or its clock advanced (every
  /// 250 ms while deriving): derivation_stage(), derivation_seconds().
  void derivationProgress();
  /// A new snapshot of the current run; snapshot->complete marks the end of the run.
  void snapshotReady(dirac::ui::SnapshotPtr snapshot);
  /// Derivation or integration failed; `message` is human readable (file:line for scenarios).
  void failed(const QString& message);
  /// The gauge two-form of the current run was computed (or failed: result->error; or was
  /// cancelled: result->cancelled).
  void gaugeReady(dirac::ui::GaugeResultPtr result);
  /// While computing_gauge(): the gauge integration advanced (gauge_time()), or its clock did
  /// (every 250 ms).
  void gaugeProgress();
  void busyChanged(bool busy);
  /// solve_status() changed (a solve started, iterated, converged or failed).
  void solveStatusChanged();

 private:
  struct Job {
    std::uint64_t run = 0;
    std::uint64_t scenario_id = 0;
    std::shared_ptr<const dirac::Scenario> scenario;
    std::optional<dirac::Formulation> comparison;
    bool gauge = false;
    std::shared_ptr<std::atomic<bool>> cancel;  // set by the GUI thread when superseded
    // Set when the scenario is replaced, on Cancel() and StopDerivation(): derivations poll it
    // (a value edit supersedes the run, never the derivation of the same model).
    std::shared_ptr<std::atomic<bool>> derive_cancel;
  };

  bool Apply(const std::vector<std::pair<QString, std::optional<double>>>& values);
  void Edited();
  void Supersede();
  void SetSolveStatus(SolveStatus status);
  void Submit();
  void SetBusy(bool busy);
  void Retire(std::shared_ptr<const dirac::Model> model);
  void WorkerLoop();
  void RunJob(const Job& job);
  void RunSolve(const Job& job, std::chrono::steady_clock::time_point start);
  void RunGauge(const Job& job, const dirac::GaugeTwoForm& gauge,
                const dirac::SimulationInput& input);
  void SweepRetired();
  bool Superseded(std::uint64_t run) const;
  static double SecondsSince(std::chrono::steady_clock::time_point start);

  // Worker -> GUI thread, queued.
  void OnModelDerived(std::uint64_t scenario_id, std::shared_ptr<const dirac::Model> model);
  void OnDerivationStage(std::uint64_t scenario_id, const QString& stage);
  // Derives under SymbolicMutex() with the job's derivation cancel flag and stage reports.
  std::shared_ptr<const dirac::Model> Derive(const Job& job, const dirac::Scenario& scenario);
  void StopDerivationFlag();
  void OnSnapshot(SnapshotPtr snapshot);
  void DeliverSnapshot(SnapshotPtr snapshot);
  void OnGauge(GaugeResultPtr result);
  void OnGaugeProgress(std::uint64_t run, double t);
  void StopGaugeClock();
  void OnFailed(std::uint64_t run, const QString& message);
  void OnSolveProgress(std::uint64_t run, const dirac::NewtonIterate& iterate);
  void OnSolveFailed(std::uint64_t run, const QString& message);

  // GUI-thread state.
  dirac::Scenario scenario_;
  std::uint64_t scenario_id_ = 0;
  std::uint64_t run_ = 0;
  std::shared_ptr<const dirac::Model> model_;
  std::optional<dirac::Formulation> comparison_;
  bool gauge_ = false;
  SnapshotPtr latest_;
  GaugeResultPtr latest_gauge_;
  bool busy_ = false;
  QTimer debounce_;
  SolveStatus solve_status_;
  std::shared_ptr<std::atomic<bool>> active_cancel_;  // of the newest submitted job
  std::shared_ptr<std::atomic<bool>> derive_cancel_;  // of the current scenario's derivation
  bool deriving_ = false;
  QString derivation_stage_;
  std::chrono::steady_clock::time_point derivation_start_;
  QTimer derivation_clock_;  // derivationProgress() every 250 ms while deriving
  bool computing_gauge_ = false;
  double gauge_time_ = 0.0;
  std::chrono::steady_clock::time_point gauge_start_;
  QTimer gauge_clock_;  // gaugeProgress() every 250 ms while computing_gauge_

  // Shared with the worker (under mutex_).
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;
  std::vector<std::shared_ptr<const dirac::Model>> retired_;  // destroyed by the worker
  std::atomic<std::uint64_t> wanted_run_{0};
  std::atomic<std::int64_t> superseded_at_ns_{0};  // steady clock, of the newest Supersede()
  std::atomic<int> cancelled_solves_{0};
  std::atomic<double> last_cancel_latency_ms_{0.0};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> worker_active_{false};
  std::atomic<std::chrono::steady_clock::rep> worker_free_ns_{0};
  // Back-pressure on partial results: a partial snapshot is published only once the GUI thread
  // has drawn the previous one, and no more often than twice the time that drawing took, so the
  // window spends at most about half its time on a growing run and keeps answering.
  std::atomic<bool> partial_in_flight_{false};
  std::atomic<std::int64_t> partial_draw_ns_{0};

  // Worker-only caches: the model of worker_scenario_id_ and its comparison model.
  std::uint64_t worker_scenario_id_ = 0;
  std::shared_ptr<const dirac::Model> worker_model_;
  std::uint64_t worker_comparison_id_ = 0;
  std::optional<dirac::Formulation> worker_comparison_formulation_;
  std::shared_ptr<const dirac::Model> worker_comparison_model_;
  // The newest optimum of worker_scenario_id_ (warm start of the next solve), if any.
  dirac::WarmStart worker_warm_start_;
  bool worker_has_optimum_ = false;
  std::string worker_comparison_error_;

  // Worker -> GUI thread: every result and report of the worker goes through it.
  WorkerMailbox mailbox_;

  std::thread worker_;  // last member: started after everything above exists
};

}  // namespace dirac::ui
