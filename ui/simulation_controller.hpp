#pragma once
/// @file simulation_controller.hpp
/// Derives the scenario's dirac::Model and runs Model::Simulate on a worker thread; publishes
/// immutable snapshots to the GUI thread.

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "simulation_snapshot.hpp"

namespace dirac::ui {

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

  /// Sets a parameter, an initial condition or a setting by its scenario name (see
  /// dirac::ApplyOverride). Cancels the running job at once and restarts after the debounce
  /// interval, so dragging a slider starts one run when the hand rests. Returns false and emits
  /// failed() if the name is unknown.
  bool SetValue(const QString& name, double value);

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

  /// Starts a run with the current values now (no debounce).
  void Restart();
  /// Stops the running job; the last published snapshot stays.
  void Cancel();

  /// Debounce interval for SetValue [ms].
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

 signals:
  /// The model of the current scenario was derived (once per LoadScenario).
  void modelReady();
  /// A new snapshot of the current run; snapshot->complete marks the end of the run.
  void snapshotReady(dirac::ui::SnapshotPtr snapshot);
  /// Derivation or integration failed; `message` is human readable (file:line for scenarios).
  void failed(const QString& message);
  /// The gauge two-form of the current run was computed (or failed: result->error).
  void gaugeReady(dirac::ui::GaugeResultPtr result);
  void busyChanged(bool busy);

 private:
  struct Job {
    std::uint64_t run = 0;
    std::uint64_t scenario_id = 0;
    std::shared_ptr<const dirac::Scenario> scenario;
    std::optional<dirac::Formulation> comparison;
    bool gauge = false;
  };

  void Submit();
  void SetBusy(bool busy);
  void Retire(std::shared_ptr<const dirac::Model> model);
  void WorkerLoop();
  void RunJob(const Job& job);
  void RunGauge(const Job& job, const dirac::GaugeTwoForm& gauge,
                const dirac::SimulationInput& input);
  void SweepRetired();
  bool Superseded(std::uint64_t run) const;

  // Worker -> GUI thread, queued.
  void OnModelDerived(std::uint64_t scenario_id, std::shared_ptr<const dirac::Model> model);
  void OnSnapshot(SnapshotPtr snapshot);
  void OnGauge(GaugeResultPtr result);
  void OnFailed(std::uint64_t run, const QString& message);

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

  // Shared with the worker (under mutex_).
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;
  std::vector<std::shared_ptr<const dirac::Model>> retired_;  // destroyed by the worker
  std::atomic<std::uint64_t> wanted_run_{0};
  std::atomic<bool> stopping_{false};

  // Worker-only caches: the model of worker_scenario_id_ and its comparison model.
  std::uint64_t worker_scenario_id_ = 0;
  std::shared_ptr<const dirac::Model> worker_model_;
  std::uint64_t worker_comparison_id_ = 0;
  std::optional<dirac::Formulation> worker_comparison_formulation_;
  std::shared_ptr<const dirac::Model> worker_comparison_model_;
  std::string worker_comparison_error_;

  std::thread worker_;  // last member: started after everything above exists
};

}  // namespace dirac::ui
