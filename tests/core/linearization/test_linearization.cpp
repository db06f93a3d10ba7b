// Linearization on the constraint manifold (issue 38, dirac/linearization.hpp) against
// independent references: the rigid body's principal rotations (analytic), the hanging chain
// (SciPy: tests/reference/linearization_reference.py), the rolling disk and the Chaplygin sleigh
// (the reduced matrix against central differences of the nonlinear reduced flow; hand-derived
// eigenvalues), and the CLI's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"
#include "linearization_fixtures.hpp"

namespace {

using dirac::Linearization;
using dirac::LinearizationOptions;
using dirac::Linearizer;

using dirac::linearization_test::Copy;
using dirac::linearization_test::Load;

// Max |A - central differences of the reduced flow| relative to max |A|, over the full reduced
// Jacobian (nothing dropped).
double DifferenceQuotientError(const Linearizer& lin) {
  Eigen::VectorXd z;
  const Eigen::MatrixXd J = lin.ReducedJacobian(&z);
  Eigen::MatrixXd D(J.rows(), J.cols());
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    const double h = 1e-5 * std::max(1.0, std::abs(z[j]));
    Eigen::VectorXd zp = z, zm = z;
    zp[j] += h;
    zm[j] -= h;
    D.col(j) = (lin.ReducedRates(zp) - lin.ReducedRates(zm)) / (2 * h);
  }
  return (J - D).cwiseAbs().maxCoeff() / std::max(1.0, J.cwiseAbs().maxCoeff());
}

// The rigid body I w' + w x I w = 0 about the principal axis j at rate W: with (k, l) the other
// axes, dw_k' = (I_l - I_j)/I_k W dw_l, dw_l' = (I_j - I_k)/I_l W dw_k, so
// lambda^2 = (I_l - I_j)(I_j - I_k) W^2 / (I_k I_l): real (unstable) for the middle axis only.
TEST(Linearization, RigidBodyPrincipalRotationsHaveTheAnalyticEigenvalues) {
  const double I[3] = {1.0, 2.0, 3.0}, W = 1.3;
  const char* names[3] = {"w1", "w2", "w3"};
  for (int j = 0; j < 3; ++j) {
    std::vector<std::string> set;
    for (int a = 0; a < 3; ++a) set.push_back(std::string(names[a]) + "=" + (a == j ? "1.3" : "0"));
    const auto lin = Linearizer::Derive(Load("rigid_body", set));
    const Linearization r = lin->Linearize();
    const int k = (j + 1) % 3, l = (j + 2) % 3;
    const double lambda2 = (I[l] - I[j]) * (I[j] - I[k]) * W * W / (I[k] * I[l]);
    ASSERT_EQ(r.eigenvalues.size(), 2u) << "axis " << j + 1;
    ASSERT_EQ(r.dropped_speeds, std::vector<std::string>{names[j]});
    const double root = std::sqrt(std::abs(lambda2));
    if (lambda2 > 0) {  // the middle axis
      EXPECT_EQ(j, 1);
      EXPECT_NEAR(r.eigenvalues[0].real(), root, 1e-13);
      EXPECT_NEAR(r.eigenvalues[1].real(), -root, 1e-13);
      EXPECT_NEAR(r.eigenvalues[0].imag(), 0.0, 1e-13);
    } else {
      EXPECT_NEAR(r.eigenvalues[0].imag(), root, 1e-13);
      EXPECT_NEAR(r.eigenvalues[1].imag(), -root, 1e-13);
      EXPECT_NEAR(r.eigenvalues[0].real(), 0.0, 1e-13);
    }
  }
}

TEST(Linearization, RigidBodyOffTheAxisIsRefusedAndFoundByNewton) {
  const dirac::Scenario s = Load("rigid_body", {"w1=0.01", "w2=1.3", "w3=0.02"});
  try {
    Linearizer::Derive(s)->Linearize();
    FAIL() << "not an equilibrium, yet accepted";
  } catch (const dirac::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("not an equilibrium"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("d(w"), std::string::npos) << e.what();
  }
  LinearizationOptions options;
  options.find = true;
  const Linearization r = Linearizer::Derive(s, options)->Linearize();
  EXPECT_LE(r.rate_residual, 1e-13);
  double w[3];
  for (int a = 0; a < 3; ++a) w[a] = r.point[static_cast<std::size_t>(a)].second;
  EXPECT_LT(std::abs(w[0]) + std::abs(w[2]), 1e-12);
  EXPECT_EQ(w[1], 1.3);  // the largest speed (the spin) is held
  EXPECT_EQ(r.independent_speeds, (std::vector<std::string>{"w1", "w2", "w3"}));
  const double expected = std::abs(w[1]) / std::sqrt(3.0);  // middle axis, I = (1, 2, 3)
  ASSERT_EQ(r.eigenvalues.size(), 2u);
  EXPECT_NEAR(r.eigenvalues[0].real(), expected, 1e-12);
}

