// Direct collocation (control/collocation_*, IPOPT): the NLP's first derivatives against central
// differences, the minimum-time double integrator against its closed form, collocation against
// shooting on the SO(3) spline, the time-optimal reorientation against PSOPT, and failures that
// say why and write nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;
using testing::kDoubleIntegrator;
using testing::Replace;

void ExpectDerivativesMatchDifferences(const Scenario& s, CollocationScheme scheme);

// Compares the NLP's gradient and Jacobian with central differences at a point near the start,
// for both schemes on a non-uniform mesh.
void ExpectDerivativesMatchDifferences(const Scenario& s) {
  for (const auto scheme : {CollocationScheme::kHermiteSimpson, CollocationScheme::kTrapezoidal}) {
    SCOPED_TRACE(scheme == CollocationScheme::kTrapezoidal ? "trapezoidal" : "hermite-simpson");
    ExpectDerivativesMatchDifferences(s, scheme);
  }
}

void ExpectDerivativesMatchDifferences(const Scenario& s, CollocationScheme scheme) {
  const control::CollocationDynamics dynamics(s);
  std::vector<double> mesh{0.0};
  for (int k = 1; k <= 10; ++k) mesh.push_back(mesh.back() + 1 + 0.5 * std::sin(1.3 * k));
  for (double& node : mesh) node /= mesh.back();
  const control::CollocationNlp nlp(s, dynamics, mesh, scheme);
  const int n = nlp.num_variables(), m = nlp.num_constraints();
  std::vector<double> w(n);
  nlp.StartingPoint(w.data());
  for (int i = 0; i < n; ++i) w[i] += 0.1 * std::sin(1.7 * i + 0.3);  // away from symmetries
  std::vector<double> gradient(n), values(nlp.JacobianPattern().size());
  nlp.ObjectiveGradient(w.data(), gradient.data());
  nlp.JacobianValues(w.data(), values.data());
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(m, n);
  for (std::size_t e = 0; e < values.size(); ++e)
    J(nlp.JacobianPattern()[e].first, nlp.JacobianPattern()[e].second) += values[e];
  const double step = 1e-6;
  double worst_gradient = 0, worst_jacobian = 0;
  std::vector<double> gp(m), gm(m);
  for (int i = 0; i < n; ++i) {
    std::vector<double> plus = w, minus = w;
    plus[i] += step;
    minus[i] -= step;
    const double df = (nlp.Objective(plus.data()) - nlp.Objective(minus.data())) / (2 * step);
    worst_gradient =
        std::max(worst_gradient, std::abs(df - gradient[i]) / std::max(1.0, std::abs(df)));
    nlp.Constraints(plus.data(), gp.data());
    nlp.Constraints(minus.data(), gm.data());
    for (int r = 0; r < m; ++r) {
      const double dg = (gp[r] - gm[r]) / (2 * step);
      worst_jacobian =
          std::max(worst_jacobian, std::abs(dg - J(r, i)) / std::max(1.0, std::abs(dg)));
    }
  }
  EXPECT_LT(worst_gradient, 1e-7);
  EXPECT_LT(worst_jacobian, 1e-7);
}

TEST(Collocation, FirstDerivativesMatchCentralDifferences) {
  // SO(3) with a free horizon and the final attitude fixed (the exp-product rows), and TQ with
  // a cost depending on t (the free-time column through t_k = k T / N).
  const std::string so3 = Replace(
      Replace(testing::kSo3, "  horizon: 2.0\n", "  horizon: free\n  horizon_bounds: [0.5, 6]\n"),
      "  shooting:", "  bounds: {u1: [-50, 50]}\n  shooting:");
  {
    SCOPED_TRACE("so3");
    ExpectDerivativesMatchDifferences(ParseScenario(so3, "so3.yaml"));
  }
  const std::string tq =
      Replace(Replace(testing::kTq, "horizon: 1", "horizon: free\n  horizon_bounds: [0.5, 3]"),
              "\"u^2/2\"", "\"u^2/2 + x*vx*t + sin(x)*t^2\"");
  {
    SCOPED_TRACE("tq");
    ExpectDerivativesMatchDifferences(ParseScenario(tq, "tq.yaml"));
  }
  // Path constraint rows (in t, x, u, with the free time) and a terminal cost in (t, x).
  const std::string path =
      Replace(tq, "  final: {x: 1, vx: 0}\n",
              "  final: {vx: 0}\n  path_constraints: [\"x*vx + sin(u*t) <= 1\", \"u >= -x^2\"]\n"
              "  terminal_cost: \"t^2*x + cos(vx)\"\n");
  SCOPED_TRACE("path");
  ExpectDerivativesMatchDifferences(ParseScenario(path, "path.yaml"));
}

