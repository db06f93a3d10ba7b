#include <ginac/ginac.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dirac/error.hpp"
#include "symbolic/compiled_function.hpp"
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

// Forward-mode tangents (CompiledFunction::EvaluateTangents) against GiNaC's derivatives, for
// every case above: all four directions at once, and then only the directions of x and z (the
// others seeded zero, as the linearization seeds the coordinates only): the same columns, bit
// for bit, since skipping operands with zero tangents keeps the order of the nonzero terms.
TEST(ExpressionCompiler, TangentsMatchGinacDerivativesAndPartialSeedsGiveTheSameColumns) {
  Symbols s;
  std::mt19937 rng(2024);
  const std::vector<symbol> syms = s.all();
  for (const Case& c : Cases(s)) {
    const CompiledFunction f = CompileExpressions({c.expr}, syms);
    const std::size_t P = 4;
    std::vector<double> identity(4 * P, 0.0), partial(4 * P, 0.0);
    for (std::size_t d = 0; d < P; ++d) identity[d * P + d] = 1.0;
    partial[0 * P + 0] = 1.0;  // x along direction 0
    partial[2 * P + 2] = 1.0;  // z along direction 2
    std::vector<double> work(f.tangent_work_size(P)), full(P), some(P);
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<double> p = RandomPoint(rng, 4, c.lo, c.hi);
      f.EvaluateTangents(p.data(), identity.data(), P, full.data(), work.data());
      f.EvaluateTangents(p.data(), partial.data(), P, some.data(), work.data());
      for (std::size_t d = 0; d < P; ++d) {
        ExpectClose(GinacValue(GiNaC::diff(c.expr, syms[d]), syms, p), full[d],
                    c.name + " d/d" + syms[d].get_name());
        if (d == 0 || d == 2)
          EXPECT_EQ(some[d], full[d]) << c.name << ", direction " << d;
        else
          EXPECT_EQ(some[d], 0.0) << c.name << ", unseeded direction " << d;
      }
    }
  }
}

