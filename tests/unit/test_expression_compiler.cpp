#include <ginac/ginac.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dirac/compiled_function.hpp"
#include "dirac/error.hpp"
#include "symbolic/expression_compiler.hpp"

// An abstract function, so that diff() produces an fderivative the tape cannot evaluate.
DECLARE_FUNCTION_1P(dirac_test_mystery_f)
REGISTER_FUNCTION(dirac_test_mystery_f, dummy())

namespace dirac::symbolic {
namespace {

using GiNaC::ex;
using GiNaC::numeric;
using GiNaC::symbol;

struct Symbols {
  symbol x{"x"}, y{"y"}, z{"z"}, w{"w"};
  std::vector<symbol> all() const { return {x, y, z, w}; }
};

double GinacValue(const ex& e, const std::vector<symbol>& syms, const std::vector<double>& vals) {
  GiNaC::lst substitutions;
  for (std::size_t i = 0; i < syms.size(); ++i) substitutions.append(syms[i] == vals[i]);
  const ex value = e.subs(substitutions).evalf();
  if (!GiNaC::is_a<numeric>(value) || !GiNaC::ex_to<numeric>(value).is_real()) {
    ADD_FAILURE() << "GiNaC did not produce a real number for " << e << ": " << value;
    return std::numeric_limits<double>::quiet_NaN();
  }
  return GiNaC::ex_to<numeric>(value).to_double();
}

void ExpectClose(double expected, double actual, const std::string& what) {
  EXPECT_NEAR(actual, expected, 1e-10 * (1.0 + std::abs(expected))) << what;
}

struct Case {
  std::string name;
  ex expr;
  double lo;  // every input is sampled uniformly from [lo, hi]
  double hi;
};

// Ranges keep every case real-valued; all of them are valid on [0.2, 1.8].
std::vector<Case> Cases(const Symbols& s) {
  const ex& x = s.x;
  const ex& y = s.y;
  const ex& z = s.z;
  const ex& w = s.w;
  const ex lagrangian_part = GiNaC::pow(GiNaC::sin(x * y), 3) / (1 + x * x);
  // Double pendulum with angles x, y and angular velocities z, w.
  const ex pendulum = z * z + w * w / 2 + z * w * GiNaC::cos(x - y) + 2 * 9.81 * GiNaC::cos(x) +
                      9.81 * GiNaC::cos(y);
  return {
      {"expanded polynomial", GiNaC::expand(GiNaC::pow(x + 2 * y - 3 * z, 5)) + 7 * x * y * z - 4,
       -2, 2},
      {"unexpanded polynomial", GiNaC::pow(x * y - z, 3) - GiNaC::pow(x - w, 4) / 3, -2, 2},
      {"trig", GiNaC::sin(x) * GiNaC::cos(y) - GiNaC::tan(z / 3) + 2 * GiNaC::pow(GiNaC::sin(x), 2),
       -2, 2},
      {"rational powers",
       GiNaC::pow(x, numeric(3, 2)) + GiNaC::pow(x, numeric(5, 2)) * GiNaC::pow(y, numeric(-1, 2)) -
           GiNaC::pow(z, numeric(1, 3)) + GiNaC::pow(w, numeric(-7, 3)),
       0.2, 1.8},
      {"inverse cube of norm", GiNaC::pow(x * x + y * y + z * z, numeric(-3, 2)), 0.2, 1.8},
      {"negative powers",
       1 / GiNaC::pow(x, 2) - 3 / (x * GiNaC::pow(y, 3)) + 2 / (x + y) - x / (y * z) +
           GiNaC::pow(w, -5),
       0.2, 1.8},
      {"coefficient over denominator", 2 / x - 1 / (x * x) - 3 - 5 / (y * z), 0.2, 1.8},
      {"all negative terms", -x - 2 * y - z / 3 - GiNaC::sin(w), -2, 2},
      {"constant minus terms", 1 - x - 2 * y * z, -2, 2},
      {"nested functions",
       GiNaC::exp(GiNaC::sin(GiNaC::cos(x * y))) + GiNaC::log(1 + GiNaC::sqrt(x * x + y * y)), -2,
       2},
      {"atan2 and hyperbolic",
       GiNaC::atan2(y - x, z + 3) + GiNaC::atan(x * y) + GiNaC::sinh(x) -
           GiNaC::cosh(y) * GiNaC::tanh(z),
       -2, 2},
      {"inverse trig and abs",
       GiNaC::asin(x / 2) + GiNaC::acos(y / 2) + GiNaC::abs(x - y) * GiNaC::abs(z), -1.8, 1.8},
      {"symbolic exponent", GiNaC::pow(x, y) + GiNaC::pow(2, z) - GiNaC::pow(x, y * z), 0.2, 1.8},
      {"float exponent", GiNaC::pow(x, numeric(2.5)) + GiNaC::pow(y, numeric(3.0)), 0.2, 1.8},
      {"symbolic constants",
       GiNaC::Pi * x * x + GiNaC::sqrt(ex(2)) * y + GiNaC::exp(ex(1)) * z - GiNaC::Euler +
           GiNaC::sin(ex(1)) / 3,
       -2, 2},
      {"Lagrangian derivative d/dx", GiNaC::diff(lagrangian_part, s.x), -2, 2},
      {"Lagrangian second derivative d2/dx2", GiNaC::diff(lagrangian_part, s.x, 2), -2, 2},
      {"Lagrangian mixed derivative d2/dxdy", GiNaC::diff(GiNaC::diff(lagrangian_part, s.x), s.y),
       -2, 2},
      {"pendulum dL/dx", GiNaC::diff(pendulum, s.x), -2, 2},
      {"pendulum d2L/dz dx", GiNaC::diff(GiNaC::diff(pendulum, s.z), s.x), -2, 2},
      {"pendulum energy",
       GiNaC::diff(pendulum, s.z) * z + GiNaC::diff(pendulum, s.w) * w - pendulum, -2, 2},
  };
}

std::vector<double> RandomPoint(std::mt19937& rng, std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> p(n);
  for (double& v : p) v = dist(rng);
  return p;
}

TEST(ExpressionCompiler, EachExpressionMatchesGinacAtRandomPoints) {
  Symbols s;
  std::mt19937 rng(12345);
  for (const Case& c : Cases(s)) {
    const CompiledFunction f = CompileExpressions({c.expr}, s.all());
    ASSERT_EQ(f.num_inputs(), 4u);
    ASSERT_EQ(f.num_outputs(), 1u);
    for (int trial = 0; trial < 100; ++trial) {
      const std::vector<double> p = RandomPoint(rng, 4, c.lo, c.hi);
      const std::vector<double> out = f.Evaluate(p);
      ASSERT_EQ(out.size(), 1u);
      ExpectClose(GinacValue(c.expr, s.all(), p), out[0], c.name);
    }
  }
}

TEST(ExpressionCompiler, AllExpressionsCompiledTogetherMatchGinacAndShareWork) {
  Symbols s;
  const std::vector<Case> cases = Cases(s);
  std::vector<ex> outputs;
  std::size_t separate_instructions = 0;
  for (const Case& c : cases) {
    outputs.push_back(c.expr);
    separate_instructions += CompileExpressions({c.expr}, s.all()).instruction_count();
  }
  const CompiledFunction f = CompileExpressions(outputs, s.all());
  ASSERT_EQ(f.num_outputs(), cases.size());
  // Inputs, constants and the shared Lagrangian subterms are emitted once.
  EXPECT_LT(f.instruction_count(), separate_instructions);
  // Slot reuse: far fewer scratch doubles than instructions.
  EXPECT_LT(f.scratch_size(), f.instruction_count() / 2);

  std::mt19937 rng(777);
  std::vector<double> scratch(f.scratch_size());
  std::vector<double> out(f.num_outputs());
  for (int trial = 0; trial < 200; ++trial) {
    // Stale scratch contents must not matter.
    std::fill(scratch.begin(), scratch.end(), std::numeric_limits<double>::quiet_NaN());
    const std::vector<double> p = RandomPoint(rng, 4, 0.2, 1.8);
    f.Evaluate(p.data(), out.data(), scratch.data());
    for (std::size_t k = 0; k < cases.size(); ++k) {
      ExpectClose(GinacValue(cases[k].expr, s.all(), p), out[k], cases[k].name);
    }
  }
}

TEST(ExpressionCompiler, CommonSubexpressionIsEvaluatedOnce) {
  Symbols s;
  const ex shared = GiNaC::sin(s.x * s.y);
  const ex a = shared + 1;
  const ex b = shared * 2;
  const std::vector<symbol> in = {s.x, s.y};
  const CompiledFunction fa = CompileExpressions({a}, in);
  const CompiledFunction fb = CompileExpressions({b}, in);
  const CompiledFunction both = CompileExpressions({a, b}, in);
  EXPECT_LT(both.instruction_count(), fa.instruction_count() + fb.instruction_count());
  // x, y, x*y, sin, 1, +, 2, * : sin(x*y) appears once.
  EXPECT_EQ(both.instruction_count(), 8u);
  const std::vector<double> out = both.Evaluate({0.7, -1.3});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0], std::sin(0.7 * -1.3) + 1);
  EXPECT_DOUBLE_EQ(out[1], std::sin(0.7 * -1.3) * 2);
}

