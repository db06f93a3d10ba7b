// Model::MakeRightHandSide: the ODE right-hand side a model's integrator calls, on its own (for
// the per-right-hand-side benchmarks). Checked on the first-order path (a Lagrangian affine in
// the velocities) against Kirchhoff's point-vortex equations written out by hand here:
//   x_i' = -(1/2π) Σ_j G_j (y_i - y_j) / r_ij²,   y_i' = (1/2π) Σ_j G_j (x_i - x_j) / r_ij²,
// the motion of L = Σ G_i (y_i vx_i - x_i vy_i)/2 + (1/4π) Σ_{i<j} G_i G_j log r_ij²
// (core/src/families/point_vortices.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Vortices {
  std::vector<double> x, y, circulation;
};

// Kirchhoff's rates, in the state order x1, y1, x2, y2, ...
std::vector<double> KirchhoffRates(const Vortices& v) {
  const std::size_t n = v.x.size();
  std::vector<double> rates(2 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], r2 = dx * dx + dy * dy;
      rates[2 * i] -= v.circulation[j] * dy / (2.0 * kPi * r2);
      rates[2 * i + 1] += v.circulation[j] * dx / (2.0 * kPi * r2);
    }
  return rates;
}

TEST(RightHandSide, FirstOrderPathGivesKirchhoffsVortexEquations) {
  constexpr int kVortices = 7;  // above the exact chain's size: the first-order path
  const Scenario scenario =
      ParseScenario(GenerateFamilyScenario("point_vortices", kVortices), "vortices-7.yaml");
  const auto model = BuildModel(scenario);
  const SimulationInput input = SimulationInput::FromScenario(scenario);
  const std::optional<RightHandSide> rhs = model->MakeRightHandSide(input);
  ASSERT_TRUE(rhs.has_value()) << model->formulation();
  ASSERT_EQ(rhs->names.size(), 2u * kVortices);
  ASSERT_EQ(rhs->state.size(), 2u * kVortices);

  // Parameters by name (G1 ... G7), states by name (x1, y1, ...).
  std::map<std::string, double> parameter;
  for (std::size_t k = 0; k < scenario.parameters.size(); ++k)
    parameter[scenario.parameters[k].name] = input.parameters[k];
  for (int i = 1; i <= kVortices; ++i) {
    EXPECT_EQ(rhs->names[2 * (i - 1)], "x" + std::to_string(i));
    EXPECT_EQ(rhs->names[2 * (i - 1) + 1], "y" + std::to_string(i));
  }

  // At the initial state and at a displaced one (off the scenario's layout).
  for (const double shift : {0.0, 0.137}) {
    Vortices v;
    std::vector<double> state = rhs->state;
    for (int i = 0; i < kVortices; ++i) {
      state[2 * i] += shift * std::sin(1.0 + i);
      state[2 * i + 1] += shift * std::cos(2.0 + 3 * i);
      v.x.push_back(state[2 * i]);
      v.y.push_back(state[2 * i + 1]);
      v.circulation.push_back(parameter.at("G" + std::to_string(i + 1)));
    }
    std::vector<double> rates(state.size());
    ASSERT_TRUE(rhs->rates(0.0, state.data(), rates.data()));
    const std::vector<double> expected = KirchhoffRates(v);
    double scale = 0.0;
    for (double r : expected) scale = std::max(scale, std::abs(r));
    ASSERT_GT(scale, 1e-3);
    for (std::size_t k = 0; k < rates.size(); ++k)
      EXPECT_NEAR(rates[k], expected[k], 1e-12 * scale) << rhs->names[k] << " shift " << shift;
  }

  // Wrong sizes are a ModelError, not a crash.
  SimulationInput wrong = input;
  wrong.q0.pop_back();
  EXPECT_THROW(model->MakeRightHandSide(wrong), ModelError);
}

TEST(RightHandSide, DaeModelsOfferNone) {
  const Scenario scenario =
      ParseScenario(GenerateFamilyScenario("pendulum_chain", 3), "pendulum-3.yaml");
  const auto model = BuildModel(scenario);
  EXPECT_FALSE(model->MakeRightHandSide(SimulationInput::FromScenario(scenario)).has_value())
      << model->formulation();
}

}  // namespace
}  // namespace dirac
