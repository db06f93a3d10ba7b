// Boundary-value problems by shooting: the cubic spline (an analytic optimum whose first
// variation must vanish) and a sub-Riemannian (vakonomic) geodesic of the Heisenberg group.
#include <gtest/gtest.h>

#include <cmath>

#include "canonical_problems.hpp"
#include "dirac/error.hpp"
#include "dirac/shooting.hpp"

namespace dirac {
namespace {

TEST(Shooting, CubicSplineReachesTheAnalyticOptimum) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/cubic_spline_bvp.yaml"));
  const ShootingResult result = SolveBoundaryValueProblem(s);
  EXPECT_LT(result.residual, 1e-9);
  ASSERT_EQ(result.unknowns.size(), 2u);
  EXPECT_NEAR(result.unknowns[0], 12.0, 1e-7);  // p_v(0)
  EXPECT_NEAR(result.unknowns[1], 6.0, 1e-7);   // pbar_v(0) = a(0)
  EXPECT_NEAR(result.cost, 6.0, 1e-8);          // (1/2) int (6 - 12 t)^2 dt
  const Trajectory& tr = result.trajectory;
  double worst = 0.0, first_variation = 0.0, second_variation = 0.0;
  const double h = s.simulation.output_step;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("x")) - (3 * t * t - 2 * t * t * t)));
    // A perturbation phi = t^2 (1 - t)^2 keeps both boundary conditions; phi'' = 2 - 12 t + 12 t^2.
    const double phi2 = 2 - 12 * t + 12 * t * t;
    const double w = (r == 0 || r + 1 == tr.num_rows()) ? 0.5 * h : h;  // trapezoid
    first_variation += w * tr.at(r, tr.ColumnIndex("a")) * phi2;
    second_variation += w * phi2 * phi2;
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(std::abs(first_variation), 1e-8) << "the optimum is stationary";
  EXPECT_GT(second_variation, 0.1) << "and a minimum: J(eps) = J + eps^2/2 int phi''^2";
}

TEST(Shooting, SubRiemannianGeodesicOfTheHeisenbergGroup) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/vakonomic_heisenberg.yaml"));
  ApplyOverride(s, "t_end", 1.0);
  s.boundary_value.unknowns = {"vx", "vy", "p_z"};
  s.boundary_value.targets = {{"x", 1.0}, {"y", 0.0}, {"z", 0.1}};
  const ShootingResult result = SolveBoundaryValueProblem(s);
  EXPECT_LT(result.residual, 1e-9);
  const Trajectory& tr = result.trajectory;
  const double pz = result.unknowns[2];
  const double speed = std::hypot(result.unknowns[0], result.unknowns[1]);
  ASSERT_GT(std::abs(pz), 1e-3);
  // xy-projection: an arc of radius |v| / (2 |p_z|); the constraint holds; H is conserved.
  const double radius = speed / (2 * std::abs(pz));
  // Centre: the initial point moved by radius along the normal to v on the turning side.
  const double nx = (pz > 0 ? 1 : -1) * result.unknowns[1] / speed;
  const double ny = (pz > 0 ? -1 : 1) * result.unknowns[0] / speed;
  double worst = 0.0, energy_drift = 0.0;
  const double e0 = tr.at(0, tr.ColumnIndex("E"));
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double x = tr.at(r, tr.ColumnIndex("x")), y = tr.at(r, tr.ColumnIndex("y"));
    worst = std::max(worst, std::abs(std::hypot(x - radius * nx, y - radius * ny) - radius));
    energy_drift = std::max(energy_drift, std::abs(tr.at(r, tr.ColumnIndex("E")) - e0));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(energy_drift, 1e-9);
  EXPECT_GT(result.cost, 0.5) << "reaching z = 0.1 costs more than the straight line to x = 1";
  EXPECT_NEAR(result.cost, 0.5 * speed * speed, 1e-8) << "constant speed along a geodesic";
}

TEST(Shooting, ClearErrors) {
  Scenario s = LoadScenario(testing::SourcePath("scenarios/heisenberg.yaml"));
  EXPECT_THROW(SolveBoundaryValueProblem(s), ScenarioError);  // no boundary_value block
  s.boundary_value.unknowns = {"nope"};
  s.boundary_value.targets = {{"x", 0.0}};
  EXPECT_THROW(SolveBoundaryValueProblem(s), ScenarioError);
}

}  // namespace
}  // namespace dirac