TEST(ExpressionCompiler, RepeatedOutputsCostNothingExtra) {
  Symbols s;
  const ex e = GiNaC::exp(s.x) / (1 + GiNaC::pow(s.y, 2));
  const std::size_t once = CompileExpressions({e}, {s.x, s.y}).instruction_count();
  const CompiledFunction thrice = CompileExpressions({e, e, e}, {s.x, s.y});
  EXPECT_EQ(thrice.instruction_count(), once);
  const std::vector<double> out = thrice.Evaluate({0.5, 2.0});
  for (double v : out) EXPECT_DOUBLE_EQ(v, std::exp(0.5) / 5.0);
}

TEST(ExpressionCompiler, InputsAndConstantsAreDeduplicated) {
  Symbols s;
  // x, y, x+y, x*y, x-y
  EXPECT_EQ(CompileExpressions({s.x + s.y, s.x * s.y, s.x - s.y}, {s.x, s.y}).instruction_count(),
            5u);
  // x, 2, 2*x, y, 2*y, x+2: the constant 2 is loaded once.
  EXPECT_EQ(CompileExpressions({2 * s.x, 2 * s.y, s.x + 2}, {s.x, s.y}).instruction_count(), 6u);
  // x, x^2, 1, 1/x^2: x^-2 reuses x^2.
  EXPECT_EQ(
      CompileExpressions({GiNaC::pow(s.x, 2), GiNaC::pow(s.x, -2)}, {s.x}).instruction_count(), 4u);
  // A shared denominator: x, y, x*y, 1/(x*y) ... z/(x*y) reuse x*y.
  const CompiledFunction f = CompileExpressions({1 / (s.x * s.y), s.z / (s.x * s.y)}, s.all());
  EXPECT_EQ(f.instruction_count(), 7u);  // x, y, x*y, 1, /, z, /
}

