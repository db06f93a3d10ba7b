// `dirac linearize SCENARIO --along RUN.csv`: the CSV and JSON of A(t) along a run written by
// `dirac run --csv`, equal to the core's LinearizeAlong on the same file; refusals exit 1 with
// the reason and leave an existing output file as it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli_process.hpp"
#include "dirac/csv.hpp"
#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"

namespace {

namespace fs = std::filesystem;

fs::path AlongDir() {
  fs::path dir = fs::temp_directory_path() / ("dirac-along-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string Disk() {
  return std::string(DIRAC_SOURCE_DIR) + "/tests/linearization/rolling_disk.yaml";
}

TEST(CliLinearizeAlong, WritesTheCoreMatricesAsCsvAndJson) {
  const fs::path dir = AlongDir();
  const std::string cli = std::string(DIRAC_CLI) + " ", run = (dir / "run.csv").string(),
                    out = (dir / "along.csv").string();
  int code = -1;
  std::string output = dirac_test::RunCommand(
      cli + "run " + Disk() + " --set t_end=0.2 --csv " + run + " --quiet", &code);
  ASSERT_EQ(code, 0) << output;
  output = dirac_test::RunCommand(
      cli + "linearize " + Disk() + " --along " + run + " --csv " + out + " --quiet", &code);
  ASSERT_EQ(code, 0) << output;
  const dirac::Trajectory written = dirac::ReadCsv(out);
  const std::string text = dirac_test::ReadFile(out);
  EXPECT_NE(text.find("# states (A_i_j: d(state i)'/d(state j), row-major): 1 x, 2 y, 3 theta, "
                      "4 alpha, 5 phi, 6 vtheta, 7 valpha, 8 vphi"),
            std::string::npos)
      << text.substr(0, 400);
  ASSERT_EQ(written.num_rows(), 21u);
  ASSERT_EQ(written.num_columns(), 1u + 64u);
  EXPECT_EQ(written.columns()[1], "A_1_1");
  EXPECT_EQ(written.columns()[64], "A_8_8");

  const dirac::Scenario s = dirac::LoadScenario(Disk());
  const dirac::TrajectoryLinearization along =
      dirac::Linearizer::Derive(s)->LinearizeAlong(dirac::ReadCsv(run), run);
  for (std::size_t r = 0; r < 21; ++r) {
    EXPECT_EQ(written.at(r, 0), along.t[r]);
    for (Eigen::Index i = 0; i < 8; ++i)
      for (Eigen::Index j = 0; j < 8; ++j)
        EXPECT_EQ(written.at(r, static_cast<std::size_t>(1 + 8 * i + j)), along.A[r](i, j))
            << "row " << r;  // shortest round-trip text: the same doubles
  }
  const std::string json = dirac_test::RunCommand(
      cli + "linearize " + Disk() + " --along " + run + " --json --quiet", &code);
  ASSERT_EQ(code, 0) << json;
  EXPECT_NE(json.find("\"states\": [\"x\", \"y\", \"theta\", \"alpha\", \"phi\", \"vtheta\", "
                      "\"valpha\", \"vphi\"]"),
            std::string::npos);
  EXPECT_NE(json.find("{\"t\": 0.20000000000000001, \"A\": [[0, 0, "), std::string::npos) << json;
  fs::remove_all(dir);
}

TEST(CliLinearizeAlong, RefusalsNameTheCauseAndLeaveTheOutputAsItWas) {
  const fs::path dir = AlongDir();
  const std::string cli = std::string(DIRAC_CLI) + " ", run = (dir / "run.csv").string(),
                    out = (dir / "along.csv").string();
  int code = -1;
  std::string output = dirac_test::RunCommand(
      cli + "run " + Disk() + " --set t_end=0.1 --csv " + run + " --quiet", &code);
  ASSERT_EQ(code, 0) << output;
  // Row 4 moved off the rolling constraint.
  const dirac::Trajectory good = dirac::ReadCsv(run);
  dirac::Trajectory bad(good.columns());
  for (std::size_t r = 0; r < good.num_rows(); ++r) {
    std::vector<double> row(good.row(r), good.row(r) + good.num_columns());
    if (r == 3) row[good.ColumnIndex("vy")] -= 0.01;
    bad.AppendRow(row.data());
  }
  const std::string bad_run = (dir / "bad.csv").string();
  dirac::WriteCsv(bad, bad_run);
  {
    std::ofstream old(out);
    old << "old\n";
  }
  output = dirac_test::RunCommand(
      cli + "linearize " + Disk() + " --along " + bad_run + " --csv " + out + " --quiet", &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(output.find("bad.csv, data row 4 (t = 0.03): the state is off the constraint "
                        "manifold: |roll_y| = 0.01"),
            std::string::npos)
      << output;
  EXPECT_EQ(dirac_test::ReadFile(out), "old\n");
  // A run of another scenario: the missing state columns are named.
  const std::string body = std::string(DIRAC_SOURCE_DIR) + "/tests/linearization/rigid_body.yaml";
  output = dirac_test::RunCommand(
      cli + "linearize " + body + " --along " + run + " --csv " + out + " --quiet", &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(output.find("is not a run of this scenario: missing the columns w1, w2, w3"),
            std::string::npos)
      << output;
  EXPECT_EQ(dirac_test::ReadFile(out), "old\n");
  output = dirac_test::RunCommand(
      cli + "linearize " + Disk() + " --along " + run + " --vary m=1:2:3 --quiet", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(output.find("not with --vary or --find"), std::string::npos) << output;
  fs::remove_all(dir);
}

}  // namespace
