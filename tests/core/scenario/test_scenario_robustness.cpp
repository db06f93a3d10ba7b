// Robustness: mutated scenario files must fail with a dirac::Error (file, line, symbol) or
// load and derive; never crash or leak another exception type.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "canonical_problems.hpp"
#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string Mutate(const std::string& text, std::mt19937& rng) {
  std::string out = text;
  std::uniform_int_distribution<int> kind(0, 4);
  const std::string alphabet = "xyz0123456789+-*/^()[]{}:,'\"# \n=_abcpv.";
  for (int edits = 1 + static_cast<int>(rng() % 4); edits > 0 && !out.empty(); --edits) {
    const std::size_t at = rng() % out.size();
    switch (kind(rng)) {
      case 0:
        out.erase(at, 1 + rng() % 12);
        break;  // delete a run
      case 1:
        out.insert(at, 1, alphabet[rng() % alphabet.size()]);
        break;  // insert a char
      case 2:
        out[at] = alphabet[rng() % alphabet.size()];
        break;   // replace a char
      case 3: {  // drop a line
        const std::size_t begin = out.rfind('\n', at), end = out.find('\n', at);
        if (begin != std::string::npos && end != std::string::npos) out.erase(begin, end - begin);
        break;
      }
      default:
        out.insert(at, out.substr(rng() % out.size(), 1 + rng() % 20));  // duplicate
    }
  }
  return out;
}

TEST(ScenarioRobustness, MutatedFilesFailCleanly) {
  std::mt19937 rng(1234);
  int loaded = 0, refused = 0;
  for (const char* name : {"heisenberg.yaml", "degenerate.yaml", "lc_circuit.yaml",
                           "vakonomic_heisenberg.yaml", "elroys_beanie.yaml", "suslov.yaml"}) {
    const std::string original = ReadFile(testing::SourcePath(std::string("scenarios/") + name));
    for (int trial = 0; trial < 60; ++trial) {
      const std::string text = Mutate(original, rng);
      try {
        const Scenario s = ParseScenario(text, name);
        const auto model = BuildModel(s);
        const ConstraintChain* chain = model->constraint_chain();
        if (!chain || chain->outcome == ChainOutcome::kStabilized) {
          EXPECT_FALSE(model->TrajectoryColumns().empty());
          SimulationInput input = SimulationInput::FromScenario(s);
          input.spec.t_end = std::min(input.spec.t_end, 0.05);
          try {
            const Trajectory tr = model->Simulate(input);
            EXPECT_GE(tr.num_rows(), 1u);
          } catch (const Error&) {
            // A mutated model may be singular at its initial point: refused with a reason.
          }
        } else {
          EXPECT_THROW(model->Simulate(SimulationInput::FromScenario(s)), ModelError);
        }
        ++loaded;
      } catch (const ScenarioError& e) {
        ++refused;
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      } catch (const Error&) {
        ++refused;  // ModelError: e.g. a degenerate or non-linear result, with its reason
      } catch (const std::exception& e) {
        ADD_FAILURE() << "non-dirac exception for mutation of " << name << ": " << e.what()
                      << "\n--- text ---\n"
                      << text;
      }
    }
  }
  EXPECT_GT(refused, 50);
  EXPECT_GT(loaded, 5);
}

}  // namespace
}  // namespace dirac
