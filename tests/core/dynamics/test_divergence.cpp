// Diverged runs (issue 36, item 4; docs/robustness.md "Diverged runs"): a run that blows up is
// flagged with the time and the bound it left (SimulationReport::diverged_at / divergence),
// `dirac run` writes the whole CSV and exits 3, `dirac sweep` records the run as `diverged`;
// no shipped scenario is flagged.
#include <gtest/gtest.h>

#include "cli_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dynamics/divergence_monitor.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

using dirac_test::RunCommand;

using dirac_test::ReadFile;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const std::string kUnstable =
    std::string(DIRAC_SOURCE_DIR) + "/tests/scenarios/heisenberg_unstable.yaml";

fs::path TempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Divergence, BlowingUpHeisenbergIsFlaggedInTheReport) {
  const Scenario scenario = LoadScenario(kUnstable);
  const auto model = BuildModel(scenario);
  SimulationReport report;
  const Trajectory trajectory =
      model->Simulate(SimulationInput::FromScenario(scenario), {}, &report);
  // The whole run is there, and it did blow up (the numbers the issue reports).
  EXPECT_NEAR(trajectory.at(trajectory.num_rows() - 1, 0), 50.0, 1e-12);
  EXPECT_GT(report.max_constraint_residual, 1e3);
  EXPECT_GT(report.max_energy_drift, 1e10);
  ASSERT_TRUE(report.diverged_at.has_value());
  EXPECT_GT(*report.diverged_at, 0.0);
  EXPECT_LT(*report.diverged_at, 50.0);
  EXPECT_NE(report.divergence.find("> bound"), std::string::npos) << report.divergence;
  std::printf("[diverged] at t = %.6g: %s\n", *report.diverged_at, report.divergence.c_str());
  // Without the unstable term the same model is not flagged.
  Scenario stable = LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml");
  SimulationReport ok;
  BuildModel(stable)->Simulate(SimulationInput::FromScenario(stable), {}, &ok);
  EXPECT_FALSE(ok.diverged_at.has_value()) << ok.divergence;
  EXPECT_TRUE(ok.divergence.empty());
}

TEST(Divergence, CliRunWritesTheCsvAndExitsThree) {
  const fs::path dir = TempDir("dirac-diverged");
  const fs::path csv = dir / "unstable.csv";
  int code = 0;
  const std::string out = RunCommand(
      std::string(DIRAC_CLI) + " run '" + kUnstable + "' --csv '" + csv.string() + "'", &code);
  EXPECT_EQ(code, 3) << out;
  EXPECT_NE(out.find("the run diverged at t = "), std::string::npos) << out;
  EXPECT_NE(out.find("cannot be trusted"), std::string::npos) << out;
  // The CSV is complete: header + 5001 samples to t = 50.
  const auto lines = Lines(ReadFile(csv));
  ASSERT_EQ(lines.size(), 5002u);
  EXPECT_EQ(lines.back().substr(0, 2), "50");
  // The shipped Heisenberg exits 0.
  const std::string fine = RunCommand(std::string(DIRAC_CLI) + " run '" + DIRAC_SOURCE_DIR +
                                          "/scenarios/heisenberg.yaml' --quiet --csv '" +
                                          (dir / "ok.csv").string() + "'",
                                      &code);
  EXPECT_EQ(code, 0) << fine;
  fs::remove_all(dir);
}

TEST(Divergence, SweepRecordsDivergedRunsAsNotOk) {
  const fs::path dir = TempDir("dirac-diverged-sweep");
  int code = 0;
  // Over kx: every run of the unstable variant diverges; over the same kx the shipped scenario
  // does not. Both tables keep all rows.
  const std::string out = RunCommand(std::string(DIRAC_CLI) + " sweep '" + kUnstable +
                                         "' --vary kx=0.5:2:3 --no-wall-time --jobs 2 --out '" +
                                         (dir / "unstable").string() + "'",
                                     &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("3 diverged"), std::string::npos) << out;
  const auto rows = Lines(ReadFile(dir / "unstable" / "summary.csv"));
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    EXPECT_NE(rows[r].find(",diverged,"), std::string::npos) << rows[r];
    EXPECT_NE(rows[r].find("diverged at t = "), std::string::npos) << rows[r];
    EXPECT_EQ(rows[r].find(",ok,"), std::string::npos) << rows[r];
  }
  const std::string fine = RunCommand(std::string(DIRAC_CLI) + " sweep '" + DIRAC_SOURCE_DIR +
                                          "/scenarios/heisenberg.yaml' --vary kx=0.5:2:3 "
                                          "--no-wall-time --no-trajectories --out '" +
                                          (dir / "stable").string() + "'",
                                      &code);
  EXPECT_EQ(code, 0) << fine;
  const auto ok_rows = Lines(ReadFile(dir / "stable" / "summary.csv"));
  ASSERT_EQ(ok_rows.size(), 4u);
  for (std::size_t r = 1; r < ok_rows.size(); ++r)
    EXPECT_NE(ok_rows[r].find(",ok,"), std::string::npos) << ok_rows[r];
  fs::remove_all(dir);
}

// The rule holds with margin on every shipped scenario, over its whole t_end: none is flagged.
// Prints each scenario's largest residual and drift next to their bounds (the margins quoted in
// docs/robustness.md).
TEST(Divergence, ShippedScenariosAreNotFlagged) {
  std::vector<fs::path> scenarios;
  for (const auto& entry : fs::directory_iterator(fs::path(DIRAC_SOURCE_DIR) / "scenarios"))
    if (entry.path().extension() == ".yaml") scenarios.push_back(entry.path());
  std::sort(scenarios.begin(), scenarios.end());
  ASSERT_GE(scenarios.size(), 10u);
  for (const fs::path& path : scenarios) {
    const Scenario scenario = LoadScenario(path.string());
    const auto model = BuildModel(scenario);
    SimulationInput input = SimulationInput::FromScenario(scenario);
    std::size_t rows = 0;
    input.row_sink = [&rows](const std::vector<std::string>&, const double*) { ++rows; };
    SimulationReport report;
    model->Simulate(input, {}, &report);
    EXPECT_FALSE(report.diverged_at.has_value())
        << path.filename() << ": flagged at t = " << report.diverged_at.value_or(0) << ": "
        << report.divergence;
    std::vector<double> x0(input.q0);
    x0.insert(x0.end(), input.v0.begin(), input.v0.end());
    dynamics::DivergenceMonitor monitor(input.spec, true);
    monitor.SetScales(x0.data(), x0.size(), report.initial_energy);
    std::printf("[margin] %-28s residual %.2e (bound %.2e)  drift %.2e (bound at t_end %.2e)\n",
                path.filename().string().c_str(), report.max_constraint_residual,
                monitor.residual_bound(), report.max_energy_drift,
                monitor.energy_bound(input.spec.t_end));
  }
}

}  // namespace
}  // namespace dirac
