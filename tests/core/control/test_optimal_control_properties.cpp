// Optimal control by multiple shooting (issue 8, "Must show (tests)"), continued: the properties
// every optimum has (exact sensitivities, warm starts), a second derivation by the maximum
// principle on the first-order system, and clear failures. The sign conventions are stated in
// test_optimal_control.cpp; the fixtures are in optimal_control_test_support.hpp.

#include <gtest/gtest.h>

#include "optimal_control_test_support.hpp"

namespace dirac {
namespace {

using namespace ocp_test;  // NOLINT: the fixtures of this test family

// ---- 4. properties along the optima: sensitivities; the cubic spline on R ------------------

TEST(OptimalControl, SensitivityJacobianMatchesCentralDifferences) {
  struct Case {
    const char* file;
    Scenario s;
    std::string label;
    int nodes = 0;  // 0: the engine's choice
  };
  So3Data d;
  d.rT = Vec3(-1.4, 1.4, 0.2);
  d.wT = Vec3(0.5, 0.0, -0.3);
  d.w0 = Vec3(0.0, 0.4, 0.0);
  Scenario phase = ElroyScenario(0.3);
  ApplyOverride(phase, "final.theta", 0.3);
  ApplyOverride(phase, "final.psi=free");
  std::vector<Case> cases = {
      {kSo3File, So3Scenario(So3Data{}), "so3, the scenario's data (guess: at rest)"},
      {kSo3File, So3Scenario(d), "so3, I = (1, 2, 3), moving ends"},
      {kSo3File, So3Scenario(d), "so3, moving ends, 4 intervals (group continuity rows)", 4},
      {kElroyFile, ElroyScenario(1.5), "Elroy k = 1.5"},
      {kElroyFile, phase, "Elroy geometric phase (transversality rows)"},
      {kCubicFile, LoadScenario(testing::SourcePath(kCubicFile)), "cubic spline BVP"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    SolveOptions o;
    o.nodes = c.nodes;
    const OptimalControlSolution sol = Solve(c.file, c.s, o);
    ASSERT_TRUE(sol.report.converged) << sol.report.message;
    if (c.nodes) EXPECT_EQ(sol.report.nodes, c.nodes);
    EXPECT_LE(sol.report.residual, 1e-10);
    const JacobianCheck at_solution = CheckJacobian(c.file, c.s, sol.report.nodes, &sol.warm_start);
    const JacobianCheck at_guess = CheckJacobian(c.file, c.s, sol.report.nodes, nullptr);
    EXPECT_LT(at_solution.error, 1e-6) << "at the solution: " << at_solution.worst;
    EXPECT_LT(at_guess.error, 1e-6) << "at the initial guess: " << at_guess.worst;
    // The warm start carries the inverse of the Jacobian at the solution (for the quasi-Newton
    // iterations of a re-solve), in the same layout.
    const auto n = static_cast<Eigen::Index>(at_solution.unknowns);
    ASSERT_EQ(sol.warm_start.inverse_jacobian.size(), static_cast<std::size_t>(n * n));
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        H(sol.warm_start.inverse_jacobian.data(), n, n);
    const double inverse_error =
        (H * at_solution.jacobian - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff();
    EXPECT_LT(inverse_error, 1e-6);
    std::printf(
        "[ measured ] %s: %d intervals, %d unknowns, Jacobian vs central differences: "
        "%.2e at the solution, %.2e at the initial guess; |H J - I| = %.2e\n",
        c.label.c_str(), sol.report.nodes, at_solution.unknowns, at_solution.error, at_guess.error,
        inverse_error);
  }
}

TEST(OptimalControl, CubicSplineBvpOnTheShootingMachinery) {
  const Scenario s = LoadScenario(testing::SourcePath(kCubicFile));
  const OptimalControlSolution sol = Solve(kCubicFile, s);
  ExpectOptimum(sol, "cubic spline BVP");
  ASSERT_TRUE(sol.report.converged);
  EXPECT_NEAR(sol.cost, 6.0, 1e-9);
  const Trajectory& tr = sol.trajectory;
  double worst = 0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0);
    worst = std::max(worst, std::abs(tr.at(r, tr.ColumnIndex("x")) - (3 * t * t - 2 * t * t * t)));
  }
  EXPECT_LT(worst, 1e-9);
  testing::ocp::ControlledSystem sys;
  sys.x0 = Vector::Zero(2);
  sys.rate = [](const Vector& x, const Vector& u) { return Vector(Eigen::Vector2d(x(1), u(0))); };
  sys.terminal = [](const Vector& x) { return Vector(Eigen::Vector2d(x(0) - 1, x(1))); };
  ExpectNoCheaperPerturbation(
      sys, SampledControls(tr, {"a"}),
      {[](double t) { return Vector(Vector::Constant(1, std::sin(M_PI * t))); },
       [](double t) { return Vector(Vector::Constant(1, t * t * t)); }},
      {[](double) { return Vector(Vector::Ones(1)); },
       [](double t) { return Vector(Vector::Constant(1, t)); }},
      "perturbations, cubic spline");
}

// ---- 5. warm starts -----------------------------------------------------------------------

TEST(OptimalControl, WarmStartsResolveSmallChangesInAFewIterations) {
  const So3Data base;
  const OptimalControlSolution first = Solve(kSo3File, So3Scenario(base));
  ASSERT_TRUE(first.report.converged);
  // R(T) turned by 5 degrees about an oblique axis.
  So3Data turned = base;
  turned.rT = LogSO3(ExpSO3(base.rT) * ExpSO3(5 * M_PI / 180 * Vec3(1, -2, 2) / 3));
  // I2 up by 10 %.
  So3Data heavier = base;
  heavier.inertia(1) *= 1.1;
  for (const auto& [data, label] : {std::pair{turned, std::string("R(T) + 5 deg")},
                                    std::pair{heavier, std::string("I2 + 10 %")}}) {
    SCOPED_TRACE(label);
    const Scenario s = So3Scenario(data);
    SolveOptions warm;
    warm.warm_start = &first.warm_start;
    const OptimalControlSolution w = Solve(kSo3File, s, warm);
    const OptimalControlSolution cold = Solve(kSo3File, s);
    ExpectOptimum(w, "warm, " + label);
    ExpectOptimum(cold, "cold, " + label);
    EXPECT_TRUE(w.report.warm_started);
    // A small change is re-solved on the stored Jacobian alone: quasi-Newton iterates that
    // integrate the motion without its variational equations, no exact Newton iteration.
    EXPECT_GT(w.report.stored_jacobian_iterations, 0);
    EXPECT_EQ(w.report.iterations, w.report.stored_jacobian_iterations);
    EXPECT_LE(w.report.iterations, 10);
    for (const NewtonIterate& it : w.report.history) EXPECT_TRUE(it.stored_jacobian);
    EXPECT_EQ(w.report.continuation_steps, 0);
    EXPECT_NEAR(w.cost, cold.cost, 1e-9);
    EXPECT_GT(std::abs(w.cost - first.cost), 1e-3) << "the change matters";
    // Its own Jacobian goes on to the next re-solve (Broyden-updated).
    EXPECT_EQ(w.warm_start.inverse_jacobian.size(), first.warm_start.inverse_jacobian.size());
    EXPECT_EQ(w.warm_start.layout, first.warm_start.layout);
    std::printf(
        "[ measured ] warm start after %s: %d iterations on the stored Jacobian (cold: %d "
        "Newton), |cost warm - cold| = %.2e, %.2f ms warm vs %.2f ms cold\n",
        label.c_str(), w.report.iterations, cold.report.iterations, std::abs(w.cost - cold.cost),
        1e3 * w.report.seconds, 1e3 * cold.report.seconds);
  }
}

// A change too large for the stored Jacobian hands over to Newton from the point the
// quasi-Newton iterates reached; a warm start of another layout (other intervals, or a layout
// string that does not match) is not iterated on at all. All reach the cold optimum.
TEST(OptimalControl, StoredJacobianGivesWayToNewton) {
  const So3Data base;
  const OptimalControlSolution first = Solve(kSo3File, So3Scenario(base));
  ASSERT_TRUE(first.report.converged);
  So3Data far = base;
  far.inertia = Vec3(3, 1, 2);
  far.wT = Vec3(0.5, 0.4, -0.3);
  const Scenario s = So3Scenario(far);
  const OptimalControlSolution cold = Solve(kSo3File, s);
  ExpectOptimum(cold, "cold, far");
  SolveOptions warm;
  warm.warm_start = &first.warm_start;
  const OptimalControlSolution w = Solve(kSo3File, s, warm);
  ExpectOptimum(w, "warm, far");
  EXPECT_TRUE(w.report.warm_started);
  EXPECT_GT(w.report.iterations - w.report.stored_jacobian_iterations, 0) << "Newton finished it";
  EXPECT_NEAR(w.cost, cold.cost, 1e-9);
  std::printf(
      "[ measured ] far change: %d quasi-Newton iterations on the stored Jacobian, then %d "
      "Newton; |cost warm - cold| = %.2e\n",
      w.report.stored_jacobian_iterations,
      w.report.iterations - w.report.stored_jacobian_iterations, std::abs(w.cost - cold.cost));

  So3Data near = base;
  near.rT = base.rT + Vec3(0.02, 0.0, -0.01);
  const Scenario sn = So3Scenario(near);
  const OptimalControlSolution near_cold = Solve(kSo3File, sn);
  WarmStart other = first.warm_start;
  other.layout += "; another problem";
  SolveOptions mismatched;
  mismatched.warm_start = &other;
  SolveOptions two_intervals;
  two_intervals.warm_start = &first.warm_start;
  two_intervals.nodes = first.report.nodes + 1;
  for (const SolveOptions* o : {&mismatched, &two_intervals}) {
    const OptimalControlSolution r = Solve(kSo3File, sn, *o);
    ExpectOptimum(r, "another layout");
    EXPECT_TRUE(r.report.warm_started);
    EXPECT_EQ(r.report.stored_jacobian_iterations, 0);
    EXPECT_GT(r.report.iterations, 0);
    EXPECT_NEAR(r.cost, near_cold.cost, 1e-9);
  }
}

// ---- 6. a second derivation: the maximum principle on the first-order system ---------------

// The hand-derived costate equations of ocp_reference.hpp checked symbolically: lambda' =
// -dH/dw with u from dH/du = 0, and mu' from lambda_R' = -dH/dR with mu . v = <lambda_R, R v^>.
TEST(OptimalControl, HandDerivedMaximumPrincipleAgreesWithGiNaC) {
  using namespace GiNaC;
  std::vector<symbol> w, l, I, u, m;
  for (int i = 1; i <= 3; ++i) {
    w.emplace_back("w" + std::to_string(i));
    l.emplace_back("l" + std::to_string(i));
    I.emplace_back("I" + std::to_string(i));
    u.emplace_back("u" + std::to_string(i));
  }
  symbol Rs[3][3], Ls[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Rs[i][j] = symbol("R" + std::to_string(i) + std::to_string(j));
      Ls[i][j] = symbol("L" + std::to_string(i) + std::to_string(j));
    }
  auto hat = [](const std::vector<ex>& v) {
    return matrix(3, 3, lst{0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0});
  };
  const std::vector<ex> wv(w.begin(), w.end());
  const std::vector<ex> Iw = {I[0] * w[0], I[1] * w[1], I[2] * w[2]};
  auto cross = [](const std::vector<ex>& a, const std::vector<ex>& b) {
    return std::vector<ex>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                           a[0] * b[1] - a[1] * b[0]};
  };
  const std::vector<ex> g = cross(Iw, wv);
  matrix R(3, 3), L(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = Rs[i][j], L(i, j) = Ls[i][j];
  const matrix RW = R.mul(hat(wv));
  ex H = 0;
  for (int i = 0; i < 3; ++i) {
    H += u[i] * u[i] / 2 + l[i] * (g[i] + u[i]) / I[i];
    for (int j = 0; j < 3; ++j) H += L(i, j) * RW(i, j);  // <lambda_R, R w^>
  }
  lst controls, equations;
  for (int i = 0; i < 3; ++i) controls.append(u[i]), equations.append(H.diff(u[i]) == 0);
  const ex optimal = lsolve(equations, controls);
  // Random point; mu from lambda_R: mu_k = <L, R E_k>.
  const double values[] = {0.3, -0.7, 1.1, 0.4, 0.9, -0.2, 1.3, 2.1, 0.6};
  exmap at;
  for (int i = 0; i < 3; ++i) {
    at[w[i]] = values[i];
    at[l[i]] = values[3 + i];
    at[I[i]] = values[6 + i];
  }
  const Mat3 R0 = ExpSO3(Vec3(0.4, -0.3, 0.8));
  Mat3 L0;
  L0 << 0.2, -1.0, 0.5, 0.7, 0.1, -0.4, -0.6, 0.3, 0.9;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) at[Rs[i][j]] = R0(i, j), at[Ls[i][j]] = L0(i, j);
  auto number = [&](const ex& e) {
    return ex_to<numeric>(evalf(e.subs(optimal).subs(at))).to_double();
  };
  Vec3 mu, wn, ln, In;
  for (int k = 0; k < 3; ++k) {
    mu(k) = (L0.transpose() * R0 * Hat(Vec3::Unit(k))).trace();
    wn(k) = values[k], ln(k) = values[3 + k], In(k) = values[6 + k];
  }
  const testing::ocp::RigidBodyPmp pmp{In};
  const auto rate = pmp.Rate(testing::ocp::RigidBodyPmp::Pack(R0, wn, mu, ln));
  // u = -I^-1 lambda.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(number(u[i]), -ln(i) / In(i), 1e-14);
  // lambda' = -dH/dw.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(number(-H.diff(w[i])), rate(15 + i), 1e-13);
  // mu_k' = <L', R E_k> + <L, R' E_k>, L' = -dH/dR, R' = R w^.
  Mat3 dL, dR = R0 * Hat(wn);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dL(i, j) = number(-H.diff(Rs[i][j]));
  for (int k = 0; k < 3; ++k) {
    const double dmu = (dL.transpose() * R0 * Hat(Vec3::Unit(k))).trace() +
                       (L0.transpose() * dR * Hat(Vec3::Unit(k))).trace();
    EXPECT_NEAR(dmu, rate(12 + k), 1e-13) << "mu' = mu x w";
  }
}

TEST(OptimalControl, MaximumPrincipleFromTheEngineCostatesReproducesTheSolution) {
  std::vector<So3Data> cases(2);
  cases[1].inertia = Vec3::Ones();
  cases[1].w0 = Vec3(0.3, -0.2, 0.5);
  cases[1].wT = Vec3(0.2, 0.1, -0.4);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string label = c == 0 ? "I = (1, 2, 3)" : "I = 1, moving ends";
    SCOPED_TRACE(label);
    const OptimalControlSolution sol = Solve(kSo3File, So3Scenario(cases[c]));
    ASSERT_TRUE(sol.report.converged);
    const Trajectory& tr = sol.trajectory;
    // The costate map: mu = -p_w, lambda = -pbar_w.
    const testing::ocp::RigidBodyPmp pmp{cases[c].inertia};
    const auto y0 = testing::ocp::RigidBodyPmp::Pack(AttitudeAt(tr, 0), Row3(tr, 0, "w"),
                                                     -Row3(tr, 0, "p_w"), -Row3(tr, 0, "pbar_w"));
    const double h = tr.at(1, 0) - tr.at(0, 0);
    const int per_sample = 8, samples = static_cast<int>(tr.num_rows()) - 1;
    ASSERT_NEAR(samples * h, 2.0, 1e-12);
    double w_error = 0, u_error = 0, costate_error = 0, R_error = 0, H_error = 0, spatial_error = 0;
    pmp.Integrate(y0, samples * h, samples * per_sample, [&](int k, const auto& y) {
      if (k % per_sample) return;
      const std::size_t r = static_cast<std::size_t>(k / per_sample);
      w_error = std::max(w_error, (y.template segment<3>(9) - Row3(tr, r, "w")).norm());
      u_error = std::max(u_error, (pmp.Control(y) - Row3(tr, r, "u")).norm());
      costate_error =
          std::max({costate_error, (y.template segment<3>(12) + Row3(tr, r, "p_w")).norm(),
                    (y.template segment<3>(15) + Row3(tr, r, "pbar_w")).norm()});
      const Mat3 R = testing::ocp::RigidBodyPmp::Attitude(y);
      R_error = std::max(R_error, (R - AttitudeAt(tr, r)).lpNorm<Eigen::Infinity>());
      H_error = std::max(H_error, std::abs(pmp.Hamiltonian(y) + tr.at(r, tr.ColumnIndex("E"))));
      const Vec3 spatial(tr.at(r, tr.ColumnIndex("spatial_momentum_x")),
                         tr.at(r, tr.ColumnIndex("spatial_momentum_y")),
                         tr.at(r, tr.ColumnIndex("spatial_momentum_z")));
      spatial_error = std::max(spatial_error, (R * y.template segment<3>(12) + spatial).norm());
    });
    EXPECT_LT(w_error, 1e-8);
    EXPECT_LT(u_error, 1e-8);
    EXPECT_LT(costate_error, 1e-8) << "p_w = -mu, pbar_w = -lambda";
    EXPECT_LT(R_error, 1e-8);
    EXPECT_LT(H_error, 1e-8) << "E = -H";
    EXPECT_LT(spatial_error, 1e-8) << "spatial_momentum = R p_w = -R mu";
    std::printf(
        "[ measured ] maximum principle from the engine's costates, %s: max |w| error "
        "%.2e, |u| %.2e, costates %.2e, R %.2e, |E + H| %.2e\n",
        label.c_str(), w_error, u_error, costate_error, R_error, H_error);
  }
}

