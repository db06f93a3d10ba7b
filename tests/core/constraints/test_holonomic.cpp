// Holonomic constraints f(q) = 0 (`holonomic:`): reading and writing, the consistent initial
// state (coordinates solved by Newton, dependent velocities solved from the constraint forms),
// every refusal with file, line and key, and runs that keep f at the tolerance, checked against
// the same systems written in independent coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

// A planar pendulum of length l in Cartesian coordinates (y up): x given, y solved (the guess
// picks the lower branch), vx given, vy dependent.
std::string CartesianPendulum() {
  return "name: cartesian pendulum\n"
         "coordinates:\n"
         "  - {name: x, velocity: vx, initial: 0.6}\n"
         "  - {name: y, velocity: vy, initial: -1, solve: true}\n"
         "parameters:\n"
         "  - {name: m, default: 0.7}\n"
         "  - {name: g, default: 9.81, max: 20}\n"
         "  - {name: l, default: 1.3, max: 5}\n"
         "lagrangian: \"m*(vx^2 + vy^2)/2 - m*g*y\"\n"
         "holonomic:\n"
         "  - {name: rod, equation: \"x^2 + y^2 - l^2\"}\n"
         "simulation: {t_end: 10, output_step: 0.01, rtol: 1e-12, atol: 1e-14}\n";
}

std::string AnglePendulum() {
  return "name: angle pendulum\n"
         "coordinates:\n"
         "  - {name: th, velocity: w, initial: 0.5, initial_velocity: 0.3}\n"
         "parameters:\n"
         "  - {name: m, default: 0.7}\n"
         "  - {name: g, default: 9.81, max: 20}\n"
         "  - {name: l, default: 1.3, max: 5}\n"
         "lagrangian: \"m*l^2*w^2/2 + m*g*l*cos(th)\"\n"
         "simulation: {t_end: 10, output_step: 0.01, rtol: 1e-12, atol: 1e-14}\n";
}

// The Cartesian pendulum started at theta0 = 0.5, omega0 = 0.3 (x = l sin, y = -l cos).
Scenario CartesianAt(double t_end) {
  const double l = 1.3, theta0 = 0.5, omega0 = 0.3;
  Scenario s = ParseScenario(CartesianPendulum(), "cartesian.yaml");
  ApplyOverrides(
      s, {"x=" + std::to_string(l * std::sin(theta0)),
          "vx=" + std::to_string(l * std::cos(theta0) * omega0), "t_end=" + std::to_string(t_end)});
  return s;
}

std::vector<double> Column(const Trajectory& tr, const std::string& name) {
  const std::size_t c = tr.ColumnIndex(name);
  std::vector<double> out;
  for (std::size_t r = 0; r < tr.num_rows(); ++r) out.push_back(tr.at(r, c));
  return out;
}

double MaxAbs(const std::vector<double>& values) {
  double worst = 0.0;
  for (double v : values) worst = std::max(worst, std::abs(v));
  return worst;
}

