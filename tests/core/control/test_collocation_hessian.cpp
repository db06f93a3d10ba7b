// The exact Hessian of the collocation NLP's Lagrangian sigma f + lambda . g against central
// differences of its exact gradient sigma grad f + J^T lambda (on the time-optimal reorientation
// with its attitude rows and free time, and on a TQ problem with path constraints and a
// terminal cost), the pattern covering every nonzero; the first and second derivatives on every
// shipped optimal-control scenario collocation solves (with their bounds, free horizon, the
// group defects in the chart and the SO(3) and SE(2) final rows); the chart maps alone in both
// branches of their series; the limited-memory approximation still selectable
// (`collocation: {hessian: limited-memory}`) and reaching the same optimum.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_chart.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "geometry/lie_group.hpp"
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

// The NLP's starting point, moved off its symmetries.
std::vector<double> TestPoint(const control::CollocationNlp& nlp) {
  std::vector<double> w(nlp.num_variables());
  nlp.StartingPoint(w.data());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] += 0.05 * std::sin(1.7 * i + 0.3);
  return w;
}

// The worst entry of |D - D_fd| / max(1, |D_fd|), D_fd the central differences of f at w
// column by column (D: the derivative of f claimed).
template <typename F>
double WorstColumnError(const std::vector<double>& w, const Eigen::MatrixXd& D, F f) {
  double worst = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double step = 1e-6 * std::max(1.0, std::abs(w[i]));
    std::vector<double> plus = w, minus = w;
    plus[i] += step;
    minus[i] -= step;
    const Eigen::VectorXd column = (f(plus) - f(minus)) / (2 * step);
    const auto c = static_cast<Eigen::Index>(i);
    worst = std::max(
        worst, ((column - D.col(c)).array().abs() / column.array().abs().max(1.0)).maxCoeff());
  }
  return worst;
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
  const std::vector<double> w = TestPoint(nlp);
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
  return WorstColumnError(w, H, [&](const std::vector<double>& at) {
    return LagrangianGradient(nlp, at, sigma, lambda);
  });
}

