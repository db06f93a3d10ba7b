// CompiledFunction::CompileToMachineCode: generated C gives the interpreter's bits for every op
// and for derived models, and a missing compiler leaves the interpreter in place.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dirac/compiled_function.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac {
namespace {

using Op = TapeInstruction::Op;

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// Restores DIRAC_CC after a test changes it.
class CompilerOverride {
 public:
  explicit CompilerOverride(const char* value) {
    if (const char* old = std::getenv("DIRAC_CC")) old_ = old, had_ = true;
    ::setenv("DIRAC_CC", value, 1);
  }
  ~CompilerOverride() {
    if (had_) {
      ::setenv("DIRAC_CC", old_.c_str(), 1);
    } else {
      ::unsetenv("DIRAC_CC");
    }
  }

 private:
  std::string old_;
  bool had_ = false;
};

// Every op on a tape of its own, interpreted and as machine code, over many inputs.
TEST(MachineCode, EveryOpGivesTheInterpretersBits) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.05, 0.95);  // in every op's domain
  int compiled = 0;
  for (int op_index = 0; op_index <= static_cast<int>(Op::kMul3); ++op_index) {
    const auto op = static_cast<Op>(op_index);
    TapeInstruction in{op, 4, 0, 1, 2, 3, 1.75};
    if (op == Op::kPowInt) in.b = 7;
    if (op == Op::kInput) in.a = 2;
    // A second instruction reads the first, so slots, outputs and copies are all exercised.
    const std::vector<TapeInstruction> tape = {in, {Op::kMulAdd, 5, 4, 1, 0, -1, 0.0}};
    const CompiledFunction interpreted(4, tape, {4, 5, 1}, 6);
    CompiledFunction native = interpreted;
    if (!native.CompileToMachineCode()) GTEST_SKIP() << "no working C compiler";
    ++compiled;
    ASSERT_TRUE(native.is_machine_code());
    EXPECT_FALSE(interpreted.is_machine_code());
    for (int sample = 0; sample < 200; ++sample) {
      const std::vector<double> x = {u(rng), u(rng), u(rng), u(rng)};
      const std::vector<double> a = interpreted.Evaluate(x);
      const std::vector<double> b = native.Evaluate(x);
      for (std::size_t k = 0; k < a.size(); ++k) {
        ASSERT_TRUE(SameBits(a[k], b[k])) << "op " << op_index << " output " << k;
      }
    }
  }
  EXPECT_GT(compiled, 0);
}

// The derived Heisenberg DAE (residual, Jacobian, energy) on random states.
TEST(MachineCode, DerivedModelTapesGiveTheInterpretersBits) {
  const auto system = LagrangeDiracSystem::Derive(
      LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/heisenberg.yaml"));
  const auto& dae = system->dae();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2, 2);
  for (const CompiledFunction* f : {&dae.residual, &dae.jacobian_y.values, &dae.energy}) {
    CompiledFunction native = *f;
    if (!native.CompileToMachineCode()) GTEST_SKIP() << "no working C compiler";
    for (int sample = 0; sample < 500; ++sample) {
      std::vector<double> x(f->num_inputs());
      for (double& v : x) v = u(rng);
      const std::vector<double> a = f->Evaluate(x);
      const std::vector<double> b = native.Evaluate(x);
      for (std::size_t k = 0; k < a.size(); ++k) ASSERT_TRUE(SameBits(a[k], b[k])) << k;
    }
  }
}

// Without a compiler nothing changes: false, and the interpreter still evaluates.
TEST(MachineCode, MissingCompilerFallsBackToTheInterpreter) {
  const CompilerOverride missing("/nonexistent/dirac-no-such-cc");
  GiNaC::symbol x("x"), y("y");
  CompiledFunction f = symbolic::CompileExpressions({x * y + GiNaC::sin(x), x - y}, {x, y});
  EXPECT_FALSE(f.CompileToMachineCode());
  EXPECT_FALSE(f.is_machine_code());
  const std::vector<double> out = f.Evaluate({0.5, 2.0});
  EXPECT_EQ(out[0], 0.5 * 2.0 + std::sin(0.5));
  EXPECT_EQ(out[1], -1.5);
}

// A compiler that fails (here `false`) is a fallback too, not an error.
TEST(MachineCode, FailingCompilerFallsBackToTheInterpreter) {
  const CompilerOverride failing("false");
  GiNaC::symbol x("x");
  CompiledFunction f = symbolic::CompileExpressions({x * x + 1}, {x});
  EXPECT_FALSE(f.CompileToMachineCode());
  EXPECT_EQ(f.Evaluate({3.0})[0], 10.0);
}

}  // namespace
}  // namespace dirac