// The chain hanging at rest: +-i omega with omega^2 the eigenvalues of M^-1 K; the numbers from
// `/usr/bin/python3 tests/reference/linearization_reference.py` (SciPy).
TEST(Linearization, HangingChainMatchesScipyEigenvaluesOfMinvK) {
  const double omega[4] = {1.7788178195549533, 4.1383470616132927, 6.6711502091315751,
                           9.6002940397507643};
  dirac::Scenario s =
      dirac::ParseScenario(dirac::GenerateFamilyScenario("pendulum_chain", 4), "chain4.yaml");
  for (int k = 1; k <= 4; ++k) dirac::ApplyOverride(s, "th" + std::to_string(k), 0.0);
  const Linearization r = Linearizer::Derive(s)->Linearize();
  ASSERT_EQ(r.eigenvalues.size(), 8u);
  ASSERT_EQ(r.states.size(), 8u);
  EXPECT_TRUE(r.dropped_speeds.empty());
  // Sorted by real part (all 0 to rounding), then imaginary part, largest first.
  std::vector<double> positive;
  for (const auto& z : r.eigenvalues) {
    EXPECT_NEAR(z.real(), 0.0, 1e-11);
    if (z.imag() > 0) positive.push_back(z.imag());
  }
  std::sort(positive.begin(), positive.end());
  ASSERT_EQ(positive.size(), 4u);
  for (int k = 0; k < 4; ++k)
    EXPECT_NEAR(positive[static_cast<std::size_t>(k)], omega[k], 1e-12 * omega[k]);
  // The slowest mode moves every link the same way; it is named after its largest angles.
  ASSERT_EQ(r.modes.size(), 4u);
}

// Upright rolling of the disk (tilt 0, spin rate W): x, y and phi are absent from L and the
// constraints (found), the heading theta is named; the spin rate's row vanishes (dropped). The
// rest: a zero eigenvalue and lambda^2 = (m g R - (Ja + m R^2) Ja W^2 / Id) / (Id + m R^2), hand-
// derived from the Newton-Euler equations about the contact point; stable for
// W^2 > m g R Id / ((Ja + m R^2) Ja) = g / (3 R) for the uniform disk.
TEST(Linearization, RollingDiskUprightMatchesDifferencesAndTheHandDerivedEigenvalues) {
  const double m = 1.0, R = 0.3, Id = 0.0225, Ja = 0.045, g = 9.81, W = 6.0;
  const dirac::Scenario s =
      Load("rolling_disk", {"alpha=0", "valpha=0", "vtheta=0", "vphi=6", "vx=0", "theta=0"});
  LinearizationOptions options;
  options.ignorable = {"theta"};
  const auto lin = Linearizer::Derive(s, options);
  EXPECT_LT(DifferenceQuotientError(*lin), 1e-8);
  const Linearization r = lin->Linearize();
  EXPECT_EQ(r.ignorable_found, (std::vector<std::string>{"x", "y", "phi"}));
  EXPECT_EQ(r.ignorable_named, std::vector<std::string>{"theta"});
  EXPECT_EQ(r.dependent_speeds, (std::vector<std::string>{"vx", "vy"}));
  EXPECT_EQ(r.dropped_speeds, std::vector<std::string>{"vphi"});
  EXPECT_EQ(r.states, (std::vector<std::string>{"alpha", "vtheta", "valpha"}));
  // vx was solved from the rolling constraint: R W.
  for (const auto& [name, value] : r.point) {
    if (name == "vx") EXPECT_NEAR(value, R * W, 1e-15);
  }
  const double lambda2 = (m * g * R - (Ja + m * R * R) * Ja * W * W / Id) / (Id + m * R * R);
  ASSERT_LT(lambda2, 0.0);
  ASSERT_EQ(r.eigenvalues.size(), 3u);
  EXPECT_NEAR(r.eigenvalues[0].imag(), std::sqrt(-lambda2), 1e-12);
  EXPECT_NEAR(std::abs(r.eigenvalues[1]), 0.0, 1e-12);
  EXPECT_NEAR(r.eigenvalues[2].imag(), -std::sqrt(-lambda2), 1e-12);

  // The sweep finds where upright rolling turns stable: the eigenvalues meet at 0 there.
  const dirac::StabilitySweep sweep = lin->Sweep("vphi", 1.0, 6.0, 51);
  ASSERT_EQ(sweep.critical.size(), 1u);
  EXPECT_TRUE(sweep.critical[0].collision);
  EXPECT_TRUE(sweep.critical[0].stabilizing);
  const double critical = std::sqrt(m * g * R * Id / ((Ja + m * R * R) * Ja));
  EXPECT_NEAR(sweep.critical[0].value, critical, 1e-10);
  ASSERT_EQ(sweep.stable_intervals.size(), 1u);
  EXPECT_NEAR(sweep.stable_intervals[0].first, critical, 1e-10);
  EXPECT_EQ(sweep.stable_intervals[0].second, 6.0);
}

