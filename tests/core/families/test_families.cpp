// The generated scenario families (dirac/families.hpp) and `dirac generate`: every size of
// every family reads as a valid scenario of the stated shape, so(n)'s brackets are the textbook
// structure constants, bad input is refused. The motion is checked against SymPy + SciPy by the
// ctest tests family_reference.* (tests/reference/).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

Scenario Generated(std::string_view family, int n) {
  return ParseScenario(GenerateFamilyScenario(family, n),
                       std::string(family) + "-" + std::to_string(n) + ".yaml");
}

TEST(Families, TheFourFamiliesWithTheirRanges) {
  std::map<std::string, std::pair<int, int>> ranges;
  for (const FamilyInfo& f : Families()) ranges[std::string(f.name)] = {f.min_size, f.max_size};
  const std::map<std::string, std::pair<int, int>> expected = {{"pendulum_chain", {2, 40}},
                                                               {"rigid_body_so", {3, 12}},
                                                               {"point_vortices", {2, 32}},
                                                               {"car_trailers", {1, 20}}};
  EXPECT_EQ(ranges, expected);
}

// Every size of every family reads back (the reader checks names, expressions, the plots'
// columns and, for so(n), antisymmetry and the Jacobi identity), with the documented shape.
TEST(Families, EverySizeIsAValidScenarioOfTheStatedShape) {
  for (const FamilyInfo& f : Families()) {
    for (int n = f.min_size; n <= f.max_size; ++n) {
      SCOPED_TRACE(std::string(f.name) + " " + std::to_string(n));
      const Scenario s = Generated(f.name, n);
      EXPECT_EQ(s.simulation.rtol, 1e-12);
      EXPECT_EQ(s.simulation.atol, 1e-12);
      EXPECT_GT(s.simulation.t_end, 0.0);
      if (f.name == "pendulum_chain") {
        EXPECT_EQ(s.coordinates.size(), std::size_t(n));
        EXPECT_TRUE(s.constraints.empty());
      } else if (f.name == "rigid_body_so") {
        EXPECT_TRUE(s.coordinates.empty());
        EXPECT_EQ(s.algebroid.fibre.size(), std::size_t(n * (n - 1) / 2));
        EXPECT_EQ(s.parameters.size(), std::size_t(n));
      } else if (f.name == "point_vortices") {
        EXPECT_EQ(s.coordinates.size(), std::size_t(2 * n));
        EXPECT_EQ(s.formulation, Formulation::kLagrangeDirac);
      } else {
        EXPECT_EQ(s.coordinates.size(), std::size_t(n + 3));
        EXPECT_EQ(s.constraints.size(), std::size_t(n + 1));
      }
    }
  }
}

// The chain written with bodies moves as the chain's Lagrangian written by hand (the summed form
// the generator wrote before it used bodies): bob k at l sum_{j<=k} (sin th_j, -cos th_j), the
// pair (i, j) counted n + 1 - max(i, j) times. Every angle and rate agree to 1e-10 over 10 s.
std::string HandWrittenChain(int n) {
  auto th = [](int i) { return "th" + std::to_string(i); };
  auto vth = [](int i) { return "vth" + std::to_string(i); };
  auto weight = [n](int i, int j) { return std::to_string(n + 1 - std::max(i, j)); };
  std::string text = "name: chain\ncoordinates:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + th(k) + ", velocity: " + vth(k) + ", initial: 0.2}\n";
  text +=
      "parameters:\n  - {name: m, default: 1}\n  - {name: l, default: 1}\n"
      "  - {name: g, default: 9.81}\n";
  std::string kinetic, potential;
  for (int i = 1; i <= n; ++i) {
    kinetic += " + " + weight(i, i) + "*" + vth(i) + "^2";
    for (int j = i + 1; j <= n; ++j)
      kinetic +=
          " + 2*" + weight(i, j) + "*cos(" + th(i) + " - " + th(j) + ")*" + vth(i) + "*" + vth(j);
    potential += " + " + weight(i, i) + "*cos(" + th(i) + ")";
  }
  text += "lagrangian: \"m*l^2/2*(" + kinetic + ") + m*g*l*(" + potential + ")\"\n";
  text += "simulation: {t_end: 10, output_step: 0.01, rtol: 1.0e-12, atol: 1.0e-12}\n";
  return text;
}

