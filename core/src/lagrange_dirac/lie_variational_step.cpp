#include "lagrange_dirac/lie_variational_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "dirac/error.hpp"
#include "lagrange_dirac/saddle_system.hpp"

namespace dirac::lagrange_dirac {
namespace {

constexpr int kMaxNewtonIterations = 50;

Eigen::Matrix3d SkewOf(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

// (1 - cos t)/t² as 2 sin²(t/2)/t², without the cancellation of 1 - cos t.
double HalfSquaredSinc(double t) {
  const double s = std::sin(0.5 * t) / (0.5 * t);
  return 0.5 * s * s;
}

// exp(f^) by Rodrigues' formula (series near 0).
Eigen::Matrix3d ExpSO3(const Eigen::Vector3d& f) {
  const double t2 = f.squaredNorm(), t = std::sqrt(t2);
  const double a = t < 1e-4 ? 1.0 - t2 / 6.0 : std::sin(t) / t;
  const double b = t < 1e-4 ? 0.5 - t2 / 24.0 : HalfSquaredSinc(t);
  const Eigen::Matrix3d F = SkewOf(f);
  return Eigen::Matrix3d::Identity() + a * F + b * F * F;
}

// G(f) = vee(F J_d - J_d Fᵀ) for F = exp(f^): a J f + b f x J f, a = sin θ/θ, b = (1 - cos θ)/θ²,
// θ = |f|; and its Jacobian a J + c (J f) fᵀ + b (f^ J - (J f)^) + d (f x J f) fᵀ with
// c = a'(θ)/θ, d = b'(θ)/θ.
Eigen::Vector3d DiscreteMomentum(const Eigen::Matrix3d& J, const Eigen::Vector3d& f,
                                 Eigen::Matrix3d* jacobian) {
  const double t2 = f.squaredNorm(), t = std::sqrt(t2);
  const bool small = t < 1e-4;
  const double a = small ? 1.0 - t2 / 6.0 : std::sin(t) / t;
  const double b = small ? 0.5 - t2 / 24.0 : HalfSquaredSinc(t);
  const Eigen::Vector3d Jf = J * f, cross = f.cross(Jf);
  if (jacobian) {
    const double c = small ? -1.0 / 3.0 + t2 / 30.0 : (t * std::cos(t) - std::sin(t)) / (t2 * t);
    const double d = small ? -1.0 / 12.0 + t2 / 180.0
                           : (t * std::sin(t) - 2.0 * (1.0 - std::cos(t))) / (t2 * t2);
    *jacobian = a * J + c * Jf * f.transpose() + b * (SkewOf(f) * J - SkewOf(Jf)) +
                d * cross * f.transpose();
  }
  return a * Jf + b * cross;
}

}  // namespace

std::optional<Eigen::Matrix3d> FreeBodyOnGroup(const CompiledDae& dae,
                                               const std::vector<double>& parameters,
                                               const ReconstructionSpec& reconstruction,
                                               const FreeBodyAlgebra& algebra, std::string* why) {
  const auto fail = [&](const std::string& reason) -> std::optional<Eigen::Matrix3d> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const InputLayout& layout = dae.layout;
  if (layout.n != 0 || layout.k != 3)
    return fail("it is not a Lie algebroid over a point with a three-dimensional fibre");
  if (layout.m != 0 || dae.holonomic.num_outputs() != 0) return fail("it has constraints");
  const std::string group = algebra.group;
  if (reconstruction.group != group)
    return fail("it has no reconstruction on " + group + " (reconstruction: {group: " + group +
                ", ...})");
  SaddleSystem saddle(dae, parameters);
  std::vector<double> scratch(
      std::max({dae.body_velocity.scratch_size(), dae.fibre_momentum.scratch_size(),
                dae.mass_matrix.scratch_size()}));
  // Probe states: M from the unit vectors, then checks at two generic states and times (a
  // non-quadratic or time-dependent Lagrangian, other brackets, or a body velocity other than
  // the fibre show there).
  Eigen::Matrix3d M;
  const auto load = [&](double t, const Eigen::Vector3d& xi) { saddle.LoadState(t, xi.data()); };
  const double* in = saddle.input().data();
  for (int i = 0; i < 3; ++i) {
    load(0.0, Eigen::Vector3d::Unit(i));
    Eigen::Vector3d p;
    dae.fibre_momentum.Evaluate(in, p.data(), scratch.data());
    M.col(i) = p;
  }
  const double scale = std::max(1.0, M.cwiseAbs().maxCoeff());
  if ((M - M.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale || M.llt().info() != Eigen::Success)
    return fail("its mass matrix d2L/dxi2 is not symmetric positive definite");
  for (const auto& [t, xi] : {std::pair{0.37, Eigen::Vector3d(0.31, -0.77, 0.52)},
                              std::pair{1.9, Eigen::Vector3d(-1.3, 0.45, 0.83)}}) {
    load(t, xi);
    Eigen::Vector3d p, body, rate;
    Eigen::Matrix3d W;
    dae.fibre_momentum.Evaluate(in, p.data(), scratch.data());
    dae.mass_matrix.Evaluate(in, W.data(), scratch.data());
    dae.body_velocity.Evaluate(in, body.data(), scratch.data());
    if ((p - M * xi).cwiseAbs().maxCoeff() > 1e-12 * scale * xi.norm() ||
        (W - M).cwiseAbs().maxCoeff() > 1e-12 * scale)
      return fail("its Lagrangian is not L = 1/2 xi^T M xi with a constant, time-independent M");
    if ((body - xi).cwiseAbs().maxCoeff() > 1e-12 * xi.norm())
      return fail("its reconstruction's body velocity is not the fibre");
    if (!saddle.Rates(t, xi.data(), rate.data()))
      return fail("its Euler-Poincare rates are not defined");
    // Euler-Poincare: M xi' = ad_xi^T (M xi).
    const Eigen::Vector3d expected = M.llt().solve(algebra.ad(xi).transpose() * (M * xi));
    if ((rate - expected).cwiseAbs().maxCoeff() > 1e-10 * std::max(1.0, expected.norm()))
      return fail(std::string("its brackets are not those of ") + algebra.brackets);
  }
  return M;
}

std::optional<Eigen::Matrix3d> RigidBodyOnSO3(const CompiledDae& dae,
                                              const std::vector<double>& parameters,
                                              const ReconstructionSpec& reconstruction,
                                              std::string* why) {
  // ad_w = w^ ([w, e_j] = w x e_j).
  return FreeBodyOnGroup(dae, parameters, reconstruction,
                         {"SO3", &SkewOf, "so(3), [e1, e2] = e3 (cyclic)"}, why);
}

RigidBodyLieVariational::RigidBodyLieVariational(const Eigen::Matrix3d& J,
                                                 const Eigen::Matrix3d& R0,
                                                 const Eigen::Vector3d& w0, double step, double t0)
    : J_(J), J_llt_(J), R_(R0), Pi_(J * w0), w_(w0), h_(step), t0_(t0) {
  if (J_llt_.info() != Eigen::Success)
    throw ModelError("lie_variational: the inertia J is not positive definite");
  Jd_ = 0.5 * J.trace() * Eigen::Matrix3d::Identity() - J;
}

int RigidBodyLieVariational::Step(double h) {
  // h Π = G(f), F = exp(f^): Newton from f = h w.
  const Eigen::Vector3d target = h * Pi_;
  Eigen::Vector3d f = h * w_;
  Eigen::Matrix3d jacobian;
  double previous = std::numeric_limits<double>::infinity();
  for (int iteration = 1; iteration <= kMaxNewtonIterations; ++iteration) {
    const Eigen::Vector3d residual = DiscreteMomentum(J_, f, &jacobian) - target;
    const Eigen::Vector3d delta = jacobian.partialPivLu().solve(residual);
    f -= delta;
    const double change = delta.cwiseAbs().maxCoeff();
    const double size = std::max(f.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    if (!std::isfinite(change)) break;
    if (change <= 4.0 * std::numeric_limits<double>::epsilon() * size ||
        (change >= previous && change <= 1e-12 * size)) {
      const Eigen::Matrix3d F = ExpSO3(f);
      R_ = R_ * F;
      Pi_ = F.transpose() * Pi_;
      w_ = J_llt_.solve(Pi_);
      return iteration;
    }
    previous = change;
  }
  throw NumericalError(
      "lie_variational: Newton's iteration for F_k (h Pi^ = F J_d - J_d F^T) did not converge; "
      "try a smaller simulation.step");
}

double RigidBodyLieVariational::Advance(double tout) {
  const double now = t0_ + static_cast<double>(steps_) * h_;
  const double ratio = (tout - now) / h_;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) > 1e-9 * std::max(1.0, std::abs(ratio)) || whole < 0)
    throw NumericalError("lie_variational integrator: t = " + std::to_string(tout) +
                         " is not a whole number of steps from t = " + std::to_string(now));
  for (long s = 0; s < static_cast<long>(whole); ++s) {
    try {
      iterations_ += Step(h_);
    } catch (const NumericalError& e) {
      throw NumericalError("at t = " + std::to_string(t0_ + static_cast<double>(steps_) * h_) +
                           ": " + e.what());
    }
    ++steps_;
  }
  return tout;
}

dynamics::IdasStatistics RigidBodyLieVariational::statistics() const {
  dynamics::IdasStatistics s;
  s.steps = steps_;
  s.last_order = 2;
  return s;
}

}  // namespace dirac::lagrange_dirac
