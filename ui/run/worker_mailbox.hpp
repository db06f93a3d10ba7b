#pragma once
/// @file worker_mailbox.hpp
/// Calls from a worker thread to the GUI thread, handed over under a mutex.

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

namespace dirac::ui {

/// Carries calls from any thread to the thread this object lives on (the GUI thread), run there
/// in the order posted. A call is moved into the box under its mutex and moved out, run and
/// destroyed on the receiving thread: the posting thread keeps no reference to it, so nothing it
/// captured is touched by two threads without that mutex ordering them. (A functor posted with
/// QMetaObject::invokeMethod is reference-counted inside Qt, whose atomics ThreadSanitizer does
/// not see; whichever thread let go last destroyed it, which TSan reported as a race.)
class WorkerMailbox : public QObject {
  Q_OBJECT

 public:
  explicit WorkerMailbox(QObject* parent = nullptr);

  /// Any thread: queues `call` to run on this object's thread.
  void Post(std::function<void()> call);
  /// This object's thread: destroys the calls not yet run (e.g. before their targets go away).
  void Clear();

 private:
  Q_INVOKABLE void Drain();

  std::mutex mutex_;
  std::deque<std::function<void()>> calls_;
  bool wake_posted_ = false;  // a Drain is queued and has not yet taken the calls
};

}  // namespace dirac::ui