// ---- 7. failures --------------------------------------------------------------------------

TEST(OptimalControl, FailuresAreReportedNotThrown) {
  // One Newton iteration from the zero guess, no continuation.
  {
    Scenario s = So3Scenario(So3Data{});
    s.optimal_control.shooting.max_iterations = 1;
    SolveOptions o;
    o.continuation = false;
    OptimalControlSolution sol;
    EXPECT_NO_THROW(sol = Solve(kSo3File, s, o));
    EXPECT_FALSE(sol.report.converged);
    const std::string& m = sol.report.message;
    EXPECT_NE(m.find("no convergence in 1 iteration"), std::string::npos) << m;
    EXPECT_NE(m.find("(iteration 1"), std::string::npos) << m;
    EXPECT_NE(m.find("best max |F| ="), std::string::npos) << m;
    EXPECT_GT(sol.report.best_residual, 1e-6);
    EXPECT_EQ(sol.report.iterations, 1);
    EXPECT_TRUE(sol.trajectory.empty()) << "nothing half-written";
    EXPECT_FALSE(sol.warm_start.valid());
  }
  // Cancelled from the progress callback, by the flag or by its return value.
  for (const bool by_flag : {true, false}) {
    SCOPED_TRACE(by_flag ? "cancel flag" : "progress returns false");
    std::atomic<bool> cancel{false};
    int calls = 0;
    SolveOptions o;
    o.cancel = &cancel;
    o.progress = [&](const NewtonIterate& it) {
      ++calls;
      EXPECT_EQ(it.iteration, calls);
      if (by_flag) cancel = true;
      return by_flag;
    };
    OptimalControlSolution sol;
    EXPECT_NO_THROW(sol = Solve(kSo3File, So3Scenario(So3Data{}), o));
    EXPECT_FALSE(sol.report.converged);
    EXPECT_EQ(sol.report.message, "cancelled");
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(sol.trajectory.empty());
  }
  // No solution: with v4 = 0 the orientation is tied to the shape (theta = -b psi), so fixing
  // both psi(T) and an inconsistent theta(T) cannot be met.
  {
    Scenario s = ElroyScenario(0.3);
    ApplyOverride(s, "final.theta", 0.5);
    OptimalControlSolution sol;
    EXPECT_NO_THROW(sol = Solve(kElroyFile, s));
    EXPECT_FALSE(sol.report.converged);
    EXPECT_NE(sol.report.message.find("iteration"), std::string::npos) << sol.report.message;
    EXPECT_NE(sol.report.message.find("best max |F|"), std::string::npos) << sol.report.message;
    EXPECT_TRUE(sol.trajectory.empty());
    std::printf("[ measured ] unsolvable Elroy problem: %s\n", sol.report.message.c_str());
  }
}

}  // namespace
}  // namespace dirac
