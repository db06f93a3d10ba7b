// Stage reports and cancellation of derivations (dirac/derivation_control.hpp): every
// derivation path names its stages, a set cancel flag stops it at the next checkpoint with
// DerivationCancelled (never a ModelError a fallback would catch, never a result), and a
// cancelled thread derives normally afterwards. Cancellation is triggered from the stage
// callback, so the tests are deterministic (no timing).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/families.hpp"
#include "dirac/scenario.hpp"

namespace dirac {
namespace {

Scenario Shipped(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

Scenario Generated(std::string_view family, int n) {
  return ParseScenario(GenerateFamilyScenario(family, n), std::string(family) + ".yaml");
}

// The stages BuildModel reports for `scenario`, with no cancellation.
std::vector<std::string> StagesOf(const Scenario& scenario) {
  std::vector<std::string> stages;
  DerivationScope scope({nullptr, [&](const std::string& stage) { stages.push_back(stage); }});
  EXPECT_NE(BuildModel(scenario), nullptr);
  return stages;
}

bool Contains(const std::vector<std::string>& stages, const std::string& stage) {
  return std::find(stages.begin(), stages.end(), stage) != stages.end();
}

TEST(DerivationControl, EveryPathNamesItsStages) {
  const auto regular = StagesOf(Shipped("heisenberg.yaml"));
  EXPECT_TRUE(Contains(regular, "differentiating the Lagrangian"));
  EXPECT_TRUE(Contains(regular, "deciding regularity (the rank of W)"));
  EXPECT_TRUE(Contains(regular, "compiling the residual"));
  const auto degenerate = StagesOf(Shipped("degenerate.yaml"));
  EXPECT_TRUE(Contains(degenerate, "the constraint algorithm, step 1"));
  EXPECT_TRUE(Contains(degenerate, "compiling the tapes"));
  const auto vortices = StagesOf(Generated("point_vortices", 8));
  EXPECT_TRUE(Contains(vortices, "deriving the first-order system B(q) q' = -dH"));
}

// Sets the cancel flag when the derivation enters `at`; BuildModel must then throw
// DerivationCancelled (and must have reached `at`).
void ExpectCancelledAt(const Scenario& scenario, const std::string& at) {
  std::atomic<bool> cancel{false};
  bool reached = false;
  DerivationScope scope({&cancel, [&](const std::string& stage) {
                           if (stage != at) return;
                           reached = true;
                           cancel = true;
                         }});
  EXPECT_THROW(BuildModel(scenario), DerivationCancelled) << at;
  EXPECT_TRUE(reached) << at;
}

TEST(DerivationControl, ACancelledDerivationThrowsAtTheNextCheckpointOnEveryPath) {
  ExpectCancelledAt(Shipped("heisenberg.yaml"), "differentiating the Lagrangian");
  ExpectCancelledAt(Shipped("heisenberg.yaml"), "compiling the Jacobians");
  ExpectCancelledAt(Shipped("degenerate.yaml"), "the constraint algorithm, step 1");
  ExpectCancelledAt(Shipped("so3_spline.yaml"), "building the presymplectic system");
  ExpectCancelledAt(Generated("point_vortices", 16),
                    "deciding the constraint chain by generic ranks");
  ExpectCancelledAt(Generated("pendulum_chain", 30), "compiling the residual");
}

TEST(DerivationControl, ThePresetFlagStopsBeforeAnyWorkAndTheThreadDerivesAfterwards) {
  const Scenario chain = Generated("pendulum_chain", 12);
  {
    std::atomic<bool> cancel{true};
    DerivationScope scope({&cancel, {}});
    EXPECT_THROW(BuildModel(chain), DerivationCancelled);
  }
  const auto model = BuildModel(chain);  // the scope is gone: no cancellation
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->initial_values().size(), 24u);  // 12 angles and their rates
}

TEST(DerivationControl, ScopesNestAndAnotherThreadIsNotAffected) {
  std::atomic<bool> outer_cancel{true};
  DerivationScope outer({&outer_cancel, {}});
  {
    std::atomic<bool> inner_cancel{false};
    DerivationScope inner({&inner_cancel, {}});
    EXPECT_NO_THROW(CheckDerivationCancelled());  // the innermost scope decides
  }
  EXPECT_THROW(CheckDerivationCancelled(), DerivationCancelled);
  std::shared_ptr<const Model> other;
  std::thread worker([&] { other = BuildModel(Shipped("heisenberg.yaml")); });
  worker.join();
  EXPECT_NE(other, nullptr);
}

TEST(DerivationControl, ACancelFromAnotherThreadEndsALongDerivation) {
  // A 40-link chain derives for about half a second in a Release build; the flag is set as soon
  // as the derivation reports its first stage. Whatever the machine's speed, the derivation must
  // end with DerivationCancelled, not with a model.
  const Scenario chain = Generated("pendulum_chain", 40);
  std::atomic<bool> cancel{false}, started{false};
  bool cancelled = false;
  std::thread worker([&] {
    DerivationScope scope({&cancel, [&](const std::string&) { started = true; }});
    try {
      BuildModel(chain);
    } catch (const DerivationCancelled&) {
      cancelled = true;
    }
  });
  while (!started) std::this_thread::sleep_for(std::chrono::microseconds(100));
  cancel = true;
  worker.join();
  EXPECT_TRUE(cancelled);
}

}  // namespace
}  // namespace dirac
