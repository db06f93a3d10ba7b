// Lie algebras from a family (families/lie_algebra_family.hpp) and Zeitlin's su(N) model of the
// ideal fluid on the torus (scenarios/ideal_fluid_torus.yaml), derived by the engine as
// Euler–Poincaré equations and checked against: the matrix commutators of each family, a
// hand-written matrix form Ẇ = [P, W] (tests/zeitlin_reference.hpp), stationary states, the
// conserved energy and Casimirs, and a pseudo-spectral 2D Euler solver (the continuum limit).
#include <gtest/gtest.h>

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>

#include "canonical_problems.hpp"
#include "zeitlin_reference.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "families/lie_algebra_family.hpp"

namespace dirac {
namespace {

using families::LieAlgebraBasis;
using Complex = std::complex<double>;

// ---- the families ---------------------------------------------------------------------------

Eigen::MatrixXcd Dense(const std::vector<families::MatrixEntry>& entries, int size) {
  Eigen::MatrixXcd m = Eigen::MatrixXcd::Zero(size, size);
  for (const auto& e : entries) m(e.row, e.col) += e.value;
  return m;
}

// [M(X_a), M(X_b)] = Σ_c C^c_ab M(X_c) for every pair: the generated constants are those of the
// matrix realization (for the torus, built from clock and shift, not from the formula).
void ExpectRealizationIsAHomomorphism(const LieAlgebraBasis& basis) {
  const auto constants = families::StructureConstants(basis);
  const auto matrices = families::MatrixRealization(basis);
  const int size = families::MatrixSize(basis);
  const std::size_t k = basis.dimension();
  std::vector<Eigen::MatrixXcd> dense;
  for (const auto& m : matrices) dense.push_back(Dense(m, size));
  std::map<std::pair<std::size_t, std::size_t>, Eigen::MatrixXcd> bracket;
  for (const auto& c : constants) {
    auto& m = bracket[{c.a, c.b}];
    if (m.size() == 0) m = Eigen::MatrixXcd::Zero(size, size);
    m += c.value * dense[c.c];
  }
  double worst = 0.0;
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = a + 1; b < k; ++b) {
      Eigen::MatrixXcd difference = dense[a] * dense[b] - dense[b] * dense[a];
      if (auto found = bracket.find({a, b}); found != bracket.end()) difference -= found->second;
      worst = std::max(worst, difference.cwiseAbs().maxCoeff());
    }
  EXPECT_LT(worst, 1e-12) << basis.family << "(" << basis.size << ")";
}

TEST(LieAlgebraFamilies, DimensionsAndNames) {
  EXPECT_EQ(families::LieAlgebraBasisOf("so", 4).dimension(), 6u);
  EXPECT_EQ(families::LieAlgebraBasisOf("su", 3).dimension(), 8u);
  EXPECT_EQ(families::LieAlgebraBasisOf("se", 3).dimension(), 6u);
  EXPECT_EQ(families::LieAlgebraBasisOf("zeitlin_torus", 15).dimension(), 224u);
  EXPECT_EQ(families::LieAlgebraBasisOf("zeitlin_torus", 31).dimension(), 960u);
  const LieAlgebraBasis torus = families::LieAlgebraBasisOf("zeitlin_torus", 5);
  EXPECT_EQ(torus.names[0], "c0_1");
  EXPECT_EQ(torus.names[1], "s0_1");
  EXPECT_NE(std::find(torus.names.begin(), torus.names.end(), "c2_m1"), torus.names.end());
}

TEST(LieAlgebraFamilies, So3HasTheCrossProductBrackets) {
  // E_12, E_13, E_23: [E_12, E_13] = -E_23, [E_12, E_23] = E_13, [E_13, E_23] = -E_12.
  const auto constants = families::StructureConstants(families::LieAlgebraBasisOf("so", 3));
  ASSERT_EQ(constants.size(), 3u);
  EXPECT_EQ(constants[0].a, 0u);
  EXPECT_EQ(constants[0].b, 1u);
  EXPECT_EQ(constants[0].c, 2u);
  EXPECT_EQ(constants[0].value, -1.0);
  EXPECT_EQ(constants[1].c, 1u);
  EXPECT_EQ(constants[1].value, 1.0);
  EXPECT_EQ(constants[2].c, 0u);
  EXPECT_EQ(constants[2].value, -1.0);
}

TEST(LieAlgebraFamilies, GeneratedConstantsAreThoseOfTheMatrixRealization) {
  for (const auto& [family, size] : std::vector<std::pair<std::string, int>>{{"so", 3},
                                                                             {"so", 5},
                                                                             {"su", 2},
                                                                             {"su", 4},
                                                                             {"se", 2},
                                                                             {"se", 3},
                                                                             {"zeitlin_torus", 3},
                                                                             {"zeitlin_torus", 5},
                                                                             {"zeitlin_torus", 7}})
    ExpectRealizationIsAHomomorphism(families::LieAlgebraBasisOf(family, size));
}

// The Casimirs tr(M^k) hold for the coadjoint motion when the trace form is a multiple of the
// identity in the basis (so and the torus).
TEST(LieAlgebraFamilies, TraceFormIsDiagonalWithEqualEntriesOnTheTorus) {
  for (int N : {5, 7}) {
    const LieAlgebraBasis basis = families::LieAlgebraBasisOf("zeitlin_torus", N);
    const auto matrices = families::MatrixRealization(basis);
    const double first = -(Dense(matrices[0], N) * Dense(matrices[0], N)).trace().real();
    EXPECT_GT(first, 0.0);
    for (std::size_t a = 0; a < matrices.size(); ++a)
      for (std::size_t b = 0; b < matrices.size(); ++b) {
        const Complex tr = -(Dense(matrices[a], N) * Dense(matrices[b], N)).trace();
        EXPECT_NEAR(std::abs(tr - Complex(a == b ? first : 0.0)), 0.0, 1e-12 * first);
      }
  }
}

TEST(LieAlgebraFamilies, LargeTorusPassesTheRandomJacobiCheck) {
  const auto constants =
      families::StructureConstants(families::LieAlgebraBasisOf("zeitlin_torus", 31));
  // Sparse: two components per bracket at most, so at most k(k - 1) constants.
  EXPECT_LE(constants.size(), 960u * 959u);
  EXPECT_GT(constants.size(), 100000u);
}

// The Jacobi check fails on a perturbed constant: exactly on every triple (so(4)), and at random
// elements above dimension 120 (the torus at N = 13, 168 elements).
TEST(LieAlgebraFamilies, TheJacobiCheckCatchesAPerturbedConstant) {
  for (const auto& [family, size] :
       std::vector<std::pair<std::string, int>>{{"so", 4}, {"zeitlin_torus", 13}}) {
    const LieAlgebraBasis basis = families::LieAlgebraBasisOf(family, size);
    auto constants = families::StructureConstants(basis);
    EXPECT_NO_THROW(families::CheckJacobi(basis, constants));
    constants[constants.size() / 2].value *= 1.0 + 1e-6;
    try {
      families::CheckJacobi(basis, constants);
      ADD_FAILURE() << family << ": the perturbed constants passed";
    } catch (const FamilyError& e) {
      EXPECT_NE(std::string(e.what()).find("Jacobi"), std::string::npos) << e.what();
    }
  }
}

TEST(LieAlgebraFamilies, BadFamiliesAndSizesAreRefused) {
  EXPECT_THROW(families::LieAlgebraBasisOf("sp", 4), FamilyError);
  EXPECT_THROW(families::LieAlgebraBasisOf("zeitlin_torus", 4), FamilyError);
  EXPECT_THROW(families::LieAlgebraBasisOf("so", 1), FamilyError);
  EXPECT_THROW(families::LieAlgebraBasisOf("zeitlin_torus", 43), FamilyError);
}

// ---- the scenario format --------------------------------------------------------------------

std::string TorusText(int N, const std::string& momentum, double t_end, double tol,
                      double step = 0.5) {
  std::ostringstream text;
  text << "name: torus\nalgebroid:\n  algebra: {family: zeitlin_torus, size: " << N
       << "}\n  inertia: laplacian\n  initial_momentum: {" << momentum << "}\n"
       << "simulation: {t_end: " << t_end << ", output_step: " << step << ", rtol: " << tol
       << ", atol: " << tol << "}\n";
  return text.str();
}

void ExpectRefused(const std::string& text, std::size_t line, const std::string& symbol) {
  try {
    ParseScenario(text, "bad.yaml");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.symbol(), symbol) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.yaml"), std::string::npos);
  }
}

