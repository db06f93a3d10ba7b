// `simulation.linear_solver`: the integrator's Newton iteration on dense LU or on KLU with the
// Jacobian's sparsity pattern (dynamics/sparse_jacobian.hpp). Both give the same motion to the
// integration tolerance, and `auto` picks sparse only for large, sparse Jacobians.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/families.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dynamics/sparse_jacobian.hpp"

namespace dirac {
namespace {

struct SoRun {
  Trajectory trajectory;
  SimulationReport report;
};

SoRun RunSoN(int n, const std::string& solver) {
  Scenario s = ParseScenario(GenerateFamilyScenarioBeyondRange("rigid_body_so", n), "so.yaml");
  ApplyOverride(s, "t_end=1");
  ApplyOverride(s, "tape=interpreter");
  ApplyOverride(s, "linear_solver=" + solver);
  const auto model = BuildModel(s);
  SoRun run;
  run.trajectory = model->Simulate(SimulationInput::FromScenario(s), {}, &run.report);
  return run;
}

// so(16): 120 unknowns, a Jacobian whose pattern fills about a quarter of it.
TEST(LinearSolver, DenseAndSparseGiveTheSameMotionOnSoN) {
  const SoRun dense = RunSoN(16, "dense");
  const SoRun sparse = RunSoN(16, "sparse");
  EXPECT_EQ(dense.report.method.find("KLU"), std::string::npos) << dense.report.method;
  EXPECT_NE(sparse.report.method.find("sparse LU (KLU)"), std::string::npos)
      << sparse.report.method;
  ASSERT_EQ(dense.trajectory.num_rows(), sparse.trajectory.num_rows());
  ASSERT_EQ(dense.trajectory.num_columns(), sparse.trajectory.num_columns());
  const std::size_t last = dense.trajectory.num_rows() - 1;
  double worst = 0.0;
  for (std::size_t c = 0; c < dense.trajectory.num_columns(); ++c)
    worst =
        std::max(worst, std::abs(dense.trajectory.row(last)[c] - sparse.trajectory.row(last)[c]));
  EXPECT_LT(worst, 1e-9);
  // The energy is conserved on the sparse path as on the dense one.
  EXPECT_LT(sparse.report.max_energy_drift, 1e-9 * std::abs(sparse.report.initial_energy));
  EXPECT_LT(dense.report.max_energy_drift, 1e-9 * std::abs(dense.report.initial_energy));
}

// Small systems never look for a pattern under `auto` (every shipped scenario keeps its bits).
TEST(LinearSolver, AutoKeepsSmallSystemsDense) {
  const SoRun run = RunSoN(6, "auto");
  EXPECT_EQ(run.report.method.find("KLU"), std::string::npos) << run.report.method;
  EXPECT_FALSE(dynamics::MayUseSparse(LinearSolverMode::kAuto, dynamics::kSparseMinUnknowns - 1));
  EXPECT_TRUE(dynamics::MayUseSparse(LinearSolverMode::kAuto, dynamics::kSparseMinUnknowns));
  EXPECT_FALSE(dynamics::MayUseSparse(LinearSolverMode::kDense, 1000));
}

// The pattern is found by evaluation; `auto` takes KLU for a sparse one, dense LU for a full one.
TEST(LinearSolver, PatternDecidesUnderAuto) {
  const std::size_t n = 150;
  // Tridiagonal: entries that vanish at some points (x_i = 0) but not identically.
  const dynamics::DenseJacobian tridiagonal = [n](double, const double* y, double* jac) {
    for (std::size_t i = 0; i < n; ++i) {
      jac[i * n + i] = -2.0;
      if (i + 1 < n) jac[i * n + i + 1] = y[i];
      if (i + 1 < n) jac[(i + 1) * n + i] = 1.0;
    }
  };
  const std::vector<double> zero(n, 0.0);
  const auto sparse = dynamics::DetectPattern(tridiagonal, n, 0.0, zero.data());
  EXPECT_EQ(sparse.nonzeros(), 3 * n - 2);  // y_i * 1 found away from y = 0
  EXPECT_TRUE(dynamics::UseSparse(LinearSolverMode::kAuto, sparse));
  EXPECT_FALSE(dynamics::UseSparse(LinearSolverMode::kDense, sparse));
  const dynamics::DenseJacobian full = [n](double, const double*, double* jac) {
    for (std::size_t e = 0; e < n * n; ++e) jac[e] = 1.0 + static_cast<double>(e % 7);
  };
  const auto dense = dynamics::DetectPattern(full, n, 0.0, zero.data());
  EXPECT_EQ(dense.nonzeros(), n * n);
  EXPECT_FALSE(dynamics::UseSparse(LinearSolverMode::kAuto, dense));
  EXPECT_TRUE(dynamics::UseSparse(LinearSolverMode::kSparse, dense));
}

TEST(LinearSolver, IsAScenarioSettingAndASetName) {
  Scenario s = ParseScenario(GenerateFamilyScenario("rigid_body_so", 3), "so.yaml");
  EXPECT_EQ(s.simulation.linear_solver, LinearSolverMode::kAuto);
  ApplyOverride(s, "linear_solver=sparse");
  EXPECT_EQ(s.simulation.linear_solver, LinearSolverMode::kSparse);
  EXPECT_THROW(ApplyOverride(s, "linear_solver=fast"), ScenarioError);
  EXPECT_EQ(LinearSolverModeFromName("dense"), LinearSolverMode::kDense);
  EXPECT_FALSE(LinearSolverModeFromName("klu").has_value());
}

}  // namespace
}  // namespace dirac
