// The columns a collocation optimum shares with the shooting's trajectory (control/
// collocation_columns.hpp): the costates p_<y>, pbar_<y>, the accelerations a_<y> and the
// Pontryagin Hamiltonian E, under the same names and with the same values to the discretisation
// error, on so3_spline (the group costate from the attitude rows' multipliers, SO(3)), Elroy's
// beanie steered in theta (the base costate through the anchor and the SE(2) angle row) and the
// hovercraft (TQ, a path constraint inactive).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/collocation_columns.hpp"
#include "control/collocation_costates.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

Scenario ShippedScenario(const std::string& file) {
  return LoadScenario(testing::SourcePath("scenarios/" + file));
}

// Collocation on a fixed uniform mesh of `nodes` intervals, its own columns (not the shooting
// polish's, which would replace them with shooting's on these problems without inequalities).
OptimalControlSolution ByCollocation(Scenario s, int nodes, CollocationScheme scheme) {
  s.optimal_control.method = OptimalControlMethod::kCollocation;
  s.optimal_control.collocation.mesh_rounds = 0;
  s.optimal_control.collocation.polish = false;
  s.optimal_control.collocation.scheme = scheme;
  SolveOptions options;
  options.nodes = nodes;
  OptimalControlSolution solution = SolveOptimalControl(s, options);
  EXPECT_TRUE(solution.report.converged) << solution.report.message;
  return solution;
}

bool IsAdjointColumn(const std::string& name) {
  return name == "E" || name.rfind("p_", 0) == 0 || name.rfind("pbar_", 0) == 0 ||
         name.rfind("a_", 0) == 0;
}

// The columns of `a` that are costates, accelerations or E.
std::vector<std::string> AdjointNames(const Trajectory& a) {
  std::vector<std::string> out;
  for (const std::string& c : a.columns())
    if (IsAdjointColumn(c) && !c.ends_with("_dot")) out.push_back(c);
  std::sort(out.begin(), out.end());
  return out;
}

// max over the collocation nodes and the given columns of |collocation - shooting| (shooting's
// sample at the node's time, which the output step hits), per column.
std::vector<double> NodeErrors(const Trajectory& collocation, const Trajectory& shooting,
                               const std::vector<std::string>& names) {
  const auto tc = collocation.Column("t"), ts = shooting.Column("t");
  std::vector<double> worst(names.size(), 0.0);
  for (std::size_t r = 0; r < tc.size(); ++r) {
    std::size_t s = shooting.RowAtTime(tc[r]);
    if (s + 1 < ts.size() && std::abs(ts[s + 1] - tc[r]) < std::abs(ts[s] - tc[r])) ++s;
    EXPECT_NEAR(ts[s], tc[r], 1e-9);
    for (std::size_t c = 0; c < names.size(); ++c)
      worst[c] = std::max(worst[c], std::abs(collocation.at(r, collocation.ColumnIndex(names[c])) -
                                             shooting.at(s, shooting.ColumnIndex(names[c]))));
  }
  return worst;
}

// A collocation solve on N uniform intervals against the shooting's trajectory `reference`:
// the collocation's costate, acceleration and E columns and their largest errors at the nodes.
struct Comparison {
  OptimalControlSolution collocation;
  std::vector<std::string> names;
  std::vector<double> errors;  ///< per name
};
Comparison Compare(const Scenario& s, const Trajectory& reference, int N,
                   CollocationScheme scheme) {
  Comparison c;
  c.collocation = ByCollocation(s, N, scheme);
  if (!c.collocation.report.converged) return c;
  c.names = AdjointNames(c.collocation.trajectory);
  // The same names as shooting's.
  EXPECT_EQ(c.names, AdjointNames(reference));
  c.errors = NodeErrors(c.collocation.trajectory, reference, c.names);
  return c;
}

double Spread(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo;
}

// Max error over the columns whose names start with `prefix`.
double WorstOf(const std::vector<std::string>& names, const std::vector<double>& errors,
               const std::string& prefix) {
  double worst = 0.0;
  for (std::size_t c = 0; c < names.size(); ++c)
    if (names[c].rfind(prefix, 0) == 0) worst = std::max(worst, errors[c]);
  return worst;
}

// so3_spline (SO(3), fully actuated, all of R(T) fixed): p_w is the group costate, carried back
// from the attitude rows' multipliers (spatially constant, so as exact as the final rows'
// multipliers: 1e-7); pbar_w the Simpson multipliers interpolated to the nodes (O(h^2), largest
// at the extrapolated end nodes); E constant to the same order. Hermite-Simpson, uniform mesh.
TEST(CollocationColumns, So3SplineCostatesAndHamiltonianAgreeWithShooting) {
  const Scenario s = ShippedScenario("so3_spline.yaml");
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  const Trajectory& reference = shooting.trajectory;
  double pbar_error[2] = {}, E_error[2] = {}, spread[2] = {};
  for (const int N : {50, 100}) {
    const Comparison c = Compare(s, reference, N, CollocationScheme::kHermiteSimpson);
    ASSERT_TRUE(c.collocation.report.converged);
    const OptimalControlSolution& colloc = c.collocation;
    const std::vector<std::string>& names = c.names;  // p_w1..3, pbar_w1..3, a_w1..3, E
    ASSERT_EQ(names.size(), 10u);
    const std::vector<double>& e = c.errors;
    const Trajectory& t = colloc.trajectory;
    const int i = N == 50 ? 0 : 1;
    pbar_error[i] = WorstOf(names, e, "pbar_");
    E_error[i] = WorstOf(names, e, "E");
    spread[i] = Spread(t.Column("E"));
    std::printf("so3_spline, N = %d: p_w %.2e, pbar_w %.2e, a_w %.2e, E %.2e, E spread %.2e\n", N,
                WorstOf(names, e, "p_"), pbar_error[i], WorstOf(names, e, "a_"), E_error[i],
                spread[i]);
    if (N == 100) {
      EXPECT_LT(WorstOf(names, e, "p_"), 1e-6);  // measured 1.2e-7
      EXPECT_LT(pbar_error[i], 1e-3);            // measured 9.5e-4 (scale 9)
      EXPECT_LT(WorstOf(names, e, "a_"), 2e-4);  // the node controls: 8.3e-5
      EXPECT_LT(E_error[i], 5e-4);               // measured 3.4e-4 of E = 6.3513
      EXPECT_LT(spread[i], 5e-4);                // measured 3.6e-4 (shooting: 1.1e-11)
      EXPECT_NEAR(colloc.hamiltonian_drift, spread[i], spread[i]);
    }
  }
  // Second order: N = 50 -> 100 divides the errors by about 4 (measured 3.7, 4.0, 4.2).
  for (const double* e : {pbar_error, E_error, spread}) {
    EXPECT_GT(e[0] / e[1], 3.0) << e[0] << " " << e[1];
    EXPECT_LT(e[0] / e[1], 5.0) << e[0] << " " << e[1];
  }
}

