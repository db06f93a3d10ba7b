#pragma once
// Internal: `simulation.method: lie_variational`, the Lie group variational integrators of the
// free planar body on SE(2) (PlanarBodyLieVariational, below) and of the free rigid body on SO(3)
// (Lee, Leok & McClamroch 2005/2007; docs/references.md): the discrete
// Euler–Poincaré equations of the discrete Lagrangian L_d(R_k, F_k) = (1/h) tr((I - F_k) J_d),
// J_d = ½ tr(J) I - J (J = d²L/dw², the inertia), with F_k = R_kᵀ R_(k+1):
//   h Π_k^ = F_k J_d - J_d F_kᵀ      (for F_k = exp(f^): Newton on f in R³, to round-off)
//   R_(k+1) = R_k F_k,   Π_(k+1) = F_kᵀ Π_k,   w = J⁻¹ Π,
// so the group element stays on SO(3) to round-off (a product of exponentials), the spatial
// angular momentum R Π is kept to round-off (R_(k+1) Π_(k+1) = R_k F_k F_kᵀ Π_k), and the energy
// stays bounded (symplectic, order 2).
//
// Applies to a Lagrange–Dirac system on a Lie algebroid over a point that is so(3) with the
// brackets [e1, e2] = e3 (cyclic), a Lagrangian L = ½ wᵀ J w (constant J, autonomous), no
// constraints, and `reconstruction: {group: SO3, body_velocity: [w1, w2, w3]}` on the fibre:
// RigidBodyOnSO3 checks this on the compiled model at probe states.

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "dynamics/integrator.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"

namespace dirac::lagrange_dirac {

/// A three-dimensional matrix Lie algebra for FreeBodyOnGroup: the reconstruction group's name
/// ("SO3", "SE2"), ad_x (column j = [x, e_j]) and its brackets as the refusal names them.
struct FreeBodyAlgebra {
  const char* group;
  Eigen::Matrix3d (*ad)(const Eigen::Vector3d& x);
  const char* brackets;
};

/// The constant mass matrix M when `dae` is a free body on `algebra`'s group: an algebroid over
/// a point with a three-dimensional fibre, no constraints, a reconstruction on that group whose
/// body velocity is the fibre, L = ½ ξᵀ M ξ (M constant, symmetric positive definite) and
/// Euler–Poincaré rates ξ' = M⁻¹ ad_ξᵀ M ξ (checked at two probe states and times); otherwise
/// nullopt, with the first failed check in `why`. RigidBodyOnSO3 and PlanarBodyOnSE2 call it.
std::optional<Eigen::Matrix3d> FreeBodyOnGroup(const CompiledDae& dae,
                                               const std::vector<double>& parameters,
                                               const ReconstructionSpec& reconstruction,
                                               const FreeBodyAlgebra& algebra, std::string* why);

/// The inertia J when `dae` is the free rigid body on SO(3) as described above (checked at probe
/// states: p = J w, W = J constant, w' = -J⁻¹(w x J w), xi = w, no constraints); otherwise
/// nullopt, with the reason in `why`.
std::optional<Eigen::Matrix3d> RigidBodyOnSO3(const CompiledDae& dae,
                                              const std::vector<double>& parameters,
                                              const ReconstructionSpec& reconstruction,
                                              std::string* why);

/// The discrete rigid body: state (R, Π); y() is the body angular velocity w = J⁻¹Π.
class RigidBodyLieVariational final : public dynamics::Integrator {
 public:
  /// From R0 (on SO(3)) and w0 at t0, with step `step` [s] and inertia J (symmetric positive
  /// definite). Throws ModelError if J is not.
  RigidBodyLieVariational(const Eigen::Matrix3d& J, const Eigen::Matrix3d& R0,
                          const Eigen::Vector3d& w0, double step, double t0);
  /// Takes whole steps up to `tout` (a whole number of steps away, to 1e-9 of a step); returns
  /// tout. Throws NumericalError naming the time if Newton fails.
  double Advance(double tout) override;
  const double* y() const override { return w_.data(); }
  /// steps taken, no failures, last_order = 2.
  dynamics::IdasStatistics statistics() const override;
  /// Newton iterations, summed.
  long rhs_evaluations() const override { return iterations_; }
  const Eigen::Matrix3d& attitude() const { return R_; }
  /// The body angular momentum Π = J w.
  const Eigen::Vector3d& momentum() const { return Pi_; }
  /// One step of size h from the current (R, Π). Returns Newton's iterations.
  int Step(double h);

