// Poincaré sections (dirac/poincare_section.hpp) against analytic crossings: the harmonic
// oscillator x = cos t sampled exactly (the cubic interpolation's error bound (3/128) h^4, and
// its h^4 order) and integrated by the engine; the directions; errors that name the symbol; the
// scenario format's phase-portrait plots read, checked and written back.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "dirac/build_model.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/poincare_section.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

constexpr double kPi = std::numbers::pi;

// x = cos t, v = -sin t sampled every h on [0, t_end].
Trajectory Oscillator(double h, double t_end) {
  Trajectory tr({"t", "x", "v"});
  const auto n = static_cast<int>(std::lround(t_end / h));
  for (int k = 0; k <= n; ++k) {
    const double t = k * h;
    const double row[] = {t, std::cos(t), -std::sin(t)};
    tr.AppendRow(row);
  }
  return tr;
}

// Largest error of the crossing times and of v there against x = 0 at t = first + 2 pi k.
struct Errors {
  double time = 0.0, v = 0.0;
};
Errors Against(const Trajectory& section, double first, double v_exact) {
  Errors e;
  for (std::size_t r = 0; r < section.num_rows(); ++r) {
    const double exact = first + 2.0 * kPi * static_cast<double>(r);
    e.time = std::max(e.time, std::abs(section.at(r, 0) - exact));
    e.v = std::max(e.v, std::abs(section.at(r, 2) - v_exact));
    EXPECT_LT(std::abs(section.at(r, 1)), 1e-12) << "x at the crossing, row " << r;
  }
  return e;
}

TEST(PoincareSection, HarmonicOscillatorCrossingsWithinTheCubicBound) {
  const double h = 0.1;
  const Trajectory tr = Oscillator(h, 40.0);
  const SectionFunction g("x", tr.columns());
  // Downward through x = 0 at pi/2 + 2 pi k (v = -1), upward at 3 pi/2 + 2 pi k (v = +1).
  const Trajectory down = ComputePoincareSection(tr, g, CrossingDirection::kDecreasing);
  const Trajectory up = ComputePoincareSection(tr, g, CrossingDirection::kIncreasing);
  ASSERT_EQ(down.num_rows(), 7u);  // pi/2 + 2 pi k <= 40: k = 0..6
  ASSERT_EQ(up.num_rows(), 6u);    // 3 pi/2 + 2 pi k <= 40: k = 0..5
  EXPECT_EQ(down.columns(), tr.columns());
  // The cubic Lagrange remainder on the middle interval: (3/128) h^4 max|f''''|, |x'| = 1 there.
  const double bound = 3.0 / 128.0 * std::pow(h, 4);
  const Errors d = Against(down, kPi / 2, -1.0);
  const Errors u = Against(up, 3 * kPi / 2, 1.0);
  EXPECT_LT(d.time, bound);
  EXPECT_LT(u.time, bound);
  EXPECT_LT(d.v, bound);
  EXPECT_LT(u.v, bound);
  // Linear interpolation would be off by about h^2/8 |x''| / |x'| ~ 1e-3 in v: far above.
  EXPECT_LT(bound, 1e-2 * h * h / 8);
  // Both directions: the union, in time order.
  const Trajectory both = ComputePoincareSection(tr, g, CrossingDirection::kBoth);
  ASSERT_EQ(both.num_rows(), 13u);
  for (std::size_t r = 0; r < both.num_rows(); ++r)
    EXPECT_NEAR(both.at(r, 0), kPi / 2 + kPi * static_cast<double>(r), bound);
}

