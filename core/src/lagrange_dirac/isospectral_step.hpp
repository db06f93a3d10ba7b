#pragma once
// Internal: `simulation.method: isospectral`, the isospectral midpoint method (Viviani 2020;
// Modin–Viviani 2020; docs/references.md) for the Euler–Poincaré (Lie–Poisson) equations on a
// matrix Lie algebra g ⊂ u(N) or so(N) whose trace form is diagonal in the basis (so(n),
// Zeitlin's su(N) on the torus: families::HasTraceCasimirs).
//
// The momentum is held as a matrix: with the pairing p_a = Re tr(E_a M) of the basis matrices
// E_a (ad-invariant), M = Σ (p_a / κ_a) E_a, κ_a = Re tr(E_a E_a), and the Euler–Poincaré
// equation p_a' = -C^c_ab y^b p_c is the Lax form M' = [B(M), M] with B = -Y, Y = Σ y_b E_b,
// y = W⁻¹(p - p|_(y=0)) (the quadratic Lagrangian's velocity). One step of size h solves
//   M_n = (I - h/2 B) M̃ (I + h/2 B),   B = B(M̃),
// for M̃ by fixed-point iteration to round-off (M̃ = M_n + h/2 [B, M̃] + h²/4 B M̃ B), then
//   M_(n+1) = (I + h/2 B) M̃ (I - h/2 B) = 2 M̃ - M_n - h²/2 B M̃ B,
// i.e. M_(n+1) = cay(hB) M_n cay(hB)⁻¹: every eigenvalue of M, so every Casimir tr(M^k), is kept
// to round-off; the method is symplectic on the coadjoint orbit and of order 2. Dense N x N
// complex matrices: O(N³) a step (three products per iteration); the basis sums over the sparse
// entries of the E_a (so(n)), or on Zeitlin's torus by FFTs along the wrapped diagonals
// (O(N² log N), memory O(N²)); never the structure constants.

#include <Eigen/Dense>

#include <functional>
#include <memory>
#include <vector>

#include "dynamics/integrator.hpp"
#include "families/lie_algebra_family.hpp"

namespace dirac::lagrange_dirac {

/// The isospectral midpoint step on a matrix Lie algebra. Not thread-safe (scratch buffers).
class IsospectralMidpoint {
 public:
  /// `basis`: the sparse matrices E_a (size x size) of a basis orthogonal under Re tr(E_a E_b);
  /// `velocity(p, y)`: the Lagrangian's velocity y = W⁻¹(p - p0) for a momentum p (both of
  /// basis.size() values). Throws ModelError if some κ_a = Re tr(E_a E_a) vanishes.
  IsospectralMidpoint(int size, std::vector<std::vector<families::MatrixEntry>> basis,
                      std::function<void(const double* p, double* y)> velocity);
  /// The same on the family's own matrix realization; on Zeitlin's torus without an entry list:
  /// p and Σ y E by FFTs along the wrapped diagonals (O(N² log N), memory O(N²)).
  IsospectralMidpoint(const families::LieAlgebraBasis& basis,
                      std::function<void(const double* p, double* y)> velocity);
  ~IsospectralMidpoint();

  /// Sets M = Σ (p_a / κ_a) E_a.
  void SetMomentum(const double* p);
  /// p_a = Re tr(E_a M) of the current M.
  void Momentum(double* p) const;
  /// One step of size `h` [s]; returns the fixed-point iterations it took. Throws NumericalError
  /// if the iteration does not reach round-off in 100 iterations (h too large for the flow).
  int Step(double h);
  /// The current momentum matrix M.
  const Eigen::MatrixXcd& matrix() const { return M_; }
  std::size_t dimension() const;

 private:
  struct TorusTransform;
  // p_a = Re tr(E_a X); out = factor Σ y_b E_b.
  void Extract(const Eigen::MatrixXcd& X, double* p) const;
  void Assemble(const double* y, double factor, Eigen::MatrixXcd& out) const;
  // B(X) = -Σ y_b E_b with y = velocity(p(X)), into B_.
  void Generator(const Eigen::MatrixXcd& X);

  int size_;
  std::vector<std::vector<families::MatrixEntry>> basis_;  // empty on the torus
  std::unique_ptr<TorusTransform> torus_;
  std::function<void(const double*, double*)> velocity_;
  std::vector<double> kappa_, p_, y_;
  Eigen::MatrixXcd M_, tilde_, next_, B_, BX_, XB_, BXB_;
};

/// The seam's Integrator for `isospectral`: whole steps of `step` between the samples, the state
/// y() being the velocity y = W⁻¹(p - p0) of the current momentum (the model's columns).
class IsospectralIntegrator final : public dynamics::Integrator {
 public:
  /// Starts at t0 from the momentum `momentum0` on `basis` (its family's matrix realization).
  /// Throws ModelError as IsospectralMidpoint.
  IsospectralIntegrator(const families::LieAlgebraBasis& basis,
                        std::function<void(const double* p, double* y)> velocity,
                        const std::vector<double>& momentum0, double step, double t0);
  /// Takes whole steps up to `tout` (a whole number of steps away, to 1e-9 of a step); returns
  /// tout. Throws NumericalError naming the time if a step fails.
  double Advance(double tout) override;
  const double* y() const override { return y_.data(); }
  /// steps taken, no failures, last_order = 2.
  dynamics::IdasStatistics statistics() const override;
  /// Fixed-point iterations, summed (each one evaluation of B).
  long rhs_evaluations() const override { return iterations_; }
  const IsospectralMidpoint& midpoint() const { return midpoint_; }

 private:
  IsospectralMidpoint midpoint_;
  std::function<void(const double*, double*)> velocity_;
  double h_, t0_;
  long steps_ = 0, iterations_ = 0;
  std::vector<double> p_, y_;
};

}  // namespace dirac::lagrange_dirac
