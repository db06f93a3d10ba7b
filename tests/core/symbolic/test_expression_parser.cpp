// The expression grammar (issue 36): every expression means what mathematics and SymPy say, or
// is refused with file, line and column. GiNaC's parser, used before, let a unary minus after
// another operator capture the rest of the sum: `x*-x + x^2` was x*(-x + x^2), `2*x^-1*3` was
// 2x^-3, `2^-1*x` was 2^(-x). The random corpus against SymPy is tests/oracle/.
#include <ginac/ginac.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::symbolic {
namespace {

using GiNaC::ex;
using GiNaC::pow;
using GiNaC::symbol;

class ExpressionGrammar : public ::testing::Test {
 protected:
  ExpressionGrammar() {
    for (const symbol& s : {x, y, z, vx, k, m, g, a, b, c}) table[s.get_name()] = s;
  }

  ex Parse(const std::string& text) const {
    return ParseExpression(text, table, {"grammar.yaml", 7, "lagrangian"});
  }
  // Exactly equal once expanded (GiNaC's normal form of polynomials in the symbols).
  void ExpectMeans(const std::string& text, const ex& expected) const {
    const ex parsed = Parse(text);
    EXPECT_TRUE((parsed - expected).expand().is_zero())
        << text << " parsed as " << parsed << ", expected " << expected;
  }
  // The refusal's message (and its symbol).
  ScenarioError Refusal(const std::string& text) const {
    try {
      Parse(text);
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.file(), "grammar.yaml");
      EXPECT_EQ(e.line(), 7u);
      return e;
    }
    ADD_FAILURE() << text << " was accepted";
    return ScenarioError("", 0, "", "");
  }
  void ExpectRefused(const std::string& text, const std::vector<std::string>& parts) const {
    const std::string message = Refusal(text).what();
    for (const std::string& part : parts)
      EXPECT_NE(message.find(part), std::string::npos) << text << ": " << message;
  }

  symbol x{"x"}, y{"y"}, z{"z"}, vx{"vx"}, k{"k"}, m{"m"}, g{"g"}, a{"a"}, b{"b"}, c{"c"};
  GiNaC::symtab table;
};

TEST_F(ExpressionGrammar, TheIssueExamplesMeanWhatMathematicsSays) {
  // "prints L: -1/2*(k*x^2-x+x^2)*x+1/2*vx^2" before.
  ExpectMeans("vx^2/2 - (x*-x + x^2 + k*x^2)/2", pow(vx, 2) / 2 - k * pow(x, 2) / 2);
  ExpectMeans("2*x^-1*3", 6 / x);  // 2x^-3 before
  ExpectMeans("2^-1*x", x / 2);    // 2^(-x) before
  ExpectMeans("m*-g*z", -m * g * z);
}

TEST_F(ExpressionGrammar, UnarySignsBindBelowPowersAndAboveProducts) {
  ExpectMeans("-x^2", -pow(x, 2));
  ExpectMeans("x*-x", -pow(x, 2));
  ExpectMeans("x*-x + x^2", ex(0));
  ExpectMeans("--x", x);
  ExpectMeans("- + -x", x);
  ExpectMeans("-2^2", ex(-4));
  ExpectMeans("(-2)^2", ex(4));
  ExpectMeans("x/-y*z", -x * z / y);
  ExpectMeans("x - -y", x + y);
  ExpectMeans("x^-2*y", y / pow(x, 2));
  ExpectMeans("a*+b - c", a * b - c);
  ExpectMeans("sin(-x)*-y", GiNaC::sin(-x) * -y);
  ExpectMeans("atan2(-y, -x) + -1", GiNaC::atan2(-y, -x) - 1);
}

TEST_F(ExpressionGrammar, PowersAreRightAssociativeAndTheirExponentsTakeSigns) {
  ExpectMeans("2^-x^2", pow(2, -pow(x, 2)));
  ExpectMeans("2^3^2", ex(512));
  ExpectMeans("x^y^z", pow(x, pow(y, z)));
  ExpectMeans("2^-3^2", pow(ex(2), -9));
  ExpectMeans("x^-y^-2", pow(x, -pow(y, -2)));
  ExpectMeans("(x^y)^z", pow(pow(x, y), z));
  ExpectMeans("pow(x, -2)*3", 3 / pow(x, 2));
}

TEST_F(ExpressionGrammar, ProductsAndSumsAreLeftAssociative) {
  ExpectMeans("a/b/c", a / (b * c));
  ExpectMeans("a/b*c", a * c / b);
  ExpectMeans("a - b - c", a - b - c);
  ExpectMeans("a - b + c", a - b + c);
  ExpectMeans("a*b/c/a", b / c);
  ExpectMeans("x/2/4", x / 8);
}