TEST(PoincareSection, TimeErrorIsOfFourthOrderInTheStep) {
  // x = cos t crosses 1/2 at t = pi/3, 5 pi/3, 7 pi/3, ... where x'''' = 1/2 (at x = 0 it
  // vanishes and the error is of higher order). The largest time error is within the cubic's
  // bound (3/128) h^4 max|x''''| / |x'| and not far below it, for each step: fourth order
  // (linear interpolation's h^2/8 |x''| / |x'| would exceed the bound 5x to 20x here).
  for (const double h : {0.2, 0.1, 0.05}) {
    const Trajectory tr = Oscillator(h, 21.0);  // no crossing in the one-sided last interval
    const Trajectory s = ComputePoincareSection(tr, SectionFunction("x - 0.5", tr.columns()),
                                                CrossingDirection::kBoth);
    ASSERT_EQ(s.num_rows(), 7u);  // pi/3, 5 pi/3, 7 pi/3, ..., 19 pi/3 <= 21
    double worst = 0.0;
    for (std::size_t r = 0; r < s.num_rows(); ++r) {
      const double k = static_cast<double>(r / 2);
      const double exact = (r % 2 ? 5.0 : 1.0) * kPi / 3 + 2 * kPi * k;
      worst = std::max(worst, std::abs(s.at(r, 0) - exact));
    }
    const double bound = 3.0 / 128.0 * std::pow(h, 4) / std::sin(kPi / 3);
    EXPECT_LE(worst, bound) << "h = " << h;
    EXPECT_GT(worst, bound / 30) << "h = " << h;
    EXPECT_GT(h * h / 8 * 0.5 / std::sin(kPi / 3), 5 * bound);
  }
}

TEST(PoincareSection, StreamedRowsGiveTheSameRowsAsTheWholeTrajectory) {
  const Trajectory tr = Oscillator(0.05, 30.0);
  const SectionFunction g("x*x + v - 0.5", tr.columns());
  const Trajectory whole = ComputePoincareSection(tr, g, CrossingDirection::kBoth);
  std::vector<double> streamed;
  SectionDetector detector(g, CrossingDirection::kBoth, [&](const double* row) {
    streamed.insert(streamed.end(), row, row + 3);
  });
  for (std::size_t r = 0; r < tr.num_rows(); ++r) detector.AddRow(tr.row(r));
  detector.Finish();
  ASSERT_GT(whole.num_rows(), 5u);
  ASSERT_EQ(streamed.size(), 3 * whole.num_rows());
  for (std::size_t r = 0; r < whole.num_rows(); ++r)
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(streamed[3 * r + c], whole.at(r, c));
  // g vanishes at each crossing (to the interpolation's accuracy).
  for (std::size_t r = 0; r < whole.num_rows(); ++r)
    EXPECT_NEAR(whole.at(r, 1) * whole.at(r, 1) + whole.at(r, 2) - 0.5, 0.0, 1e-5);
}

TEST(PoincareSection, CrossingsAtTheEndsOfTheRunAndOnSamples) {
  // A crossing in the first and in the last interval (one-sided cubics), one exactly on a sample.
  Trajectory tr({"t", "y"});
  for (const double t : {0.0, 1.0, 2.0, 3.0, 4.0}) {
    const double row[] = {t, (t - 0.5) * (t - 2.0) * (t - 3.7)};
    tr.AppendRow(row);
  }
  const Trajectory s =
      ComputePoincareSection(tr, SectionFunction("y", tr.columns()), CrossingDirection::kBoth);
  ASSERT_EQ(s.num_rows(), 3u);
  // A cubic is interpolated exactly: the roots themselves.
  EXPECT_NEAR(s.at(0, 0), 0.5, 1e-14);
  EXPECT_EQ(s.at(1, 0), 2.0);  // on the sample (y = 0 counts as the non-negative side)
  EXPECT_NEAR(s.at(2, 0), 3.7, 1e-14);
  EXPECT_NEAR(s.at(0, 1), 0.0, 1e-14);
}