// The trapezoidal rule on a fixed uniform mesh (no refinement): its h^2 error, extrapolated.
TEST(Collocation, MinimumTimeDoubleIntegratorMatchesTheClosedForm) {
  const Scenario s = ParseScenario(Replace(kDoubleIntegrator, "{nodes: 100}",
                                           "{nodes: 100, scheme: trapezoidal, mesh_rounds: 0}"),
                                   "di.yaml");
  EXPECT_EQ(ChosenMethod(s), OptimalControlMethod::kCollocation);
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  EXPECT_EQ(report.method, "collocation");
  const double x0 = 1.0, tf = 2 * std::sqrt(x0), ts = std::sqrt(x0);
  const double h = report.final_time / report.nodes;
  // Mesh-limited: t_f - 2 = h^2 / 2 on N = 100 intervals (the trapezoidal rule, second order);
  // the h^2 term extrapolated away with N = 200 gives t_f to 1e-5 relative.
  EXPECT_NEAR(report.final_time, tf, 3e-4 * tf);
  EXPECT_NEAR(solution.cost, report.final_time, 1e-9);
  SolveOptions finer;
  finer.nodes = 200;
  const OptimalControlSolution refined = SolveOptimalControl(s, finer);
  ASSERT_TRUE(refined.report.converged) << refined.report.message;
  EXPECT_NEAR(refined.report.final_time, tf, 1e-4 * tf);
  const double extrapolated = (4 * refined.report.final_time - report.final_time) / 3;
  EXPECT_NEAR(extrapolated, tf, 1e-5 * tf);
  // The control: on -1 before the switch, +1 after, the switch located to the mesh.
  const auto t = solution.trajectory.Column("t");
  const auto u = solution.trajectory.Column("u");
  double switch_time = -1;
  for (std::size_t k = 1; k < u.size(); ++k)
    if (u[k - 1] < 0 && u[k] >= 0) switch_time = t[k];
  EXPECT_NEAR(switch_time, ts, 1.5 * h);
  ASSERT_EQ(report.active_arcs.size(), 2u);
  EXPECT_EQ(report.active_arcs[0].name, "u");
  EXPECT_FALSE(report.active_arcs[0].upper);
  EXPECT_NEAR(report.active_arcs[0].t_begin, 0.0, 1e-12);
  EXPECT_NEAR(report.active_arcs[0].t_end, ts, 1.5 * h);
  EXPECT_TRUE(report.active_arcs[1].upper);
  EXPECT_NEAR(report.active_arcs[1].t_end, tf, 3e-4 * tf);
  // The JSON report carries the final time.
  EXPECT_NE(SolveReportToJson(report, solution.cost).find("\"final_time\": "), std::string::npos);
}

// Trapezoidal collocation (fixed mesh) converges as h^2: the cost on N and 2N intervals,
// extrapolated (4 c_2N - c_N) / 3, against multiple shooting's optimum (exact to 1e-10).
TEST(Collocation, AgreesWithShootingOnTheSo3Spline) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml"));
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged);
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.scheme = CollocationScheme::kTrapezoidal;
  s.optimal_control.collocation.mesh_rounds = 0;
  s.optimal_control.collocation.polish = false;  // collocation's own optimum
  std::vector<double> costs;
  for (const int nodes : {100, 200}) {
    SolveOptions options;
    options.nodes = nodes;
    const OptimalControlSolution direct = SolveOptimalControl(s, options);
    ASSERT_TRUE(direct.report.converged) << direct.report.message;
    EXPECT_EQ(direct.report.final_time, 2.0);
    EXPECT_TRUE(direct.report.active_arcs.empty());
    costs.push_back(direct.cost);
    // The attitude on SO(3) to rounding at every node.
    const auto& tr = direct.trajectory;
    double worst = 0;
    for (std::size_t r = 0; r < tr.num_rows(); ++r) {
      Eigen::Matrix3d R;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          R(i, j) = tr.Column("R" + std::to_string(i + 1) + std::to_string(j + 1))[r];
      worst = std::max(worst, (R.transpose() * R - Eigen::Matrix3d::Identity()).norm());
    }
    EXPECT_LT(worst, 1e-12);
  }
  const double extrapolated = (4 * costs[1] - costs[0]) / 3;
  EXPECT_NEAR(costs[1], shooting.cost, 1e-3 * shooting.cost);  // h^2 error at N = 200
  EXPECT_NEAR(extrapolated, shooting.cost, 1e-6 * shooting.cost);
}

