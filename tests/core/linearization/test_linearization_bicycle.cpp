// The Whipple bicycle (scenarios/whipple_bicycle.yaml, built from bodies) linearized by the
// engine about upright straight running against the benchmark of Meijaard, Papadopoulos, Ruina
// and Schwab (2007): the eigenvalues of Table 2, the weave and capsize speeds, and the linear
// matrices M, C1, K0, K2. The reference eigenvalues are computed from the benchmark matrices
// (docs/linearization.md) with NumPy: `/usr/bin/python3
// tests/reference/linearization_reference.py`.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <string>

#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"

namespace {

using Complex = std::complex<double>;

// Table 2 (v = 0 ... 10 m/s), sorted by real part then imaginary part, largest first.
const Complex kTable2[11][4] = {{{5.5309437176538907, 0},
                                 {3.1316432479065535, 0},
                                 {-3.1316432479065548, 0},
                                 {-5.5309437176539005, 0}},
                                {{3.5269617099006845, 0.80774027519931135},
                                 {3.5269617099006845, -0.80774027519931135},
                                 {-3.1342312506657835, 0},
                                 {-7.1100801463743402, 0}},
                                {{2.6823451751274554, 1.6806629659067498},
                                 {2.6823451751274554, -1.6806629659067498},
                                 {-3.0715864564151412, 0},
                                 {-8.673879848317279, 0}},
                                {{1.7067560566397448, 2.3158244738432328},
                                 {1.7067560566397448, -2.3158244738432328},
                                 {-2.6336613725366642, 0},
                                 {-10.351014672459097, 0}},
                                {{0.41325331521127029, 3.0791081860320344},
                                 {0.41325331521127029, -3.0791081860320344},
                                 {-1.4294442736132906, 0},
                                 {-12.158614265764282, 0}},
                                {{-0.32286642900410445, 0},
                                 {-0.77534188219581379, 4.4648677137881929},
                                 {-0.77534188219581379, -4.4648677137881929},
                                 {-14.078389692798064, 0}},
                                {{-0.0040669007697148561, 0},
                                 {-1.5264448658413876, 5.8767306059870474},
                                 {-1.5264448658413876, -5.8767306059870474},
                                 {-16.085371230980058, 0}},
                                {{0.10268170574765663, 0},
                                 {-2.138756442583591, 7.195259133298002},
                                 {-2.138756442583591, -7.195259133298002},
                                 {-18.157884661251764, 0}},
                                {{0.14327879765712376, 0},
                                 {-2.6934868358109139, 8.4603797139692976},
                                 {-2.6934868358109139, -8.4603797139692976},
                                 {-20.27940894394537, 0}},
                                {{0.15790184030916779, 0},
                                 {-3.2167540225248592, 9.693773515317762},
                                 {-3.2167540225248592, -9.693773515317762},
                                 {-22.437885590408261, 0}},
                                {{0.16105338653171097, 0},
                                 {-3.7201684043728305, 10.906811394762833},
                                 {-3.7201684043728305, -10.906811394762833},
                                 {-24.62459635017365, 0}}};

// The benchmark's matrices (Meijaard et al. 2007, eqs (A 23)-(A 26) evaluated for Table 1).
const double kM[2][2] = {{80.81722, 2.31941332208709}, {2.31941332208709, 0.29784188199686}};
const double kC1[2][2] = {{0, 33.86641391492494}, {-0.85035641456978, 1.68540397397560}};
const double kK0[2][2] = {{-80.95, -2.59951685249872}, {-2.59951685249872, -0.80329488458618}};
const double kK2[2][2] = {{0, 76.59734589573222}, {0, 2.65431523794604}};

class WhippleBicycle : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dirac::Scenario s =
        dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml");
    dirac::ApplyOverrides(s, {"vphi=0", "vdelta=0"});
    dirac::LinearizationOptions options;
    options.ignorable = {"psi", "thetaR", "thetaF"};
    options.speeds = {"vphi", "vdelta", "vthetaR"};
    linearizer_ = dirac::Linearizer::Derive(s, options);
  }
  static void TearDownTestSuite() { linearizer_.reset(); }
  static std::shared_ptr<const dirac::Linearizer> linearizer_;
};
std::shared_ptr<const dirac::Linearizer> WhippleBicycle::linearizer_;