TEST(Families, TheChainWrittenWithBodiesMovesAsItsHandWrittenLagrangian) {
  for (int n : {2, 3, 5}) {
    SCOPED_TRACE(n);
    const Scenario bodies = Generated("pendulum_chain", n);
    ASSERT_TRUE(bodies.multibody.present());
    EXPECT_EQ(bodies.multibody.bodies.size(), std::size_t(n));
    const Scenario by_hand = ParseScenario(HandWrittenChain(n), "chain.yaml");
    const Trajectory a = BuildModel(bodies)->Simulate(SimulationInput::FromScenario(bodies));
    const Trajectory b = BuildModel(by_hand)->Simulate(SimulationInput::FromScenario(by_hand));
    ASSERT_EQ(a.num_rows(), b.num_rows());
    ASSERT_EQ(a.num_rows(), 1001u);
    double worst = 0;
    for (int k = 1; k <= n; ++k)
      for (const std::string name : {"th" + std::to_string(k), "vth" + std::to_string(k)}) {
        const auto x = a.Column(name), y = b.Column(name);
        for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
      }
    EXPECT_LT(worst, 1e-10);
    const auto e = a.Column("E"), f = b.Column("E");
    EXPECT_NEAR(e.back(), f.back(), 1e-10);
    EXPECT_NEAR(e.back(), e.front(), 1e-9 * std::abs(e.front()));
  }
}

TEST(Families, TheSameInputGivesTheSameBytes) {
  for (const FamilyInfo& f : Families())
    EXPECT_EQ(GenerateFamilyScenario(f.name, f.max_size),
              GenerateFamilyScenario(f.name, f.max_size));
}

// [E_ij, E_kl] = δ_jk E_il − δ_ik E_jl − δ_jl E_ik + δ_il E_jk, written out independently of the
// generator (which multiplies matrices), with E_ba = −E_ab.
TEST(Families, SoNBracketsAreTheStructureConstantsOfSoN) {
  for (int n : {3, 4, 7}) {
    SCOPED_TRACE(n);
    const Scenario s = Generated("rigid_body_so", n);
    auto name = [](int i, int j) { return "w" + std::to_string(i) + "_" + std::to_string(j); };
    // Textbook value of [E_ij, E_kl] as {name: coefficient}.
    auto textbook = [&](int i, int j, int k, int l) {
      std::map<std::string, int> value;
      auto add = [&](int sign, int a, int b) {
        if (a == b) return;
        if (a > b) std::swap(a, b), sign = -sign;
        if ((value[name(a, b)] += sign) == 0) value.erase(name(a, b));
      };
      if (j == k) add(1, i, l);
      if (i == k) add(-1, j, l);
      if (j == l) add(-1, i, k);
      if (i == l) add(1, j, k);
      return value;
    };
    std::map<std::pair<std::string, std::string>, std::map<std::string, int>> listed;
    for (const BracketSpec& b : s.algebroid.brackets)
      for (const auto& [section, value] : b.value) listed[{b.a, b.b}][section] = std::stoi(value);
    std::size_t nonzero = 0;
    for (int i = 1; i <= n; ++i)
      for (int j = i + 1; j <= n; ++j)
        for (int k = 1; k <= n; ++k)
          for (int l = k + 1; l <= n; ++l) {
            if (std::make_pair(i, j) >= std::make_pair(k, l)) continue;
            const auto expected = textbook(i, j, k, l);
            const auto it = listed.find({name(i, j), name(k, l)});
            const std::map<std::string, int> none;
            EXPECT_EQ(it == listed.end() ? none : it->second, expected)
                << "[" << name(i, j) << ", " << name(k, l) << "]";
            nonzero += !expected.empty();
          }
    EXPECT_EQ(listed.size(), nonzero);
    EXPECT_EQ(nonzero, std::size_t(n * (n - 1) * (n - 2) / 2));  // pairs sharing one index
  }
}

