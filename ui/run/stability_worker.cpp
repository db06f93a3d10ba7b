#include "run/stability_worker.hpp"

#include <QMetaObject>

#include <exception>
#include <vector>

#include "dirac/derivation_control.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/symbolic_lock.hpp"

namespace dirac::ui {

namespace {

// The options of the block: what a linearizer is made for.
dirac::LinearizationOptions OptionsOf(const dirac::StabilitySpec& spec) {
  dirac::LinearizationOptions options;
  options.ignorable = spec.ignorable;
  options.speeds = spec.speeds;
  options.find = spec.find;
  return options;
}

std::string KeyOf(const dirac::LinearizationOptions& o) {
  std::string key = o.find ? "find;" : ";";
  for (const auto& name : o.ignorable) key += name + ",";
  key += ";";
  for (const auto& name : o.speeds) key += name + ",";
  return key;
}

}  // namespace

StabilityWorker::StabilityWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<StabilityResultPtr>("dirac::ui::StabilityResultPtr");
  thread_ = std::thread([this] { Loop(); });
}

StabilityWorker::~StabilityWorker() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    pending_.reset();
  }
  cancel_ = true;
  wake_.notify_all();
  thread_.join();
}

std::uint64_t StabilityWorker::Request(std::shared_ptr<const dirac::Model> model,
                                       const dirac::Scenario& scenario) {
  const std::uint64_t request = next_request_++;
  {
    std::lock_guard lock(mutex_);
    pending_ = Job{request, std::move(model), scenario};
    newest_ = request;
    cancel_ = true;  // the running request, if any, stops at its next point
  }
  wake_.notify_all();
  if (!busy_) emit busyChanged(busy_ = true);
  return request;
}

void StabilityWorker::Cancel() {
  {
    std::lock_guard lock(mutex_);
    if (pending_) {
      // Never started: its result is the cancellation.
      StabilityResult result;
      result.request = pending_->request;
      result.cancelled = true;
      pending_.reset();
      Deliver(std::move(result));
    }
    cancel_ = true;
  }
}

void StabilityWorker::Loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return quit_ || pending_.has_value(); });
      if (quit_) break;
      job = std::move(*pending_);
      pending_.reset();
      cancel_ = false;
    }
    StabilityResult result = Compute(job);
    {
      // The model goes with the last reference the controller does not hold: under the lock.
      std::lock_guard symbolic(SymbolicMutex());
      job.model.reset();
    }
    Deliver(std::move(result));
  }
  std::lock_guard symbolic(SymbolicMutex());
  linearizer_.reset();
  linearizer_model_.reset();
}

StabilityResult StabilityWorker::Compute(const Job& job) {
  StabilityResult result;
  result.request = job.request;
  const dirac::StabilitySpec& spec = job.scenario.stability;
  try {
    if (!spec.present)
      throw dirac::ModelError("the scenario has no stability: block (docs/scenario-format.md)");
    const dirac::LinearizationOptions options = OptionsOf(spec);
    std::lock_guard symbolic(SymbolicMutex());
    if (!linearizer_ || linearizer_model_ != job.model || linearizer_key_ != KeyOf(options)) {
      linearizer_.reset();
      linearizer_model_.reset();
      dirac::DerivationScope scope({&cancel_, {}});
      linearizer_ = dirac::Linearizer::FromModel(job.scenario, options, job.model);
      linearizer_model_ = job.model;
      linearizer_key_ = KeyOf(options);
    }
    dirac::Scenario at = job.scenario;
    for (const auto& [name, value] : spec.point) dirac::ApplyOverride(at, name, value);
    const auto linearizer = linearizer_->WithValues(at);
    result.sweep = linearizer->Sweep(
        spec.vary, dirac::Linearizer::SweepValues(spec.from, spec.to, spec.count), &cancel_);
    result.current_value = dirac::CurrentValue(job.scenario, spec.vary).value_or(spec.from);
    if (cancel_) throw dirac::SweepCancelled();
    result.current = linearizer->Linearize(spec.vary, result.current_value);
  } catch (const dirac::SweepCancelled&) {
    result.cancelled = true;
  } catch (const dirac::DerivationCancelled&) {
    result.cancelled = true;
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

void StabilityWorker::Deliver(StabilityResult result) {
  auto shared = std::make_shared<const StabilityResult>(std::move(result));
  QMetaObject::invokeMethod(
      this,
      [this, shared] {
        if (shared->request != newest_) return;  // superseded: a newer result follows
        if (busy_) emit busyChanged(busy_ = false);
        emit resultReady(shared);
      },
      Qt::QueuedConnection);
}

}  // namespace dirac::ui
