#pragma once
// Internal: the Pythagorean identity applied to generated expressions.
//
// Expressions built from chains of rotations hold sums like cos(u)^2 + sin(u)^2 that GiNaC never
// reduces: a disk spinning about its axle keeps its spin angle in its kinetic energy, a point
// offset along a rotated axis keeps cos^2 + sin^2 in its velocity's projection, a wheel's contact
// keeps the square root of a square. Every derivative, symbolic solve and normal() downstream
// carries them along (the rolling disk written with bodies took minutes for its gauge two-form).

#include <ginac/ginac.h>

#include <cstddef>
#include <functional>

namespace dirac::symbolic {

/// How ReducePythagorean treats its expression.
struct PythagoreanOptions {
  /// The expression is expanded only when its expansion is estimated at no more than this many
  /// terms (symbolic::ExpandedTermsEstimate); a larger one is returned as it is. Measured: the
  /// rolling disk's forms are 133, the Whipple bicycle's rear frame energy 383 (its reduction
  /// grows it threefold, 14 ms for nothing), its front wheel's forms billions.
  double max_terms = 300;
  /// The sign of f, +1 or -1, or 0 when unknown: sqrt(f^2) is then read as sign * f (also in
  /// any power (f^2)^(k/2) with k odd, and for products of such squares by a positive rational).
  /// Unset: roots are kept.
  std::function<int(const GiNaC::ex& f)> sign;
};

/// `e` with the Pythagorean identity applied: when it has a sine or a cosine and its expansion is
/// within `options.max_terms`, it is expanded, every power of a sine sin(u)^k (k >= 2) rewritten
/// by sin(u)^2 = 1 - cos(u)^2 and expanded again until no sine is left squared (the arguments u
/// are whatever GiNaC holds: sin(2 u) and sin(u) are reduced apart), and the roots of squares
/// resolved by `options.sign`. The result is returned when it has no more tree nodes (NodeCount)
/// than `e`, or at most twice as many and fewer distinct symbols (an angle that cancels, like a
/// symmetric disk's spin); else `e` is. A polynomial in sines and cosines of independent angles
/// comes out in its one form of degree at most one in each sine, so an identity hidden in it
/// disappears. Exact: numbers stay what they are and the value is unchanged (with the signs
/// given); the choice depends on the expression's content only, never on GiNaC's term order.
GiNaC::ex ReducePythagorean(const GiNaC::ex& e, const PythagoreanOptions& options = {});

}  // namespace dirac::symbolic
