// The constraint algorithm's exact linear algebra over rational functions
// (core/src/constraints/symbolic_linear_algebra.*), on matrices worked out by hand: the rank and
// pivots of Gauss–Jordan elimination with symbolic entries, null spaces that m annihilates
// identically, canonical simplification, Jacobians and dependence.
#include <gtest/gtest.h>

#include <ginac/ginac.h>

#include <vector>

#include "constraints/symbolic_linear_algebra.hpp"

namespace dirac {
namespace {

using GiNaC::ex;
using GiNaC::matrix;
using GiNaC::symbol;

bool IsZero(const ex& e) { return constraints::Simplify(e).is_zero(); }

bool IsZeroMatrix(const matrix& m) {
  for (unsigned i = 0; i < m.rows(); ++i)
    for (unsigned j = 0; j < m.cols(); ++j)
      if (!IsZero(m(i, j))) return false;
  return true;
}

TEST(SymbolicLinearAlgebra, SimplifyCancelsCommonFactors) {
  symbol x("x"), y("y");
  EXPECT_TRUE((constraints::Simplify((x * x - 1) / (x - 1)) - (x + 1)).is_zero());
  EXPECT_TRUE(constraints::Simplify(x / y - (x * x) / (x * y)).is_zero());
  EXPECT_FALSE(constraints::Simplify(x / y - y / x).is_zero());
}

TEST(SymbolicLinearAlgebra, RankAndPivotsOfASymbolicMatrix) {
  // The Heisenberg constraint's presymplectic block: rows (1, 0, -y), (0, 1, x), and their sum
  // scaled by x: rank 2 for every (x, y); the third row is x (row 1 + row 2).
  symbol x("x"), y("y");
  matrix m{{1, 0, -y}, {0, 1, x}, {x, x, x * (x - y)}};
  const constraints::RowEchelon e = constraints::ReduceRows(m);
  EXPECT_EQ(e.rank(), 2u);
  ASSERT_EQ(e.pivot_columns.size(), 2u);
  EXPECT_EQ(e.pivot_columns[0], 0u);
  EXPECT_EQ(e.pivot_columns[1], 1u);
  // The reduced form: identity on the pivot columns, the last row zero.
  EXPECT_TRUE(IsZero(e.reduced(0, 0) - 1));
  EXPECT_TRUE(IsZero(e.reduced(1, 1) - 1));
  EXPECT_TRUE(IsZero(e.reduced(0, 2) + y));
  EXPECT_TRUE(IsZero(e.reduced(1, 2) - x));
  for (unsigned j = 0; j < 3; ++j) EXPECT_TRUE(IsZero(e.reduced(2, j)));
}

TEST(SymbolicLinearAlgebra, GenericRankNeedsANonzeroSymbolicPivot) {
  // [[a, b], [c, d]] has generic rank 2 (ad - bc is not identically zero); its pivots are the
  // values that must not vanish for that rank to hold.
  symbol a("a"), b("b"), c("c"), d("d");
  const constraints::RowEchelon e = constraints::ReduceRows(matrix{{a, b}, {c, d}});
  EXPECT_EQ(e.rank(), 2u);
  ASSERT_EQ(e.pivots.size(), 2u);
  ex product = 1;
  for (const ex& p : e.pivots) product *= p;
  // The product of the pivots is the determinant up to sign.
  const ex det = a * d - b * c;
  EXPECT_TRUE(IsZero(product - det) || IsZero(product + det)) << product;
}

TEST(SymbolicLinearAlgebra, NullSpaceIsAnnihilatedIdentically) {
  // The nonholonomic Heisenberg form omega = (-y, x, 1) . (vx, vy, vz) as a 1 x 3 matrix:
  // its kernel, the distribution Delta, has dimension 2.
  symbol x("x"), y("y");
  const matrix omega{{-y, x, 1}};
  constraints::RowEchelon echelon;
  const matrix kernel = constraints::NullSpace(omega, &echelon);
  EXPECT_EQ(echelon.rank(), 1u);
  ASSERT_EQ(kernel.rows(), 3u);
  ASSERT_EQ(kernel.cols(), 2u);
  EXPECT_TRUE(IsZeroMatrix(omega.mul(kernel)));
  // The two columns are independent: rank 2.
  EXPECT_EQ(constraints::ReduceRows(constraints::Transpose(kernel)).rank(), 2u);
  // A full-rank square matrix has an empty kernel.
  EXPECT_EQ(constraints::NullSpace(matrix{{1, x}, {0, 1}}).cols(), 0u);
}

TEST(SymbolicLinearAlgebra, JacobianSubstitutionAndDependence) {
  symbol x("x"), y("y"), l("l");
  const std::vector<symbol> q{x, y};
  const matrix J = constraints::Jacobian({x * x + y * y - l * l, x * y}, q);
  ASSERT_EQ(J.rows(), 2u);
  ASSERT_EQ(J.cols(), 2u);
  EXPECT_TRUE(IsZero(J(0, 0) - 2 * x));
  EXPECT_TRUE(IsZero(J(0, 1) - 2 * y));
  EXPECT_TRUE(IsZero(J(1, 0) - y));
  EXPECT_TRUE(IsZero(J(1, 1) - x));
  GiNaC::exmap at;
  at[x] = 3;
  at[y] = l;
  const matrix J0 = constraints::Substitute(J, at);
  EXPECT_TRUE(IsZero(J0(0, 0) - 6));
  EXPECT_TRUE(IsZero(J0(1, 0) - l));
  EXPECT_TRUE(constraints::IsFreeOf(J0(0, 0), q));
  EXPECT_TRUE(constraints::IsFreeOf(l * l, q));
  EXPECT_FALSE(constraints::IsFreeOf(J(1, 1), q));
}

}  // namespace
}  // namespace dirac