// `analyze` of a standard system below the generic-rank size (dim M_0 <= 12): the exact
// elimination of a 4- to 6-link chain grows past the work bound, and the chain is read off
// generic ranks instead of refusing the system (issue 21).
TEST(Families, SmallChainsAreAnalysedWhereTheExactEliminationWouldSwell) {
  for (int n = 4; n <= 6; ++n) {
    const ConstraintChain chain = AnalyzeChain(Generated("pendulum_chain", n));
    EXPECT_EQ(chain.outcome, ChainOutcome::kStabilized) << n;
    EXPECT_EQ(chain.final_dimension, static_cast<std::size_t>(2 * n)) << n;
    EXPECT_TRUE(chain.symplectic) << n;
    ASSERT_FALSE(chain.decisions.empty()) << n;
    EXPECT_NE(chain.decisions.front().find("grew past the symbolic work bound"), std::string::npos)
        << chain.decisions.front();
  }
  // Where the exact elimination stays small, it is still the one that decides.
  const ConstraintChain small = AnalyzeChain(Generated("pendulum_chain", 2));
  EXPECT_EQ(small.final_dimension, 4u);
  ASSERT_FALSE(small.decisions.empty());
  EXPECT_EQ(small.decisions.front().rfind("exact:", 0), 0u) << small.decisions.front();
}

TEST(Families, BadInputIsRefusedNamingTheRange) {
  auto message = [](std::string_view family, int n) {
    try {
      GenerateFamilyScenario(family, n);
    } catch (const FamilyError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("pendulum_chain", 1), "family pendulum_chain: size 1 is outside 2 ... 40");
  EXPECT_EQ(message("pendulum_chain", 41), "family pendulum_chain: size 41 is outside 2 ... 40");
  EXPECT_EQ(message("rigid_body_so", 2), "family rigid_body_so: size 2 is outside 3 ... 12");
  EXPECT_EQ(message("car_trailers", -3), "family car_trailers: size -3 is outside 1 ... 20");
  EXPECT_EQ(message("double_pendulum", 2),
            "unknown family 'double_pendulum' (known: pendulum_chain, rigid_body_so, "
            "point_vortices, car_trailers)");
}

// ---- dirac generate -----------------------------------------------------------------------

struct Cli {
  int status;
  std::string out, err;
};

Cli Generate(const std::string& arguments) {
  const fs::path dir = fs::temp_directory_path() / ("dirac-families-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const int raw = std::system((std::string(DIRAC_CLI) + " generate " + arguments + " > " +
                               (dir / "out").string() + " 2> " + (dir / "err").string())
                                  .c_str());
  auto read = [](const fs::path& p) {
    std::stringstream text;
    text << std::ifstream(p).rdbuf();
    return text.str();
  };
  Cli result{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read(dir / "out"), read(dir / "err")};
  fs::remove_all(dir);
  return result;
}

TEST(FamiliesCli, GenerateWritesTheFamilyToStdoutOrAFile) {
  const Cli printed = Generate("point_vortices 5");
  EXPECT_EQ(printed.status, 0) << printed.err;
  EXPECT_EQ(printed.out, GenerateFamilyScenario("point_vortices", 5));

  const fs::path file = fs::temp_directory_path() / ("dirac-gen-" + std::to_string(::getpid()));
  const Cli written = Generate("car_trailers 3 -o " + file.string());
  EXPECT_EQ(written.status, 0) << written.err;
  EXPECT_EQ(written.out, "");
  EXPECT_EQ(Generated("car_trailers", 3).coordinates.size(), LoadScenario(file).coordinates.size());
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  EXPECT_EQ(text.str(), GenerateFamilyScenario("car_trailers", 3));
  fs::remove(file);
}

TEST(FamiliesCli, BadArgumentsAreUsageErrors) {
  for (const char* arguments : {"pendulum_chain 41", "pendulum nope", "pendulum_chain",
                                "pendulum_chain x2", "rigid_body_so 3 4"}) {
    const Cli result = Generate(arguments);
    EXPECT_EQ(result.status, 2) << arguments;
    EXPECT_EQ(result.out, "") << arguments;
    EXPECT_NE(result.err.find("dirac: generate"), std::string::npos) << result.err;
  }
  EXPECT_NE(Generate("pendulum_chain 41").err.find("outside 2 ... 40"), std::string::npos);
  EXPECT_NE(Generate("nope 3").err.find("unknown family 'nope'"), std::string::npos);
}

}  // namespace
}  // namespace dirac
