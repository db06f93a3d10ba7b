// Optimal control by multiple shooting (issue 8, "Must show (tests)"): the engine's optima checked
// against closed forms (the single-axis cubic on SO(3), Elroy's shape cubic), against independent
// methods written here (a direct transcription plus the hand-derived maximum principle for the
// rigid body, the reduced shape BVP for Elroy's beanie; tests/core/control/ocp_reference.hpp), and
// for the properties every optimum has: constant Pontryagin Hamiltonian, boundary residual, no
// cheaper perturbation with the same boundary values, exact sensitivities, warm starts, and
// clear failures.
//
// Sign conventions found (derived in ocp_reference.hpp and checked below, numerically and with
// GiNaC):
//  * Riemannian cubic, I = identity: w''' = -w x w'' (= w'' x w); equivalently the spatial vector
//    R w'' is constant. Seed L Example 27 prints this final equation with the right sign, but its
//    intermediate costate equations (p1' = p3 w2 - p2 w3, ..., pbar' = -p, w' = pbar) give
//    w''' = +w x w'': the slip is in those lines (the Lie-Poisson term must be p' = p x w).
//  * The engine's costates are the maximum-form multipliers of the first-order maximum
//    principle: with H = C + mu . w + lambda . f (minimum form, u = -I^-1 lambda),
//      p_w = -mu,  pbar_w = -lambda = I u = dL~/dw',  E = p . w + pbar . w' - L~ = -H,
//    and the engine's spatial_momentum column is R p_w (constant).

#include <gtest/gtest.h>

#include "optimal_control_test_support.hpp"