// The ScenarioError of `f`, or a failure.
template <typename F>
ScenarioError ErrorOf(F&& f) {
  try {
    f();
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "no ScenarioError";
  return ScenarioError("", 0, "", "none");
}

TEST(Holonomic, ReadWriteRoundTrip) {
  const Scenario s = ParseScenario(CartesianPendulum(), "cartesian.yaml");
  ASSERT_EQ(s.holonomic.size(), 1u);
  EXPECT_EQ(s.holonomic[0].name, "rod");
  EXPECT_EQ(s.holonomic[0].equation, "x^2 + y^2 - l^2");
  EXPECT_EQ(s.holonomic[0].multiplier, "mu_rod");
  EXPECT_EQ(s.holonomic[0].where.line, 11u);
  EXPECT_TRUE(s.coordinates[1].solve);
  const std::string text = SaveScenarioToString(s);
  const Scenario back = ParseScenario(text, "saved.yaml");
  EXPECT_EQ(SaveScenarioToString(back), text);
  ASSERT_EQ(back.holonomic.size(), 1u);
  EXPECT_EQ(back.holonomic[0].equation, s.holonomic[0].equation);
  EXPECT_EQ(back.holonomic[0].multiplier, "mu_rod");
  EXPECT_TRUE(back.coordinates[1].solve);
  EXPECT_EQ(back.coordinates[1].initial, s.coordinates[1].initial);
  EXPECT_TRUE(back.coordinates[1].velocity_solved);  // vy: left out, solved again
}

TEST(Holonomic, InitialCoordinatesAndDependentVelocitiesAreSolved) {
  const double l = 1.3, theta0 = 0.5, omega0 = 0.3;
  const Scenario s = CartesianAt(10);
  const double x = s.coordinates[0].initial, y = s.coordinates[1].initial;
  EXPECT_NEAR(x * x + y * y - l * l, 0.0, 1e-14);
  EXPECT_LT(y, 0.0);  // the branch of the guess
  // x = l sin theta0 to the 6 digits std::to_string gives; vy from x vx + y vy = 0.
  EXPECT_NEAR(y, -l * std::cos(theta0), 1e-6);
  EXPECT_TRUE(s.coordinates[1].velocity_solved);
  EXPECT_FALSE(s.coordinates[0].velocity_solved);
  EXPECT_NEAR(x * s.coordinates[0].initial_velocity + y * s.coordinates[1].initial_velocity, 0.0,
              1e-15);
  EXPECT_NEAR(s.coordinates[1].initial_velocity, l * std::sin(theta0) * omega0, 1e-6);
  const auto model = BuildModel(s);
  SimulationReport report;
  SimulationInput input = SimulationInput::FromScenario(s);
  input.spec.t_end = 0.1;
  model->Simulate(input, {}, &report);
  EXPECT_EQ(report.solved_initial_values, (std::vector<std::string>{"y", "vy"}));
  EXPECT_EQ(report.initial_projection, 0.0);
  // An input whose dependent velocity is off: the run solves it again from the others (not a
  // projection that would move vx too).
  input.v0[1] += 0.25;
  const Trajectory tr = model->Simulate(input, {}, &report);
  EXPECT_NEAR(report.initial_projection, 0.25, 1e-12);
  EXPECT_EQ(tr.at(0, tr.ColumnIndex("vx")), s.coordinates[0].initial_velocity);
  EXPECT_NEAR(tr.at(0, tr.ColumnIndex("vy")), s.coordinates[1].initial_velocity, 1e-15);
}

// The Cartesian pendulum against the angle form: x = l sin(theta), y = -l cos(theta).
TEST(Holonomic, CartesianPendulumAgreesWithTheAngleForm) {
  const double l = 1.3;
  Scenario cartesian = CartesianAt(10);
  Scenario angle = ParseScenario(AnglePendulum(), "angle.yaml");
  // The same initial point to the last digit: theta0 from the solved Cartesian state.
  const double x0 = cartesian.coordinates[0].initial, y0 = cartesian.coordinates[1].initial;
  const double vx0 = cartesian.coordinates[0].initial_velocity;
  angle.coordinates[0].initial = std::atan2(x0, -y0);
  angle.coordinates[0].initial_velocity = vx0 / (-y0);
  const Trajectory a = BuildModel(angle)->Simulate(SimulationInput::FromScenario(angle));
  const Trajectory c = BuildModel(cartesian)->Simulate(SimulationInput::FromScenario(cartesian));
  ASSERT_EQ(a.num_rows(), c.num_rows());
  const auto th = Column(a, "th"), x = Column(c, "x"), y = Column(c, "y");
  double worst = 0.0;
  for (std::size_t r = 0; r < th.size(); ++r)
    worst = std::max(
        {worst, std::abs(x[r] - l * std::sin(th[r])), std::abs(y[r] + l * std::cos(th[r]))});
  EXPECT_LT(worst, 1e-9);
  // The multiplier is the rod's tension: m (g cos + l w^2) = -2 l mu (f = x^2 + y^2 - l^2).
  const auto mu = Column(c, "mu_rod"), w = Column(a, "w");
  double tension = 0.0;
  for (std::size_t r = 0; r < th.size(); ++r)
    tension = std::max(tension,
                       std::abs(-2 * l * mu[r] - 0.7 * (9.81 * std::cos(th[r]) + l * w[r] * w[r])));
  EXPECT_LT(tension, 1e-7);
}

// On each integrator: Adams and BDF (CVODES), and the index-1 DAE (IDAS).
TEST(Holonomic, PositionResidualStaysAtTheToleranceOverLongRuns) {
  for (const char* method : {"adams", "bdf", "idas"}) {
    SCOPED_TRACE(method);
    Scenario s = CartesianAt(200);
    ApplyOverrides(s, {std::string("method=") + method});
    SimulationReport report;
    const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, &report);
    EXPECT_LE(MaxAbs(Column(tr, "position_residual_rod")), 1e-10);
    EXPECT_LE(MaxAbs(Column(tr, "residual_rod")), 1e-10);
    EXPECT_LE(report.max_constraint_residual, 1e-10);
    EXPECT_GE(report.max_constraint_residual, MaxAbs(Column(tr, "position_residual_rod")));
    EXPECT_GT(report.projections, 0);  // the drift was met, not absent
    const auto energy = Column(tr, "E");
    EXPECT_LE(MaxAbs({energy.back() - energy.front()}), 1e-9);
  }
}