// On a uniform mesh the node costates are control::NodeCostates' (the mean of the neighbouring
// midpoint multipliers, linear extrapolation at the ends), which the interpolation generalises.
TEST(CollocationColumns, InterpolationIsNodeCostatesOnAUniformMesh) {
  const std::vector<double> at{0.5, 1.5, 2.5};
  const std::vector<std::vector<double>> values{{1.0, -2.0}, {3.0, 0.0}, {4.0, 5.0}};
  const auto p = control::InterpolateInTime(at, values, {0.0, 1.0, 2.0, 3.0});
  std::vector<double> lambda;  // interval k's row block: the d = 2 values
  for (const auto& v : values) lambda.insert(lambda.end(), v.begin(), v.end());
  const auto q = control::NodeCostates(3, 2, lambda, CollocationScheme::kTrapezoidal);
  ASSERT_EQ(p.size(), q.size());
  for (std::size_t k = 0; k < p.size(); ++k)
    for (std::size_t i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(p[k][i], q[k][i]) << k << " " << i;
  EXPECT_DOUBLE_EQ(control::InterpolateInTime(at, values, {2.0})[0][1], 2.5);
}

// Elroy's beanie turned to theta(T) = -0.3 (psi(T) free): p_v1 = rho^T lambda_psi + (d xi /
// d v1)^T mu mixes the base costate through the anchor with the SE(2) angle row's group
// costate; p_v4 is that group costate alone (xi_theta = v4 / sqrt(I1 + I2) - ...). Trapezoidal
// rule on a uniform mesh (Hermite-Simpson pays the attitude block: 2.5 s here).
TEST(CollocationColumns, ElroyCostatesThroughTheAnchorAndTheAngleRow) {
  Scenario s = ShippedScenario("elroys_beanie_ocp.yaml");
  ApplyOverrides(s, {"final.theta=-0.3", "final.psi=free"});
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  const Comparison c = Compare(s, shooting.trajectory, 100, CollocationScheme::kTrapezoidal);
  ASSERT_TRUE(c.collocation.report.converged);
  const OptimalControlSolution& colloc = c.collocation;
  const std::vector<std::string>& names = c.names;
  const std::vector<double>& e = c.errors;
  const auto p_v4 = shooting.trajectory.Column("p_v4");
  const double scale = std::abs(p_v4.front());
  std::printf(
      "elroy, N = 100: p_v %.2e, pbar_v %.2e, a_v1 %.2e, E %.2e, E spread %.2e; "
      "|p_v4| %.3f\n",
      WorstOf(names, e, "p_"), WorstOf(names, e, "pbar_"), WorstOf(names, e, "a_"),
      WorstOf(names, e, "E"), Spread(colloc.trajectory.Column("E")), scale);
  EXPECT_GT(scale, 0.05);                       // the group costate is not trivially zero here
  EXPECT_LT(WorstOf(names, e, "p_"), 5e-4);     // measured 2.0e-4
  EXPECT_LT(WorstOf(names, e, "pbar_"), 1e-3);  // measured 5.9e-4
  EXPECT_LT(WorstOf(names, e, "E"), 3e-4);      // measured 1.2e-4
  EXPECT_LT(Spread(colloc.trajectory.Column("E")), 2e-4);  // measured 6.7e-5
}

// The hovercraft without its path constraints (TQ, a linear-quadratic problem: the costates are
// linear in t and Hermite-Simpson is exact for it): every column to rounding, E constant.
TEST(CollocationColumns, HovercraftWithoutItsPathConstraintsAgreesWithShooting) {
  Scenario s = ShippedScenario("hovercraft_obstacle.yaml");
  s.optimal_control.path_constraints.clear();  // then shooting solves it too
  const OptimalControlSolution shooting = SolveOptimalControl(s);
  ASSERT_TRUE(shooting.report.converged) << shooting.report.message;
  const Comparison c = Compare(s, shooting.trajectory, 100, CollocationScheme::kHermiteSimpson);
  ASSERT_TRUE(c.collocation.report.converged);
  ASSERT_EQ(c.names.size(), 10u);  // p_, pbar_ of vx, vy, vtheta, their a_, E
  for (std::size_t k = 0; k < c.names.size(); ++k)
    EXPECT_LT(c.errors[k], 1e-9) << c.names[k];  // measured 3.1e-11
  EXPECT_LT(Spread(c.collocation.trajectory.Column("E")), 1e-12);
}

}  // namespace
}  // namespace dirac
