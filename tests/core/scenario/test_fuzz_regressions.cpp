// Replays every input kept under tests/fuzz_regressions/ (findings of the libFuzzer target
// tests/fuzz/scenario_fuzzer.cpp and their minimal forms) through the scenario reader and the
// expression parser, as the fuzzer does: each must give a clean dirac::Error or a scenario whose
// written form reads back. A crash, a sanitizer report or another exception type fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

std::vector<std::filesystem::path> RegressionInputs() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::SourcePath("tests/fuzz_regressions")))
    if (entry.is_regular_file() && entry.path().filename() != "README.md")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(FuzzRegressions, EveryKeptInputGivesACleanErrorOrReadsBack) {
  const auto files = RegressionInputs();
  ASSERT_FALSE(files.empty()) << "tests/fuzz_regressions/ holds the fuzzer's findings";
  int refused = 0, accepted = 0;
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const std::string origin = file.filename().string();
    try {
      const Scenario s = ParseScenario(ReadBytes(file), origin);
      EXPECT_NO_THROW(ParseScenario(SaveScenarioToString(s), origin + ".written"));
      ++accepted;
    } catch (const ScenarioError& e) {
      // A clean error names the input.
      EXPECT_EQ(e.file(), origin);
      EXPECT_NE(std::string(e.what()).find(origin), std::string::npos) << e.what();
      ++refused;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()), "") << "a dirac::Error with a message";
      ++refused;
    }
  }
  EXPECT_EQ(refused + accepted, static_cast<int>(files.size()));
}

}  // namespace
}  // namespace dirac