TEST(LieAlgebraFormat, BadInputNamesFileLineAndSymbol) {
  ExpectRefused("name: x\nalgebroid:\n  algebra: {family: sp, size: 4}\n  inertia: laplacian\n", 3,
                "sp");
  ExpectRefused(TorusText(4, "c1_0: 1", 1, 1e-8), 3, "zeitlin_torus");
  ExpectRefused(TorusText(5, "c9_0: 1", 1, 1e-8), 5, "c9_0");
  ExpectRefused("name: x\nalgebroid:\n  algebra: {family: so, size: 3}\n  inertia: laplacian\n", 4,
                "laplacian");
  ExpectRefused(
      "name: x\nalgebroid:\n  algebra: {family: so, size: 3}\n  inertia: {diagonal: [1, 2]}\n", 4,
      "diagonal");
  ExpectRefused(
      "name: x\nalgebroid:\n  algebra: {family: so, size: 3}\n  fibre: [{name: w1}]\n"
      "lagrangian: w1^2\n",
      4, "fibre");
  ExpectRefused(
      "name: x\nalgebroid:\n  algebra: {family: so, size: 3}\n  inertia: {diagonal: [1, 2, k]}\n",
      3, "k");
}

TEST(LieAlgebraFormat, TheShippedScenarioReadsAndRoundTrips) {
  const Scenario s = LoadScenario(testing::SourcePath("scenarios/ideal_fluid_torus.yaml"));
  ASSERT_TRUE(s.algebroid.algebra.present);
  EXPECT_EQ(s.algebroid.algebra.size, 15);
  EXPECT_EQ(s.algebroid.fibre.size(), 224u);
  EXPECT_TRUE(s.lagrangian_generated);
  // initial_momentum c1_0 = 1 (|m|² = 1), c0_2 = 0.8 (|m|² = 4): y = p / |m|².
  for (const auto& y : s.algebroid.fibre) {
    if (y.name == "c1_0") EXPECT_EQ(y.initial, 1.0);
    if (y.name == "c0_2") EXPECT_EQ(y.initial, 0.2);
  }
  const Scenario again = ParseScenario(SaveScenarioToString(s), "again.yaml");
  EXPECT_EQ(again.lagrangian, s.lagrangian);
  ASSERT_EQ(again.algebroid.fibre.size(), s.algebroid.fibre.size());
  for (std::size_t i = 0; i < s.algebroid.fibre.size(); ++i)
    EXPECT_EQ(again.algebroid.fibre[i].initial, s.algebroid.fibre[i].initial);
}