TEST(Linearization, RollingDiskTiltIsNotIgnorable) {
  const dirac::Scenario s =
      Load("rolling_disk", {"alpha=0", "valpha=0", "vtheta=0", "vphi=6", "vx=0", "theta=0"});
  LinearizationOptions options;
  options.ignorable = {"theta", "alpha"};
  try {
    Linearizer::Derive(s, options)->Linearize();
    FAIL() << "alpha accepted as ignorable";
  } catch (const dirac::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("'alpha' is not an ignorable coordinate"),
              std::string::npos)
        << e.what();
  }
}

// The sleigh's straight motion at forward speed u: the turning rate obeys
// (J + m a^2) w' = -m a u w (the body-frame Newton-Euler equations), so lambda = -m a u/(J + m
// a^2); the forward speed is conserved to first order (u' = a w^2).
TEST(Linearization, ChaplyginSleighStraightMotionMatchesDifferencesAndNewtonEuler) {
  const double m = 1.0, J = 0.2, a = 0.5;
  for (double u : {0.7, -0.4}) {
    const dirac::Scenario s =
        Load("chaplygin_sleigh", {"vx=" + std::to_string(u), "vy=0", "vtheta=0", "theta=0"});
    LinearizationOptions options;
    options.ignorable = {"theta"};
    const auto lin = Linearizer::Derive(s, options);
    EXPECT_LT(DifferenceQuotientError(*lin), 1e-8);
    const Linearization r = lin->Linearize();
    EXPECT_EQ(r.ignorable_found, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(r.dependent_speeds, std::vector<std::string>{"vy"});
    EXPECT_EQ(r.dropped_speeds, std::vector<std::string>{"vx"});
    ASSERT_EQ(r.states, std::vector<std::string>{"vtheta"});
    EXPECT_NEAR(r.A(0, 0), -m * a * u / (J + m * a * a), 1e-13);
    // The mass matrix over the kept speed: J + m a^2 (the sleigh's inertia about the blade).
    ASSERT_EQ(r.mass_matrix.size(), 1);
    EXPECT_NEAR(r.mass_matrix(0, 0), J + m * a * a, 1e-13);
  }
}

// dirac linearize: the JSON's eigenvalues, and a refused point writes nothing.
TEST(Linearization, CliPrintsJsonAndRefusesANonEquilibriumWritingNothing) {
  const std::string out = ::testing::TempDir() + "linearize_out.txt";
  const std::string csv = ::testing::TempDir() + "linearize_sweep.csv";
  std::remove(csv.c_str());
  const std::string base = std::string(DIRAC_CLI) + " linearize " + Copy("rigid_body") + " --quiet";
  ASSERT_EQ(std::system((base + " --set w1=0 --set w2=1.3 --set w3=0 --json > " + out).c_str()), 0);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"eigenvalues\": [{\"re\": 0.75055534994651"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\"states\": [\"w1\", \"w3\"]"), std::string::npos) << text.str();
  const int status = std::system(
      (base + " --set w1=0.1 --vary I1=1:1.5:5 --csv " + csv + " > " + out + " 2>&1").c_str());
  EXPECT_NE(status, 0);
  std::ifstream err(out);
  std::stringstream message;
  message << err.rdbuf();
  EXPECT_NE(message.str().find("not an equilibrium"), std::string::npos) << message.str();
  EXPECT_FALSE(std::ifstream(csv).good());
}

}  // namespace