namespace dirac {
namespace {

using namespace ocp_test;  // NOLINT: the fixtures of this test family

// ---- 1. the single-axis cubic and the Riemannian cubic ------------------------------------

TEST(OptimalControl, SingleAxisRestToRestIsTheCubic) {
  const double theta = 1.2, T = 2.0;
  const Vec3 n = Vec3(1, 2, 2) / 3;
  So3Data d;
  d.inertia = Vec3::Ones();
  d.rT = theta * n;
  const Scenario s = So3Scenario(d);
  ASSERT_EQ(s.optimal_control.horizon, T);
  const OptimalControlSolution sol = Solve(kSo3File, s);
  ExpectOptimum(sol, "single axis, I = 1");
  ASSERT_TRUE(sol.report.converged);
  EXPECT_NEAR(sol.cost, 6 * theta * theta / (T * T * T), 1e-9);
  // phi(t) = theta (3 s^2 - 2 s^3), s = t / T: w = phi' n, u = w' = phi'' n, R = Exp(phi n).
  const Trajectory& tr = sol.trajectory;
  double w_error = 0, u_error = 0, R_error = 0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0), sigma = t / T;
    const double phi = theta * (3 * sigma * sigma - 2 * sigma * sigma * sigma);
    const double dphi = theta * (6 * t / (T * T) - 6 * t * t / (T * T * T));
    const double ddphi = theta * (6 / (T * T) - 12 * t / (T * T * T));
    w_error = std::max(w_error, (Row3(tr, r, "w") - dphi * n).lpNorm<Eigen::Infinity>());
    u_error = std::max(u_error, (Row3(tr, r, "u") - ddphi * n).lpNorm<Eigen::Infinity>());
    R_error = std::max(R_error, (AttitudeAt(tr, r) - ExpSO3(phi * n)).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(w_error, 1e-9);
  EXPECT_LT(u_error, 1e-9);
  EXPECT_LT(R_error, 1e-9);
  std::printf(
      "[ measured ] single-axis cubic: |cost - 6 theta^2/T^3| = %.2e, max |w - cubic'| = "
      "%.2e, |u - cubic''| = %.2e, |R - Exp| = %.2e\n",
      std::abs(sol.cost - 6 * theta * theta / (T * T * T)), w_error, u_error, R_error);
  ExpectRigidBodyOptimal(sol, d, T, "perturbations, single-axis cubic");

  // About a principal axis of an anisotropic body the motion stays single-axis (I w x w = 0):
  // u = I3 phi'', cost I3^2 6 theta^2 / T^3.
  So3Data z;
  z.rT = Vec3(0, 0, 2.0);
  const OptimalControlSolution zs = Solve(kSo3File, So3Scenario(z));
  ExpectOptimum(zs, "principal axis e3, I = (1, 2, 3)");
  EXPECT_NEAR(zs.cost, 9 * 6 * 4.0 / (T * T * T), 1e-9);
}

TEST(OptimalControl, GeneralBoundaryDataGiveTheRiemannianCubic) {
  // I = identity, w(0) != 0, an oblique target, w(T) != 0.
  So3Data d;
  d.inertia = Vec3::Ones();
  d.w0 = Vec3(0.3, -0.2, 0.5);
  d.rT = Vec3(0.9, -0.5, 0.7);
  d.wT = Vec3(0.2, 0.1, -0.4);
  const OptimalControlSolution sol = Solve(kSo3File, So3Scenario(d));
  ExpectOptimum(sol, "Riemannian cubic, general data");
  ASSERT_TRUE(sol.report.converged);
  const Trajectory& tr = sol.trajectory;
  const std::size_t N = tr.num_rows();
  EXPECT_LT((Row3(tr, 0, "w") - d.w0).norm(), 1e-12);
  EXPECT_LT((Row3(tr, N - 1, "w") - d.wT).norm(), 1e-9);
  EXPECT_LT(LogSO3(ExpSO3(d.rT).transpose() * AttitudeAt(tr, N - 1)).norm(), 1e-9);

  // Finite differences on the samples (5-point stencils on neighbouring samples, H = 0.01):
  // w' from w against the a_w columns, then w'' and w''' from a_w; residual of w''' = -w x w''
  // and of the opposite sign. (Truncation ~ H^4 |w^(5)| / 30: about 1e-8 here; it grows as H^4
  // with a wider spacing.)
  const double H = tr.at(1, 0) - tr.at(0, 0);
  const std::size_t S = 1;
  double aw_error = 0, residual = 0, wrong_sign = 0, scale = 0, conservation = 0;
  for (std::size_t r = 2 * S; r + 2 * S < N; ++r) {
    auto d1 = [&](const std::string& prefix) {
      return Vec3((Row3(tr, r - 2 * S, prefix) - 8 * Row3(tr, r - S, prefix) +
                   8 * Row3(tr, r + S, prefix) - Row3(tr, r + 2 * S, prefix)) /
                  (12 * H));
    };
    const Vec3 a = Row3(tr, r, "a_w");
    const Vec3 w = Row3(tr, r, "w");
    aw_error = std::max(aw_error, (d1("w") - a).lpNorm<Eigen::Infinity>());
    const Vec3 w2 = d1("a_w");
    const Vec3 w3 = (-Row3(tr, r - 2 * S, "a_w") + 16 * Row3(tr, r - S, "a_w") - 30 * a +
                     16 * Row3(tr, r + S, "a_w") - Row3(tr, r + 2 * S, "a_w")) /
                    (12 * H * H);
    residual = std::max(residual, (w3 + w.cross(w2)).lpNorm<Eigen::Infinity>());
    wrong_sign = std::max(wrong_sign, (w3 - w.cross(w2)).lpNorm<Eigen::Infinity>());
    scale = std::max(scale, w3.lpNorm<Eigen::Infinity>());
  }
  // The first integral: R w'' constant (w'' from the engine's rate column a_w_dot).
  const Vec3 spatial0 = AttitudeAt(tr, 0) * Row3(tr, 0, "a_w", "_dot");
  for (std::size_t r = 0; r < N; ++r)
    conservation = std::max(
        conservation,
        (AttitudeAt(tr, r) * Row3(tr, r, "a_w", "_dot") - spatial0).lpNorm<Eigen::Infinity>());
  EXPECT_LT(aw_error, 1e-8) << "a_w is w'";
  EXPECT_LT(residual, 1e-6 * scale) << "w''' = -w x w''";
  EXPECT_GT(wrong_sign, 0.1 * scale) << "the data discriminate the sign";
  EXPECT_LT(conservation, 1e-9) << "R w'' is constant";
  std::printf(
      "[ measured ] Riemannian cubic: max |w''' + w x w''| = %.2e (scale |w'''| %.3g, "
      "opposite sign %.3g), max |R w'' - R0 w''(0)| = %.2e, |w' - a_w| = %.2e\n",
      residual, scale, wrong_sign, conservation, aw_error);
  ExpectRigidBodyOptimal(sol, d, 2.0, "perturbations, Riemannian cubic");
}

// ---- 2. cold starts against independent methods -------------------------------------------

TEST(OptimalControl, ColdStartsReachTheOptimumOfIndependentMethods) {
  std::vector<So3Data> cases(3);
  cases[0].rT = Vec3(0.9, -0.5, 0.7);  // the scenario's data, |rT| = 1.25 rad
  cases[1].rT = Vec3(1.2, -1.0, 1.1);  // 1.91 rad
  cases[2].rT = Vec3(-1.4, 1.4, 0.2);  // 1.99 rad, moving at both ends
  cases[2].wT = Vec3(0.5, 0.0, -0.3);
  cases[2].w0 = Vec3(0.0, 0.4, 0.0);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string label = "so3 cold start, case " + std::to_string(c + 1);
    SCOPED_TRACE(label);
    ASSERT_LE(cases[c].rT.norm(), 2.0);
    const Scenario s = So3Scenario(cases[c]);
    SolveOptions options;
    ASSERT_FALSE(options.warm_start);
    const OptimalControlSolution sol = Solve(kSo3File, s, options);
    ExpectOptimum(sol, label);
    ASSERT_TRUE(sol.report.converged) << sol.report.message;
    const testing::ocp::RigidBodyReference ref =
        testing::ocp::SolveRigidBody(So3Problem(cases[c], s.optimal_control.horizon));
    ASSERT_TRUE(ref.converged) << ref.message;
    EXPECT_LT(ref.cost_error, 1e-9) << "reference discretisation";
    EXPECT_NEAR(sol.cost, ref.cost, 1e-7);
    // The direct transcription alone (from u = 0) finds the same optimum: Richardson in h^2 from
    // 24 and 48 intervals.
    EXPECT_NEAR(ref.direct_extrapolated, ref.cost, 1e-5 * ref.cost);
    std::printf(
        "[ measured ] %s: engine %.12f, maximum principle %.12f (|diff| %.2e, "
        "discretisation %.1e), direct transcription (%d/%d intervals, %d iterations from u = 0) "
        "%.6f/%.6f, extrapolated %.9f\n",
        label.c_str(), sol.cost, ref.cost, std::abs(sol.cost - ref.cost), ref.cost_error,
        ref.direct_intervals, 2 * ref.direct_intervals, ref.direct_iterations, ref.direct_cost,
        ref.direct_cost_fine, ref.direct_extrapolated);
    if (c == 0) ExpectRigidBodyOptimal(sol, cases[c], 2.0, "perturbations, I = (1, 2, 3)");
  }
}

// ---- 3. Elroy's beanie --------------------------------------------------------------------

testing::ocp::ControlledSystem ShapeSystem(double a, double k, double psiT) {
  testing::ocp::ControlledSystem sys;
  sys.x0 = Vector::Zero(2);
  sys.rate = [a, k](const Vector& x, const Vector& u) {
    return Vector(Eigen::Vector2d(a * x(1), u(0) - a * k * std::sin(x(0))));
  };
  sys.terminal = [psiT](const Vector& x) { return Vector(Eigen::Vector2d(x(0) - psiT, x(1))); };
  return sys;
}

void ExpectShapeOptimal(const OptimalControlSolution& sol, double a, double k, double psiT,
                        double T, const std::string& label) {
  const std::vector<testing::ocp::ControlFunction> corrections = {
      [](double) { return Vector(Vector::Ones(1)); },
      [T](double t) { return Vector(Vector::Constant(1, t / T)); }};
  const std::vector<testing::ocp::ControlFunction> phis = {
      [T](double t) { return Vector(Vector::Constant(1, std::sin(M_PI * t / T))); },
      [T](double t) { return Vector(Vector::Constant(1, std::cos(3 * M_PI * t / T))); },
      [T](double t) { return Vector(Vector::Constant(1, t * t / (T * T))); }};
  ExpectNoCheaperPerturbation(ShapeSystem(a, k, psiT), SampledControls(sol.trajectory, {"u"}), phis,
                              corrections, label);
}

// v2, v3, v4 vanish along the motion (the invariant set of the reduction).
double MaxFibreOffShape(const Trajectory& tr) {
  double m = 0.0;
  for (const char* name : {"v2", "v3", "v4"})
    for (double v : tr.Column(name)) m = std::max(m, std::abs(v));
  return m;
}

TEST(OptimalControl, ElroyWithoutPotentialIsTheShapeCubic) {
  const Scenario s = ElroyScenario(0.0);
  const double a = ElroyA(s), T = s.optimal_control.horizon, D = 1.2;
  ASSERT_EQ(CurrentValue(s, "final.psi"), D);
  const OptimalControlSolution sol = Solve(kElroyFile, s);
  ExpectOptimum(sol, "Elroy, k = 0");
  ASSERT_TRUE(sol.report.converged);
  // psi = D (3 s^2 - 2 s^3), v1 = psi' / a, u = v1' = psi'' / a: cost 6 D^2 / (a^2 T^3).
  EXPECT_NEAR(sol.cost, 6 * D * D / (a * a * T * T * T), 1e-9);
  const Trajectory& tr = sol.trajectory;
  double psi_error = 0, v1_error = 0;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    const double t = tr.at(r, 0), sigma = t / T;
    psi_error = std::max(psi_error, std::abs(tr.at(r, tr.ColumnIndex("psi")) -
                                             D * (3 * sigma * sigma - 2 * sigma * sigma * sigma)));
    v1_error = std::max(v1_error, std::abs(tr.at(r, tr.ColumnIndex("v1")) -
                                           D * (6 * t / (T * T) - 6 * t * t / (T * T * T)) / a));
  }
  EXPECT_LT(psi_error, 1e-9);
  EXPECT_LT(v1_error, 1e-9);
  EXPECT_LT(MaxFibreOffShape(tr), 1e-12);
  std::printf(
      "[ measured ] Elroy k = 0: |cost - 6 D^2/(a^2 T^3)| = %.2e, |psi - cubic| = %.2e, "
      "|v1 - cubic'/a| = %.2e\n",
      std::abs(sol.cost - 6 * D * D / (a * a * T * T * T)), psi_error, v1_error);
  ExpectShapeOptimal(sol, a, 0.0, D, T, "perturbations, Elroy k = 0");
}