TEST(LieAlgebraFormat, DiagonalInertiaOnSo3IsTheRigidBody) {
  // so(3) with inertia diag(I3, I2, I1) on (E_12, E_13, E_23) against scenarios/rigid_body.yaml:
  // the hat map gives E_12 = -e3^, E_13 = e2^, E_23 = -e1^, so w1 = -w2_3, w2 = w1_3,
  // w3 = -w1_2 (an isomorphism of Lie algebras): the same motion.
  const std::string text =
      "name: so3\nparameters: [{name: I1, default: 1.0}, {name: I2, default: 2.0}, "
      "{name: I3, default: 3.0}]\nalgebroid:\n  algebra: {family: so, size: 3}\n"
      "  inertia: {diagonal: [I3, I2, I1]}\n  initial: {w1_2: -0.05, w1_3: 1.0, w2_3: -0.05}\n"
      "simulation: {t_end: 5, output_step: 0.5, rtol: 1e-12, atol: 1e-12}\n";
  const Scenario s = ParseScenario(text, "so3.yaml");
  const auto model = BuildModel(s);
  const Trajectory a = model->Simulate(SimulationInput::FromScenario(s));
  Scenario body = LoadScenario(testing::SourcePath("scenarios/rigid_body.yaml"));
  body.simulation = s.simulation;
  const Trajectory b = BuildModel(body)->Simulate(SimulationInput::FromScenario(body));
  const std::size_t last = a.num_rows() - 1;
  ASSERT_EQ(b.num_rows(), a.num_rows());
  EXPECT_NEAR(-a.at(last, a.ColumnIndex("w2_3")), b.at(last, b.ColumnIndex("w1")), 1e-9);
  EXPECT_NEAR(a.at(last, a.ColumnIndex("w1_3")), b.at(last, b.ColumnIndex("w2")), 1e-9);
  EXPECT_NEAR(-a.at(last, a.ColumnIndex("w1_2")), b.at(last, b.ColumnIndex("w3")), 1e-9);
  EXPECT_GT(std::abs(a.at(last, a.ColumnIndex("w1_2")) + 0.05), 0.1);  // it moved
}

