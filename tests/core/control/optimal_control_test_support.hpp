// Shared fixtures of the optimal-control tests (test_optimal_control.cpp: the cubics, cold starts
// and Elroy's beanie; test_optimal_control_properties.cpp: sensitivities, warm starts, the
// maximum principle, failures): the scenarios and their models (derived once per file), the
// sensitivity-Jacobian check against central differences, and the perturbation test of an optimum.
#pragma once

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

namespace dirac::ocp_test {

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
inline const Model& ModelOf(const char* file) {
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

inline Scenario So3Scenario(const So3Data& d) {
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

inline testing::ocp::RigidBodyProblem So3Problem(const So3Data& d, double horizon) {
  testing::ocp::RigidBodyProblem p;
  p.inertia = d.inertia;
  p.horizon = horizon;
  p.w0 = d.w0;
  p.RT = ExpSO3(d.rT);
  p.wT = d.wT;
  return p;
}

inline Scenario ElroyScenario(double k) {
  Scenario s = LoadScenario(testing::SourcePath(kElroyFile));
  ApplyOverride(s, "k", k);
  return s;
}

inline double Param(const Scenario& s, const std::string& name) {
  return s.parameters[*s.FindParameter(name)].value;
}

// The anchor of v1 and the phase ratio b of Elroy's beanie.
inline double ElroyA(const Scenario& s) {
  const double I1 = Param(s, "I1"), I2 = Param(s, "I2");
  return std::sqrt((I1 + I2) / (I1 * I2));
}
inline double ElroyB(const Scenario& s) {
  const double I1 = Param(s, "I1"), I2 = Param(s, "I2");
  return I2 / (I1 + I2);
}

inline OptimalControlSolution Solve(const char* file, const Scenario& s,
                                    const SolveOptions& o = {}) {
  return SolveOptimalControl(ModelOf(file), s, o);
}

inline double MaxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

inline Mat3 AttitudeAt(const Trajectory& tr, std::size_t r) {
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      R(i, j) = tr.at(r, tr.ColumnIndex("R" + std::to_string(i + 1) + std::to_string(j + 1)));
  return R;
}

inline Vec3 Row3(const Trajectory& tr, std::size_t r, const std::string& prefix,
                 const char* suffix = "") {
  Vec3 v;
  for (int i = 0; i < 3; ++i)
    v(i) = tr.at(r, tr.ColumnIndex(prefix + std::to_string(i + 1) + suffix));
  return v;
}

// What every optimum must show: converged, boundary residual <= 1e-10, the Pontryagin
// Hamiltonian (column E) constant to 1e-9 along the samples. Returns the drift.
inline double ExpectOptimum(const OptimalControlSolution& sol, const std::string& label) {
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

inline JacobianCheck CheckJacobian(const char* file, const Scenario& s, int intervals,
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

inline testing::ocp::SampledControl SampledControls(const Trajectory& tr,
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
inline void ExpectNoCheaperPerturbation(
    const testing::ocp::ControlledSystem& system, const testing::ocp::SampledControl& nominal,
    const std::vector<testing::ocp::ControlFunction>& phis,
    const std::vector<testing::ocp::ControlFunction>& corrections, const std::string& label) {
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

inline testing::ocp::ControlledSystem RigidBodySystem(const Vec3& inertia, const Mat3& RT,
                                                      const Vec3& wT, const Vec3& w0) {
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

inline void ExpectRigidBodyOptimal(const OptimalControlSolution& sol, const So3Data& d, double T,
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

}  // namespace dirac::ocp_test