// The constraint algorithm takes the differential as a constraint form too (degenerate
// Lagrangians go that way): the same motion as the Lagrange-Dirac run, and f stays at zero.
TEST(Holonomic, TheConstraintAlgorithmPathGivesTheSameMotion) {
  const double l = 1.3;
  const Scenario dirac_run = CartesianAt(10);
  Scenario chain = dirac_run;
  SetFormulation(chain, "constraint_algorithm");
  const Trajectory a = BuildModel(dirac_run)->Simulate(SimulationInput::FromScenario(dirac_run));
  const Trajectory b = BuildModel(chain)->Simulate(SimulationInput::FromScenario(chain));
  ASSERT_EQ(a.num_rows(), b.num_rows());
  double worst = 0.0, f = 0.0;
  for (const char* name : {"x", "y", "vx", "vy", "mu_rod"}) {
    const auto u = Column(a, name), w = Column(b, name);
    for (std::size_t r = 0; r < u.size(); ++r) worst = std::max(worst, std::abs(u[r] - w[r]));
  }
  const auto x = Column(b, "x"), y = Column(b, "y");
  for (std::size_t r = 0; r < x.size(); ++r)
    f = std::max(f, std::abs(x[r] * x[r] + y[r] * y[r] - l * l));
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(f, 1e-10);
}

