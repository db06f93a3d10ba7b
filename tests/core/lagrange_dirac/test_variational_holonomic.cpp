// method: variational with holonomic constraints f(q) = 0 (RATTLE; lagrange_dirac/README.md,
// "The variational integrator"): planar pendulums written as point masses on rods in Cartesian
// coordinates against the same pendulums in angles (tight CVODES): f and its differential held
// at every node, measured orders 2 and 4, the multiplier as the rod's tension, energy bounded
// without drift over long runs (a chaotic double pendulum too), and the discrete flow symplectic
// on T*N from its exact Jacobians.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/families.hpp"
#include "dirac/integrators.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "lagrange_dirac/variational_step.hpp"
#include "scenario/initial_state.hpp"

namespace dirac {
namespace {

constexpr double kG = 9.81;

// A planar chain of `links` unit point masses on unit rods in Cartesian coordinates (bob k at
// (xk, yk), y up), rod k holding |bob k - bob k-1| = 1: the pendulum_chain family's system
// (m = l = 1) with 2 `links` coordinates more and `links` holonomic constraints. The state is
// given from the angles th (from the downward vertical) and their rates w, every coordinate and
// velocity to the last digit.
Scenario CartesianChain(const std::vector<double>& th, const std::vector<double>& w) {
  const std::size_t links = th.size();
  std::string coordinates, lagrangian, holonomic;
  double x = 0.0, y = 0.0, vx = 0.0, vy = 0.0;
  char line[256];
  for (std::size_t k = 1; k <= links; ++k) {
    x += std::sin(th[k - 1]);
    y -= std::cos(th[k - 1]);
    vx += std::cos(th[k - 1]) * w[k - 1];
    vy += std::sin(th[k - 1]) * w[k - 1];
    const std::string i = std::to_string(k), prev = std::to_string(k - 1);
    std::snprintf(line, sizeof line,
                  "  - {name: x%s, velocity: vx%s, initial: %.17g, initial_velocity: %.17g}\n"
                  "  - {name: y%s, velocity: vy%s, initial: %.17g, initial_velocity: %.17g}\n",
                  i.c_str(), i.c_str(), x, vx, i.c_str(), i.c_str(), y, vy);
    coordinates += line;
    lagrangian += (k > 1 ? " + " : "") + ("(vx" + i + "^2 + vy" + i + "^2)/2 - g*y" + i);
    holonomic += "  - {name: rod" + i + ", equation: \"" +
                 (k == 1 ? "x1^2 + y1^2 - 1"
                         : "(x" + i + " - x" + prev + ")^2 + (y" + i + " - y" + prev + ")^2 - 1") +
                 "\"}\n";
  }
  return ParseScenario("name: cartesian chain\ncoordinates:\n" + coordinates +
                           "parameters:\n  - {name: g, default: 9.81}\n"
                           "lagrangian: \"" +
                           lagrangian + "\"\nholonomic:\n" + holonomic +
                           "simulation: {t_end: 1, output_step: 0.1, rtol: 1e-12, atol: 1e-14}\n",
                       "cartesian_chain.yaml");
}

// The same chain in absolute angles: the family for two links and more, by hand for one.
Scenario AngleChain(const std::vector<double>& th, const std::vector<double>& w) {
  Scenario s =
      th.size() == 1
          ? ParseScenario(
                "name: angle pendulum\ncoordinates:\n"
                "  - {name: th1, velocity: vth1}\n"
                "parameters:\n  - {name: g, default: 9.81}\n"
                "lagrangian: \"vth1^2/2 + g*cos(th1)\"\n",
                "angle.yaml")
          : ParseScenario(GenerateFamilyScenario("pendulum_chain", static_cast<int>(th.size())),
                          "pendulum_chain");
  for (std::size_t k = 0; k < th.size(); ++k) {
    s.coordinates[k].initial = th[k];
    s.coordinates[k].initial_velocity = w[k];
  }
  return s;
}

Trajectory RunCase(Scenario s, const std::vector<std::string>& sets,
                   SimulationReport* report = nullptr) {
  ApplyOverrides(s, sets);
  return BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, report);
}

double MaxAbs(const std::vector<double>& values) {
  double worst = 0.0;
  for (double v : values) worst = std::max(worst, std::abs(v));
  return worst;
}

// max over the bobs of |Cartesian state - the angle chain's mapped state| in the last row.
double FinalError(const Trajectory& cartesian, const Trajectory& angles, std::size_t links) {
  double x = 0.0, y = 0.0, vx = 0.0, vy = 0.0, worst = 0.0;
  for (std::size_t k = 1; k <= links; ++k) {
    const std::string i = std::to_string(k);
    const double th = angles.Column("th" + i).back(), w = angles.Column("vth" + i).back();
    x += std::sin(th);
    y -= std::cos(th);
    vx += std::cos(th) * w;
    vy += std::sin(th) * w;
    worst = std::max({worst, std::abs(cartesian.Column("x" + i).back() - x),
                      std::abs(cartesian.Column("y" + i).back() - y),
                      std::abs(cartesian.Column("vx" + i).back() - vx),
                      std::abs(cartesian.Column("vy" + i).back() - vy)});
  }
  return worst;
}

// Errors at T = 1 for steps h0, h0/2, h0/4 against the angle chain (Adams, rtol = atol = 1e-13);
// returns the order measured on the last halving.
double MeasuredOrder(const std::vector<double>& th, const std::vector<double>& w, int order,
                     double h0) {
  const Trajectory reference =
      RunCase(AngleChain(th, w),
              {"t_end=1", "output_step=0.1", "method=adams", "rtol=1e-13", "atol=1e-13"});
  double errors[3];
  for (int k = 0; k < 3; ++k) {
    char step[64];
    std::snprintf(step, sizeof step, "step=%.17g", h0 / std::pow(2.0, k));
    SimulationReport report;
    const Trajectory tr =
        RunCase(CartesianChain(th, w),
                {"method=variational", "order=" + std::to_string(order), step}, &report);
    errors[k] = FinalError(tr, reference, th.size());
    EXPECT_NE(report.method.find("RATTLE"), std::string::npos) << report.method;
    for (std::size_t i = 1; i <= th.size(); ++i) {
      EXPECT_LT(MaxAbs(tr.Column("position_residual_rod" + std::to_string(i))), 1e-12);
      EXPECT_LT(MaxAbs(tr.Column("residual_rod" + std::to_string(i))), 1e-12);
    }
  }
  const double measured = std::log2(errors[1] / errors[2]);
  std::printf(
      "[variational RATTLE %zu-link, order %d] h0 = %g: errors %.3e, %.3e, %.3e; "
      "orders %.3f, %.3f\n",
      th.size(), order, h0, errors[0], errors[1], errors[2], std::log2(errors[0] / errors[1]),
      measured);
  return measured;
}

TEST(VariationalHolonomic, PendulumOnARodIsSecondOrder) {
  EXPECT_NEAR(MeasuredOrder({1.2}, {0.4}, 2, 0.02), 2.0, 0.05);
}

TEST(VariationalHolonomic, PendulumOnARodIsFourthOrderWithTheTripleJump) {
  EXPECT_NEAR(MeasuredOrder({1.2}, {0.4}, 4, 0.05), 4.0, 0.1);
}

TEST(VariationalHolonomic, CartesianDoublePendulumIsSecondAndFourthOrder) {
  EXPECT_NEAR(MeasuredOrder({1.0, 0.5}, {0.3, -0.7}, 2, 0.02), 2.0, 0.05);
  EXPECT_NEAR(MeasuredOrder({1.0, 0.5}, {0.3, -0.7}, 4, 0.05), 4.0, 0.1);
}

// The worst |E - E0|/|E0| over the first and the second half of a run.
std::pair<double, double> EnergyHalves(const Trajectory& tr) {
  const auto e = tr.Column("E");
  const std::size_t half = e.size() / 2;
  double first = 0.0, second = 0.0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double error = std::abs(e[i] - e.front()) / std::abs(e.front());
    (i < half ? first : second) = std::max(i < half ? first : second, error);
  }
  return {first, second};
}

