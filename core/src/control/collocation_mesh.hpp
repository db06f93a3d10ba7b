#pragma once
// Internal to control/: the collocation mesh: its local error estimate, its refinement, and the
// interpolation of a solution onto a refined mesh (the warm start of the next solve).

#include <vector>

#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"

namespace dirac::control {

/// Node fractions 0, 1/N, ..., 1.
std::vector<double> UniformMesh(int intervals);

/// The collocation polynomial of interval k at tau in [0, 1]: the state (Hermite-Simpson: the
/// cubic Hermite interpolant of x and f at the ends; trapezoidal: the quadratic with x' linear
/// between f_k and f_{k+1}), its time derivative, and the controls (quadratic through the ends
/// and the midpoint; linear). Any output pointer may be null.
void InterpolateInterval(const CollocationNlp& nlp, const CollocationDynamics& dynamics,
                         const double* w, int k, double tau, double* x, double* dx, double* u);

/// Per interval, the error estimate max_i int |x~_i' - f_i(t, x~, u~)| dt / (1 + max_p |x_p,i|)
/// of the collocation polynomial against the dynamics (Betts, "Practical methods for optimal
/// control", 4.7), the integral by Simpson's rule on the interval's quarter points.
std::vector<double> IntervalErrors(const CollocationNlp& nlp, const CollocationDynamics& dynamics,
                                   const double* w);

/// The mesh with every interval whose error exceeds `tolerance` split into equal parts, as many
/// as the estimate's order in h asks for (2 to 4); the same mesh when none does or when the
/// result would exceed `max_intervals`.
std::vector<double> RefineMesh(const std::vector<double>& mesh, const std::vector<double>& errors,
                               double tolerance, CollocationScheme scheme, int max_intervals);

/// The solution w of `from` interpolated onto the points of `to` (the same problem on another
/// mesh), clamped into `to`'s bounds: a starting point for `to`. With group rows, `from`'s group
/// elements interpolated along the geodesics between its nodes become `to`'s reference elements
/// (SetReference) and the chart coordinates of the result are 0.
std::vector<double> InterpolateSolution(const CollocationNlp& from,
                                        const CollocationDynamics& dynamics, const double* w,
                                        CollocationNlp& to);

}  // namespace dirac::control
