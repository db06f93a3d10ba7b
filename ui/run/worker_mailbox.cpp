#include "run/worker_mailbox.hpp"

#include <utility>

namespace dirac::ui {

WorkerMailbox::WorkerMailbox(QObject* parent) : QObject(parent) { setObjectName("workerMailbox"); }

void WorkerMailbox::Post(std::function<void()> call) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(call));
    wake = !wake_posted_;
    wake_posted_ = true;
  }
  // By name: the queued event carries no functor and no arguments, only the method's index.
  if (wake) QMetaObject::invokeMethod(this, "Drain", Qt::QueuedConnection);
}

void WorkerMailbox::Drain() {
  std::deque<std::function<void()>> calls;
  {
    std::lock_guard lock(mutex_);
    calls.swap(calls_);
    wake_posted_ = false;
  }
  for (auto& call : calls) {
    call();
    call = nullptr;  // what it captured goes now, on this thread
  }
}

void WorkerMailbox::Clear() {
  std::deque<std::function<void()>> calls;
  {
    std::lock_guard lock(mutex_);
    calls.swap(calls_);
  }
}

}  // namespace dirac::ui