TEST(ExpressionCompiler, PowersAndSignsLowerToCheapInstructions) {
  Symbols s;
  auto count = [&](const ex& e) { return CompileExpressions({e}, {s.x, s.y}).instruction_count(); };
  EXPECT_EQ(count(GiNaC::pow(s.x, 3)), 2u);               // x, x^3
  EXPECT_EQ(count(GiNaC::pow(s.x, -3)), 4u);              // x, 1, x^3, 1/x^3
  EXPECT_EQ(count(GiNaC::sqrt(s.x)), 2u);                 // x, sqrt
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(3, 2))), 3u);   // x, sqrt, x*sqrt
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(5, 2))), 4u);   // x, x^2, sqrt, *
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(-1, 2))), 4u);  // x, sqrt, 1, /
  EXPECT_EQ(count(s.x - s.y), 3u);                        // x, y, -
  EXPECT_EQ(count(1 - s.x), 3u);                          // 1, x, -
  EXPECT_EQ(count(-s.x), 2u);                             // x, neg
  EXPECT_EQ(count(s.x - 2 * s.y), 5u);                    // x, y, 2, 2*y, -
  EXPECT_EQ(count(2 / s.x), 3u);                          // 2, x, /

  const CompiledFunction f =
      CompileExpressions({GiNaC::pow(s.x, -3), GiNaC::pow(s.x, numeric(5, 2)), -s.x - s.y,
                          GiNaC::pow(s.x, 7), GiNaC::pow(s.x, -1)},
                         {s.x, s.y});
  const std::vector<double> out = f.Evaluate({1.7, 0.4});
  EXPECT_NEAR(out[0], std::pow(1.7, -3), 1e-15);
  EXPECT_NEAR(out[1], std::pow(1.7, 2.5), 1e-14);
  EXPECT_DOUBLE_EQ(out[2], -2.1);
  EXPECT_NEAR(out[3], std::pow(1.7, 7), 1e-12);
  EXPECT_DOUBLE_EQ(out[4], 1 / 1.7);
}