 private:
  Eigen::Matrix3d J_, Jd_;
  Eigen::LLT<Eigen::Matrix3d> J_llt_;
  Eigen::Matrix3d R_;
  Eigen::Vector3d Pi_, w_;
  double h_, t0_;
  long steps_ = 0, iterations_ = 0;
};

/// The mass matrix M when `dae` is a free planar body on SE(2): a Lie algebroid over a point with
/// the se(2) brackets [e1, e3] = -e2, [e2, e3] = e1, [e1, e2] = 0 (e1, e2 the body translations,
/// e3 the rotation), L = ½ ξᵀ M ξ with M constant, symmetric positive definite (any centre of
/// mass), no constraints, and `reconstruction: {group: SE2, body_velocity: [the fibre]}`
/// (checked at probe states: p = M ξ, W = M, body velocity = ξ, ξ' = M⁻¹ ad_ξᵀ M ξ); otherwise
/// nullopt, with the reason in `why`.
std::optional<Eigen::Matrix3d> PlanarBodyOnSE2(const CompiledDae& dae,
                                               const std::vector<double>& parameters,
                                               const ReconstructionSpec& reconstruction,
                                               std::string* why);

/// The Lie group variational integrator of the free planar body on SE(2) (lie_variational_se2.cpp;
/// Bou-Rabee & Marsden 2009, the exponential as the local diffeomorphism): with the discrete
/// Lagrangian L_d(g_k, g_(k+1)) = h L(ξ_k), g_(k+1) = g_k exp(h ξ_k), the discrete
/// Euler–Poincaré equations in the left-trivialized node momentum m_k are
///   (dexp⁻¹_{-hξ_k})ᵀ M ξ_k = m_k        (Newton on ξ_k in R³, exact Jacobian, to round-off)
///   m_(k+1) = (dexp⁻¹_{hξ_k})ᵀ M ξ_k,   g_(k+1) = g_k exp(h ξ_k)
/// with dexp⁻¹_x = I + ½ ad_x + c(θ) ad_x², the inverse of the left-trivialized tangent of exp
/// (c = (1 - (θ/2) cot(θ/2))/θ², θ the rotation of x; exact since ad_x³ = -θ² ad_x on se(2)). The
/// element is a product of exponentials (on SE(2) to round-off), the spatial momentum Ad_(g⁻¹)ᵀ m
/// (the momentum map of the left SE(2) symmetry) is kept to round-off; symmetric, order 2. y() is
/// the node body velocity ξ = M⁻¹ m.
class PlanarBodyLieVariational final : public dynamics::Integrator {
 public:
  /// From g0 (on SE(2), 3 x 3 homogeneous) and ξ0 at t0 with step `step` [s] and mass matrix M
  /// (symmetric positive definite). Throws ModelError if M is not.
  PlanarBodyLieVariational(const Eigen::Matrix3d& M, const Eigen::Matrix3d& g0,
                           const Eigen::Vector3d& xi0, double step, double t0);
  /// Takes whole steps up to `tout` (a whole number of steps away, to 1e-9 of a step); returns
  /// tout. Throws NumericalError naming the time if Newton fails.
  double Advance(double tout) override;
  const double* y() const override { return xi_.data(); }
  /// steps taken, no failures, last_order = 2.
  dynamics::IdasStatistics statistics() const override;
  /// Newton iterations, summed.
  long rhs_evaluations() const override { return iterations_; }
  /// The group element g = [R t; 0 1].
  const Eigen::Matrix3d& element() const { return g_; }
  /// The left-trivialized (body) momentum m at the node.
  const Eigen::Vector3d& momentum() const { return m_; }
  /// The spatial momentum Ad_(g⁻¹)ᵀ m: (linear momentum in the plane, angular momentum about
  /// the origin), conserved by the free body.
  Eigen::Vector3d SpatialMomentum() const;
  /// One step of size h from the current (g, m). Returns Newton's iterations.
  int Step(double h);

 private:
  Eigen::Matrix3d M_;
  Eigen::LLT<Eigen::Matrix3d> M_llt_;
  Eigen::Matrix3d g_;
  Eigen::Vector3d m_, xi_;
  double h_, t0_;
  long steps_ = 0, iterations_ = 0;
};

}  // namespace dirac::lagrange_dirac
