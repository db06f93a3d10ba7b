// The exact Hessian of the collocation NLP's Lagrangian sigma f + lambda . g against central
// differences of its exact gradient sigma grad f + J^T lambda (on the time-optimal reorientation
// with its attitude rows and free time, and on a TQ problem with path constraints and a
// terminal cost), the pattern covering every nonzero; the limited-memory approximation still
// selectable (`collocation: {hessian: limited-memory}`) and reaching the same optimum.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "optimal_control_texts.hpp"

namespace dirac {
namespace {

using testing::Replace;

// sigma grad f + J^T lambda at w.
Eigen::VectorXd LagrangianGradient(const control::CollocationNlp& nlp, const std::vector<double>& w,
                                   double sigma, const Eigen::VectorXd& lambda) {
  const int n = nlp.num_variables();
  Eigen::VectorXd gradient(n);
  nlp.ObjectiveGradient(w.data(), gradient.data());
  gradient *= sigma;
  std::vector<double> values(nlp.JacobianPattern().size());
  nlp.JacobianValues(w.data(), values.data());
  for (std::size_t e = 0; e < values.size(); ++e) {
    const auto [row, col] = nlp.JacobianPattern()[e];
    gradient[col] += lambda[row] * values[e];
  }
  return gradient;
}

// The worst entry of |H - H_fd| / max(1, |H_fd|) over the whole matrix (entries outside the
// pattern count as 0 in H).
double WorstHessianError(const Scenario& s, int intervals,
                         CollocationScheme scheme = CollocationScheme::kHermiteSimpson) {
  const control::CollocationDynamics dynamics(s);
  std::vector<double> mesh{0.0};  // non-uniform
  for (int k = 1; k <= intervals; ++k) mesh.push_back(mesh.back() + 1 + 0.5 * std::sin(1.3 * k));
  for (double& node : mesh) node /= mesh.back();
  const control::CollocationNlp nlp(s, dynamics, mesh, scheme);
  const int n = nlp.num_variables(), m = nlp.num_constraints();
  std::vector<double> w(n);
  nlp.StartingPoint(w.data());
  for (int i = 0; i < n; ++i) w[i] += 0.05 * std::sin(1.7 * i + 0.3);  // away from symmetries
  Eigen::VectorXd lambda(m);
  for (int r = 0; r < m; ++r) lambda[r] = std::cos(0.9 * r + 0.2);
  const double sigma = 0.7;
  std::vector<double> values(nlp.HessianPattern().size());
  nlp.HessianValues(w.data(), sigma, lambda.data(), values.data());
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t e = 0; e < values.size(); ++e) {
    const auto [row, col] = nlp.HessianPattern()[e];
    EXPECT_GE(row, col);
    H(row, col) += values[e];
    if (row != col) H(col, row) += values[e];
  }
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double step = 1e-6 * std::max(1.0, std::abs(w[i]));
    std::vector<double> plus = w, minus = w;
    plus[i] += step;
    minus[i] -= step;
    const Eigen::VectorXd column = (LagrangianGradient(nlp, plus, sigma, lambda) -
                                    LagrangianGradient(nlp, minus, sigma, lambda)) /
                                   (2 * step);
    for (int j = 0; j < n; ++j)
      worst = std::max(worst, std::abs(column[j] - H(j, i)) / std::max(1.0, std::abs(column[j])));
  }
  return worst;
}

TEST(CollocationHessian, MatchesCentralDifferencesOfTheGradient) {
  const Scenario reorientation =
      LoadScenario(testing::SourcePath("scenarios/reorientation_min_time.yaml"));
  const double so3 = WorstHessianError(reorientation, 16);
  EXPECT_LT(so3, 1e-6);
  EXPECT_LT(WorstHessianError(reorientation, 12, CollocationScheme::kTrapezoidal), 1e-6);
  const std::string tq =
      Replace(Replace(testing::kTq, "horizon: 1", "horizon: free\n  horizon_bounds: [0.5, 3]"),
              "  final: {x: 1, vx: 0}\n",
              "  final: {vx: 0}\n  path_constraints: [\"x*vx + sin(u*t) <= 1\", \"u >= -x^2\"]\n"
              "  terminal_cost: \"t^2*x + cos(vx)\"\n  cost: \"u^2/2 + x*vx*t + sin(x)*t^2\"\n");
  const double path =
      WorstHessianError(ParseScenario(Replace(tq, "  cost: \"u^2/2\"\n", ""), "path.yaml"), 12);
  EXPECT_LT(path, 1e-6);
  EXPECT_LT(WorstHessianError(ParseScenario(Replace(tq, "  cost: \"u^2/2\"\n", ""), "path.yaml"),
                              12, CollocationScheme::kTrapezoidal),
            1e-6);
  std::printf("[ measured ] Hessian vs central differences: reorientation %.2e, TQ path %.2e\n",
              so3, path);
}

TEST(CollocationHessian, LimitedMemoryStaysSelectableAndAgrees) {
  Scenario s = ParseScenario(testing::kDoubleIntegrator, "di.yaml");
  EXPECT_TRUE(s.optimal_control.collocation.exact_hessian);
  const OptimalControlSolution exact = SolveOptimalControl(s);
  const std::string text = Replace(testing::kDoubleIntegrator, "collocation: {nodes: 100}",
                                   "collocation: {nodes: 100, hessian: limited-memory}");
  s = ParseScenario(text, "lbfgs.yaml");
  EXPECT_FALSE(s.optimal_control.collocation.exact_hessian);
  EXPECT_FALSE(ParseScenario(SaveScenarioToString(s), "back.yaml")
                   .optimal_control.collocation.exact_hessian);
  const OptimalControlSolution lbfgs = SolveOptimalControl(s);
  ASSERT_TRUE(exact.report.converged && lbfgs.report.converged);
  EXPECT_NEAR(exact.report.final_time, lbfgs.report.final_time, 1e-7);
  std::printf("[ measured ] double integrator: %d iterations exact, %d limited-memory\n",
              exact.report.iterations, lbfgs.report.iterations);
  testing::ExpectError(Replace(text, "limited-memory", "bfgs"), "bfgs", "collocation:");
}

}  // namespace
}  // namespace dirac
