#pragma once
// Test helpers for tests that start the `dirac` CLI as a separate process (so GiNaC's hashes and
// addresses differ from launch to launch): run a command, read a file it wrote.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dirac_test {

/// Runs `command` through the shell with stderr joined to stdout; returns the output and sets
/// `*exit_code` (-1 if the process did not exit normally).
inline std::string RunCommand(const std::string& command, int* exit_code) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return "popen failed";
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

/// What a command printed (stderr joined to stdout) and its exit status (-1 if it did not exit
/// normally).
struct CommandResult {
  int exit_code = -1;
  std::string output;
};

/// Runs `command` through the shell with stderr joined to stdout.
inline CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  result.output = RunCommand(command, &result.exit_code);
  return result;
}

/// The bytes of `path` ("" if it cannot be read).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace dirac_test
