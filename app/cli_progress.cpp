#include "cli_progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>

#include "dirac/csv.hpp"

namespace dirac::cli {
namespace {

std::string g_file;  // the scenario path (set once, before the watchdog)
std::atomic<const char*> g_stage{"reading the scenario"};
std::mutex g_detail_mutex;
std::string g_detail;  // e.g. the Newton iteration a solve has reached

}  // namespace

void SetScenarioFile(std::string file) { g_file = std::move(file); }
const std::string& ScenarioFile() { return g_file; }

void SetStage(const char* stage) { g_stage.store(stage); }
const char* Stage() { return g_stage.load(); }

void SetDetail(std::string detail) {
  std::lock_guard<std::mutex> lock(g_detail_mutex);
  g_detail = std::move(detail);
}

// "FILE: message" unless the message already names the file.
std::string NamingTheFile(const std::string& message) {
  if (g_file.empty() || message.find(g_file) != std::string::npos) return message;
  return g_file + ": " + message;
}

bool TimedOut(double seconds) {
  char message[1024];
  const int n = std::snprintf(message, sizeof message,
                              "dirac: %s: timed out after %g s while %s (--timeout)\n",
                              g_file.c_str(), seconds, g_stage.load());
  if (n > 0) {
    const ssize_t ignored = ::write(2, message, std::min<std::size_t>(n, sizeof message - 1));
    (void)ignored;
  }
  dirac::RemovePendingTemporaryFiles();
  ::_exit(1);
}

bool Heartbeat(double elapsed) {
  std::string detail;
  {
    std::lock_guard<std::mutex> lock(g_detail_mutex);
    detail = g_detail;
  }
  std::fprintf(stderr, "dirac: %s: %s, %.0f s%s%s\n", g_file.c_str(), g_stage.load(), elapsed,
               detail.empty() ? "" : "; ", detail.c_str());
  return true;
}

}  // namespace dirac::cli
