// Core's symbolic lock taken without the GIL, derivations on a worker thread that Ctrl+C
// cancels, and the GIL-free polling of long numeric calls.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <thread>
#include <vector>

#include "dirac/derivation_control.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {
std::atomic<std::size_t> g_derivations{0};
}

SymbolicGuard LockSymbolic() {
  SymbolicGuard lock(std::try_to_lock);
  if (lock.owns_lock()) return lock;
  if (PyGILState_Check()) {
    py::gil_scoped_release release;
    lock.lock();
  } else {
    lock.lock();
  }
  return lock;
}

std::size_t DerivationCount() { return g_derivations.load(); }

void RunOnWorker(const std::function<void(const std::atomic<bool>& cancel)>& work,
                 const std::function<void(const std::string&)>* on_stage,
                 const std::function<bool()>& tick) {
  struct Shared {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    std::exception_ptr error;
    std::atomic<bool> cancel{false};
  } shared;
  std::unique_ptr<py::error_already_set> pending;
  {
    py::gil_scoped_release release;
    std::thread worker([&shared, &work, on_stage] {
      try {
        if (on_stage) {
          DerivationObserver observer;
          observer.cancel = &shared.cancel;
          observer.on_stage = *on_stage;
          DerivationScope scope(std::move(observer));
          const SymbolicGuard lock;
          work(shared.cancel);
        } else {
          work(shared.cancel);
        }
      } catch (...) {
        shared.error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(shared.mutex);
      shared.done = true;
      shared.done_cv.notify_all();
    });
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(shared.mutex);
        if (shared.done_cv.wait_for(lock, std::chrono::milliseconds(50),
                                    [&] { return shared.done; }))
          break;
      }
      if (pending) continue;  // cancelled: wait for the worker to stop
      py::gil_scoped_acquire gil;
      try {
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (tick && !tick()) shared.cancel = true;
      } catch (py::error_already_set& e) {
        pending = std::make_unique<py::error_already_set>(std::move(e));
        shared.cancel = true;
      }
    }
    worker.join();
  }
  if (pending) throw std::move(*pending);
  if (shared.error) std::rethrow_exception(shared.error);
}

void RunDerivation(const std::function<void()>& work, const py::object& progress) {
  ++g_derivations;
  std::mutex mutex;
  std::vector<std::string> stages;  // entered since the last report
  const std::function<void(const std::string&)> on_stage = [&](const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex);
    stages.push_back(name);
  };
  // Reports the stages entered since the last call, in order (with the GIL); false to cancel.
  const auto report = [&] {
    std::vector<std::string> entered;
    {
      std::lock_guard<std::mutex> lock(mutex);
      entered.swap(stages);
    }
    bool go_on = true;
    if (progress.is_none()) return go_on;
    for (const auto& name : entered) {
      const py::object answer = progress(name);
      go_on = go_on && (answer.is_none() || answer.cast<bool>());
    }
    return go_on;
  };
  RunOnWorker([&](const std::atomic<bool>&) { work(); }, &on_stage, report);
  report();  // the stages of the last 50 ms
}

bool InterruptPoll::Poll(const std::function<py::object()>& progress_args) {
  if (cancelled_) return false;
  if (progress_.is_none()) {  // only Ctrl+C to look for: not at every progress point
    const auto now = std::chrono::steady_clock::now();
    if (now - last_check_ < kSignalInterval) return true;
    last_check_ = now;
  }
  py::gil_scoped_acquire gil;
  try {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!progress_.is_none()) {
      const py::object answer = progress_(*progress_args());
      if (!answer.is_none() && !answer.cast<bool>()) cancelled_ = true;
    }
  } catch (py::error_already_set& e) {
    pending_ = std::make_unique<py::error_already_set>(std::move(e));
    cancelled_ = true;
  }
  return !cancelled_;
}

void InterruptPoll::Finish() {
  if (pending_) {
    auto error = std::move(pending_);
    throw std::move(*error);
  }
}

}  // namespace dirac::python
