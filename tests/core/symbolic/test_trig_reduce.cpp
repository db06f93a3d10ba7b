// The Pythagorean reduction of generated expressions (symbolic/trig_reduce.hpp): identities
// hidden in sums of products of sines and cosines vanish, roots of squares resolve with a given
// sign, values never change, and the result does not depend on the order terms were built in.
#include <ginac/ginac.h>
#include <gtest/gtest.h>

#include <random>

#include "symbolic/trig_reduce.hpp"

namespace dirac::symbolic {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

TEST(TrigReduce, ASymmetricDiskLosesItsSpinAngle) {
  // The rotational energy of a disk with Ixx = Izz, its rate accumulated through a spin p about
  // its axle: 2 T / Id = (cos a cos p va + sin p vb)^2 + (cos a sin p va - cos p vb)^2.
  const symbol a("a"), p("p"), va("va"), vb("vb");
  const ex energy =
      pow(cos(a) * cos(p) * va + sin(p) * vb, 2) + pow(cos(a) * sin(p) * va - cos(p) * vb, 2);
  const ex reduced = ReducePythagorean(energy);
  EXPECT_TRUE(reduced.is_equal(pow(cos(a), 2) * pow(va, 2) + pow(vb, 2))) << reduced;
  EXPECT_FALSE(reduced.has(p));
}

TEST(TrigReduce, EveryPowerOfASineIsLoweredAndTheKnifeEdgeFormComesOutWhole) {
  const symbol u("u"), w("w"), a("a"), vx("vx"), vy("vy"), vt("vt");
  EXPECT_TRUE(ReducePythagorean(pow(sin(u), 3) + sin(u) * pow(cos(u), 2)).is_equal(sin(u)));
  EXPECT_TRUE(
      ReducePythagorean(pow(sin(u), 4) + 2 * pow(sin(u) * cos(u), 2) + pow(cos(u), 4)).is_equal(1));
  // Reduced, this one would be larger with no angle gone: it is returned as it is.
  const ex larger = pow(sin(u), 4) * pow(sin(w), 2) + 1;
  EXPECT_TRUE(ReducePythagorean(larger).is_equal(larger));
  // The sleigh's blade, (vx + a sin(t) vt, vy - a cos(t) vt) . (-sin t, cos t).
  const ex knife = -(vx + a * sin(u) * vt) * sin(u) + (vy - a * cos(u) * vt) * cos(u);
  EXPECT_TRUE(ReducePythagorean(knife).is_equal(-sin(u) * vx + cos(u) * vy - a * vt));
}

TEST(TrigReduce, RootsOfSquaresResolveOnlyWithAKnownSign) {
  const symbol a("a"), b("b"), R("R");
  // The rolling disk's contact: R cos(a) - R (1 - sin(a)^2) / sqrt(cos(a)^2 (cos^2 b + sin^2 b)).
  const ex height = R * cos(a) - R * (1 - pow(sin(a), 2)) /
                                     sqrt(pow(cos(a), 2) * (pow(cos(b), 2) + pow(sin(b), 2)));
  PythagoreanOptions positive, negative, unknown;
  positive.sign = [&](const ex& f) { return f.is_equal(cos(a)) ? 1 : 0; };
  negative.sign = [&](const ex& f) { return f.is_equal(cos(a)) ? -1 : 0; };
  unknown.sign = [](const ex&) { return 0; };
  EXPECT_TRUE(ReducePythagorean(height, positive).is_zero());
  EXPECT_TRUE(ReducePythagorean(height, negative).is_equal(2 * R * cos(a)));
  const ex kept = ReducePythagorean(height, unknown);
  EXPECT_TRUE(kept.has(pow(pow(cos(a), 2), GiNaC::numeric(-1, 2)))) << kept;
  EXPECT_FALSE(kept.has(b));
  // A positive rational factor of the square comes out of the root.
  EXPECT_TRUE(
      ReducePythagorean(sqrt(4 * pow(cos(a), 2)) * sin(a), positive).is_equal(2 * cos(a) * sin(a)));
}

TEST(TrigReduce, ValuesAreUnchangedAndTheOrderOfTermsDoesNotMatter) {
  const symbol x("x"), y("y"), z("z"), k("k");
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> coefficient(-3, 3);
  const ex factors[] = {sin(x), cos(x), sin(y), cos(y), cos(z), sin(x + y), k};
  for (int trial = 0; trial < 20; ++trial) {
    // A random sum of products of two sums; built again in the reverse order.
    ex forward = 0, backward = 0;
    std::vector<ex> terms;
    for (int t = 0; t < 4; ++t) {
      ex left = 0, right = 0;
      for (const ex& f : factors) left += coefficient(random) * f;
      for (const ex& f : factors) right += coefficient(random) * f;
      terms.push_back(left * right);
    }
    for (const ex& t : terms) forward += t;
    for (auto it = terms.rbegin(); it != terms.rend(); ++it) backward += *it;
    const ex a = ReducePythagorean(forward), b = ReducePythagorean(backward);
    EXPECT_TRUE(a.is_equal(b));
    const GiNaC::exmap at{{x, 0.3}, {y, -1.1}, {z, 2.0}, {k, 0.7}};
    const double before = GiNaC::ex_to<GiNaC::numeric>(forward.subs(at).evalf()).to_double();
    const double after = GiNaC::ex_to<GiNaC::numeric>(a.subs(at).evalf()).to_double();
    EXPECT_NEAR(after, before, 1e-12 * (1 + std::abs(before)));
  }
}

TEST(TrigReduce, AnExpressionBeyondTheBoundOrWithoutTrigonometryIsReturnedAsItIs) {
  const symbol x("x"), y("y");
  ex sum = 0;
  for (int i = 1; i <= 12; ++i) sum += cos(i * x) * y + sin(i * x);
  const ex big = pow(sum, 4);  // binomial(27, 4) = 17550 terms once expanded
  EXPECT_TRUE(ReducePythagorean(big).is_equal(big));
  const ex plain = pow(x + y, 3);
  EXPECT_TRUE(ReducePythagorean(plain).is_equal(plain));
}

}  // namespace
}  // namespace dirac::symbolic