// ---- Zeitlin against the hand-written matrix form -------------------------------------------

struct TorusRun {
  LieAlgebraBasis basis;
  Trajectory trajectory;
  // Vorticity (the momentum p = |m|² y) of element a at row r.
  double Omega(std::size_t row, std::size_t a) const {
    return basis.laplacian[a] * trajectory.at(row, 1 + a);
  }
};

TorusRun RunTorus(int N, const std::string& momentum, double t_end, double tol, double step) {
  const Scenario s = ParseScenario(TorusText(N, momentum, t_end, tol, step), "torus.yaml");
  TorusRun run{families::LieAlgebraBasisOf("zeitlin_torus", N), {}};
  run.trajectory = BuildModel(s)->Simulate(SimulationInput::FromScenario(s));
  return run;
}

// A smooth state with every mode present: ω_m = 0.6 exp(-|m|²/4) cos(1.7 a + 0.3).
std::string SmoothMomentum(int N) {
  const LieAlgebraBasis basis = families::LieAlgebraBasisOf("zeitlin_torus", N);
  std::ostringstream text;
  text.precision(17);
  for (std::size_t a = 0; a < basis.dimension(); ++a)
    text << (a ? ", " : "") << basis.names[a] << ": "
         << 0.6 * std::exp(-basis.laplacian[a] / 4) * std::cos(1.7 * static_cast<double>(a) + 0.3);
  return text.str();
}

TEST(ZeitlinTorus, SameMotionAsTheHandWrittenMatrixForm) {
  for (int N : {5, 7, 15}) {
    SCOPED_TRACE("N = " + std::to_string(N));
    const TorusRun run = RunTorus(N, SmoothMomentum(N), 10.0, 1e-13, 10.0);
    const testing::ZeitlinMatrixForm form(N);
    const LieAlgebraBasis& basis = run.basis;
    auto initial = [&](int m1, int m2, bool sine) {
      for (std::size_t a = 0; a < basis.dimension(); ++a)
        if (basis.modes[a][0] == m1 && basis.modes[a][1] == m2 && basis.sine[a] == sine)
          return run.Omega(0, a);
      return 0.0;
    };
    const auto W = form.Integrate(form.FromReal(initial), 10.0, 20000);
    const std::size_t last = run.trajectory.num_rows() - 1;
    ASSERT_EQ(run.trajectory.at(last, 0), 10.0);
    double worst = 0.0, moved = 0.0;
    for (std::size_t a = 0; a < basis.dimension(); ++a) {
      const double expected = form.Real(W, basis.modes[a][0], basis.modes[a][1], basis.sine[a]);
      worst = std::max(worst, std::abs(run.Omega(last, a) - expected));
      moved = std::max(moved, std::abs(run.Omega(last, a) - run.Omega(0, a)));
    }
    EXPECT_LT(worst, 1e-10);
    EXPECT_GT(moved, 1e-2);  // a real motion, not a stationary state
    std::cout << "[ zeitlin  ] N = " << N
              << ": max |omega_engine - omega_matrix| at T = 10: " << worst << " (motion " << moved
              << ")\n";
  }
}