// A spherical pendulum in R^3 against its spherical angles (theta from the downward vertical,
// phi about it): x = l sin th cos ph, y = l sin th sin ph, z = -l cos th.
TEST(Holonomic, SphericalPendulumAgreesWithTheAngleForm) {
  const double l = 0.8, th0 = 0.9, ph0 = 0.2, wth0 = 0.1, wph0 = 1.7, t_end = 10;
  const std::string parameters =
      "parameters:\n  - {name: g, default: 9.81, max: 20}\n  - {name: l, default: 0.8}\n"
      "simulation: {t_end: 10, output_step: 0.01, rtol: 1e-12, atol: 1e-14}\n";
  Scenario angles = ParseScenario(
      "name: spherical angles\ncoordinates:\n"
      "  - {name: th, velocity: wth, initial: 0.9, initial_velocity: 0.1}\n"
      "  - {name: ph, velocity: wph, initial: 0.2, initial_velocity: 1.7}\n" +
          parameters + "lagrangian: \"l^2*(wth^2 + sin(th)^2*wph^2)/2 + g*l*cos(th)\"\n",
      "angles.yaml");
  // Velocities: d/dt of the map at (th0, ph0, wth0, wph0); vz is left to the constraint.
  const double vx =
      l * (std::cos(th0) * std::cos(ph0) * wth0 - std::sin(th0) * std::sin(ph0) * wph0);
  const double vy =
      l * (std::cos(th0) * std::sin(ph0) * wth0 + std::sin(th0) * std::cos(ph0) * wph0);
  Scenario cartesian = ParseScenario(
      "name: spherical cartesian\ncoordinates:\n"
      "  - {name: x, velocity: vx, initial_velocity: 0}\n"
      "  - {name: y, velocity: vy, initial_velocity: 0}\n"
      "  - {name: z, velocity: vz, initial: -1, solve: true}\n" +
          parameters +
          "lagrangian: \"(vx^2 + vy^2 + vz^2)/2 - g*z\"\n"
          "holonomic:\n  - {name: sphere, equation: \"x^2 + y^2 + z^2 - l^2\"}\n",
      "cartesian.yaml");
  char assignments[4][64];
  std::snprintf(assignments[0], 64, "x=%.17g", l * std::sin(th0) * std::cos(ph0));
  std::snprintf(assignments[1], 64, "y=%.17g", l * std::sin(th0) * std::sin(ph0));
  std::snprintf(assignments[2], 64, "vx=%.17g", vx);
  std::snprintf(assignments[3], 64, "vy=%.17g", vy);
  ApplyOverrides(cartesian, {assignments[0], assignments[1], assignments[2], assignments[3]});
  EXPECT_NEAR(cartesian.coordinates[2].initial, -l * std::cos(th0), 1e-15);
  EXPECT_NEAR(cartesian.coordinates[2].initial_velocity, l * std::sin(th0) * wth0, 1e-15);
  EXPECT_TRUE(cartesian.coordinates[2].velocity_solved);
  const Trajectory a = BuildModel(angles)->Simulate(SimulationInput::FromScenario(angles));
  SimulationReport report;
  const Trajectory c =
      BuildModel(cartesian)->Simulate(SimulationInput::FromScenario(cartesian), {}, &report);
  ASSERT_EQ(a.num_rows(), c.num_rows());
  const auto th = Column(a, "th"), ph = Column(a, "ph");
  const auto x = Column(c, "x"), y = Column(c, "y"), z = Column(c, "z");
  double worst = 0.0;
  for (std::size_t r = 0; r < th.size(); ++r)
    worst = std::max({worst, std::abs(x[r] - l * std::sin(th[r]) * std::cos(ph[r])),
                      std::abs(y[r] - l * std::sin(th[r]) * std::sin(ph[r])),
                      std::abs(z[r] + l * std::cos(th[r]))});
  EXPECT_LT(worst, 1e-9);
  EXPECT_LE(report.max_constraint_residual, 1e-10);
  EXPECT_DOUBLE_EQ(c.at(c.num_rows() - 1, 0), t_end);
}

// A closed four-bar linkage: cranks of lengths a (at the origin) and c (at (d, 0)) joined by a
// coupler b; angles q1, q2, q3 of the three moving links, two loop-closure constraints, one
// degree of freedom. Uniform rods of unit linear density under gravity.
TEST(Holonomic, FourBarLinkageKeepsItsLoopClosedAndItsEnergy) {
  Scenario s = ParseScenario(
      "name: four-bar\ncoordinates:\n"
      "  - {name: q1, velocity: w1, initial: 1.2, initial_velocity: 2.0}\n"
      "  - {name: q2, velocity: w2, initial: 0.3, solve: true}\n"
      "  - {name: q3, velocity: w3, initial: 1.6, solve: true}\n"
      "parameters:\n"
      "  - {name: a, default: 0.4}\n  - {name: b, default: 1.0}\n"
      "  - {name: c, default: 0.8}\n  - {name: d, default: 1.1}\n  - {name: g, default: 9.81, "
      "max: 20}\n"
      // Crank 1 and 3 about their pivots (I = m L^2 / 3), coupler: centre velocity and spin.
      "lagrangian: \"a^3*w1^2/6 + c^3*w3^2/6 + b*((-a*sin(q1)*w1 - b/2*sin(q2)*w2)^2 + "
      "(a*cos(q1)*w1 + b/2*cos(q2)*w2)^2)/2 + b^3*w2^2/24 - g*(a^2/2*sin(q1) + "
      "b*(a*sin(q1) + b/2*sin(q2)) + c^2/2*sin(q3))\"\n"
      "holonomic:\n"
      "  - {name: loop_x, equation: \"a*cos(q1) + b*cos(q2) - d - c*cos(q3)\"}\n"
      "  - {name: loop_y, equation: \"a*sin(q1) + b*sin(q2) - c*sin(q3)\"}\n"
      "simulation: {t_end: 20, output_step: 0.01, rtol: 1e-11, atol: 1e-13}\n",
      "four_bar.yaml");
  EXPECT_TRUE(s.coordinates[1].velocity_solved);
  EXPECT_TRUE(s.coordinates[2].velocity_solved);
  SimulationReport report;
  const Trajectory tr = BuildModel(s)->Simulate(SimulationInput::FromScenario(s), {}, &report);
  EXPECT_LE(MaxAbs(Column(tr, "position_residual_loop_x")), 1e-10);
  EXPECT_LE(MaxAbs(Column(tr, "position_residual_loop_y")), 1e-10);
  const auto energy = Column(tr, "E");
  double drift = 0.0;
  for (double e : energy) drift = std::max(drift, std::abs(e - energy.front()));
  EXPECT_LE(drift, 1e-8 * std::abs(energy.front()));
  // The crank moves (the motion is not trivial).
  const auto q1 = Column(tr, "q1");
  double travel = 0.0;
  for (double q : q1) travel = std::max(travel, std::abs(q - q1.front()));
  EXPECT_GT(travel, 0.3);
}