// A large swing (th0 = 2.5, over the horizontal), 2 000 s at h = 0.01 (2e5 steps): f and its
// differential held at every sample, the energy bounded without drift, the multiplier the rod's
// tension.
TEST(VariationalHolonomic, PendulumOnARodKeepsItsRodAndEnergyOverALongRun) {
  SimulationReport report;
  const Trajectory tr =
      RunCase(CartesianChain({2.5}, {0.0}),
              {"t_end=2000", "output_step=0.1", "method=variational", "step=0.01"}, &report);
  ASSERT_EQ(tr.num_rows(), 20001u);
  const double f = MaxAbs(tr.Column("position_residual_rod1"));
  const double g = MaxAbs(tr.Column("residual_rod1"));
  const auto [first, second] = EnergyHalves(tr);
  // The rod's tension: with f = x^2 + y^2 - 1 the force along the rod is 2 mu (x, y), so
  // -2 mu = g cos(th) + w^2 = -g y + (vx^2 + vy^2).
  const auto x = tr.Column("x1"), y = tr.Column("y1"), vx = tr.Column("vx1"), vy = tr.Column("vy1");
  const auto mu = tr.Column("mu_rod1");
  double tension = 0.0;
  for (std::size_t r = 0; r < mu.size(); ++r)
    tension =
        std::max(tension, std::abs(-2 * mu[r] - (-kG * y[r] + vx[r] * vx[r] + vy[r] * vy[r])));
  std::printf(
      "[variational RATTLE pendulum, 2000 s] max |f| = %.3e, max |df v| = %.3e, "
      "max |E - E0|/|E0|: first half %.3e, second %.3e; tension error %.3e; %s\n",
      f, g, first, second, tension, report.method.c_str());
  EXPECT_LT(f, 1e-12);
  EXPECT_LT(g, 1e-12);
  EXPECT_GT(first, 0.0);
  EXPECT_LT(first, 2e-3);  // measured 1.05e-3 in both halves: the O(h^2) oscillation, no drift
  EXPECT_LE(second, 2.0 * first);
  EXPECT_LT(tension, 1e-9);
  EXPECT_EQ(report.projections, 0);
  // It swings over the horizontal: not small oscillations.
  EXPECT_GT(*std::max_element(y.begin(), y.end()), 0.5);
}

