// A(t), B(t) along a computed trajectory (Linearizer::LinearizeAlong, `dirac linearize --along`)
// against independent references: central differences of the nonlinear reduced flow at rows of
// a rolling-disk run, the variational equation dz' = A(t) dz integrated along the run against
// the difference of nonlinear runs (agreement to O(eps^2)), runs that stay at an operating point
// (every A(t) equal to the point linearization), and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/linearization.hpp"
#include "dirac/model.hpp"
#include "dirac/optimal_control_spec.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "linearization_fixtures.hpp"

namespace {

using dirac::LinearizationOptions;
using dirac::Linearizer;
using dirac::TrajectoryLinearization;
using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

using dirac::linearization_test::Copy;
using dirac::linearization_test::Load;

dirac::Trajectory Simulated(const dirac::Scenario& s) {
  return dirac::BuildModel(s)->Simulate(dirac::SimulationInput::FromScenario(s));
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The message of the ModelError `f` throws ("" if none).
template <typename F>
std::string Refusal(F&& f) {
  try {
    f();
  } catch (const dirac::ModelError& e) {
    return e.what();
  }
  return "";
}

// The leaning rolling disk's run from its scenario's state, over `t_end` sampled every `step`.
dirac::Scenario LeaningDisk(double t_end, double step) {
  dirac::Scenario s = Load("rolling_disk", {});
  dirac::ApplyOverride(s, "t_end", t_end);
  dirac::ApplyOverride(s, "output_step", step);
  return s;
}

// At rows of a leaning rolling disk's run, A(t) against central differences of the nonlinear
// reduced flow (Linearizer::ReducedRates with the chart chosen at that row's state): to the
// quotient's accuracy.
TEST(LinearizeAlong, RollingDiskMatchesCentralDifferencesOfTheFlowAtRows) {
  const dirac::Scenario s = LeaningDisk(1.0, 0.01);
  const dirac::Trajectory run = Simulated(s);
  ASSERT_EQ(run.num_rows(), 101u);
  const auto lin = Linearizer::Derive(s);
  const TrajectoryLinearization along = lin->LinearizeAlong(run, "disk run");
  ASSERT_EQ(along.t.size(), run.num_rows());
  EXPECT_EQ(along.states, (std::vector<std::string>{"x", "y", "theta", "alpha", "phi", "vtheta",
                                                    "valpha", "vphi"}));
  EXPECT_EQ(along.dependent_speeds, (std::vector<std::string>{"vx", "vy"}));
  EXPECT_LT(along.manifold_residual, 1e-9);
  EXPECT_GT(along.chart_quality, 0.99);  // the rolling constraints solve for vx, vy everywhere
  const std::vector<std::string> columns = lin->StateColumns();
  double worst = 0.0;
  for (std::size_t row : {0u, 27u, 64u, 100u}) {
    dirac::Scenario at = s;
    for (const auto& name : columns)
      dirac::ApplyOverride(at, name, run.at(row, run.ColumnIndex(name)));
    const auto here = lin->WithValues(at);
    std::vector<std::string> names;
    VectorXd z;
    here->ReducedJacobian(&z);
    here->ReducedRates(z, &names);
    ASSERT_EQ(names, along.states) << "row " << row;
    MatrixXd D(z.size(), z.size());
    for (Index j = 0; j < z.size(); ++j) {
      const double h = 1e-5 * std::max(1.0, std::abs(z[j]));
      VectorXd zp = z, zm = z;
      zp[j] += h;
      zm[j] -= h;
      D.col(j) = (here->ReducedRates(zp) - here->ReducedRates(zm)) / (2 * h);
    }
    const MatrixXd& A = along.A[row];
    worst = std::max(worst, (A - D).cwiseAbs().maxCoeff() / std::max(1.0, A.cwiseAbs().maxCoeff()));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT(worst, 0.0);  // a difference quotient, not the same computation
}

// States of the disk's chart (x, y, theta, alpha, phi, vtheta, valpha, vphi) from a run's row.
VectorXd ChartState(const dirac::Trajectory& run, std::size_t row,
                    const std::vector<std::string>& states) {
  VectorXd z(static_cast<Index>(states.size()));
  for (std::size_t i = 0; i < states.size(); ++i)
    z[static_cast<Index>(i)] = run.at(row, run.ColumnIndex(states[i]));
  return z;
}

// The variational equation dz' = A(t) dz integrated by RK4 over pairs of the run's rows (the
// middle row the half step) against the difference of nonlinear runs from z0 and z0 + eps dz0:
// |z_eps(t) - z(t) - eps dz(t)| = O(eps^2), so halving eps quarters it.
TEST(LinearizeAlong, VariationalEquationMatchesTheDifferenceOfNonlinearRuns) {
  const double R = 0.3;
  const dirac::Scenario s = LeaningDisk(0.4, 0.002);
  const dirac::Trajectory run = Simulated(s);
  const auto lin = Linearizer::Derive(s);
  const TrajectoryLinearization along = lin->LinearizeAlong(run, "disk run");
  const std::size_t rows = along.t.size();
  ASSERT_EQ(rows, 201u);
  const std::vector<std::string>& states = along.states;
  VectorXd dz0(static_cast<Index>(states.size()));
  dz0 << 0.3, -0.2, 0.5, 1.0, 0.4, -0.7, 0.6, 0.9;
  // RK4 with step 2 h: A at rows i, i + 1 (the midpoint), i + 2.
  std::vector<VectorXd> dz{dz0};
  for (std::size_t i = 0; i + 2 < rows; i += 2) {
    const double h = along.t[i + 2] - along.t[i];
    const VectorXd& y = dz.back();
    const VectorXd k1 = along.A[i] * y;
    const VectorXd k2 = along.A[i + 1] * (y + h / 2 * k1);
    const VectorXd k3 = along.A[i + 1] * (y + h / 2 * k2);
    const VectorXd k4 = along.A[i + 2] * (y + h * k3);
    dz.push_back(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4));
  }
  ASSERT_GT(dz.back().norm(), 0.5 * dz0.norm());
  // The perturbed run: the independent states moved, vx, vy from the rolling constraints.
  auto deviation = [&](double eps) {
    dirac::Scenario perturbed = s;
    const VectorXd z0 = ChartState(run, 0, states) + eps * dz0;
    for (std::size_t i = 0; i < states.size(); ++i)
      dirac::ApplyOverride(perturbed, states[i], z0[static_cast<Index>(i)]);
    const double theta = z0[2], vphi = z0[7];
    dirac::ApplyOverride(perturbed, "vx", R * std::cos(theta) * vphi);
    dirac::ApplyOverride(perturbed, "vy", R * std::sin(theta) * vphi);
    const dirac::Trajectory other = Simulated(perturbed);
    double worst = 0.0;
    for (std::size_t i = 0; i < rows; i += 2) {
      const VectorXd diff = ChartState(other, i, states) - ChartState(run, i, states);
      worst = std::max(worst, (diff - eps * dz[i / 2]).cwiseAbs().maxCoeff());
    }
    return worst;
  };
  const double e1 = deviation(1e-3), e2 = deviation(5e-4);
  std::printf("variational check: |deviation| %.3g at eps = 1e-3, %.3g at eps = 5e-4\n", e1, e2);
  EXPECT_LT(e1, 1e-3 * 1e-3 * 100 * dz0.norm());  // O(eps^2) with a modest constant
  EXPECT_NEAR(e1 / e2, 4.0, 0.3) << e1 << " " << e2;
}

// Runs that stay at the operating point: every A(t) is the point's reduced Jacobian to 1e-12,
// and over the point linearization's states its A.
void ExpectConstantAtThePoint(const dirac::Scenario& s, const LinearizationOptions& options,
                              std::size_t expected_rows) {
  const auto lin = Linearizer::Derive(s, options);
  const dirac::Trajectory run = Simulated(s);
  const TrajectoryLinearization along = lin->LinearizeAlong(run, s.source_file);
  ASSERT_EQ(along.t.size(), expected_rows);
  VectorXd z;
  std::vector<std::string> names;
  const MatrixXd J = lin->ReducedJacobian(&z);
  lin->ReducedRates(z, &names);
  const dirac::Linearization point = lin->Linearize();
  // Along: the chart's states minus the named ignorable ones.
  std::vector<Index> rows_of_j, rows_of_point;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto it = std::find(along.states.begin(), along.states.end(), names[i]);
    if (it != along.states.end()) rows_of_j.push_back(static_cast<Index>(i));
  }
  ASSERT_EQ(rows_of_j.size(), along.states.size());
  for (const auto& name : point.states)
    rows_of_point.push_back(static_cast<Index>(
        std::find(along.states.begin(), along.states.end(), name) - along.states.begin()));
  double worst = 0.0, worst_point = 0.0;
  for (const MatrixXd& A : along.A) {
    for (std::size_t i = 0; i < rows_of_j.size(); ++i)
      for (std::size_t j = 0; j < rows_of_j.size(); ++j)
        worst = std::max(worst, std::abs(A(static_cast<Index>(i), static_cast<Index>(j)) -
                                         J(rows_of_j[i], rows_of_j[j])));
    for (std::size_t i = 0; i < rows_of_point.size(); ++i)
      for (std::size_t j = 0; j < rows_of_point.size(); ++j)
        worst_point =
            std::max(worst_point, std::abs(A(rows_of_point[i], rows_of_point[j]) -
                                           point.A(static_cast<Index>(i), static_cast<Index>(j))));
  }
  EXPECT_LE(worst, 1e-12) << s.source_file;
  EXPECT_LE(worst_point, 1e-12) << s.source_file;
  EXPECT_GT(point.A.cwiseAbs().maxCoeff(), 0.1);
}

TEST(LinearizeAlong, RigidBodySpinningAboutAPrincipalAxisGivesThePointLinearization) {
  for (const char* axis : {"w1", "w3"}) {
    std::vector<std::string> set{"w1=0", "w2=0", "w3=0", "t_end=2"};
    set.push_back(std::string(axis) + "=1.3");
    ExpectConstantAtThePoint(Load("rigid_body", set), {}, 201);
  }
}

TEST(LinearizeAlong, SleighStraightAndUprightDiskGiveThePointLinearization) {
  // Along a run only the named coordinates are dropped: the heading with the position (x' and
  // y' depend on it), and the disk's rolling angle.
  LinearizationOptions sleigh, disk;
  sleigh.ignorable = {"x", "y", "theta"};
  disk.ignorable = {"x", "y", "theta", "phi"};
  ExpectConstantAtThePoint(
      Load("chaplygin_sleigh", {"vx=0.7", "vy=0", "vtheta=0", "theta=0", "t_end=1"}), sleigh, 101);
  ExpectConstantAtThePoint(Load("rolling_disk", {"alpha=0", "valpha=0", "vtheta=0", "vphi=6",
                                                 "vx=1.8", "theta=0", "t_end=1"}),
                           disk, 101);
}

// B(t) of a torque on the sleigh's turning rate along its turning run, against the hand-derived
// (N^T W N)^-1 N^T e: with vy = (sin(theta) vx + a vtheta)/cos(theta) solved from the knife edge
// (the first row's chart), the speeds' basis N has the columns (1, tan(theta), 0) for vx and
// (0, a/cos(theta), 1) for vtheta, W = diag(m, m, J), and the torque forces vtheta's equation.
TEST(LinearizeAlong, SleighTorqueGivesTheHandDerivedBAlongATurningRun) {
  const double m = 1.0, J = 0.2, a = 0.5;
  const dirac::Scenario s = Load("chaplygin_sleigh", {"t_end=1"});
  dirac::Scenario with_torque = s;
  dirac::ControlSpec tau;
  tau.name = "tau";
  tau.acts_on = "vtheta";
  with_torque.optimal_control.controls.push_back(tau);
  const dirac::Trajectory run = Simulated(s);
  const TrajectoryLinearization along = Linearizer::Derive(with_torque)->LinearizeAlong(run, "");
  ASSERT_EQ(along.controls, std::vector<std::string>{"tau"});
  ASSERT_EQ(along.states, (std::vector<std::string>{"x", "y", "theta", "vx", "vtheta"}));
  double worst = 0.0, theta_range = 0.0;
  for (std::size_t r = 0; r < along.t.size(); ++r) {
    const double theta = run.at(r, run.ColumnIndex("theta"));
    theta_range = std::max(theta_range, std::abs(theta));
    Eigen::Matrix<double, 3, 2> N;
    N << 1, 0, std::tan(theta), a / std::cos(theta), 0, 1;
    const Eigen::Vector3d w(m, m, J);
    const Eigen::Matrix2d M = N.transpose() * w.asDiagonal() * N;
    const Eigen::Vector2d b = M.inverse() * N.row(2).transpose();
    ASSERT_EQ(along.B[r].rows(), 5);
    ASSERT_EQ(along.B[r].cols(), 1);
    VectorXd expected = VectorXd::Zero(5);
    expected.tail(2) = b;
    worst = std::max(worst, (along.B[r].col(0) - expected).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(theta_range, 0.5);  // the heading turns: B varies
}

// Two derivations of the sleigh along the same turning run: the constraint algorithm's explicit
// flow on M_f (free coordinates x, y, theta, vx, vy; vtheta eliminated) and the Lagrange-Dirac
// saddle system charted with --speeds vx,vy (vtheta dependent): the same A(t). A row whose
// vtheta is not the one M_f gives is refused.
TEST(LinearizeAlong, ConstraintAlgorithmFlowAgreesWithTheLagrangeDiracChart) {
  const dirac::Scenario s = Load("chaplygin_sleigh", {"t_end=1"});
  dirac::Scenario flow = s;
  dirac::SetFormulation(flow, "constraint_algorithm");
  const dirac::Trajectory run = Simulated(s);
  LinearizationOptions speeds;
  speeds.speeds = {"vx", "vy"};
  const TrajectoryLinearization chart = Linearizer::Derive(s, speeds)->LinearizeAlong(run, "");
  const auto flow_lin = Linearizer::Derive(flow);
  const TrajectoryLinearization along = flow_lin->LinearizeAlong(run, "");
  ASSERT_EQ(along.states, chart.states);
  ASSERT_EQ(along.t.size(), chart.t.size());
  double worst = 0.0;
  for (std::size_t r = 0; r < along.t.size(); ++r)
    worst = std::max(worst, (along.A[r] - chart.A[r]).cwiseAbs().maxCoeff() /
                                std::max(1.0, chart.A[r].cwiseAbs().maxCoeff()));
  EXPECT_LT(worst, 1e-12);
  dirac::Trajectory bad(run.columns());
  for (std::size_t r = 0; r < run.num_rows(); ++r) {
    std::vector<double> row(run.row(r), run.row(r) + run.num_columns());
    if (r == 7) row[run.ColumnIndex("vtheta")] += 1e-4;
    bad.AppendRow(row.data());
  }
  const std::string message = Refusal([&] { flow_lin->LinearizeAlong(bad, "bad.csv"); });
  EXPECT_NE(message.find("bad.csv, data row 8 (t = 0.07): the state is off M_f: |vtheta - "
                         "vtheta(flow's states)| = 0.0001"),
            std::string::npos)
      << message;
}

TEST(LinearizeAlong, RefusesARunOfAnotherScenarioNamingTheMissingColumns) {
  const dirac::Trajectory run = Simulated(Load("rigid_body", {"t_end=0.1"}));
  const auto lin = Linearizer::Derive(LeaningDisk(0.1, 0.01));
  const std::string message = Refusal([&] { lin->LinearizeAlong(run, "body.csv"); });
  EXPECT_NE(message.find("body.csv is not a run of this scenario: missing the columns x, y, "
                         "theta, alpha, phi, vx, vy, vtheta, valpha, vphi"),
            std::string::npos)
      << message;
}

TEST(LinearizeAlong, RefusesARowOffTheConstraintManifoldNamingRowAndResidual) {
  const dirac::Scenario s = LeaningDisk(0.1, 0.01);
  dirac::Trajectory run = Simulated(s);
  // Row 5 (data row 6) with vx moved by 2e-3: |roll_x| = 2e-3.
  dirac::Trajectory bad(run.columns());
  for (std::size_t r = 0; r < run.num_rows(); ++r) {
    std::vector<double> row(run.row(r), run.row(r) + run.num_columns());
    if (r == 5) row[run.ColumnIndex("vx")] += 2e-3;
    bad.AppendRow(row.data());
  }
  const auto lin = Linearizer::Derive(s);
  const std::string message = Refusal([&] { lin->LinearizeAlong(bad, "bad.csv"); });
  EXPECT_NE(message.find("bad.csv, data row 6 (t = 0.05): the state is off the constraint "
                         "manifold: |roll_x| = 0.002 (tolerance 1e-06)"),
            std::string::npos)
      << message;
  EXPECT_EQ(lin->LinearizeAlong(run, "good.csv").t.size(), run.num_rows());
}

// The sleigh turning round: the chart of its first row (vy dependent, pivot cos(theta)) is
// refused where theta nears pi/2, naming the row; with --speeds vx,vy (vtheta dependent, pivot
// -a everywhere) the whole run is linearized.
TEST(LinearizeAlong, RefusesAnIllConditionedChartAndAcceptsBetterNamedSpeeds) {
  const dirac::Scenario s = Load("chaplygin_sleigh", {"t_end=3"});
  const dirac::Trajectory run = Simulated(s);
  const std::string message =
      Refusal([&] { Linearizer::Derive(s)->LinearizeAlong(run, "sleigh.csv"); });
  EXPECT_NE(message.find("sleigh.csv, data row "), std::string::npos) << message;
  EXPECT_NE(message.find("the chart chosen at the first row (dependent values vy) is "
                         "ill-conditioned here"),
            std::string::npos)
      << message;
  const std::size_t at = std::stoul(message.substr(message.find("data row ") + 9));
  // The pivot's conditioning relative to the first row's (theta = 0) is |cos(theta)|.
  ASSERT_GE(at, 2u);
  EXPECT_LT(std::abs(std::cos(run.at(at - 1, run.ColumnIndex("theta")))), dirac::kAlongChartRatio);
  EXPECT_GE(std::abs(std::cos(run.at(at - 2, run.ColumnIndex("theta")))), dirac::kAlongChartRatio);
  LinearizationOptions speeds;
  speeds.speeds = {"vx", "vy"};
  const TrajectoryLinearization along = Linearizer::Derive(s, speeds)->LinearizeAlong(run, "");
  EXPECT_EQ(along.dependent_speeds, std::vector<std::string>{"vtheta"});
  EXPECT_EQ(along.t.size(), run.num_rows());
  EXPECT_GT(along.chart_quality, 0.5);
}

TEST(LinearizeAlong, RefusesANamedCoordinateThatIsNotIgnorable) {
  LinearizationOptions options;
  options.ignorable = {"alpha"};
  const dirac::Scenario s = LeaningDisk(0.1, 0.01);
  const std::string message =
      Refusal([&] { Linearizer::Derive(s, options)->LinearizeAlong(Simulated(s), "disk.csv"); });
  EXPECT_NE(message.find("disk.csv, data row 1 (t = 0): 'alpha' is not an ignorable coordinate "
                         "here: d(valpha)/dt depends on it"),
            std::string::npos)
      << message;
}

}  // namespace
