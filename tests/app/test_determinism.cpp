// Same input, same bytes: every shipped scenario, run several times as separate `dirac`
// processes under address-space randomisation, gives byte-identical CSV and identical
// `equations`, `equations --latex`, `analyze` and `solve` output. (GiNaC orders terms by hashes
// that mix in addresses; the canonical printer and the canonical tape form remove that.)
// scripts/determinism.sh runs the same check with 20 repetitions.
#include <gtest/gtest.h>

#include "cli_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int kRepetitions = 3;

using dirac_test::RunCommand;

using dirac_test::ReadFile;

// The solve report states its wall-clock time, and a command running past 5 s (under a
// sanitizer, say) prints progress lines on stderr ("dirac: FILE: STAGE, N s..."); only these
// may differ.
std::string WithoutTimes(const std::string& report) {
  static const std::regex times(", [0-9.e+-]+ ms");
  static const std::regex heartbeat("dirac: [^\n]*, [0-9]+ s(; [^\n]*)?\n");
  return std::regex_replace(std::regex_replace(report, heartbeat, ""), times, ", T ms");
}

std::vector<fs::path> ShippedScenarios() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(DIRAC_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool HasSolve(const fs::path& scenario) {
  const std::string text = ReadFile(scenario);
  return text.find("\noptimal_control:") != std::string::npos ||
         text.find("\nboundary_value:") != std::string::npos;
}

TEST(Determinism, AddressRandomisationIsOnForThisTest) {
  std::ifstream aslr("/proc/sys/kernel/randomize_va_space");
  int level = -1;
  if (!(aslr >> level)) GTEST_SKIP() << "no /proc/sys/kernel/randomize_va_space";
  // With randomisation off the repetitions below would agree trivially.
  EXPECT_EQ(level, 2) << "address-space randomisation is not full";
}

TEST(Determinism, EveryShippedScenarioGivesTheSameBytesInEveryRun) {
  const std::string cli = DIRAC_CLI;
  const fs::path dir =
      fs::temp_directory_path() / ("dirac-determinism-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::vector<fs::path> scenarios = ShippedScenarios();
  ASSERT_GE(scenarios.size(), 10u);
  for (const fs::path& scenario : scenarios) {
    const std::string name = scenario.stem().string();
    const std::string quoted = "'" + scenario.string() + "'";
    std::vector<std::string> first;
    for (int rep = 0; rep < kRepetitions; ++rep) {
      std::vector<std::string> outputs;
      int code = 0;
      const fs::path csv = dir / (name + ".csv");
      const std::string run = RunCommand(
          cli + " run " + quoted + " --t-end 1 --quiet --csv '" + csv.string() + "'", &code);
      ASSERT_EQ(code, 0) << name << ": " << run;
      outputs.push_back(ReadFile(csv));
      outputs.push_back(WithoutTimes(RunCommand(cli + " equations " + quoted, &code)));
      EXPECT_EQ(code, 0) << name;
      outputs.push_back(WithoutTimes(RunCommand(cli + " equations " + quoted + " --latex", &code)));
      EXPECT_EQ(code, 0) << name;
      outputs.push_back(WithoutTimes(RunCommand(cli + " analyze " + quoted, &code)));
      EXPECT_EQ(code, 0) << name;
      if (HasSolve(scenario)) {
        const fs::path solution = dir / (name + "-solve.csv");
        const std::string report =
            RunCommand(cli + " solve " + quoted + " --csv '" + solution.string() + "'", &code);
        EXPECT_EQ(code, 0) << name << ": " << report;
        outputs.push_back(WithoutTimes(report));
        outputs.push_back(ReadFile(solution));
      }
      if (rep == 0) {
        first = outputs;
        EXPECT_FALSE(first[0].empty()) << name;
        continue;
      }
      ASSERT_EQ(outputs.size(), first.size());
      const char* what[] = {"run CSV", "equations",    "equations --latex",
                            "analyze", "solve report", "solve CSV"};
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        EXPECT_TRUE(outputs[k] == first[k])
            << name << ": " << what[k] << " differs between run 1 and run " << rep + 1;
      }
    }
  }
  fs::remove_all(dir);
}

}  // namespace