// A chaotic double pendulum in Cartesian coordinates (released from high up), 200 s at h = 0.01.
TEST(VariationalHolonomic, ChaoticCartesianDoublePendulumKeepsRodsAndEnergyBounded) {
  SimulationReport report;
  const Trajectory tr =
      RunCase(CartesianChain({2.0, 2.8}, {0.0, 0.0}),
              {"t_end=200", "output_step=0.1", "method=variational", "step=0.01"}, &report);
  double f = 0.0, g = 0.0;
  for (const char* rod : {"rod1", "rod2"}) {
    f = std::max(f, MaxAbs(tr.Column(std::string("position_residual_") + rod)));
    g = std::max(g, MaxAbs(tr.Column(std::string("residual_") + rod)));
  }
  const auto [first, second] = EnergyHalves(tr);
  std::printf(
      "[variational RATTLE double pendulum, 200 s] max |f| = %.3e, max |df v| = %.3e, "
      "max |E - E0|/|E0|: first half %.3e, second %.3e\n",
      f, g, first, second);
  EXPECT_LT(f, 1e-12);
  EXPECT_LT(g, 1e-11);
  EXPECT_GT(first, 0.0);
  EXPECT_LT(first, 5e-2);  // measured 1.6e-2 (second half 1.5e-2): the links whip round
  EXPECT_LE(second, 2.0 * first);
}

// RATTLE is symplectic on T*N: over 200 steps the discrete flow keeps Omega_L on a basis of the
// tangent space of TN = {f = 0, df v = 0} to round-off (from the step's exact Jacobians, the
// discrete gauge two-form of the constraint forces vanishes there, as B_T does for holonomic
// constraints), while on tangent vectors leaving TN it does not.
TEST(VariationalHolonomic, DiscreteFlowIsSymplecticOnTheConstraintManifold) {
  const Scenario s = CartesianChain({1.0, 0.5}, {0.3, -0.7});
  const auto system = LagrangeDiracSystem::Derive(scenario::WithHolonomicDifferentials(s));
  const SimulationInput input = SimulationInput::FromScenario(s);
  std::vector<double> x0 = input.q0;
  x0.insert(x0.end(), input.v0.begin(), input.v0.end());
  // The constraints' Jacobian in (q, v): rows df (dq) and d(df v) = (v^T d2f, df).
  const double x1 = x0[0], y1 = x0[1], x2 = x0[2], y2 = x0[3];
  const double vx1 = x0[4], vy1 = x0[5], vx2 = x0[6], vy2 = x0[7];
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(4, 8);
  C.row(0) << 2 * x1, 2 * y1, 0, 0, 0, 0, 0, 0;
  C.row(1) << -2 * (x2 - x1), -2 * (y2 - y1), 2 * (x2 - x1), 2 * (y2 - y1), 0, 0, 0, 0;
  C.row(2) << 2 * vx1, 2 * vy1, 0, 0, 2 * x1, 2 * y1, 0, 0;
  C.row(3) << -2 * (vx2 - vx1), -2 * (vy2 - vy1), 2 * (vx2 - vx1), 2 * (vy2 - vy1), -2 * (x2 - x1),
      -2 * (y2 - y1), 2 * (x2 - x1), 2 * (y2 - y1);
  ASSERT_LT((C.topLeftCorner(2, 4) * Eigen::Map<const Eigen::VectorXd>(x0.data() + 4, 4))
                .cwiseAbs()
                .maxCoeff(),
            1e-12);
  const Eigen::MatrixXd kernel = C.fullPivLu().kernel();
  ASSERT_EQ(kernel.cols(), 4);
  const Eigen::MatrixXd tangent = Eigen::HouseholderQR<Eigen::MatrixXd>(kernel).householderQ() *
                                  Eigen::MatrixXd::Identity(8, 4);
  for (const int order : {2, 4}) {
    lagrange_dirac::VariationalIntegrator integrator(CompiledDaeOf(*system), input.parameters, 0.02,
                                                     order, 0.0, x0);
    const auto gauge = integrator.AdvanceWithGauge(4.0, tangent);
    const double defect = gauge.omega_change.cwiseAbs().maxCoeff();
    const double accumulated = gauge.accumulated.cwiseAbs().maxCoeff();
    // The map is far from the identity there, and from symplectic off TN: a normal direction
    // (the gradient of rod 1 in q) added to the basis breaks the identity at O(1).
    Eigen::MatrixXd with_normal(8, 5);
    with_normal << tangent, C.row(0).transpose().normalized();
    lagrange_dirac::VariationalIntegrator off(CompiledDaeOf(*system), input.parameters, 0.02, order,
                                              0.0, x0);
    const double off_defect =
        off.AdvanceWithGauge(4.0, with_normal).omega_change.cwiseAbs().maxCoeff();
    std::printf(
        "[variational RATTLE symplecticity, order %d] on T(TN): max |change of Omega_L| "
        "= %.3e, accumulated d beta_d = %.3e; with a normal direction: %.3e\n",
        order, defect, accumulated, off_defect);
    EXPECT_LT(defect, 1e-11);
    EXPECT_LT(accumulated, 1e-11);
    EXPECT_GT(off_defect, 1e-3);
  }
}