// A subexpression of unseeded inputs only has a zero tangent, exactly: sqrt(w) at w = 0 has an
// infinite derivative, which must not turn d/dx of x*sqrt(w) + sin(x) into NaN (inf * 0).
TEST(ExpressionCompiler, UnseededSubexpressionsContributeExactZeros) {
  Symbols s;
  const CompiledFunction f =
      CompileExpressions({s.x * GiNaC::sqrt(s.w) + GiNaC::sin(s.x)}, s.all());
  const std::vector<double> point{0.3, 0.0, 0.0, 0.0};
  const std::vector<double> seeds{1.0, 0.0, 0.0, 0.0};  // d/dx only
  std::vector<double> work(f.tangent_work_size(1)), tangent(1);
  f.EvaluateTangents(point.data(), seeds.data(), 1, tangent.data(), work.data());
  EXPECT_EQ(tangent[0], std::cos(0.3));
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

// GiNaC holds one product as x*(a-b) or as -x*(b-a) depending on the order its hashes (which mix
// in addresses) give, so the same derived term can reach the compiler in either form. A sum
// containing such a term must be scaled by its canonical leading coefficient, not by GiNaC's raw
// one, or the tape (and with it the rounding) differs between runs of one scenario.
TEST(ExpressionCompiler, SignFormsOfOneProductGiveTheSameTape) {
  const symbol a("a"), b("b"), x("x"), y("y"), z("z");
  // Built held, so that GiNaC keeps each form as written.
  const ex plus = GiNaC::mul(GiNaC::exvector{x, GiNaC::add(a, -b)}).hold();
  const ex minus = GiNaC::mul(GiNaC::exvector{x, GiNaC::add(b, -a), numeric(-1)}).hold();
  ASSERT_FALSE(plus.is_equal(minus)) << "GiNaC merged the two forms; the test needs both";
  const auto scaled_sum = [&](const ex& term) -> ex {
    return GiNaC::mul(z, GiNaC::add(GiNaC::exvector{term, 3 * y}).hold()).hold();
  };
  // Every order of the inputs, so that each term of the sum is the canonically first one in
  // some of them (the stable hash of an input is its position).
  std::vector<symbol> inputs = {a, b, x, y, z};
  std::vector<int> order = {0, 1, 2, 3, 4};
  do {
    std::vector<symbol> permuted;
    for (int k : order) permuted.push_back(inputs[k]);
    const CompiledFunction f1 = CompileExpressions({scaled_sum(plus)}, permuted);
    const CompiledFunction f2 = CompileExpressions({scaled_sum(minus)}, permuted);
    ASSERT_EQ(f1.tape().size(), f2.tape().size());
    for (std::size_t i = 0; i < f1.tape().size(); ++i) {
      const TapeInstruction& l = f1.tape()[i];
      const TapeInstruction& r = f2.tape()[i];
      ASSERT_TRUE(l.op == r.op && l.dst == r.dst && l.a == r.a && l.b == r.b && l.c == r.c &&
                  l.d == r.d && std::memcmp(&l.constant, &r.constant, sizeof(double)) == 0)
          << "instruction " << i << " differs for input order " << order[0] << order[1] << order[2]
          << order[3] << order[4];
    }
  } while (std::next_permutation(order.begin(), order.end()));
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
  // x*y, sin, +1, *2: sin(x*y) appears once (inputs are read in place, constants are
  // immediates).
  EXPECT_EQ(both.instruction_count(), 4u);
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
  // x+y, x*y, x-y: inputs are read where they are, no load instructions.
  EXPECT_EQ(CompileExpressions({s.x + s.y, s.x * s.y, s.x - s.y}, {s.x, s.y}).instruction_count(),
            3u);
  // 2*x, 2*y, x+2: the constant 2 is an immediate of each instruction.
  EXPECT_EQ(CompileExpressions({2 * s.x, 2 * s.y, s.x + 2}, {s.x, s.y}).instruction_count(), 3u);
  // A constant with no immediate form is loaded once: 2.5, x^2.5, y^2.5.
  EXPECT_EQ(
      CompileExpressions({GiNaC::pow(s.x, numeric(2.5)), GiNaC::pow(s.y, numeric(2.5))}, {s.x, s.y})
          .instruction_count(),
      3u);
  // x^2, 1/x^2: x^-2 reuses x^2.
  EXPECT_EQ(
      CompileExpressions({GiNaC::pow(s.x, 2), GiNaC::pow(s.x, -2)}, {s.x}).instruction_count(), 2u);
  // A shared denominator: x*y, 1/(x*y), z/(x*y) reuse x*y.
  const CompiledFunction f = CompileExpressions({1 / (s.x * s.y), s.z / (s.x * s.y)}, s.all());
  EXPECT_EQ(f.instruction_count(), 3u);
  const std::vector<double> out = f.Evaluate({0.5, 4.0, 3.0, 0.0});
  EXPECT_EQ(out[0], 0.5);
  EXPECT_EQ(out[1], 1.5);
}

TEST(ExpressionCompiler, PowersAndSignsLowerToCheapInstructions) {
  Symbols s;
  auto count = [&](const ex& e) { return CompileExpressions({e}, {s.x, s.y}).instruction_count(); };
  // Inputs need no load instruction and constants are immediates.
  EXPECT_EQ(count(GiNaC::pow(s.x, 3)), 1u);               // x^3
  EXPECT_EQ(count(GiNaC::pow(s.x, -3)), 2u);              // x^3, 1/x^3
  EXPECT_EQ(count(GiNaC::sqrt(s.x)), 1u);                 // sqrt
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(3, 2))), 2u);   // sqrt, x*sqrt
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(5, 2))), 3u);   // x^2, sqrt, *
  EXPECT_EQ(count(GiNaC::pow(s.x, numeric(-1, 2))), 2u);  // sqrt, 1/sqrt
  EXPECT_EQ(count(s.x - s.y), 1u);                        // x - y
  EXPECT_EQ(count(1 - s.x), 1u);                          // 1 - x
  EXPECT_EQ(count(-s.x), 1u);                             // -x
  EXPECT_EQ(count(s.x - 2 * s.y), 1u);                    // y * -2 + x
  EXPECT_EQ(count(2 / s.x), 1u);                          // 2 / x

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
  // Constant and input outputs are stored after the tape; no instruction computes them.
  EXPECT_EQ(f.instruction_count(), 0u);

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

// Bit-exact expected values: volatile keeps the test's own compiler from contracting a product
// and a sum into one fused multiply-add.
double Product(double a, double b) {
  volatile double p = a * b;
  return p;
}