TEST(ExpressionCompiler, UnknownSymbolThrowsModelErrorNamingIt) {
  Symbols s;
  const symbol stranger("mystery_q");
  const ex e = GiNaC::sin(s.x + GiNaC::pow(stranger, 2));
  try {
    CompileExpressions({s.x, e}, {s.x, s.y});
    FAIL() << "expected ModelError";
  } catch (const ModelError& err) {
    EXPECT_NE(std::string(err.what()).find("mystery_q"), std::string::npos) << err.what();
  }
  EXPECT_THROW(CompileExpressions({ex(stranger)}, {}), ModelError);
}

TEST(ExpressionCompiler, UnsupportedConstructsThrowModelErrorNamingThem) {
  Symbols s;
  auto message = [&](const ex& e) -> std::string {
    try {
      CompileExpressions({e}, {s.x});
    } catch (const ModelError& err) {
      return err.what();
    }
    ADD_FAILURE() << "no ModelError for " << e;
    return "";
  };
  EXPECT_NE(message(GiNaC::zeta(s.x)).find("zeta"), std::string::npos);
  EXPECT_NE(message(GiNaC::tgamma(s.x + 1)).find("tgamma"), std::string::npos);
  EXPECT_NE(message(GiNaC::diff(dirac_test_mystery_f(s.x), s.x)).find("dirac_test_mystery_f"),
            std::string::npos);
  EXPECT_NE(message(dirac_test_mystery_f(s.x)).find("dirac_test_mystery_f"), std::string::npos);
  EXPECT_NE(message(s.x == 1).find("relational"), std::string::npos);
  // Non-real constants cannot live on a real tape.
  EXPECT_NE(message(GiNaC::I * s.x).find("not real"), std::string::npos);
  EXPECT_NE(message(GiNaC::sqrt(ex(-2)) + s.x).find("not real"), std::string::npos);
}

TEST(ExpressionCompiler, ConstantAndInputOutputs) {
  Symbols s;
  const CompiledFunction f = CompileExpressions(
      {ex(3.5), ex(0), GiNaC::Pi, GiNaC::sqrt(ex(2)), ex(numeric(-1, 4)), s.x, ex(0)}, {s.x});
  const std::vector<double> out = f.Evaluate({-6.25});
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0], 3.5);
  EXPECT_EQ(out[1], 0.0);
  EXPECT_DOUBLE_EQ(out[2], M_PI);
  EXPECT_DOUBLE_EQ(out[3], std::sqrt(2.0));
  EXPECT_EQ(out[4], -0.25);
  EXPECT_EQ(out[5], -6.25);
  EXPECT_EQ(out[6], 0.0);
  EXPECT_EQ(f.instruction_count(), 6u);  // 3.5, 0, pi, sqrt2, -1/4, x; the second 0 is shared

  const CompiledFunction no_inputs = CompileExpressions({ex(2), GiNaC::cos(GiNaC::Pi / 3)}, {});
  EXPECT_EQ(no_inputs.num_inputs(), 0u);
  const std::vector<double> c = no_inputs.Evaluate({});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0], 2.0);
  EXPECT_DOUBLE_EQ(c[1], 0.5);
}

