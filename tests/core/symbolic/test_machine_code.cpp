// CompiledFunction::CompileToMachineCode: generated C gives the interpreter's bits for every op
// and for derived models, and a missing compiler leaves the interpreter in place.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "symbolic/compiled_function.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/native_tapes.hpp"

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
  const auto& dae = CompiledDaeOf(*system);
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

// A tape long enough to be split into parts (symbolic/native_source.cpp: intermediates shared
// between parts live in the scratch array), with constant outputs and outputs copied from inputs
// written from tables, and a batch of such tapes spread over several C files: the same bits.
TEST(MachineCode, SplitTapesAndTablesGiveTheInterpretersBits) {
  std::vector<GiNaC::symbol> x;
  for (int i = 0; i < 40; ++i) x.emplace_back("x" + std::to_string(i));
  std::vector<GiNaC::ex> outputs;
  GiNaC::ex chain = x[0];
  for (int step = 0; step < 3000; ++step) {
    // A running value read across the whole tape, and outputs along the way.
    chain = GiNaC::sin(chain * x[step % 40] + x[(step * 7) % 40]) / (2 + x[(step * 3) % 40]);
    if (step % 10 == 0) outputs.push_back(chain + x[step % 40] * x[(step + 1) % 40]);
  }
  for (int i = 0; i < 40; ++i) outputs.push_back(GiNaC::ex(0));      // constant outputs
  for (int i = 0; i < 40; ++i) outputs.push_back(GiNaC::ex(i + 1));  // nonzero ones
  for (int i = 0; i < 40; ++i) outputs.push_back(x[i]);              // copies of inputs
  const CompiledFunction interpreted = symbolic::CompileExpressions(outputs, x);
  ASSERT_GT(interpreted.instruction_count(), 4000u);
  std::vector<CompiledFunction> copies(12, interpreted);  // 12 x 4000+ instructions: 3 files
  std::vector<const CompiledFunction*> batch;
  for (const CompiledFunction& f : copies) batch.push_back(&f);
  symbolic::NativeTapes tapes(batch);
  EXPECT_GT(tapes.source_files(), 1u);
  EXPECT_EQ(tapes.compiler_flags()[1], "-O1");  // a batch past 40 000 instructions
  if (!tapes.Compile()) GTEST_SKIP() << "no machine code: " << tapes.note();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (std::size_t which : {std::size_t{0}, copies.size() - 1}) {
    const CompiledFunction native = tapes.Native(which);
    ASSERT_TRUE(native.is_machine_code());
    for (int sample = 0; sample < 50; ++sample) {
      std::vector<double> in(x.size());
      for (double& v : in) v = u(rng);
      const std::vector<double> a = interpreted.Evaluate(in);
      const std::vector<double> b = native.Evaluate(in);
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