// The model's right-hand side (Model::MakeRightHandSide, what benchmarks and tools call) is the
// matrix form's rate W' = [P, W] read in the basis, at a state with every mode present.
TEST(ZeitlinTorus, RightHandSideIsTheMatrixFormsRate) {
  const int N = 9;
  const Scenario s = ParseScenario(TorusText(N, SmoothMomentum(N), 1.0, 1e-10, 0.5), "torus.yaml");
  const auto model = BuildModel(s);
  const SimulationInput input = SimulationInput::FromScenario(s);
  const std::optional<RightHandSide> rhs = model->MakeRightHandSide(input);
  ASSERT_TRUE(rhs.has_value());
  const LieAlgebraBasis basis = families::LieAlgebraBasisOf("zeitlin_torus", N);
  ASSERT_EQ(rhs->state.size(), basis.dimension());
  ASSERT_EQ(rhs->names, basis.names);
  std::vector<double> ydot(rhs->state.size());
  ASSERT_TRUE(rhs->rates(0.0, rhs->state.data(), ydot.data()));
  const testing::ZeitlinMatrixForm form(N);
  const auto W = form.FromReal([&](int m1, int m2, bool sine) {
    for (std::size_t a = 0; a < basis.dimension(); ++a)
      if (basis.modes[a][0] == m1 && basis.modes[a][1] == m2 && basis.sine[a] == sine)
        return basis.laplacian[a] * rhs->state[a];
    return 0.0;
  });
  const auto rate = form.Rate(W);
  double worst = 0.0, scale = 0.0;
  for (std::size_t a = 0; a < basis.dimension(); ++a) {
    const double expected = form.Real(rate, basis.modes[a][0], basis.modes[a][1], basis.sine[a]);
    worst = std::max(worst, std::abs(basis.laplacian[a] * ydot[a] - expected));
    scale = std::max(scale, std::abs(expected));
  }
  EXPECT_GT(scale, 1e-2);
  EXPECT_LT(worst, 1e-12 * std::max(1.0, scale));
  std::cout << "[ zeitlin  ] N = " << N << ": max |rate_engine - rate_matrix| = " << worst
            << " (scale " << scale << ")\n";
  SimulationInput wrong = input;
  wrong.v0.pop_back();
  EXPECT_THROW(model->MakeRightHandSide(wrong), ModelError);
}

// ---- stationary states and conservation -----------------------------------------------------

double MaxChange(const TorusRun& run) {
  double worst = 0.0;
  const std::size_t last = run.trajectory.num_rows() - 1;
  for (std::size_t a = 0; a < run.basis.dimension(); ++a)
    worst = std::max(worst, std::abs(run.Omega(last, a) - run.Omega(0, a)));
  return worst;
}

TEST(ZeitlinTorus, SingleShellAndShearFlowsAreStationary) {
  // |m|² = 5: (1, 2), (2, 1), (1, -2), (2, -1).
  const TorusRun shell =
      RunTorus(11, "c1_2: 0.7, s1_2: -0.4, c2_1: 0.5, s2_m1: 0.9, c1_m2: -0.6, s2_1: 0.3", 10.0,
               1e-12, 10.0);
  EXPECT_LE(MaxChange(shell), 1e-12);
  // ω(x) only: wave vectors (m1, 0).
  const TorusRun shear =
      RunTorus(11, "c1_0: 1.0, s1_0: 0.3, c2_0: -0.5, c3_0: 0.25, s4_0: 0.1", 10.0, 1e-12, 10.0);
  EXPECT_LE(MaxChange(shear), 1e-12);
  // Not every state is: two shells interact.
  const TorusRun mixed = RunTorus(11, "c1_0: 1.0, c0_2: 0.8", 10.0, 1e-12, 10.0);
  EXPECT_GT(MaxChange(mixed), 1e-2);
}