TEST(OptimalControl, ElroyWithPotentialMatchesTheShapeBvp) {
  for (double k : {0.3, 1.5}) {
    const std::string label = "Elroy, k = " + std::to_string(k);
    SCOPED_TRACE(label);
    const Scenario s = ElroyScenario(k);
    const OptimalControlSolution sol = Solve(kElroyFile, s);
    ExpectOptimum(sol, label);
    ASSERT_TRUE(sol.report.converged) << sol.report.message;
    EXPECT_LT(MaxFibreOffShape(sol.trajectory), 1e-12);
    testing::ocp::ShapeProblem P;
    P.a = ElroyA(s);
    P.k = k;
    P.horizon = s.optimal_control.horizon;
    P.psiT = *CurrentValue(s, "final.psi");
    const testing::ocp::ShapeReference ref = testing::ocp::SolveShape(P);
    ASSERT_TRUE(ref.converged);
    EXPECT_LT(ref.cost_error, 1e-9);
    EXPECT_NEAR(sol.cost, ref.cost, 1e-7);
    std::printf("[ measured ] %s: engine %.12f, shape BVP %.12f (|diff| %.2e)\n", label.c_str(),
                sol.cost, ref.cost, std::abs(sol.cost - ref.cost));
    ExpectShapeOptimal(sol, P.a, k, P.psiT, P.horizon, "perturbations, " + label);
  }
}