TEST(Collocation, ShootingRefusesBoundsAndAutoPicksCollocation) {
  Scenario s = ParseScenario(kDoubleIntegrator, "di.yaml");
  s.optimal_control.method = OptimalControlMethod::kShooting;
  EXPECT_THROW(SolveOptimalControl(s), ScenarioError);
  const Scenario plain = LoadScenario(testing::SourcePath("scenarios/so3_spline.yaml"));
  EXPECT_EQ(ChosenMethod(plain), OptimalControlMethod::kShooting);
}

// Progress after every interior-point iteration (false or the cancel flag stops the solve).
TEST(Collocation, ReportsProgressAndCancels) {
  const Scenario s = ParseScenario(kDoubleIntegrator, "di.yaml");
  SolveOptions options;
  int calls = 0;
  double last_violation = -1;
  options.progress = [&](const NewtonIterate& it) {
    ++calls;
    last_violation = it.residual;
    return true;
  };
  const OptimalControlSolution solved = SolveOptimalControl(s, options);
  ASSERT_TRUE(solved.report.converged);
  EXPECT_GE(calls, solved.report.iterations);
  EXPECT_LT(last_violation, 1e-8);
  options.progress = [&](const NewtonIterate& it) { return it.iteration < 3; };
  const OptimalControlSolution stopped = SolveOptimalControl(s, options);
  EXPECT_FALSE(stopped.report.converged);
  EXPECT_EQ(stopped.report.message, "cancelled");
  EXPECT_EQ(stopped.trajectory.num_rows(), 0u);
  std::atomic<bool> cancel{true};
  options.progress = nullptr;
  options.cancel = &cancel;
  const OptimalControlSolution cancelled = SolveOptimalControl(s, options);
  EXPECT_FALSE(cancelled.report.converged);
  EXPECT_EQ(cancelled.report.message, "cancelled");
  EXPECT_LE(cancelled.report.iterations, 1);
}

