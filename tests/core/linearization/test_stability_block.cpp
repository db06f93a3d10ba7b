// The scenario's `stability:` block (the window's Stability view) read, written and read back,
// and what the view's worker relies on in core: a sweep over given values equals the CLI's
// evenly spaced one, its cancel flag stops it, and a linearizer moved to other values
// (WithValues) or made from the derived model (FromModel) gives the bits of a fresh one.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/linearization.hpp"
#include "dirac/scenario.hpp"

namespace {

dirac::Scenario Bicycle() {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/whipple_bicycle.yaml");
}

dirac::LinearizationOptions BlockOptions(const dirac::StabilitySpec& spec) {
  dirac::LinearizationOptions options;
  options.ignorable = spec.ignorable;
  options.speeds = spec.speeds;
  options.find = spec.find;
  return options;
}

TEST(StabilityBlock, BicycleBlockReadWrittenAndReadBack) {
  const dirac::Scenario s = Bicycle();
  const dirac::StabilitySpec& spec = s.stability;
  ASSERT_TRUE(spec.present);
  EXPECT_EQ(spec.ignorable, (std::vector<std::string>{"psi", "thetaR", "thetaF"}));
  EXPECT_EQ(spec.speeds, (std::vector<std::string>{"vphi", "vdelta", "vthetaR"}));
  ASSERT_EQ(spec.point.size(), 1u);
  EXPECT_EQ(spec.point[0], (std::pair<std::string, double>{"vphi", 0.0}));
  EXPECT_EQ(spec.vary, "v");
  EXPECT_EQ(spec.from, 0.0);
  EXPECT_EQ(spec.to, 10.0);
  EXPECT_EQ(spec.count, 201u);
  const dirac::Scenario back = dirac::ParseScenario(dirac::SaveScenarioToString(s), "saved.yaml");
  EXPECT_TRUE(back.stability.present);
  EXPECT_EQ(back.stability.ignorable, spec.ignorable);
  EXPECT_EQ(back.stability.speeds, spec.speeds);
  EXPECT_EQ(back.stability.point, spec.point);
  EXPECT_EQ(back.stability.vary, spec.vary);
  EXPECT_EQ(back.stability.from, spec.from);
  EXPECT_EQ(back.stability.to, spec.to);
  EXPECT_EQ(back.stability.count, spec.count);
  EXPECT_FALSE(
      dirac::ParseScenario(dirac::SaveScenarioToString(back), "again.yaml").stability.find);
}

class StabilityCore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scenario_ = Bicycle();
    for (const auto& [name, value] : scenario_.stability.point)
      dirac::ApplyOverride(scenario_, name, value);
    linearizer_ = dirac::Linearizer::Derive(scenario_, BlockOptions(scenario_.stability));
  }
  static void TearDownTestSuite() { linearizer_.reset(); }
  static dirac::Scenario scenario_;
  static std::shared_ptr<const dirac::Linearizer> linearizer_;
};
dirac::Scenario StabilityCore::scenario_;
std::shared_ptr<const dirac::Linearizer> StabilityCore::linearizer_;

TEST_F(StabilityCore, SweepOverGivenValuesEqualsTheEvenlySpacedOne) {
  const dirac::StabilitySweep even = linearizer_->Sweep("v", 0.0, 10.0, 21);
  const dirac::StabilitySweep given =
      linearizer_->Sweep("v", dirac::Linearizer::SweepValues(0.0, 10.0, 21));
  ASSERT_EQ(given.values, even.values);
  EXPECT_EQ(given.values[4], 2.0);
  EXPECT_EQ(given.values.back(), 10.0);
  EXPECT_EQ((given.eigenvalues - even.eigenvalues).cwiseAbs().maxCoeff(), 0.0);
  ASSERT_EQ(given.critical.size(), 2u);
  EXPECT_NEAR(given.critical[0].value, 4.29238253634111, 1e-10);
  EXPECT_NEAR(given.critical[1].value, 6.02426201538837, 1e-10);
  // Descending values: the same critical speeds; "stabilizing" still says what happens as the
  // value grows (the weave turns stable, the capsize mode unstable).
  const dirac::StabilitySweep down = linearizer_->Sweep("v", {8.0, 6.5, 5.0, 4.0, 2.0});
  ASSERT_EQ(down.critical.size(), 2u);
  EXPECT_NEAR(down.critical[0].value, 4.29238253634111, 1e-10);
  EXPECT_NEAR(down.critical[1].value, 6.02426201538837, 1e-10);
  EXPECT_TRUE(down.critical[0].stabilizing);
  EXPECT_FALSE(down.critical[1].stabilizing);
  ASSERT_EQ(down.stable_intervals.size(), 1u);
  EXPECT_THROW(linearizer_->Sweep("v", {1.0, 2.0, 2.0}), dirac::ModelError);
  EXPECT_THROW(linearizer_->Sweep("v", {1.0}), dirac::ModelError);
}

TEST_F(StabilityCore, CancelFlagStopsTheSweep) {
  std::atomic<bool> cancel{true};
  EXPECT_THROW(linearizer_->Sweep("v", {1.0, 2.0, 3.0}, &cancel), dirac::SweepCancelled);
  cancel = false;
  EXPECT_EQ(linearizer_->Sweep("v", {1.0, 2.0, 3.0}, &cancel).values.size(), 3u);
}

TEST_F(StabilityCore, WithValuesAndFromModelGiveTheBitsOfAFreshLinearizer) {
  dirac::Scenario at8 = scenario_;
  dirac::ApplyOverride(at8, "v", 8.0);
  const auto fresh = dirac::Linearizer::Derive(at8, BlockOptions(scenario_.stability));
  const dirac::Linearization a = fresh->Linearize();
  const dirac::Linearization b = linearizer_->WithValues(at8)->Linearize();
  EXPECT_EQ((a.A - b.A).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(a.eigenvalues, b.eigenvalues);
  const std::shared_ptr<const dirac::Model> model = dirac::BuildModel(at8);
  const dirac::Linearization c =
      dirac::Linearizer::FromModel(at8, BlockOptions(scenario_.stability), model)->Linearize();
  EXPECT_LT((a.A - c.A).cwiseAbs().maxCoeff(), 1e-12);
  ASSERT_EQ(a.eigenvalues.size(), c.eigenvalues.size());
  for (std::size_t i = 0; i < a.eigenvalues.size(); ++i)
    EXPECT_LT(std::abs(a.eigenvalues[i] - c.eigenvalues[i]), 1e-12);
}

}  // namespace