TEST(PoincareSection, EngineRunOfTheOscillatorCrossesAtTheAnalyticTimes) {
  const std::string path = ::testing::TempDir() + "/section_oscillator.yaml";
  std::ofstream(path) << "name: oscillator\n"
                         "coordinates: [{name: x, velocity: vx, initial: 1.0, "
                         "initial_velocity: 0.0}]\n"
                         "lagrangian: \"vx^2/2 - x^2/2\"\n"
                         "simulation: {t_end: 30, output_step: 0.05, rtol: 1e-11, atol: 1e-12}\n";
  const Scenario s = LoadScenario(path);
  const auto model = BuildModel(s);
  const Trajectory tr = model->Simulate(SimulationInput::FromScenario(s), {}, nullptr);
  const SectionFunction g("x", tr.columns(), path, 0, "--section");
  const Trajectory down = ComputePoincareSection(tr, g, CrossingDirection::kDecreasing);
  ASSERT_EQ(down.num_rows(), 5u);  // pi/2 + 2 pi k <= 30
  const std::size_t vx = tr.ColumnIndex("vx");
  for (std::size_t r = 0; r < down.num_rows(); ++r) {
    // Interpolation (3/128) h^4 = 1.5e-7 plus the integration's error.
    EXPECT_NEAR(down.at(r, 0), kPi / 2 + 2 * kPi * static_cast<double>(r), 3e-7);
    EXPECT_NEAR(down.at(r, vx), -1.0, 3e-7);
  }
}

TEST(PoincareSection, ErrorsNameTheSymbolAndTheDirection) {
  const std::vector<std::string> columns{"t", "x", "v"};
  try {
    SectionFunction("x + omega", columns, "run.yaml", 0, "--section");
    FAIL() << "an unknown symbol was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("omega"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--section"), std::string::npos) << e.what();
  }
  EXPECT_THROW(SectionFunction("  ", columns), ScenarioError);
  EXPECT_EQ(ParseCrossingDirection("+", "d"), CrossingDirection::kIncreasing);
  EXPECT_EQ(ParseCrossingDirection("-", "d"), CrossingDirection::kDecreasing);
  EXPECT_EQ(ParseCrossingDirection("both", "d"), CrossingDirection::kBoth);
  try {
    ParseCrossingDirection("up", "--direction");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--direction"), std::string::npos);
  }
}

const char* const kPhaseScenario =
    "name: oscillator\n"
    "coordinates: [{name: x, velocity: vx, initial: 1.0, initial_velocity: 0.0}]\n"
    "lagrangian: \"vx^2/2 - x^2/2\"\n"
    "simulation: {t_end: 10, output_step: 0.05}\n"
    "view:\n"
    "  plots:\n"
    "    - {title: Energy, series: [E]}\n"
    "    - {title: Phase, pairs: [[x, vx]]}\n"
    "    - {title: Section, pairs: [[x, vx]], section: \"x - 0.5\", direction: both}\n";

TEST(PoincareSection, ScenarioPlotsWithPairsAndSectionsReadAndWriteBack) {
  const Scenario s = ParseScenario(kPhaseScenario, "phase.yaml");
  ASSERT_EQ(s.plots.size(), 3u);
  EXPECT_FALSE(s.plots[0].is_phase_portrait());
  ASSERT_TRUE(s.plots[1].is_phase_portrait());
  EXPECT_EQ(s.plots[1].pairs[0][0], "x");
  EXPECT_EQ(s.plots[1].pairs[0][1], "vx");
  EXPECT_TRUE(s.plots[1].section.empty());
  EXPECT_EQ(s.plots[2].section, "x - 0.5");
  EXPECT_EQ(s.plots[2].section_direction, "both");
  const Scenario back = ParseScenario(SaveScenarioToString(s), "back.yaml");
  ASSERT_EQ(back.plots.size(), 3u);
  EXPECT_EQ(back.plots[1].pairs, s.plots[1].pairs);
  EXPECT_EQ(back.plots[2].section, s.plots[2].section);
  EXPECT_EQ(back.plots[2].section_direction, "both");
}