// The worst of |J - J_fd| / max(1, |J_fd|) over the constraint Jacobian and the objective
// gradient (appended as row m).
double WorstFirstDerivativeError(const Scenario& s, int intervals) {
  const control::CollocationDynamics dynamics(s);
  const control::CollocationNlp nlp(s, dynamics, intervals);
  const int n = nlp.num_variables(), m = nlp.num_constraints();
  const std::vector<double> w = TestPoint(nlp);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(m + 1, n);
  std::vector<double> values(nlp.JacobianPattern().size());
  nlp.JacobianValues(w.data(), values.data());
  for (std::size_t e = 0; e < values.size(); ++e)
    J(nlp.JacobianPattern()[e].first, nlp.JacobianPattern()[e].second) += values[e];
  Eigen::VectorXd gradient(n);
  nlp.ObjectiveGradient(w.data(), gradient.data());
  J.row(m) = gradient.transpose();
  return WorstColumnError(w, J, [&](const std::vector<double>& at) {
    Eigen::VectorXd out(m + 1);  // (g, f)
    nlp.Constraints(at.data(), out.data());
    out[m] = nlp.Objective(at.data());
    return out;
  });
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

// Every shipped scenario collocation solves, small meshes: so3_spline with a torque bound,
// elroys_beanie_ocp steered in theta (the SE(2) angle row) with the rotor-torque bound, a free
// horizon and the time in the cost, with the position rows and with the position rows alone,
// the hovercraft's path constraints, the reorientation (and another target): with the group
// rows, the chart coordinates eta_k of TestPoint are off 0 and the references off the optimum.
// (heisenberg_geodesic is a boundary_value problem: shooting alone.)
TEST(CollocationHessian, EveryShippedCollocationScenario) {
  const std::vector<std::string> elroy_bounded = {"rho=0.5",
                                                  "bounds.u.min=-0.5",
                                                  "bounds.u.max=0.5",
                                                  "horizon_bounds.min=1",
                                                  "horizon_bounds.max=10",
                                                  "horizon=free",
                                                  "final.theta=-0.3",
                                                  "final.psi=free"};
  std::vector<std::string> elroy_position = elroy_bounded;
  elroy_position.insert(elroy_position.end(), {"final.x=0.1", "final.y=-0.2"});
  std::vector<std::string> elroy_position_only = elroy_position;
  elroy_position_only.push_back("final.theta=free");
  const struct {
    const char* file;
    std::vector<std::string> overrides;
  } cases[] = {
      {"so3_spline.yaml", {"bounds.u1.max=0.5", "bounds.w2.min=-1"}},
      {"elroys_beanie_ocp.yaml", elroy_bounded},
      {"elroys_beanie_ocp.yaml", elroy_position},
      {"elroys_beanie_ocp.yaml", elroy_position_only},
      {"hovercraft_obstacle.yaml", {"vmax=1.2"}},
      {"reorientation_min_time.yaml", {}},
      {"reorientation_min_time.yaml", {"final.R.z=0.3", "bounds.u2.max=20"}},
  };
  for (const auto& c : cases) {
    Scenario s = LoadScenario(testing::SourcePath(std::string("scenarios/") + c.file));
    ApplyOverrides(s, c.overrides);
    const double first = WorstFirstDerivativeError(s, 8), second = WorstHessianError(s, 8);
    EXPECT_LT(first, 1e-6) << c.file << " " << c.overrides.size();
    EXPECT_LT(second, 1e-6) << c.file << " " << c.overrides.size();
    // The trapezoidal scheme on the same rows (SE(2) and SO(3) under both schemes).
    EXPECT_LT(WorstHessianError(s, 8, CollocationScheme::kTrapezoidal), 1e-6) << c.file;
    std::printf("[ measured ] %s (%zu overrides): first derivatives %.2e, Hessian %.2e\n", c.file,
                c.overrides.size(), first, second);
  }
}

// The chart maps alone, in both branches of their series (relative rotations under ~0.01 rad:
// the series at the identity; larger: the closed forms): the Jacobian against central
// differences of the values, the weighted Hessian against central differences of the weighted
// Jacobian, to 1e-6 relative; and the group element they describe.
TEST(CollocationHessian, ChartMapsMatchCentralDifferences) {
  using geometry::MatrixGroup;
  const Eigen::Vector3d lambda(0.7, -1.3, 0.4), v(0.3, -0.5, 0.8);
  double worst = 0;
  for (const MatrixGroup group : {MatrixGroup::kSO3, MatrixGroup::kSE2})
    for (const double scale : {1e-3, 0.3}) {
      const Eigen::Matrix3d C = geometry::Exp(group, scale * v);
      const control::RelativeIncrement F(group, C);
      Eigen::Matrix<double, 6, 1> x;
      x << scale * 0.2, -scale * 0.1, scale * 0.3, -scale * 0.25, scale * 0.15, scale * 0.05;
      auto value = [&](const Eigen::Matrix<double, 6, 1>& at) {
        return F.Value(at.head<3>(), at.tail<3>());
      };
      // Log(Exp(-a) C Exp(b)) is that element's logarithm.
      const Eigen::Vector3d direct = geometry::Log(
          group, geometry::Exp(group, -x.head<3>()) * C * geometry::Exp(group, x.tail<3>()));
      worst = std::max(worst, (value(x) - direct).norm() / std::max(1.0, direct.norm()));
      const control::ChartDerivatives<6> D = F.Derivatives(x.head<3>(), x.tail<3>(), lambda.data());
      EXPECT_LT((D.value - value(x)).norm(), 1e-15);
      const control::ChartDerivatives<6> first = F.Derivatives(x.head<3>(), x.tail<3>(), nullptr);
      EXPECT_LT((first.jacobian - D.jacobian).norm(), 1e-15);
      for (int i = 0; i < 6; ++i) {
        const double step = 1e-6;
        Eigen::Matrix<double, 6, 1> plus = x, minus = x;
        plus[i] += step;
        minus[i] -= step;
        const Eigen::Vector3d column = (value(plus) - value(minus)) / (2 * step);
        worst = std::max(
            worst, ((column - D.jacobian.col(i)).array().abs() / column.array().abs().max(1.0))
                       .maxCoeff());
        const Eigen::Matrix<double, 6, 1> hessian_column =
            (F.Derivatives(plus.head<3>(), plus.tail<3>(), nullptr).jacobian.transpose() * lambda -
             F.Derivatives(minus.head<3>(), minus.tail<3>(), nullptr).jacobian.transpose() *
                 lambda) /
            (2 * step);
        worst = std::max(worst, ((hessian_column - D.hessian.col(i)).array().abs() /
                                 hessian_column.array().abs().max(1.0))
                                    .maxCoeff());
      }
      // The final rows at a reference near (scale) the target: SO(3), SE(2) with all, the
      // position alone, the angle alone.
      for (const auto [translation, angle] :
           {std::pair{true, true}, {true, false}, {false, true}}) {
        if (group == MatrixGroup::kSO3 && !(translation && angle)) continue;
        const control::FinalChartRows r(
            group, C,
            Eigen::Matrix3d(C * geometry::Exp(group, scale * Eigen::Vector3d(-0.4, 0.2, 0.3))),
            translation, angle);
        const Eigen::Vector3d eta = x.head<3>();
        const control::ChartDerivatives<3> R = r.Derivatives(eta, lambda.data());
        const int rows = group == MatrixGroup::kSO3 ? 3 : 2 * translation + angle;
        for (int i = 0; i < 3; ++i) {
          const double step = 1e-6;
          Eigen::Vector3d plus = eta, minus = eta;
          plus[i] += step;
          minus[i] -= step;
          const Eigen::Vector3d column = (r.Value(plus) - r.Value(minus)) / (2 * step);
          const Eigen::Vector3d hessian_column =
              (r.Derivatives(plus, nullptr).jacobian.topRows(rows).transpose() * lambda.head(rows) -
               r.Derivatives(minus, nullptr).jacobian.topRows(rows).transpose() *
                   lambda.head(rows)) /
              (2 * step);
          for (int a = 0; a < rows; ++a)
            worst = std::max(
                worst, std::abs(column[a] - R.jacobian(a, i)) / std::max(1.0, std::abs(column[a])));
          worst = std::max(worst, ((hessian_column - R.hessian.col(i)).array().abs() /
                                   hessian_column.array().abs().max(1.0))
                                      .maxCoeff());
        }
      }
    }
  EXPECT_LT(worst, 1e-6);
  std::printf("[ measured ] chart maps vs central differences: %.2e\n", worst);
}

TEST(CollocationHessian, LimitedMemoryStaysSelectableAndAgrees) {
  Scenario s = ParseScenario(testing::kDoubleIntegrator, "di.yaml");
  EXPECT_TRUE(s.optimal_control.collocation.exact_hessian);
  const OptimalControlSolution exact = SolveOptimalControl(s);
  // The limited-memory solve's barrier floor is 0.9 tol (ipopt_solver.cpp): at the default
  // tol 1e-9 a bang-bang T is off by ~2e-7 (the control kept ~mu off its bound), at 1e-10 by 1e-8.
  const std::string text =
      Replace(testing::kDoubleIntegrator, "collocation: {nodes: 100}",
              "collocation: {nodes: 100, hessian: limited-memory, tolerance: 1.0e-10}");
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