TEST(ZeitlinTorus, EnergyAndEveryCasimirAreConserved) {
  const int N = 9;
  const TorusRun run = RunTorus(N, SmoothMomentum(N), 10.0, 1e-12, 0.5);
  const Trajectory& t = run.trajectory;
  const std::size_t E = t.ColumnIndex("E"), drift = t.ColumnIndex("casimir_drift");
  double energy_drift = 0.0, casimir_drift = 0.0;
  std::vector<double> relative(N + 1, 0.0);
  for (std::size_t r = 0; r < t.num_rows(); ++r) {
    energy_drift = std::max(energy_drift, std::abs(t.at(r, E) / t.at(0, E) - 1.0));
    casimir_drift = std::max(casimir_drift, t.at(r, drift));
    for (int k = 2; k <= N; k += 2) {  // even powers: tr((iW)^k) > 0
      const std::size_t c = t.ColumnIndex("casimir" + std::to_string(k));
      relative[k] = std::max(relative[k], std::abs(t.at(r, c) / t.at(0, c) - 1.0));
    }
  }
  EXPECT_LT(energy_drift, 1e-10);
  EXPECT_LT(casimir_drift, 1e-10);
  for (int k = 2; k <= N; k += 2) EXPECT_LT(relative[k], 1e-10) << "k = " << k;
  // The energy is Σ |ω_m|² / (2 |m|²) of the run's vorticity.
  double energy = 0.0;
  for (std::size_t a = 0; a < run.basis.dimension(); ++a)
    energy += run.Omega(0, a) * run.Omega(0, a) / (2 * run.basis.laplacian[a]);
  EXPECT_NEAR(t.at(0, E), energy, 1e-14 * energy);
  // The Casimir columns are those of the hand-written matrix form's W (up to the sign of i).
  const testing::ZeitlinMatrixForm form(N);
  auto initial = [&](int m1, int m2, bool sine) {
    for (std::size_t a = 0; a < run.basis.dimension(); ++a)
      if (run.basis.modes[a][0] == m1 && run.basis.modes[a][1] == m2 && run.basis.sine[a] == sine)
        return run.Omega(0, a);
    return 0.0;
  };
  Eigen::MatrixXcd power = Eigen::MatrixXcd::Identity(N, N);
  const Eigen::MatrixXcd iW = Complex(0.0, 1.0) * form.FromReal(initial);
  for (int k = 1; k <= 4; ++k) {
    power = power * iW;
    if (k >= 2)
      EXPECT_NEAR(t.at(0, t.ColumnIndex("casimir" + std::to_string(k))), power.trace().real(),
                  1e-10 * std::abs(power.trace().real()) + 1e-12);
  }
}

// ---- the continuum limit: against a pseudo-spectral 2D Euler solver --------------------------

// ω_t + u·∇ω = 0 on [0, 2π)², u = (−ψ_y, ψ_x), Δψ = ω; Fourier coefficients on a G x G grid,
// the product on the grid with the 2/3 rule, RK4. `sign` = −1 runs the time-reversed flow.
class PseudoSpectral {
 public:
  explicit PseudoSpectral(int G) : G_(G), hat_(Eigen::MatrixXcd::Zero(G, G)) {}
  int Wave(int i) const { return i < G_ / 2 ? i : i - G_; }
  void Set(int m1, int m2, Complex value) {
    hat_((m1 % G_ + G_) % G_, (m2 % G_ + G_) % G_) += value;
  }
  Complex Get(int m1, int m2) const { return hat_((m1 % G_ + G_) % G_, (m2 % G_ + G_) % G_); }

