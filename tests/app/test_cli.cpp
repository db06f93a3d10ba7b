// The `dirac` command line on a shipped scenario, run as a process: run, equations, solve.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "canonical_problems.hpp"
#include "cli_process.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

using dirac_test::CommandResult;
using dirac_test::RunCommand;

fs::path TempDir() {
  fs::path dir = fs::temp_directory_path() / ("dirac-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(Cli, RunWritesTheTrajectoryWithOverrides) {
  const fs::path dir = TempDir();
  const fs::path csv = dir / "out.csv";
  const auto result = RunCommand(std::string(DIRAC_CLI) + " run " +
                                 testing::SourcePath("scenarios/heisenberg.yaml") +
                                 " --set ky=2 --set kx=1.5 --t-end 20 --csv " + csv.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Trajectory tr = ReadCsv(csv.string());
  const std::vector<std::string> expected = {"t",  "x",  "y",  "z", "vx",
                                             "vy", "vz", "mu", "E", "residual_heisenberg"};
  EXPECT_EQ(tr.columns(), expected);
  EXPECT_EQ(tr.num_rows(), 2001u);
  EXPECT_DOUBLE_EQ(tr.at(tr.num_rows() - 1, 0), 20.0);
  double max_mu = 0, max_residual = 0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    max_mu = std::max(max_mu, std::abs(tr.at(r, 7)));
    max_residual = std::max(max_residual, std::abs(tr.at(r, 9)));
  }
  EXPECT_GT(max_mu, 0.01);
  EXPECT_LT(max_residual, 1e-10);
  EXPECT_NE(result.output.find("max |constraint residual|"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Cli, EquationsPrintsTheDerivedSystem) {
  const auto result = RunCommand(std::string(DIRAC_CLI) + " equations " +
                                 testing::SourcePath("scenarios/heisenberg.yaml"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("EL[x]:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("solved[mu]:"), std::string::npos) << result.output;
  const auto latex = RunCommand(std::string(DIRAC_CLI) + " equations --latex " +
                                testing::SourcePath("scenarios/heisenberg.yaml"));
  ASSERT_EQ(latex.exit_code, 0);
  EXPECT_NE(latex.output.find("\\dot{vx}"), std::string::npos) << latex.output;
}

TEST(Cli, BadInputGivesAClearMessageAndNonZeroExit) {
  const std::string scenario = testing::SourcePath("scenarios/heisenberg.yaml");
  const auto unknown = RunCommand(std::string(DIRAC_CLI) + " run " + scenario + " --set kz=1");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.output.find("'kz'"), std::string::npos) << unknown.output;
  const auto usage = RunCommand(std::string(DIRAC_CLI) + " fly " + scenario);
  EXPECT_EQ(usage.exit_code, 2);
  const auto missing = RunCommand(std::string(DIRAC_CLI) + " run /no/such.yaml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("/no/such.yaml"), std::string::npos);
  const fs::path dir = TempDir();
  const fs::path csv = dir / "never.csv";
  const auto bad_dir =
      RunCommand(std::string(DIRAC_CLI) + " run " + scenario + " --t-end 1 --csv /no/dir/x.csv");
  EXPECT_EQ(bad_dir.exit_code, 1);
  fs::remove_all(dir);
}

TEST(Cli, SolveWritesTheOptimumAndAConvergenceReport) {
  const fs::path dir = TempDir();
  const fs::path csv = dir / "spline.csv";
  const std::string scenario = testing::SourcePath("scenarios/so3_spline.yaml");
  const auto result = RunCommand(std::string(DIRAC_CLI) + " solve " + scenario +
                                 " --set final.R.x=0.4 --set final.R.y=0 --set final.R.z=0 "
                                 "--set I1=1 --csv " +
                                 csv.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // A rest-to-rest turn of 0.4 rad about the principal axis e1 with I1 = 1 is the single-axis
  // cubic: cost 6 theta^2 / T^3 = 0.12 for T = 2.
  double cost = 0;
  ASSERT_EQ(std::sscanf(result.output.c_str() + result.output.find("cost = "), "cost = %lf", &cost),
            1);
  EXPECT_NEAR(cost, 0.12, 1e-9);
  EXPECT_NE(result.output.find("converged:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("p_w1(0) = "), std::string::npos) << result.output;
  const Trajectory tr = ReadCsv(csv.string());
  for (const char* column : {"u1", "p_w1", "pbar_w1", "E", "running_cost", "R11"})
    EXPECT_TRUE(tr.FindColumn(column).has_value()) << column;
  EXPECT_NEAR(tr.at(tr.num_rows() - 1, tr.ColumnIndex("R22")), std::cos(0.4), 1e-9);

  const auto json = RunCommand(std::string(DIRAC_CLI) + " solve -q --json " + scenario);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  for (const char* key : {"\"converged\": true", "\"history\": [",
                          "\"residual\": ", "\"step_norm\": ", "\"iterations\": ", "\"seconds\": "})
    EXPECT_NE(json.output.find(key), std::string::npos) << key << " in " << json.output;
  fs::remove_all(dir);
}

TEST(Cli, SolveThatCannotConvergeExitsWithTheReasonAndWritesNothing) {
  const fs::path dir = TempDir();
  const fs::path csv = dir / "never.csv";
  // The unactuated v4 is conserved (zero here): v4(T) = 1 cannot be reached.
  const auto result = RunCommand(std::string(DIRAC_CLI) + " solve " +
                                 testing::SourcePath("scenarios/elroys_beanie_ocp.yaml") +
                                 " --set final.v4=1 --csv " + csv.string());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("did not converge"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("best max |F|"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(csv));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dirac