TEST(ExpressionCompiler, SumsAndProductsFuseIntoSingleInstructions) {
  Symbols s;
  const std::vector<symbol> in = s.all();
  const std::vector<double> p = {0.3, -1.7, 2.9, 0.45};
  const double x = p[0], y = p[1], z = p[2], w = p[3];
  struct Fused {
    ex e;
    std::size_t instructions;
    double expected;  // same rounding steps as the separate operations
  };
  const std::vector<Fused> cases = {
      {s.x * s.y + s.z, 1, Product(x, y) + z},
      {s.x * s.y - s.z, 1, Product(x, y) - z},
      {s.z - s.x * s.y, 1, z - Product(x, y)},
      {3 * s.x + s.y, 1, Product(x, 3) + y},
      {s.y - 3 * s.x, 1, y - Product(x, 3)},
      {3 * s.x - s.y, 1, Product(x, 3) - y},
      {-(s.x * s.y), 1, -Product(x, y)},
      {s.x * s.y * s.z, 1, Product(Product(x, y), z)},
      {s.x * s.y * s.z * s.w, 2, Product(Product(Product(x, y), z), w)},
      {s.x + 2.5, 1, x + 2.5},
      {2.5 - s.x, 1, 2.5 - x},
      {2.5 / s.x, 1, 2.5 / x},
  };
  for (const Fused& c : cases) {
    const CompiledFunction f = CompileExpressions({c.e}, in);
    EXPECT_EQ(f.instruction_count(), c.instructions) << c.e;
    EXPECT_EQ(f.Evaluate(p)[0], c.expected) << c.e;
  }
  // Two products summed: which operand order GiNaC keeps is not fixed, the rounding is.
  const CompiledFunction sum = CompileExpressions({s.x * s.y + s.z * s.w}, in);
  EXPECT_EQ(sum.instruction_count(), 1u);
  EXPECT_EQ(sum.Evaluate(p)[0], Product(x, y) + Product(z, w));
  const CompiledFunction difference = CompileExpressions({s.x * s.y - s.z * s.w}, in);
  EXPECT_EQ(difference.instruction_count(), 1u);
  EXPECT_EQ(difference.Evaluate(p)[0], Product(x, y) - Product(z, w));
  // A product that is also an output, or read twice, stays a separate instruction.
  const CompiledFunction shared = CompileExpressions({s.x * s.y + s.z, s.x * s.y}, in);
  EXPECT_EQ(shared.instruction_count(), 2u);
  const std::vector<double> out = shared.Evaluate(p);
  EXPECT_EQ(out[0], Product(x, y) + z);
  EXPECT_EQ(out[1], Product(x, y));
}

using Op = TapeInstruction::Op;

constexpr Op kAllOps[] = {
    Op::kConst,     Op::kInput,   Op::kAdd,      Op::kSub,      Op::kMul,       Op::kDiv,
    Op::kNeg,       Op::kSquare,  Op::kPowInt,   Op::kPow,      Op::kSqrt,      Op::kExp,
    Op::kLog,       Op::kSin,     Op::kCos,      Op::kTan,      Op::kAsin,      Op::kAcos,
    Op::kAtan,      Op::kAtan2,   Op::kSinh,     Op::kCosh,     Op::kTanh,      Op::kAbs,
    Op::kAddK,      Op::kMulK,    Op::kSubFromK, Op::kDivFromK, Op::kMulAdd,    Op::kMulSub,
    Op::kNegMulAdd, Op::kMulKAdd, Op::kMulKSub,  Op::kNegMul,   Op::kMulMulAdd, Op::kMulMulSub,
    Op::kMul3,
};