  void Integrate(double T, int steps, double sign) {
    const double h = T / steps;
    for (int i = 0; i < steps; ++i) {
      const Eigen::MatrixXcd k1 = Rate(hat_, sign), k2 = Rate(hat_ + 0.5 * h * k1, sign),
                             k3 = Rate(hat_ + 0.5 * h * k2, sign), k4 = Rate(hat_ + h * k3, sign);
      hat_ += (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
  }

 private:
  // Coefficients -> grid values (inverse) and back (c_k with f(x) = Σ c_k e^{ik·x}): one
  // transform of the rows, then of the columns.
  Eigen::MatrixXcd Transform(const Eigen::MatrixXcd& from, bool inverse) const {
    const double scale = inverse ? static_cast<double>(G_) : 1.0 / G_;
    Eigen::MatrixXcd out = from;
    Eigen::VectorXcd in(G_), tmp(G_);
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < G_; ++i) {
        in = pass == 0 ? Eigen::VectorXcd(out.row(i).transpose()) : Eigen::VectorXcd(out.col(i));
        if (inverse)
          fft_.inv(tmp, in);
        else
          fft_.fwd(tmp, in);
        if (pass == 0)
          out.row(i) = tmp.transpose() * scale;
        else
          out.col(i) = tmp * scale;
      }
    return out;
  }
  Eigen::MatrixXcd Grid(const Eigen::MatrixXcd& c) const { return Transform(c, true); }
  Eigen::MatrixXcd Coefficients(const Eigen::MatrixXcd& f) const { return Transform(f, false); }
  Eigen::MatrixXcd Rate(const Eigen::MatrixXcd& w, double sign) const {
    Eigen::MatrixXcd ux(G_, G_), uy(G_, G_), wx(G_, G_), wy(G_, G_);
    const Complex i1(0.0, 1.0);
    for (int a = 0; a < G_; ++a)
      for (int b = 0; b < G_; ++b) {
        const double k1 = Wave(a), k2 = Wave(b), k = k1 * k1 + k2 * k2;
        const Complex psi = k > 0 ? -w(a, b) / k : 0.0;
        ux(a, b) = -i1 * k2 * psi;
        uy(a, b) = i1 * k1 * psi;
        wx(a, b) = i1 * k1 * w(a, b);
        wy(a, b) = i1 * k2 * w(a, b);
      }
    const Eigen::MatrixXcd product =
        Grid(ux).cwiseProduct(Grid(wx)) + Grid(uy).cwiseProduct(Grid(wy));
    Eigen::MatrixXcd rate = -sign * Coefficients(product);
    for (int a = 0; a < G_; ++a)
      for (int b = 0; b < G_; ++b)
        if (3 * std::abs(Wave(a)) >= G_ || 3 * std::abs(Wave(b)) >= G_) rate(a, b) = 0.0;
    return rate;
  }

  int G_;
  Eigen::MatrixXcd hat_;
  mutable Eigen::FFT<double> fft_;
};

TEST(ZeitlinTorus, ConvergesToTwoDimensionalEulerAsNGrows) {
  // ω0 = cos x + 0.8 cos 2y + 0.5 sin(x + y) + 0.3 cos(2x - y), to t = 1.
  const std::string momentum = "c1_0: 1.0, c0_2: 0.8, s1_1: 0.5, c2_m1: 0.3";
  auto reference = [](double sign) {
    PseudoSpectral flow(48);
    const Complex i1(0.0, 1.0);
    for (auto [m1, m2, c, s] : std::vector<std::tuple<int, int, double, double>>{
             {1, 0, 1.0, 0.0}, {0, 2, 0.8, 0.0}, {1, 1, 0.0, 0.5}, {2, -1, 0.3, 0.0}}) {
      flow.Set(m1, m2, Complex(c, -s) / 2.0);
      flow.Set(-m1, -m2, Complex(c, s) / 2.0);
    }
    flow.Integrate(1.0, 1000, sign);
    return flow;
  };
  const PseudoSpectral forward = reference(1.0), backward = reference(-1.0);
  // Compared on the modes of N = 7 (|m_i| <= 3).
  auto error = [](const TorusRun& run, const PseudoSpectral& flow) {
    double worst = 0.0;
    const std::size_t last = run.trajectory.num_rows() - 1;
    for (std::size_t a = 0; a < run.basis.dimension(); ++a) {
      const auto [m1, m2] = run.basis.modes[a];
      if (std::abs(m1) > 3 || std::abs(m2) > 3) continue;
      const Complex c = flow.Get(m1, m2);
      const double expected = run.basis.sine[a] ? -2.0 * c.imag() : 2.0 * c.real();
      worst = std::max(worst, std::abs(run.Omega(last, a) - expected));
    }
    return worst;
  };
  std::vector<int> sizes{7, 9, 11, 15, 21, 31};
  std::vector<double> errors;
  for (int N : sizes) {
    const TorusRun run = RunTorus(N, momentum, 1.0, 1e-12, 1.0);
    errors.push_back(error(run, forward));
    const double wrong_sign = error(run, backward);
    std::cout << "[ zeitlin  ] N = " << N
              << ": max mode error against 2D Euler at t = 1: " << errors.back()
              << " (time-reversed flow: " << wrong_sign << ")\n";
    // The sign of the continuum limit: the time-reversed flow stays O(1) away (0.7 ... 0.85).
    EXPECT_GT(wrong_sign, 2 * errors.back());
    if (N == 31) EXPECT_GT(wrong_sign, 20 * errors.back());
  }
  for (std::size_t i = 1; i < errors.size(); ++i) EXPECT_LT(errors[i], errors[i - 1]);
  const double rate = std::log(errors.back() / errors.front()) / std::log(31.0 / 7.0);
  std::cout << "[ zeitlin  ] observed rate N = 7 ... 31: error ~ N^" << rate << "\n";
  EXPECT_LT(rate, -1.5);  // observed -1.8 (0.278 at N = 7, 0.0186 at N = 31)
}

}  // namespace
}  // namespace dirac