TEST(ExpressionCompiler, EmptyOutputsAndEmptyInputs) {
  Symbols s;
  const CompiledFunction no_outputs = CompileExpressions({}, {s.x, s.y});
  EXPECT_EQ(no_outputs.num_inputs(), 2u);
  EXPECT_EQ(no_outputs.num_outputs(), 0u);
  EXPECT_EQ(no_outputs.instruction_count(), 0u);
  EXPECT_TRUE(no_outputs.Evaluate({1.0, 2.0}).empty());

  const CompiledFunction nothing = CompileExpressions({}, {});
  EXPECT_EQ(nothing.num_inputs(), 0u);
  EXPECT_TRUE(nothing.Evaluate({}).empty());
  nothing.Evaluate(nullptr, nullptr, nullptr);

  const CompiledFunction default_constructed;
  EXPECT_TRUE(default_constructed.Evaluate({}).empty());
}

TEST(ExpressionCompiler, InputOrderIsRespectedAndUnusedInputsAreIgnored) {
  Symbols s;
  const CompiledFunction f = CompileExpressions({s.x - s.y, s.y / s.x}, {s.y, s.z, s.x});
  EXPECT_EQ(f.num_inputs(), 3u);
  const std::vector<double> out = f.Evaluate({1.0, 100.0, 4.0});
  EXPECT_EQ(out[0], 3.0);
  EXPECT_EQ(out[1], 0.25);
}

TEST(ExpressionCompiler, WrongInputCountThrows) {
  Symbols s;
  const CompiledFunction f = CompileExpressions({s.x + s.y}, {s.x, s.y});
  EXPECT_THROW(f.Evaluate({1.0}), Error);
}

TEST(CompiledFunction, HandBuiltTapeEvaluates) {
  using Op = TapeInstruction::Op;
  // out0 = x^-2 - y, out1 = atan2(y, x)
  std::vector<TapeInstruction> tape = {
      {Op::kInput, 0, 0, 0}, {Op::kInput, 1, 1, 0}, {Op::kPowInt, 2, 0, -2},
      {Op::kSub, 2, 2, 1},   {Op::kAtan2, 3, 1, 0},
  };
  const CompiledFunction f(2, tape, {2, 3}, 4);
  EXPECT_EQ(f.scratch_size(), 4u);
  const std::vector<double> out = f.Evaluate({2.0, 3.0});
  EXPECT_DOUBLE_EQ(out[0], 0.25 - 3.0);
  EXPECT_DOUBLE_EQ(out[1], std::atan2(3.0, 2.0));
}

TEST(CompiledFunction, ConstructorRejectsMalformedTapes) {
  using Op = TapeInstruction::Op;
  EXPECT_THROW(CompiledFunction(1, {{Op::kInput, 0, 1, 0}}, {0}, 1), Error);  // bad input
  EXPECT_THROW(CompiledFunction(1, {{Op::kInput, 1, 0, 0}}, {0}, 1), Error);  // bad dst
  EXPECT_THROW(CompiledFunction(1, {{Op::kNeg, 0, 3, 0}}, {0}, 1), Error);    // bad operand
  EXPECT_THROW(CompiledFunction(1, {{Op::kInput, 0, 0, 0}}, {2}, 1), Error);  // bad output
}

}  // namespace
}  // namespace dirac::symbolic
