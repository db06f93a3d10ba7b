#include "run/worker_mailbox.hpp"

#include <utility>

namespace dirac::ui {

WorkerMailbox::WorkerMailbox(QObject* parent) : QObject(parent) { setObjectName("workerMailbox"); }

void WorkerMailbox::Post(std::function<void()> call) {
  std::lock_guard lock(mutex_);
  calls_.push_back(std::move(call));
  if (wake_posted_) return;
  wake_posted_ = true;
  // By name: the queued event carries no functor and no arguments, only the method's index.
  // Posted under mutex_: Qt allocates the event here and the GUI thread deletes it after Drain,
  // which takes mutex_ first; so the allocation is ordered before the deletion by a lock that
  // ThreadSanitizer sees (Qt's own post-event lock is a futex it does not).
  QMetaObject::invokeMethod(this, "Drain", Qt::QueuedConnection);
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
