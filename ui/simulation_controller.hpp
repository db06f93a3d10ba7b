#pragma once
/// @file simulation_controller.hpp
/// Runs dirac::Simulate on a worker thread and publishes immutable snapshots to the GUI thread.

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "simulation_snapshot.hpp"

namespace dirac::ui {

/// Owns the current scenario and one worker thread. The GUI edits values through SetValue();
/// edits are queued as a pending request (latest wins) and picked up by the worker, which
/// derives the system once per scenario and then only re-integrates with new numbers.
/// All public functions and all signals live on the GUI thread.
class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(QObject* parent = nullptr);
  /// Cancels the running job and joins the worker.
  ~SimulationController() override;

  /// Replaces the scenario: cancels any run, derives the new system on the worker, simulates.
  void LoadScenario(dirac::Scenario scenario);

  /// Sets a parameter, an initial condition or a setting by its scenario name (see
  /// dirac::ApplyOverride). Cancels the running job at once and restarts after the debounce
  /// interval, so dragging a slider starts one run when the hand rests. Returns false and emits
  /// failed() if the name is unknown.
  bool SetValue(const QString& name, double value);

  /// Starts a run with the current values now (no debounce).
  void Restart();
  /// Stops the running job; the last published snapshot stays.
  void Cancel();

  /// Debounce interval for SetValue [ms].
  void set_debounce_ms(int ms) { debounce_.setInterval(ms); }

  bool has_scenario() const { return scenario_id_ != 0; }
  /// The scenario with the current (edited) values.
  const dirac::Scenario& scenario() const { return scenario_; }
  /// The derived system of the current scenario; null until systemReady().
  std::shared_ptr<const dirac::LagrangeDiracSystem> system() const { return system_; }
  /// The newest snapshot of the current run (may be partial), null before the first one.
  SnapshotPtr latest() const { return latest_; }
  /// True while a run is pending or in progress.
  bool busy() const { return busy_; }

 signals:
  /// The system of the current scenario was derived (once per LoadScenario).
  void systemReady();
  /// A new snapshot of the current run; snapshot->complete marks the end of the run.
  void snapshotReady(dirac::ui::SnapshotPtr snapshot);
  /// Derivation or integration failed; `message` is human readable (file:line for scenarios).
  void failed(const QString& message);
  void busyChanged(bool busy);

 private:
  struct Job {
    std::uint64_t run = 0;
    std::uint64_t scenario_id = 0;
    std::shared_ptr<const dirac::Scenario> scenario;
  };

  void Submit();
  void SetBusy(bool busy);
  void WorkerLoop();
  void RunJob(const Job& job);
  bool Superseded(std::uint64_t run) const;

  // Worker -> GUI thread, queued.
  void OnSystemDerived(std::uint64_t scenario_id,
                       std::shared_ptr<const dirac::LagrangeDiracSystem> system);
  void OnSnapshot(SnapshotPtr snapshot);
  void OnFailed(std::uint64_t run, const QString& message);

  // GUI-thread state.
  dirac::Scenario scenario_;
  std::uint64_t scenario_id_ = 0;
  std::uint64_t run_ = 0;
  std::shared_ptr<const dirac::LagrangeDiracSystem> system_;
  SnapshotPtr latest_;
  bool busy_ = false;
  QTimer debounce_;

  // Shared with the worker.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;
  std::atomic<std::uint64_t> wanted_run_{0};
  std::atomic<bool> stopping_{false};

  // Worker-only cache: the system derived for worker_scenario_id_.
  std::uint64_t worker_scenario_id_ = 0;
  std::shared_ptr<const dirac::LagrangeDiracSystem> worker_system_;

  std::thread worker_;  // last member: started after everything above exists
};

}  // namespace dirac::ui