// A horizon bound that cannot be met (the double integrator needs 2 s) fails with IPOPT's
// reason; at the CLI it exits 1 and writes no CSV, as does a bound no motion can meet.
TEST(Collocation, InfeasibleProblemsSayWhyAndWriteNothing) {
  Scenario s = ParseScenario(kDoubleIntegrator, "di.yaml");
  ApplyOverrides(s, {"horizon_guess=1", "horizon_bounds.max=1.5"});
  const OptimalControlSolution solution = SolveOptimalControl(s);
  EXPECT_FALSE(solution.report.converged);
  EXPECT_FALSE(solution.report.message.empty());
  EXPECT_EQ(solution.trajectory.num_rows(), 0u);

  const fs::path dir =
      fs::temp_directory_path() / ("dirac-collocation-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "di.yaml") << kDoubleIntegrator;
  for (const std::string set : {"horizon_bounds.max=1.5 --set horizon_guess=1", "bounds.u.min=2"}) {
    const fs::path csv = dir / "out.csv";
    const std::string command = std::string(DIRAC_CLI) + " solve " + (dir / "di.yaml").string() +
                                " --set " + set + " --quiet --csv " + csv.string() + " > " +
                                (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(command.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 1) << set;
    EXPECT_FALSE(fs::exists(csv)) << set;
    std::ifstream log(dir / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("di.yaml"), std::string::npos) << text;
  }
  fs::remove_all(dir);
}

// IPOPT reads ./ipopt.opt by default: a solve must not depend on where it runs.
TEST(Collocation, IgnoresAnIpoptOptionsFileInTheWorkingDirectory) {
  const fs::path dir =
      fs::temp_directory_path() / ("dirac-ipopt-opt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "di.yaml") << kDoubleIntegrator;
  std::ofstream(dir / "ipopt.opt") << "max_iter 1\n";
  const std::string command = "cd " + dir.string() + " && " + std::string(DIRAC_CLI) +
                              " solve di.yaml --quiet > log.txt 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 0);
  fs::remove_all(dir);
}

// PSOPT's time-optimal reorientation posed on SO(3): t_f against PSOPT's 28.63041 s, R on SO(3)
// at every node, the bounds met, the torques on their bounds (bang-bang).
TEST(Collocation, TimeOptimalReorientationMatchesPsopt) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/reorientation_min_time.yaml"));
  const OptimalControlSolution solution = SolveOptimalControl(s);
  const SolveReport& report = solution.report;
  ASSERT_TRUE(report.converged) << report.message;
  EXPECT_NEAR(report.final_time, 28.63041, 1e-3 * 28.63041);
  const auto& tr = solution.trajectory;
  double orthogonality = 0, worst_bound = 0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    Eigen::Matrix3d R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        R(i, j) = tr.Column("R" + std::to_string(i + 1) + std::to_string(j + 1))[r];
    orthogonality =
        std::max(orthogonality, (R.transpose() * R - Eigen::Matrix3d::Identity()).norm());
    for (const char* u : {"u1", "u2", "u3"})
      worst_bound = std::max(worst_bound, std::abs(tr.Column(u)[r]) - 50);
    for (const char* w : {"w1", "w2", "w3"})
      worst_bound = std::max(worst_bound, std::abs(tr.Column(w)[r]) - 0.5);
  }
  EXPECT_LT(orthogonality, 1e-12);
  EXPECT_LT(worst_bound, 1e-6);
  // The final attitude: 150 degrees about the body x axis.
  const std::size_t last = tr.num_rows() - 1;
  EXPECT_NEAR(tr.Column("R11")[last], 1.0, 1e-6);
  EXPECT_NEAR(tr.Column("R22")[last], std::cos(150 * M_PI / 180), 1e-6);
  EXPECT_NEAR(tr.Column("R32")[last], std::sin(150 * M_PI / 180), 1e-6);
  EXPECT_FALSE(report.active_arcs.empty());

  // The maximum principle's structure: with the cost 1 + eps |u|^2 / 2 (eps = 1e-9) and the
  // rates inside their bounds, H = lambda . f - C is maximised by u_i = 50 sign(sigma_i), the
  // switching function sigma_i = pbar_wi / I_i (the fibre costate times d(w_i')/du_i): at every
  // interior node where |sigma_i| is not small (5 % of its largest), the control is on the bound
  // of sigma's sign. The costates are the collocation's own (midpoint multipliers, no polish:
  // the horizon is free).
  const double inertia[3] = {5621, 4547, 2364};
  for (int i = 0; i < 3; ++i) {
    const std::string w = "pbar_w" + std::to_string(i + 1), u = "u" + std::to_string(i + 1);
    ASSERT_TRUE(tr.FindColumn(w).has_value()) << w;
    double largest = 0;
    for (std::size_t r = 0; r < tr.num_rows(); ++r)
      largest = std::max(largest, std::abs(tr.Column(w)[r]));
    int decided = 0;
    for (std::size_t r = 1; r + 1 < tr.num_rows(); ++r) {
      const double sigma = tr.Column(w)[r] / inertia[i];
      if (std::abs(tr.Column(w)[r]) < 0.05 * largest) continue;
      EXPECT_NEAR(tr.Column(u)[r], sigma > 0 ? 50.0 : -50.0, 1e-6 * 50)
          << u << " at t = " << tr.Column("t")[r] << ", sigma " << sigma;
      ++decided;
    }
    EXPECT_GE(decided, static_cast<int>(tr.num_rows()) - 10) << u;  // a few nodes near switches
  }
}

}  // namespace
}  // namespace dirac