TEST_F(ExpressionGrammar, NumbersMeanWhatGinacsParserMadeOfThem) {
  // The same GiNaC numeric, exact or floating point, as before: nothing downstream changes.
  for (const char* number : {"3", "007", "2.5", ".5", "5.", "1e-3", "1E-3", "1.5E+2", "1e5",
                             "25e-1", "0.1", ".5e1", "5.e-1", "123456789012345678901234567890"}) {
    const ex ours = Parse(number);
    const ex ginacs = GiNaC::parser()(number);
    ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(ours)) << number;
    EXPECT_TRUE(ours.is_equal(ginacs)) << number << ": " << ours << " against " << ginacs;
    EXPECT_EQ(GiNaC::ex_to<GiNaC::numeric>(ours).is_rational(),
              GiNaC::ex_to<GiNaC::numeric>(ginacs).is_rational())
        << number;
  }
  EXPECT_TRUE(GiNaC::ex_to<GiNaC::numeric>(Parse("2/3")).is_rational());
  EXPECT_FALSE(GiNaC::ex_to<GiNaC::numeric>(Parse("1e0")).is_rational());
}

TEST_F(ExpressionGrammar, AgreesWithGinacsParserWhereThatWasRight) {
  // No sign right after another operator: GiNaC's parser was right there, and the same
  // expression comes out (is_equal, not only equal in value).
  GiNaC::parser ginac(table, /*strict=*/true);
  for (const char* text :
       {"vx^2/2 + k*(x^2 + y^2)/2 - m*g*z", "m*g*cos(x)*y - 1/2*k*(x - y)^2",
        "sin(x)^2 + cos(x)^2 - tan(y)", "atan2(y, x) - sqrt(x^2 + y^2)", "pow(x, 3)/abs(y)",
        "-x + 3*y - 0.25*z", "exp(-x)*log(y) + sinh(z)/cosh(z) - tanh(a)", "(x - y)/(x + y)/2",
        "asin(x/2) + acos(y/3) + atan(z)", "Pi*x^2 + Euler - Catalan", "2.5e-3*vx^2 + 1.5E+2*x",
        "x^(1/3) - x^0.5"})
    EXPECT_TRUE(Parse(text).is_equal(ginac(text)))
        << text << ": " << Parse(text) << " against " << ginac(text);
}

TEST_F(ExpressionGrammar, RefusalsNameFileLineAndColumn) {
  ExpectRefused("x + )", {"grammar.yaml:7:", "'lagrangian'", "column 5", "lacks its right"});
  ExpectRefused("x y", {"column 3", "missing operator before 'y'"});
  ExpectRefused("2x", {"column 2", "missing operator"});
  ExpectRefused("x*-*y", {"column 4", "'*' lacks its left operand"});
  ExpectRefused("(x + 1", {"column 1", "'(' without a matching ')'"});
  ExpectRefused("x + 1)", {"column 6", "')' without a matching '('"});
  ExpectRefused("x(1)", {"column 1", "'x' is not a function"});
  ExpectRefused("x,y", {"column 2", "outside a function's argument list"});
  ExpectRefused("()", {"column 2", "empty parentheses"});
  ExpectRefused("x +", {"column 4", "ends with an operator"});
  ExpectRefused("x + $", {"column 5", "unexpected character '$'"});
  ExpectRefused("1/(x - x)", {"column 2", "cannot evaluate", "division by zero"});
  ExpectRefused("log(x - x)", {"column 1", "cannot evaluate"});
  ExpectRefused("0^x", {"column 2", "0 raised to a non-constant power"});
  ExpectRefused("x +\n  ) ", {"line 2, column 3"});
  for (const char* number : {"1.2.3", ".", "2e", "1e+", "3E-x"})
    ExpectRefused(std::string("x + ") + number, {"column 5", "malformed number"});
  ExpectRefused("x + 1e400", {"column 5", "outside the range of double"});
  // The offending symbol is the error's symbol, with the key and the column in the message.
  const ScenarioError unknown = Refusal("x + foo*2");
  EXPECT_EQ(unknown.symbol(), "foo");
  EXPECT_NE(std::string(unknown.what()).find("in lagrangian, column 5"), std::string::npos)
      << unknown.what();
  const ScenarioError zeta = Refusal("vx^2 + zeta(x)");
  EXPECT_EQ(zeta.symbol(), "zeta");
  EXPECT_NE(std::string(zeta.what()).find("column 8"), std::string::npos) << zeta.what();
  for (const char* call : {"sin()", "atan2(x)", "sin(x, y)", "atan2(x,)", "sin(,)", "pow(x)"})
    EXPECT_NE(Refusal(call).symbol(), "lagrangian") << call;
  ExpectRefused("atan2(x)", {"atan2 takes 2 arguments, found 1"});
  ExpectRefused("atan2(x,)", {"empty argument in a call of atan2"});
  ExpectRefused("sin()", {"sin() is called with no argument"});
}