TEST(PoincareSection, ScenarioRefusesBadPairsAndSectionsWithTheLine) {
  auto error_of = [](const std::string& plot) {
    const std::string text = std::string(kPhaseScenario) + "    - " + plot + "\n";
    try {
      ParseScenario(text, "phase.yaml");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of("{pairs: [[x, w]]}").find("phase.yaml:10"), std::string::npos);
  EXPECT_NE(error_of("{pairs: [[x, w]]}").find("'w'"), std::string::npos)
      << error_of("{pairs: [[x, w]]}");
  EXPECT_NE(error_of("{pairs: [[x]]}").find("pair"), std::string::npos);
  EXPECT_NE(error_of("{pairs: [[x, vx]], section: \"x + omega\"}").find("omega"),
            std::string::npos);
  EXPECT_NE(error_of("{pairs: [[x, vx]], section: x, direction: up}").find("direction"),
            std::string::npos);
  EXPECT_NE(error_of("{series: [x], section: x}").find("section"), std::string::npos);
  EXPECT_NE(error_of("{series: [x], pairs: [[x, vx]]}").find("either"), std::string::npos);
}

TEST(PoincareSection, CliRunWritesTheSectionOfTheRunItStreams) {
  // `dirac run --section` streams the rows through the detector; the same rows come from the
  // whole trajectory the plain `dirac run` writes (shortest numbers read back exactly).
  const std::string dir = ::testing::TempDir();
  const std::string scenario = std::string(DIRAC_SOURCE_DIR) + "/scenarios/rolling_disk.yaml";
  int status = -1;
  const std::string run = dirac_test::RunCommand(
      std::string(DIRAC_CLI) + " run " + scenario + " --quiet --csv " + dir + "/disk.csv", &status);
  ASSERT_EQ(status, 0) << run;
  const std::string cut =
      dirac_test::RunCommand(std::string(DIRAC_CLI) + " run " + scenario +
                                 " --section valpha --direction - --csv " + dir + "/section.csv",
                             &status);
  ASSERT_EQ(status, 0) << cut;
  EXPECT_NE(cut.find("section valpha = 0 (-): 24 crossings"), std::string::npos) << cut;
  const Trajectory whole = ReadCsv(dir + "/disk.csv");
  const Trajectory rows = ReadCsv(dir + "/section.csv");
  const Trajectory expected = ComputePoincareSection(
      whole, SectionFunction("valpha", whole.columns()), CrossingDirection::kDecreasing);
  ASSERT_EQ(rows.columns(), whole.columns());
  ASSERT_EQ(rows.num_rows(), expected.num_rows());
  for (std::size_t r = 0; r < rows.num_rows(); ++r)
    for (std::size_t c = 0; c < rows.num_columns(); ++c)
      EXPECT_EQ(rows.at(r, c), expected.at(r, c)) << "row " << r << ", " << rows.columns()[c];
  // The tilt is largest there: valpha vanishes, alpha is at its maximum 0.3.
  for (std::size_t r = 0; r < rows.num_rows(); ++r) {
    EXPECT_NEAR(rows.at(r, rows.ColumnIndex("valpha")), 0.0, 1e-9);
    EXPECT_NEAR(rows.at(r, rows.ColumnIndex("alpha")), 0.3, 1e-6);
  }
  // Usage errors: a direction without a section, a section for another command.
  dirac_test::RunCommand(std::string(DIRAC_CLI) + " run " + scenario + " --direction -", &status);
  EXPECT_EQ(status, 2);
  dirac_test::RunCommand(std::string(DIRAC_CLI) + " analyze " + scenario + " --section x", &status);
  EXPECT_EQ(status, 2);
  const std::string bad = dirac_test::RunCommand(
      std::string(DIRAC_CLI) + " run " + scenario + " --section 'omega + 1'", &status);
  EXPECT_EQ(status, 1);
  EXPECT_NE(bad.find("'omega'"), std::string::npos) << bad;
}

}  // namespace
}  // namespace dirac
