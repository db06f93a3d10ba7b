// Float coefficients and tight tolerances (issue 36, items 2 and 3): a 3D multibody model whose
// constraint forms carry floating-point coefficients (1.69e-21 next to exact terms, sqrt and
// sin^2 factors, as a computer-algebra script prints them) gets one verdict and one CSV on every
// launch (separate processes: GiNaC's address-dependent term order differs); IDAS starts from the
// consistent state at rtol = atol = 1e-12 and agrees with the default method.
#include <gtest/gtest.h>

#include "cli_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

const std::string kModel =
    std::string(DIRAC_SOURCE_DIR) + "/tests/scenarios/disk_and_sled_float.yaml";

using dirac_test::RunCommand;

using dirac_test::ReadFile;

// Before the verdicts were made by substitution and evaluation, `analyze` and `run` refused
// this file in most launches, naming a different form each time.
TEST(FloatCoefficients, TwentyLaunchesGiveOneVerdictAndOneCsv) {
  const fs::path dir = fs::temp_directory_path() / ("dirac-float-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path csv = dir / "run.csv";
  std::string first_analysis, first_csv;
  int refused = 0;
  for (int launch = 0; launch < 20; ++launch) {
    int code = 0;
    const std::string analysis =
        RunCommand(std::string(DIRAC_CLI) + " analyze '" + kModel + "'", &code);
    refused += code != 0;
    EXPECT_EQ(code, 0) << "launch " << launch << ": " << analysis;
    const std::string run = RunCommand(std::string(DIRAC_CLI) + " run '" + kModel +
                                           "' --t-end 1 --quiet --csv '" + csv.string() + "'",
                                       &code);
    refused += code != 0;
    EXPECT_EQ(code, 0) << "launch " << launch << ": " << run;
    const std::string bytes = ReadFile(csv);
    if (launch == 0) {
      first_analysis = analysis;
      first_csv = bytes;
      EXPECT_NE(first_csv.find("residual_tow"), std::string::npos);
      continue;
    }
    EXPECT_EQ(analysis, first_analysis) << "analyze differs in launch " << launch;
    EXPECT_TRUE(bytes == first_csv) << "the CSV differs in launch " << launch;
  }
  EXPECT_EQ(refused, 0);
  fs::remove_all(dir);
}

struct RunResult {
  SimulationReport report;
  Trajectory trajectory;
};

RunResult Run(const std::string& path, IntegrationMethod method, double tol, double t_end) {
  Scenario scenario = LoadScenario(path);
  scenario.simulation.method = method;
  scenario.simulation.rtol = tol;
  scenario.simulation.atol = tol;
  scenario.simulation.t_end = t_end;
  RunResult r;
  r.trajectory =
      BuildModel(scenario)->Simulate(SimulationInput::FromScenario(scenario), {}, &r.report);
  return r;
}

// IDAS at rtol = atol = 1e-12 (IDACalcIC failed there from the consistent state, flag -13): the
// run starts, keeps the constraints at rounding level and agrees with the default method.
void ExpectTightIdasRun(const std::string& path, double t_end) {
  SCOPED_TRACE(path);
  const RunResult idas = Run(path, IntegrationMethod::kIdas, 1e-12, t_end);
  const RunResult reference = Run(path, IntegrationMethod::kAuto, 1e-12, t_end);
  EXPECT_LT(idas.report.max_constraint_residual, 1e-9);
  EXPECT_FALSE(idas.report.diverged_at.has_value()) << idas.report.divergence;
  ASSERT_EQ(idas.trajectory.num_rows(), reference.trajectory.num_rows());
  const std::size_t last = idas.trajectory.num_rows() - 1;
  double worst = 0.0;
  // Coordinates, velocities, multipliers and E at t_end (the residual columns are at rounding
  // level in both runs).
  const auto& columns = idas.trajectory.columns();
  for (std::size_t c = 1; c < columns.size(); ++c) {
    if (columns[c].rfind("residual_", 0) == 0) continue;
    worst =
        std::max(worst, std::abs(idas.trajectory.at(last, c) - reference.trajectory.at(last, c)));
  }
  std::printf(
      "[idas 1e-12] %s: max |constraint residual| = %.2e, max |E - E0| = %.2e, "
      "max |state difference| vs the default method at t = %g: %.2e\n",
      fs::path(path).filename().string().c_str(), idas.report.max_constraint_residual,
      idas.report.max_energy_drift, t_end, worst);
  EXPECT_LT(worst, 1e-7);
}

TEST(FloatCoefficients, IdasStartsAtTightTolerancesOnTheFloatModel) {
  ExpectTightIdasRun(kModel, 2.0);
}

TEST(FloatCoefficients, IdasStartsAtTightTolerancesOnTheRollingDisk) {
  ExpectTightIdasRun(std::string(DIRAC_SOURCE_DIR) + "/scenarios/rolling_disk.yaml", 2.0);
}

}  // namespace
}  // namespace dirac