// The documented meaning of each op, evaluated step by step.
double Reference(Op op, const double v[4], double k, std::int32_t n, const double* inputs,
                 std::int32_t input) {
  const double a = v[0], b = v[1], c = v[2], d = v[3];
  switch (op) {
    case Op::kConst:
      return k;
    case Op::kInput:
      return inputs[input];
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kDiv:
      return a / b;
    case Op::kNeg:
      return -a;
    case Op::kSquare:
      return a * a;
    case Op::kPowInt: {
      double r = 1.0;
      for (std::int32_t i = 0; i < std::abs(n); ++i) r *= a;  // exact for the small n used
      return n < 0 ? 1.0 / r : r;
    }
    case Op::kPow:
      return std::pow(a, b);
    case Op::kSqrt:
      return std::sqrt(a);
    case Op::kExp:
      return std::exp(a);
    case Op::kLog:
      return std::log(a);
    case Op::kSin:
      return std::sin(a);
    case Op::kCos:
      return std::cos(a);
    case Op::kTan:
      return std::tan(a);
    case Op::kAsin:
      return std::asin(a);
    case Op::kAcos:
      return std::acos(a);
    case Op::kAtan:
      return std::atan(a);
    case Op::kAtan2:
      return std::atan2(a, b);
    case Op::kSinh:
      return std::sinh(a);
    case Op::kCosh:
      return std::cosh(a);
    case Op::kTanh:
      return std::tanh(a);
    case Op::kAbs:
      return std::fabs(a);
    case Op::kAddK:
      return a + k;
    case Op::kMulK:
      return a * k;
    case Op::kSubFromK:
      return k - a;
    case Op::kDivFromK:
      return k / a;
    case Op::kMulAdd:
      return Product(a, b) + c;
    case Op::kMulSub:
      return Product(a, b) - c;
    case Op::kNegMulAdd:
      return c - Product(a, b);
    case Op::kMulKAdd:
      return Product(a, k) + b;
    case Op::kMulKSub:
      return Product(a, k) - b;
    case Op::kNegMul:
      return -Product(a, b);
    case Op::kMulMulAdd:
      return Product(a, b) + Product(c, d);
    case Op::kMulMulSub:
      return Product(a, b) - Product(c, d);
    case Op::kMul3:
      return Product(Product(a, b), c);
  }
  return 0.0;
}

bool SameBits(double expected, double actual) {
  return std::memcmp(&expected, &actual, sizeof(double)) == 0;
}

// Every op, with each operand read from the inputs, from scratch and as the result of the step
// just before, writing an output directly or a slot that is copied out.
TEST(CompiledFunction, EveryOpMatchesItsDefinitionWhereverItsOperandsLive) {
  const std::vector<double> inputs = {0.61, 0.37, 0.83, 0.29};  // in every op's domain
  constexpr std::int32_t kInputs = 4;
  constexpr std::int32_t kScratch = kInputs;  // slots kScratch + p hold copies of input p
  constexpr double k = 1.75;
  constexpr std::int32_t n = 3;
  for (Op op : kAllOps) {
    const int arity = TapeInstruction::SlotOperands(op);
    const double v[4] = {inputs[0], inputs[1], inputs[2], inputs[3]};
    const double expected = Reference(op, v, k, n, inputs.data(), 2);
    auto instruction = [&](std::int32_t dst, const std::int32_t operand[4]) {
      TapeInstruction in{op, dst, operand[0], operand[1], operand[2], operand[3], k};
      if (op == Op::kPowInt) in.b = n;
      if (op == Op::kInput) in.a = 2;
      return in;
    };
    // layout 0: operands from the inputs; 1: from scratch; 2 + p: operand p from the register.
    for (int layout = 0; layout < 2 + arity; ++layout) {
      for (bool to_output : {true, false}) {
        for (bool read_again : {false, true}) {
          std::vector<TapeInstruction> tape;
          std::int32_t operand[4] = {0, 1, 2, 3};
          if (layout >= 1) {
            const int last = layout >= 2 ? layout - 2 : -1;  // copied last, so just before
            for (int p = 0; p < 4; ++p) {
              if (p != last) tape.push_back({Op::kMulK, kScratch + p, p, -1, -1, -1, 1.0});
            }
            // A separating instruction (an output, so it is not dropped as dead code).
            if (last < 0) tape.push_back({Op::kAddK, kScratch + 5, 0, -1, -1, -1, 9.0});
            if (last >= 0) tape.push_back({Op::kMulK, kScratch + last, last, -1, -1, -1, 1.0});
            for (int p = 0; p < 4; ++p) operand[p] = kScratch + p;
          }
          const std::int32_t result = kScratch + 4;
          std::vector<std::int32_t> outputs = {to_output ? CompiledFunction::kWrittenByTape
                                                         : result};
          tape.push_back(instruction(to_output ? TapeInstruction::OutputDst(0) : result, operand));
          if (read_again) {
            // Reads the register operand's slot again: its value must also have been stored.
            const std::int32_t again = layout >= 2 ? operand[layout - 2] : operand[0];
            tape.push_back({Op::kMulK, kScratch + 6, again, -1, -1, -1, 1.0});
            outputs.push_back(kScratch + 6);
          }
          if (layout == 1) outputs.push_back(kScratch + 5);
          const CompiledFunction f(kInputs, tape, outputs, kScratch + 7);
          std::vector<double> scratch(f.scratch_size(), std::nan(""));
          std::vector<double> out(outputs.size(), std::nan(""));
          f.Evaluate(inputs.data(), out.data(), scratch.data());
          EXPECT_TRUE(SameBits(expected, out[0]))
              << "op " << static_cast<int>(op) << " layout " << layout << " to_output " << to_output
              << ": " << out[0] << " vs " << expected;
          if (read_again) {
            const int p = layout >= 2 ? layout - 2 : 0;
            EXPECT_EQ(out[1], layout == 0 ? inputs[0] : inputs[p]) << static_cast<int>(op);
          }
        }
      }
    }
  }
}