// Both kinds at once: the Whipple bicycle (four rolling forms, the front contact height a holonomic
// constraint solved for the pitch), 1 s at 5 m/s against CVODES at rtol = atol = 1e-12: every
// constraint, and the contact height, held at every sample; order 2.
TEST(VariationalHolonomic, WhippleBicycleWithRollingAndHolonomicConstraintsIsSecondOrder) {
  const Scenario s =
      LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml");
  const std::vector<std::string> common = {"t_end=1", "output_step=0.1"};
  std::vector<std::string> sets = common;
  sets.insert(sets.end(), {"method=adams", "rtol=1e-12", "atol=1e-12"});
  const Trajectory reference = RunCase(s, sets);
  double errors[3], residual = 0.0;
  std::string method;
  for (int k = 0; k < 3; ++k) {
    sets = common;
    char step[64];
    std::snprintf(step, sizeof step, "step=%.17g", 0.02 / std::pow(2.0, k));
    sets.insert(sets.end(), {"method=variational", step});
    SimulationReport report;
    const Trajectory tr = RunCase(s, sets, &report);
    method = report.method;
    errors[k] = 0.0;
    for (const auto& c : s.coordinates)
      for (const std::string& name : {c.name, c.velocity})
        errors[k] =
            std::max(errors[k], std::abs(tr.Column(name).back() - reference.Column(name).back()));
    for (const std::string& name : tr.columns())
      if (name.rfind("residual_", 0) == 0 || name.rfind("position_residual_", 0) == 0)
        residual = std::max(residual, MaxAbs(tr.Column(name)));
  }
  const double order = std::log2(errors[1] / errors[2]);
  std::printf(
      "[variational bicycle] errors at h = 0.02, 0.01, 0.005: %.3e, %.3e, %.3e; order "
      "%.3f; max constraint residual %.3e; %s\n",
      errors[0], errors[1], errors[2], order, residual, method.c_str());
  EXPECT_NE(method.find("discrete Lagrange-d'Alembert, RATTLE"), std::string::npos) << method;
  EXPECT_NEAR(order, 2.0, 0.1);
  EXPECT_LT(residual, 1e-12);
}

// `variational` is now offered on holonomic systems.
TEST(VariationalHolonomic, IsOfferedOnHolonomicSystems) {
  const Scenario s = CartesianChain({1.0}, {0.0});
  std::string names;
  for (const MethodVerdict& v :
       BuildModel(s)->integration_methods(SimulationInput::FromScenario(s).parameters))
    if (v.applies)
      names += std::string(names.empty() ? "" : ", ") + IntegrationMethodName(v.method);
  EXPECT_EQ(names, "adams, auto, bdf, idas, variational");
}

}  // namespace
}  // namespace dirac