TEST_F(WhippleBicycle, EigenvaluesMatchTable2) {
  double worst = 0.0;
  for (int v = 0; v <= 10; ++v) {
    const dirac::Linearization r = linearizer_->Linearize("v", v);
    ASSERT_EQ(r.states, (std::vector<std::string>{"phi", "delta", "vphi", "vdelta"}));
    ASSERT_EQ(r.dependent_coordinates, std::vector<std::string>{"theta"});
    ASSERT_EQ(r.dropped_speeds, std::vector<std::string>{"vthetaR"});
    EXPECT_EQ(r.ignorable_found, (std::vector<std::string>{"x", "y"}));
    ASSERT_EQ(r.eigenvalues.size(), 4u);
    for (int k = 0; k < 4; ++k) {
      const Complex ref = kTable2[v][k];
      const double error =
          std::abs(r.eigenvalues[static_cast<std::size_t>(k)] - ref) / std::max(1.0, std::abs(ref));
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-12) << "v = " << v << ", eigenvalue " << k;
    }
  }
  std::printf("max relative eigenvalue error against Table 2: %.2e\n", worst);
}

TEST_F(WhippleBicycle, WeaveAndCapsizeSpeeds) {
  const dirac::StabilitySweep sweep = linearizer_->Sweep("v", 0.0, 10.0, 11);
  ASSERT_EQ(sweep.critical.size(), 2u);
  EXPECT_TRUE(sweep.critical[0].oscillatory);
  EXPECT_TRUE(sweep.critical[0].stabilizing);
  EXPECT_NEAR(sweep.critical[0].value, 4.29238253634111, 1e-10);
  EXPECT_FALSE(sweep.critical[1].oscillatory);
  EXPECT_FALSE(sweep.critical[1].stabilizing);
  EXPECT_NEAR(sweep.critical[1].value, 6.02426201538837, 1e-10);
  ASSERT_EQ(sweep.stable_intervals.size(), 1u);
  EXPECT_EQ(sweep.stable_intervals[0].first, sweep.critical[0].value);
  EXPECT_EQ(sweep.stable_intervals[0].second, sweep.critical[1].value);
  std::printf("weave %.17g capsize %.17g\n", sweep.critical[0].value, sweep.critical[1].value);
}

// M from the reduced mass matrix, then K0 = -M A21(0)/g, K2 = -(M A21(v) + g K0)/v^2 and
// C1 = -M A22(v)/v from A(v) = [[0, I], [A21, A22]].
TEST_F(WhippleBicycle, BenchmarkMatricesRecoveredFromA) {
  const double g = 9.81, v = 3.0;
  const dirac::Linearization at0 = linearizer_->Linearize("v", 0.0);
  const dirac::Linearization atv = linearizer_->Linearize("v", v);
  const Eigen::MatrixXd M = atv.mass_matrix;
  ASSERT_EQ(M.rows(), 2);
  const Eigen::MatrixXd K0 = -at0.mass_matrix * at0.A.bottomLeftCorner(2, 2) / g;
  const Eigen::MatrixXd K2 = -(M * atv.A.bottomLeftCorner(2, 2) + g * K0) / (v * v);
  const Eigen::MatrixXd C1 = -M * atv.A.bottomRightCorner(2, 2) / v;
  EXPECT_LT((atv.A.topRightCorner(2, 2) - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff(),
            1e-15);
  EXPECT_EQ(atv.A.topLeftCorner(2, 2).cwiseAbs().maxCoeff(), 0.0);
  double worst = 0.0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const double errors[4] = {M(i, j) - kM[i][j], C1(i, j) - kC1[i][j], K0(i, j) - kK0[i][j],
                                K2(i, j) - kK2[i][j]};
      for (double e : errors) {
        EXPECT_LT(std::abs(e), 1e-10) << "entry (" << i << ", " << j << ")";
        worst = std::max(worst, std::abs(e));
      }
    }
  std::printf("max |error| of M, C1, K0, K2: %.2e\n", worst);
}

}  // namespace