TEST_F(ExpressionGrammar, ExactPowersGinacCouldNotFinishAreRefused) {
  ExpectRefused("x^10000", {"integer exponent too large"});
  ExpectRefused("x^(1000*1000)", {"integer exponent too large"});
  ExpectRefused("9^9^9", {"integer exponent too large", "power inside an exponent"});
  ExpectRefused("2^(2^(2^20))", {"power inside an exponent"});
  ExpectRefused("pow(9, 99^9)", {"integer exponent too large"});
  ExpectRefused("pow(x, 99999)", {"integer exponent too large"});
  ExpectRefused("(9999^9999)^9999", {"exact power too large"});
  ExpectMeans("x^9999/x^9998", x);
  ExpectMeans("2^2^3/2^8", ex(1));
}

TEST_F(ExpressionGrammar, NestingIsBoundedWhateverNests) {
  // Every recursion of the grammar is counted: no text exhausts the stack.
  std::string powers = "x";
  for (int n = 0; n < 20000; ++n) powers += "^x";
  std::string calls;
  for (int n = 0; n < 10000; ++n) calls += "sin(";
  calls += "x" + std::string(10000, ')');
  std::string signs;
  for (int n = 0; n < 20000; ++n) signs += "x+-";
  signs += "x";  // one sign at a time: not nested, accepted
  for (const std::string& deep :
       {powers, calls, std::string(30000, '(') + "x" + std::string(30000, ')'),
        std::string(30000, '-') + "x", "2^" + std::string(40000, '-') + "x"})
    ExpectRefused(deep, {"nested deeper than"});
  EXPECT_NO_THROW(Parse(signs));
  // 32 levels are accepted, 33 are not, whatever they are made of.
  std::string ok = "x";
  for (std::size_t n = 0; n < kMaxExpressionDepth; ++n) ok = "(" + ok + ")";
  EXPECT_NO_THROW(Parse(ok));
  ExpectRefused("(" + ok + ")", {"nested deeper than"});
  std::string tower = "x";  // 33 exponents
  for (std::size_t n = 0; n <= kMaxExpressionDepth; ++n) tower += "^x";
  ExpectRefused(tower, {"nested deeper than"});
  EXPECT_NO_THROW(Parse(tower.substr(2)));
}

TEST_F(ExpressionGrammar, IdentifiersMayStartWithAnUnderscore) {
  const symbol u("_u");
  table["_u"] = u;
  ExpectMeans("2*_u - -_u", 3 * u);
}

TEST(ExpressionPhysics, ASignAfterAProductLeavesTheRestOfTheLagrangianAlone) {
  // "A hand-written Lagrangian with m*-g*z gets different physics" (issue 36): GiNaC's parser
  // read m*(-g*z + m*vz^2/2), whose equation is m^2 vz' + m g = 0. Free fall is vz' = -g.
  const auto system = LagrangeDiracSystem::Derive(ParseScenario(R"yaml(
name: free fall
coordinates:
  - {name: z, velocity: vz, initial: 1.0, initial_velocity: 0.0}
parameters:
  - {name: m, default: 2.0}
  - {name: g, default: 9.81}
lagrangian: "m*-g*z + m*vz^2/2"
simulation: {t_end: 1, output_step: 0.1}
)yaml",
                                                                "fall.yaml"));
  const InputLayout& L = CompiledDaeOf(*system).layout;
  ASSERT_EQ(L.n, 1u);
  std::vector<double> in(L.size(), 0.3);
  in[L.parameters()] = 2.0;
  in[L.parameters() + 1] = 9.81;
  in[L.vdot()] = 0.0;
  const double at_rest =
      CompiledDaeOf(*system).residual.Evaluate(in)[1];  // m g (or g if normalised)
  in[L.vdot()] = -9.81;
  EXPECT_GT(std::abs(at_rest), 9.0);
  EXPECT_NEAR(CompiledDaeOf(*system).residual.Evaluate(in)[1], 0.0, 1e-12 * std::abs(at_rest));
}

}  // namespace
}  // namespace dirac::symbolic