// ---- refusals: file, line and key -------------------------------------------------------------

TEST(Holonomic, GivenCoordinatesThatViolateTheConstraintAreRefusedWithTheResidual) {
  const ScenarioError e = ErrorOf([] {
    ParseScenario(
        "name: p\ncoordinates:\n  - {name: x, initial: 0.6}\n  - {name: y, initial: -0.7}\n"
        "lagrangian: \"(vx^2 + vy^2)/2 - y\"\n"
        "holonomic:\n  - {name: rod, equation: \"x^2 + y^2 - 1\"}\n",
        "p.yaml");
  });
  EXPECT_EQ(e.file(), "p.yaml");
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.symbol(), "rod");
  EXPECT_NE(std::string(e.what()).find("-1.500e-01"), std::string::npos) << e.what();
}

TEST(Holonomic, NewtonFailureSaysByHowMuch) {
  const ScenarioError e = ErrorOf([] {
    ParseScenario(
        "name: p\ncoordinates:\n  - {name: x, initial: 0.6}\n"
        "  - {name: y, initial: -0.7, solve: true}\n"
        "lagrangian: \"(vx^2 + vy^2)/2 - y\"\n"
        "holonomic:\n  - {name: rod, equation: \"x^2 + y^2 + 1\"}\n",
        "p.yaml");
  });
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.symbol(), "rod");
  // No root: min |f| = 1 + 0.36 at y = 0; the message gives what Newton reached.
  const std::string what = e.what();
  const std::size_t at = what.find("|f| = ");
  ASSERT_NE(at, std::string::npos) << what;
  const double reached = std::stod(what.substr(at + 6));
  EXPECT_GE(reached, 1.36);
  EXPECT_LE(reached, 1.85);
}

TEST(Holonomic, MalformedEntriesAreRefusedWithTheirKey) {
  const std::string head =
      "name: p\ncoordinates:\n  - {name: x, initial: 1}\n  - {name: y}\n"
      "lagrangian: \"(vx^2 + vy^2)/2 - y\"\n";
  auto error = [&](const std::string& tail) {
    return ErrorOf([&] { ParseScenario(head + tail, "p.yaml"); });
  };
  ScenarioError e = error("holonomic:\n  - {name: rod, equation: \"x^2 + vy - 1\"}\n");
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.symbol(), "rod.equation");
  e = error("holonomic:\n  - {name: rod, equation: \"x^2 + y^2 - 1 + t\"}\n");
  EXPECT_EQ(e.symbol(), "rod.equation");
  e = error("holonomic:\n  - {name: rod, equation: \"x^2 + y^2 - 1\", stiffness: 1}\n");
  EXPECT_EQ(e.line(), 7u);
  e = error("holonomic:\n  - {name: rod, equation: \"x - 1\"}\n  - {name: rod, equation: \"y\"}\n");
  EXPECT_EQ(e.line(), 8u);
  EXPECT_EQ(e.symbol(), "rod");
  e = error(
      "constraints:\n  - {name: rod, form: \"vx\"}\nholonomic:\n"
      "  - {name: rod, equation: \"x - 1\"}\n");
  EXPECT_EQ(e.line(), 9u);
  EXPECT_EQ(e.symbol(), "rod");
  e = ErrorOf([] {
    ParseScenario("name: p\ncoordinates:\n  - {name: x, solve: true}\nlagrangian: \"vx^2\"\n",
                  "p.yaml");
  });
  EXPECT_EQ(e.line(), 3u);
  EXPECT_EQ(e.symbol(), "x.solve");
  e = ErrorOf([] {
    ParseScenario("name: p\ncoordinates:\n  - {name: x, solve: maybe}\nlagrangian: \"vx^2\"\n",
                  "p.yaml");
  });
  EXPECT_EQ(e.symbol(), "x.solve");
}