TEST(OptimalControl, ElroyReachesAnOrientationByTheGeometricPhase) {
  Scenario s = ElroyScenario(0.3);
  const double theta_T = 0.3;
  ApplyOverride(s, "final.theta", theta_T);
  ApplyOverride(s, "final.psi=free");
  ASSERT_FALSE(CurrentValue(s, "final.psi").has_value());
  const OptimalControlSolution sol = Solve(kElroyFile, s);
  ExpectOptimum(sol, "Elroy, geometric phase");
  ASSERT_TRUE(sol.report.converged) << sol.report.message;
  const Trajectory& tr = sol.trajectory;
  const double b = ElroyB(s);
  const std::vector<double> theta = tr.Column("theta"), psi = tr.Column("psi");
  EXPECT_NEAR(theta.back(), theta_T, 1e-10);
  double v4 = 0, phase = 0;
  for (double v : tr.Column("v4")) v4 = std::max(v4, std::abs(v));
  for (std::size_t r = 0; r < tr.num_rows(); ++r)
    phase = std::max(phase, std::abs(theta[r] + b * psi[r]));
  EXPECT_LT(v4, 1e-12) << "zero total angular momentum";
  EXPECT_LT(phase, 1e-10) << "theta = -b psi";
  EXPECT_LT(MaxFibreOffShape(tr), 1e-12);
  // With theta = -b psi the problem is the shape problem to psi(T) = -theta(T) / b.
  testing::ocp::ShapeProblem P;
  P.a = ElroyA(s);
  P.k = 0.3;
  P.horizon = s.optimal_control.horizon;
  P.psiT = -theta_T / b;
  const testing::ocp::ShapeReference ref = testing::ocp::SolveShape(P);
  ASSERT_TRUE(ref.converged);
  EXPECT_NEAR(sol.cost, ref.cost, 1e-7);
  std::printf(
      "[ measured ] Elroy geometric phase: |theta(T) - %.1f| = %.2e, max |v4| = %.1e, "
      "max |theta + b psi| = %.2e, |cost - shape BVP| = %.2e\n",
      theta_T, std::abs(theta.back() - theta_T), v4, phase, std::abs(sol.cost - ref.cost));
  // Perturbations of the rotor torque keeping theta(T) (so psi(T)) and v1(T).
  ExpectShapeOptimal(sol, P.a, P.k, P.psiT, P.horizon, "perturbations, geometric phase");
}

}  // namespace
}  // namespace dirac
