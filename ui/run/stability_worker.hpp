#pragma once
/// @file stability_worker.hpp
/// The Stability view's computation on a worker thread of its own: the linearization of the
/// scenario's `stability:` operating point swept over its parameter (dirac/linearization.hpp),
/// and the spectrum at the parameter's current value. Qt Core only.

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "dirac/linearization.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac::ui {

/// What one request gave: the sweep (its branches are the curves), the linearization at the
/// current value of the swept name, or the error / cancellation that ended it.
struct StabilityResult {
  std::uint64_t request = 0;  ///< StabilityWorker::Request's number
  bool cancelled = false;
  QString error;  ///< "" when the sweep and the spectrum were computed
  dirac::StabilitySweep sweep;
  dirac::Linearization current;  ///< at `current_value` of sweep.parameter
  double current_value = 0.0;    ///< the scenario's value of the swept name [its unit]
};
using StabilityResultPtr = std::shared_ptr<const StabilityResult>;

/// Computes StabilityResults for the latest request on its own thread: the linearizer is made
/// once per model (Linearizer::FromModel, reusing the controller's derived model, under
/// SymbolicMutex() with a cancellable DerivationScope), then each request is a sweep and one
/// linearization (compiled tapes; each point applies its value as --set does, which evaluates
/// derived initial velocities with GiNaC, so the sweep also holds SymbolicMutex()). A newer
/// request or Cancel() stops the running one at its next point. Public functions and the
/// signals live on the GUI thread.
class StabilityWorker : public QObject {
  Q_OBJECT

 public:
  explicit StabilityWorker(QObject* parent = nullptr);
  /// Cancels the running job, joins the thread, drops the linearizer under SymbolicMutex().
  ~StabilityWorker() override;

  /// Computes for `scenario` (with a `stability:` block; the block's point values are applied
  /// over the scenario's own, the swept name's current value is the scenario's) and `model`
  /// (BuildModel(scenario)'s, shared with the controller). Supersedes any earlier request.
  /// Returns the request's number.
  std::uint64_t Request(std::shared_ptr<const dirac::Model> model, const dirac::Scenario& scenario);
  /// Stops the running request (its result says cancelled) and drops a pending one.
  void Cancel();
  /// Whether a request is pending or running.
  bool busy() const { return busy_; }
  /// Requests made so far.
  std::uint64_t requests() const { return next_request_ - 1; }

 signals:
  /// A request ended (computed, failed or cancelled); only the newest request's result is sent.
  void resultReady(dirac::ui::StabilityResultPtr result);
  void busyChanged(bool busy);

 private:
  struct Job {
    std::uint64_t request = 0;
    std::shared_ptr<const dirac::Model> model;
    dirac::Scenario scenario;
  };
  void Loop();
  StabilityResult Compute(const Job& job);
  void Deliver(StabilityResult result);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;  // under mutex_
  bool quit_ = false;           // under mutex_
  std::atomic<bool> cancel_{false};
  std::uint64_t next_request_ = 1;        // GUI thread
  std::atomic<std::uint64_t> newest_{0};  // the newest request made
  bool busy_ = false;                     // GUI thread
  // Worker thread only: the linearizer and the model and options it was made for.
  std::shared_ptr<const dirac::Linearizer> linearizer_;
  std::shared_ptr<const dirac::Model> linearizer_model_;
  std::string linearizer_key_;
  std::thread thread_;
};

}  // namespace dirac::ui

Q_DECLARE_METATYPE(dirac::ui::StabilityResultPtr)