TEST(Holonomic, DependentConstraintFormsAreRefusedByName) {
  // At x = 1, y = 0 the forms 2x vx + 2y vy and vx are dependent.
  const ScenarioError e = ErrorOf([] {
    ParseScenario(
        "name: p\ncoordinates:\n  - {name: x, initial: 1}\n  - {name: y}\n"
        "lagrangian: \"(vx^2 + vy^2)/2 - y\"\n"
        "constraints:\n  - {name: slide, form: \"vx\"}\n"
        "holonomic:\n  - {name: rod, equation: \"x^2 + y^2 - 1\"}\n",
        "p.yaml");
  });
  EXPECT_EQ(e.line(), 9u);
  EXPECT_EQ(e.symbol(), "rod");
  EXPECT_NE(std::string(e.what()).find("dependent velocities cannot be solved"), std::string::npos);
}

TEST(Holonomic, AGivenDependentVelocityThatViolatesTheFormsIsRefused) {
  // Both velocities given: the forms pick one of them as dependent and it disagrees.
  const ScenarioError e = ErrorOf([] {
    ParseScenario(
        "name: p\ncoordinates:\n  - {name: x, initial: 0.6, initial_velocity: 1}\n"
        "  - {name: y, initial: -0.8, initial_velocity: 1}\n"
        "lagrangian: \"(vx^2 + vy^2)/2 - y\"\n"
        "holonomic:\n  - {name: rod, equation: \"x^2 + y^2 - 1\"}\n",
        "p.yaml");
  });
  EXPECT_EQ(e.line(), 4u);
  EXPECT_EQ(e.symbol(), "vy");
  EXPECT_NE(std::string(e.what()).find("7.500e-01"), std::string::npos) << e.what();
}

TEST(Holonomic, SetOfASolvedCoordinateOrADependentVelocityIsRefusedWithTheReason) {
  Scenario s = CartesianAt(1);
  const Scenario before = s;
  ScenarioError e = ErrorOf([&] { ApplyOverrides(s, {"y=-1.2"}); });
  EXPECT_EQ(e.symbol(), "y");
  EXPECT_NE(std::string(e.what()).find("solve: true"), std::string::npos);
  e = ErrorOf([&] { ApplyOverrides(s, {"vy=0.1"}); });
  EXPECT_EQ(e.symbol(), "vy");
  EXPECT_NE(std::string(e.what()).find("dependent velocity"), std::string::npos);
  EXPECT_EQ(SaveScenarioToString(s), SaveScenarioToString(before));  // nothing changed
  // A set of the independent coordinate moves the solved one with it (never into the ground).
  ApplyOverrides(s, {"x=0.01"});
  EXPECT_NEAR(s.coordinates[1].initial, -std::sqrt(1.3 * 1.3 - 1e-4), 1e-14);
  // A parameter of f too.
  ApplyOverrides(s, {"l=2"});
  EXPECT_NEAR(s.coordinates[1].initial, -std::sqrt(4 - 1e-4), 1e-14);
}

TEST(Holonomic, FormulationsWithoutHolonomicConstraintsRefuseThem) {
  Scenario s = CartesianAt(1);
  SetFormulation(s, "vakonomic");
  const ScenarioError e = ErrorOf([&] { BuildModel(s); });
  EXPECT_EQ(e.line(), 11u);
  EXPECT_EQ(e.symbol(), "holonomic");
}

TEST(Holonomic, SimulateRefusesAnInputOffTheConstraint) {
  const Scenario s = CartesianAt(1);
  SimulationInput input = SimulationInput::FromScenario(s);
  input.q0[1] += 1e-3;
  try {
    BuildModel(s)->Simulate(input);
    ADD_FAILURE() << "ran off the constraint";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("holonomic constraint rod"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dirac