TEST(CompiledFunction, HandBuiltTapeEvaluates) {
  // Slots 0 and 1 are the inputs x and y. out0 = x^-2 - y, out1 = atan2(y, x),
  // out2 = x * y + x (written by the tape), out3 = y, out4 = 7.
  std::vector<TapeInstruction> tape = {
      {Op::kPowInt, 2, 0, -2},
      {Op::kSub, 2, 2, 1},
      {Op::kAtan2, 3, 1, 0},
      {Op::kMulAdd, TapeInstruction::OutputDst(2), 0, 1, 0},
      {Op::kConst, 4, -1, -1, -1, -1, 7.0},
  };
  const CompiledFunction f(2, tape, {2, 3, CompiledFunction::kWrittenByTape, 1, 4}, 5);
  EXPECT_EQ(f.scratch_size(), 3u);  // slots 2..4; the inputs are read in place
  const std::vector<double> out = f.Evaluate({2.0, 3.0});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_DOUBLE_EQ(out[0], 0.25 - 3.0);
  EXPECT_DOUBLE_EQ(out[1], std::atan2(3.0, 2.0));
  EXPECT_EQ(out[2], 8.0);
  EXPECT_EQ(out[3], 3.0);
  EXPECT_EQ(out[4], 7.0);
  // The constant is stored as an output value; only the four computing instructions remain.
  EXPECT_EQ(f.instruction_count(), 4u);

  // Values that are read again later are kept in their slots while chained through the
  // register: s2 = x + y; s3 = s2 * s2; out = s3 - s2.
  const CompiledFunction g(
      2,
      {{Op::kAdd, 2, 0, 1}, {Op::kMul, 3, 2, 2}, {Op::kSub, TapeInstruction::OutputDst(0), 3, 2}},
      {CompiledFunction::kWrittenByTape}, 4);
  EXPECT_EQ(g.Evaluate({1.5, 0.5})[0], 2.0);
}

TEST(CompiledFunction, ConstructorRejectsMalformedTapes) {
  using F = CompiledFunction;
  constexpr std::int32_t kTape = F::kWrittenByTape;
  const std::int32_t out0 = TapeInstruction::OutputDst(0);
  EXPECT_THROW(F(1, {{Op::kInput, 1, 1}}, {1}, 2), Error);                // bad input
  EXPECT_THROW(F(1, {{Op::kInput, 2, 0}}, {1}, 2), Error);                // bad dst
  EXPECT_THROW(F(1, {{Op::kNeg, 0, 0}}, {0}, 2), Error);                  // writes an input
  EXPECT_THROW(F(1, {{Op::kNeg, 1, 3}}, {1}, 2), Error);                  // bad operand a
  EXPECT_THROW(F(1, {{Op::kMulAdd, 1, 0, 0, 5}}, {1}, 2), Error);         // bad operand c
  EXPECT_THROW(F(1, {{Op::kMulMulAdd, 1, 0, 0, 0, -4}}, {1}, 2), Error);  // bad operand d
  EXPECT_THROW(F(1, {{Op::kInput, 1, 0}}, {2}, 2), Error);                // bad output slot
  EXPECT_THROW(F(1, {{Op::kNeg, out0, 0}}, {1}, 2), Error);               // output not marked
  EXPECT_THROW(F(1, {{Op::kNeg, TapeInstruction::OutputDst(1), 0}}, {kTape}, 2), Error);
  EXPECT_THROW(F(1, {{Op::kNeg, 1, 0}}, {kTape}, 2), Error);          // output never written
  EXPECT_THROW(F(2, {}, {0}, 1), Error);                              // fewer slots
  EXPECT_THROW(F(1, {{static_cast<Op>(200), 1, 0}}, {1}, 2), Error);  // unknown op
  EXPECT_NO_THROW(F(1, {{Op::kNeg, out0, 0}}, {kTape}, 1));
  EXPECT_NO_THROW(F(1, {{Op::kPowInt, 1, 0, -7}}, {1}, 2));  // b is an exponent, not a slot
}

}  // namespace
}  // namespace dirac::symbolic
