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
#include "dirac/constrained_system.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

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

// The constraint algorithm's eliminations on a degenerate Lagrangian whose coefficients are
// decimals: written with floats, the cancellations leave residues such as 1.6e-19*q1 that an
// exact zero test takes for a term (the file was refused: "i_X Omega = dH has no solution on
// M_f ((1.6069425056481583574E-19)*q1-... != 0)"). The same Lagrangian with the decimals written
// as fractions is the reference: same chain, same gauge, same motion.
std::string DegenerateLagrangian(const std::string& a, const std::string& b, const std::string& c,
                                 const std::string& d, const std::string& e, const std::string& f) {
  return "name: degenerate with " + a + "\nformulation: lagrange_dirac\nlagrangian: \"(" + a +
         "*v1 + " + b + "*v2 + " + c + "*v3)^2/2 - " + d + "*q2*v3 + " + e + "*q1*q3 - " + f +
         "*q1^2\"\ncoordinates:\n" +
         "  - {name: q1, velocity: v1, initial: 1.0, initial_velocity: 0.0}\n"
         "  - {name: q2, velocity: v2, initial: 0.0, initial_velocity: 0.0}\n"
         "  - {name: q3, velocity: v3, initial: 0.0, initial_velocity: 0.0}\n"
         "simulation: {t_end: 1, output_step: 0.05, rtol: 1.0e-12, atol: 1.0e-12}\n";
}

TEST(FloatCoefficients, ConstraintAlgorithmReadsDecimalsExactly) {
  const Scenario floats =
      ParseScenario(DegenerateLagrangian("0.1", "0.3", "0.7", "0.7", "1.3", "0.5"), "floats.yaml");
  const Scenario fractions = ParseScenario(
      DegenerateLagrangian("(1/10)", "(3/10)", "(7/10)", "(7/10)", "(13/10)", "(1/2)"),
      "fractions.yaml");
  const auto with_floats = ConstrainedSystem::Analyze(floats);
  const auto with_fractions = ConstrainedSystem::Analyze(fractions);
  const ConstraintChain& f = with_floats->chain();
  const ConstraintChain& x = with_fractions->chain();
  EXPECT_EQ(x.final_rank, 4u);
  EXPECT_EQ(x.gauge.size(), 2u);
  EXPECT_EQ(f.outcome, x.outcome);
  EXPECT_EQ(f.final_dimension, x.final_dimension);
  EXPECT_EQ(f.final_rank, x.final_rank);
  EXPECT_EQ(f.gauge.size(), x.gauge.size());
  EXPECT_EQ(f.symplectic_modulo_gauge, x.symplectic_modulo_gauge);

  const Trajectory a = BuildModel(floats)->Simulate(SimulationInput::FromScenario(floats));
  const Trajectory b = BuildModel(fractions)->Simulate(SimulationInput::FromScenario(fractions));
  ASSERT_EQ(a.columns(), b.columns());
  ASSERT_EQ(a.num_rows(), b.num_rows());
  ASSERT_GT(a.num_rows(), 10u);
  double worst = 0.0;
  for (const char* column : {"q1", "q2", "q3", "v1", "v2", "v3"}) {
    const std::size_t c = a.ColumnIndex(column);
    for (std::size_t k = 0; k < a.num_rows(); ++k)
      worst = std::max(worst, std::abs(a.at(k, c) - b.at(k, c)));
  }
  EXPECT_LT(worst, 1e-10);
  const std::size_t q1 = a.ColumnIndex("q1");
  EXPECT_GT(std::abs(a.at(a.num_rows() - 1, q1) - a.at(0, q1)), 1e-3);  // it moves
}

}  // namespace
}  // namespace dirac
