#pragma once
// What `dirac` is doing, for --timeout, the heartbeat and error messages: the scenario file, the
// stage ("deriving the equations", ...) and a detail (the Newton iteration a solve has reached);
// the heartbeat line and the --timeout watchdog, each a PeriodicThread.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace dirac::cli {

/// The scenario path the messages name (set once, before the watchdog starts).
void SetScenarioFile(std::string file);
const std::string& ScenarioFile();

/// What the process is doing now; `stage` is a string literal (read by the watchdog thread).
void SetStage(const char* stage);
const char* Stage();

/// A detail the heartbeat appends to the stage, e.g. the Newton iteration a solve has reached.
void SetDetail(std::string detail);

/// "FILE: message" unless the message already names the file.
std::string NamingTheFile(const std::string& message);

inline constexpr double kHeartbeatSeconds = 5.0;

/// A thread that calls `tick(elapsed seconds)` every `period` seconds until destroyed (or until
/// tick returns false); the destructor wakes it at once and joins it.
class PeriodicThread {
 public:
  PeriodicThread(double period, std::function<bool(double)> tick) {
    thread_ = std::thread([this, period, tick = std::move(tick)] {
      const auto start = std::chrono::steady_clock::now();
      std::unique_lock<std::mutex> lock(mutex_);
      while (!cv_.wait_for(lock, std::chrono::duration<double>(period), [this] { return stop_; })) {
        if (!tick(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()))
          return;
      }
    });
  }
  ~PeriodicThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  PeriodicThread(const PeriodicThread&) = delete;
  PeriodicThread& operator=(const PeriodicThread&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

/// --timeout: ends the process with exit status 1 after `seconds` of wall time (the watchdog's
/// tick). GiNaC and SUNDIALS calls cannot be interrupted, so the watchdog does not ask: it
/// writes the message with write(2), removes the temporaries of atomic writes in progress and
/// _exits.
bool TimedOut(double seconds);

/// A line on stderr (the file, the stage, the elapsed seconds and the detail): the heartbeat
/// printed every kHeartbeatSeconds while a command runs (unless --quiet), so that a long
/// derivation, integration or solve is never silent. Returns true (keep ticking).
bool Heartbeat(double elapsed);

}  // namespace dirac::cli
