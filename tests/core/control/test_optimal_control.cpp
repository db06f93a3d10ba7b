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

#include <ginac/ginac.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "canonical_problems.hpp"
#include "control/boundary_conditions.hpp"
#include "control/multiple_shooting.hpp"
#include "dirac/build_model.hpp"
#include "dirac/optimal_control.hpp"
#include "model/explicit_flow.hpp"
#include "ocp_reference.hpp"

namespace dirac {
namespace {

using testing::ocp::ExpSO3;
using testing::ocp::Hat;
using testing::ocp::LogSO3;
using testing::ocp::Mat3;
using testing::ocp::Vec3;
using Vector = Eigen::VectorXd;

// ---- scenarios and models -----------------------------------------------------------------

const char* const kSo3File = "scenarios/so3_spline.yaml";
const char* const kElroyFile = "scenarios/elroys_beanie_ocp.yaml";
const char* const kCubicFile = "scenarios/cubic_spline_bvp.yaml";

// One model per scenario file (the derivation does not depend on parameter values or boundary
// data), built once: GiNaC is slow and single-threaded.
const Model& ModelOf(const char* file) {
  static std::vector<std::pair<std::string, std::shared_ptr<const Model>>> cache;
  for (const auto& [name, model] : cache)
    if (name == file) return *model;
  cache.emplace_back(file, BuildModel(LoadScenario(testing::SourcePath(file))));
  return *cache.back().second;
}

struct So3Data {
  Vec3 inertia = Vec3(1, 2, 3);
  Vec3 rT = Vec3(0.9, -0.5, 0.7);  // R(T) = Exp(rT)
  Vec3 wT = Vec3::Zero();
  Vec3 w0 = Vec3::Zero();
};

Scenario So3Scenario(const So3Data& d) {
  Scenario s = LoadScenario(testing::SourcePath(kSo3File));
  for (int i = 0; i < 3; ++i) {
    const std::string k = std::to_string(i + 1);
    ApplyOverride(s, "I" + k, d.inertia(i));
    ApplyOverride(s, "final.w" + k, d.wT(i));
    ApplyOverride(s, "initial.w" + k, d.w0(i));
    ApplyOverride(s, std::string("final.R.") + "xyz"[i], d.rT(i));
  }
  return s;
}

testing::ocp::RigidBodyProblem So3Problem(const So3Data& d, double horizon) {
  testing::ocp::RigidBodyProblem p;
  p.inertia = d.inertia;
  p.horizon = horizon;
  p.w0 = d.w0;
  p.RT = ExpSO3(d.rT);
  p.wT = d.wT;
  return p;
}

Scenario ElroyScenario(double k) {
  Scenario s = LoadScenario(testing::SourcePath(kElroyFile));
  ApplyOverride(s, "k", k);
  return s;
}

double Param(const Scenario& s, const std::string& name) {
  return s.parameters[*s.FindParameter(name)].value;
}

// The anchor of v1 and the phase ratio b of Elroy's beanie.
double ElroyA(const Scenario& s) {
  const double I1 = Param(s, "I1"), I2 = Param(s, "I2");
  return std::sqrt((I1 + I2) / (I1 * I2));
}
double ElroyB(const Scenario& s) {
  const double I1 = Param(s, "I1"), I2 = Param(s, "I2");
  return I2 / (I1 + I2);
}

OptimalControlSolution Solve(const char* file, const Scenario& s, const SolveOptions& o = {}) {
  return SolveOptimalControl(ModelOf(file), s, o);
}

double MaxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

Mat3 AttitudeAt(const Trajectory& tr, std::size_t r) {
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      R(i, j) = tr.at(r, tr.ColumnIndex("R" + std::to_string(i + 1) + std::to_string(j + 1)));
  return R;
}

Vec3 Row3(const Trajectory& tr, std::size_t r, const std::string& prefix, const char* suffix = "") {
  Vec3 v;
  for (int i = 0; i < 3; ++i)
    v(i) = tr.at(r, tr.ColumnIndex(prefix + std::to_string(i + 1) + suffix));
  return v;
}

// What every optimum must show: converged, boundary residual <= 1e-10, the Pontryagin
// Hamiltonian (column E) constant to 1e-9 along the samples. Returns the drift.
double ExpectOptimum(const OptimalControlSolution& sol, const std::string& label) {
  SCOPED_TRACE(label);
  EXPECT_TRUE(sol.report.converged) << sol.report.message;
  EXPECT_LE(sol.report.residual, 1e-10);
  const Trajectory& tr = sol.trajectory;
  EXPECT_GT(tr.num_rows(), 10u);
  if (tr.num_rows() == 0) return 0.0;
  const std::vector<double> E = tr.Column("E");
  double drift = 0.0;
  for (double e : E) drift = std::max(drift, std::abs(e - E.front()));
  EXPECT_LE(drift, 1e-9) << "Pontryagin Hamiltonian drift";
  EXPECT_NEAR(sol.hamiltonian_drift, drift, 1e-15);
  std::printf(
      "[ measured ] %s: cost %.15g, %d Newton iterations (%d continuation steps), "
      "residual %.2e, H drift %.2e\n",
      label.c_str(), sol.cost, sol.report.iterations, sol.report.continuation_steps,
      sol.report.residual, drift);
  return drift;
}

// ---- sensitivity Jacobian -----------------------------------------------------------------

// max |J - D| / max |J| with D the central differences of F along +-h e_k (Displace), at the
// solution (warm start nodes; the same intervals, so the point is the solution itself) or at
// the initial guess. D uses two step sizes, Richardson-combined: (4 D(h/2) - D(h)) / 3 (their
// difference is printed with the worst entry: the differences are converged).
struct JacobianCheck {
  double error = 0.0;
  std::string worst;  // where the largest difference is
  int unknowns = 0;
  Eigen::MatrixXd jacobian;  // the exact (sensitivity) Jacobian checked
};

JacobianCheck CheckJacobian(const char* file, const Scenario& s, int intervals,
                            const WarmStart* at) {
  const Model& model = ModelOf(file);
  const ExplicitFlow& flow = *model.explicit_flow();
  const SimulationInput input = SimulationInput::FromScenario(s);
  control::MultipleShooting ms(flow,
                               control::ResolveBoundaryProblem(s, flow, model.FlowState(input)),
                               intervals, input.parameters);
  control::ShootingPoint point;
  if (at) {
    EXPECT_TRUE(ms.FromWarmStart(*at, &point));
  } else {
    point = ms.FromInitialGuess();
  }
  Vector F, Fp, Fm;
  Eigen::MatrixXd J;
  std::string failure;
  EXPECT_TRUE(ms.Evaluate(point, F, &J, &failure)) << failure;
  const auto n = static_cast<Eigen::Index>(ms.num_unknowns());
  EXPECT_EQ(J.rows(), n);
  auto central = [&](Eigen::Index k, double h) {
    Vector e = Vector::Zero(n);
    e(k) = h;
    EXPECT_TRUE(ms.Evaluate(ms.Displace(point, e), Fp, nullptr, &failure)) << failure;
    EXPECT_TRUE(ms.Evaluate(ms.Displace(point, -e), Fm, nullptr, &failure)) << failure;
    return Vector((Fp - Fm) / (2 * h));
  };
  const double h = 1e-4;
  JacobianCheck out;
  out.unknowns = static_cast<int>(n);
  out.jacobian = J;
  double worst = -1.0;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Vector Dh = central(k, h), Dh2 = central(k, h / 2);
    const Vector D = (4 * Dh2 - Dh) / 3;
    Eigen::Index row = 0;
    const double e = (D - J.col(k)).cwiseAbs().maxCoeff(&row);
    if (e > worst) {
      worst = e;
      char text[200];
      std::snprintf(text, sizeof text, "unknown %ld, row %ld: J = %.9g, differences %.9g (h: %.9g)",
                    static_cast<long>(k), static_cast<long>(row), J(row, k), D(row), Dh(row));
      out.worst = text;
    }
  }
  out.error = worst / J.lpNorm<Eigen::Infinity>();
  return out;
}

// ---- perturbations ------------------------------------------------------------------------

testing::ocp::SampledControl SampledControls(const Trajectory& tr,
                                             const std::vector<std::string>& names) {
  testing::ocp::SampledControl c;
  const std::vector<double> t = tr.Column("t");
  c.h = t[1] - t[0];
  for (std::size_t r = 0; r < tr.num_rows(); ++r) {
    EXPECT_NEAR(t[r], r * c.h, 1e-12) << "uniform samples";
    Vector u(static_cast<Eigen::Index>(names.size()));
    for (std::size_t i = 0; i < names.size(); ++i)
      u(static_cast<Eigen::Index>(i)) = tr.at(r, tr.ColumnIndex(names[i]));
    c.u.push_back(u);
  }
  return c;
}

// The cost of the optimum against perturbations u + eps phi re-projected onto the boundary
// values (corrections from `corrections`): never lower, and the difference is quadratic in eps
// (a strict minimum along phi). Both costs by the same quadrature of the same re-projection, so
// the sampling error of the nominal control cancels.
void ExpectNoCheaperPerturbation(const testing::ocp::ControlledSystem& system,
                                 const testing::ocp::SampledControl& nominal,
                                 const std::vector<testing::ocp::ControlFunction>& phis,
                                 const std::vector<testing::ocp::ControlFunction>& corrections,
                                 const std::string& label) {
  SCOPED_TRACE(label);
  const auto zero = [&](double) { return Vector(Vector::Zero(nominal.u[0].size())); };
  const testing::ocp::Projection base =
      testing::ocp::ProjectedCost(system, nominal, zero, 0.0, corrections);
  ASSERT_TRUE(base.ok) << "residual " << base.residual;
  double smallest_ratio = 1e300, worst_first = 0.0;
  for (std::size_t p = 0; p < phis.size(); ++p) {
    double dJ[2][2];  // [eps 1e-2, 1e-3][+, -]
    for (int e = 0; e < 2; ++e)
      for (int sign = 0; sign < 2; ++sign) {
        const double eps = (e == 0 ? 1e-2 : 1e-3) * (sign == 0 ? 1 : -1);
        const testing::ocp::Projection r =
            testing::ocp::ProjectedCost(system, nominal, phis[p], eps, corrections);
        ASSERT_TRUE(r.ok) << "phi " << p << ", eps " << eps << ": residual " << r.residual;
        dJ[e][sign] = r.cost - base.cost;
        EXPECT_GT(dJ[e][sign], 0.0) << "phi " << p << ", eps " << eps << " lowers the cost";
      }
    // Second variation J''(0) phi phi from both step sizes agrees (quadratic growth), and the
    // first variation vanishes relative to it.
    const double second_big = (dJ[0][0] + dJ[0][1]) / 1e-4;
    const double second_small = (dJ[1][0] + dJ[1][1]) / 1e-6;
    EXPECT_NEAR(second_small / second_big, 1.0, 1e-2) << "phi " << p;
    // First variation from the odd parts, Richardson-combined (the odd part is g eps + O(eps^3)).
    const double odd_big = (dJ[0][0] - dJ[0][1]) / 2e-2, odd_small = (dJ[1][0] - dJ[1][1]) / 2e-3;
    const double first = (100 * odd_small - odd_big) / 99;
    worst_first = std::max(worst_first, std::abs(first) / second_big);
    smallest_ratio = std::min(smallest_ratio, second_big);
    EXPECT_LT(std::abs(first), 1e-5 * second_big) << "first variation, phi " << p;
  }
  std::printf(
      "[ measured ] %s: smallest second variation %.3g, |first variation| / second <= "
      "%.2e\n",
      label.c_str(), smallest_ratio, worst_first);
}

testing::ocp::ControlledSystem RigidBodySystem(const Vec3& inertia, const Mat3& RT, const Vec3& wT,
                                               const Vec3& w0) {
  testing::ocp::ControlledSystem sys;
  sys.x0 = Vector::Zero(12);
  Eigen::Map<Mat3>(sys.x0.data()) = Mat3::Identity();
  sys.x0.tail<3>() = w0;
  sys.rate = [inertia](const Vector& x, const Vector& u) {
    Vector d(12);
    const Eigen::Map<const Mat3> R(x.data());
    const Vec3 w = x.tail<3>();
    Eigen::Map<Mat3>(d.data()) = R * Hat(w);
    d.tail<3>() = (inertia.cwiseProduct(w).cross(w) + Vec3(u)).cwiseQuotient(inertia);
    return d;
  };
  sys.terminal = [RT, wT](const Vector& x) {
    Vector c(6);
    c.head<3>() = LogSO3(RT.transpose() * Eigen::Map<const Mat3>(x.data()));
    c.tail<3>() = x.tail<3>() - wT;
    return c;
  };
  return sys;
}

void ExpectRigidBodyOptimal(const OptimalControlSolution& sol, const So3Data& d, double T,
                            const std::string& label) {
  const auto sys = RigidBodySystem(d.inertia, ExpSO3(d.rT), d.wT, d.w0);
  std::vector<testing::ocp::ControlFunction> corrections;
  for (int i = 0; i < 3; ++i) {
    corrections.push_back([i](double) { return Vector(Vec3::Unit(i)); });
    corrections.push_back([i, T](double t) { return Vector(Vec3::Unit(i) * (t / T)); });
  }
  const std::vector<testing::ocp::ControlFunction> phis = {
      [T](double t) {
        return Vector(Vec3(std::sin(M_PI * t / T), 0.5 * std::cos(2 * M_PI * t / T), -t * t));
      },
      [T](double t) { return Vector(Vec3(1, -1, 2) * (t / T) * (1 - t / T)); },
      [T](double t) { return Vector(Vec3(0.3, 1, -0.6) * std::sin(3 * M_PI * t / T)); },
  };
  ExpectNoCheaperPerturbation(sys, SampledControls(sol.trajectory, {"u1", "u2", "u3"}), phis,
                              corrections, label);
}

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
