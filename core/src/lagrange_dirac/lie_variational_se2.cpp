// `lie_variational` on SE(2): the free planar body's Lie group variational integrator with the
// exponential map (lie_variational_step.hpp; Bou-Rabee & Marsden 2009), and its recognition on the
// compiled model.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "dirac/error.hpp"
#include "geometry/lie_group.hpp"
#include "lagrange_dirac/lie_variational_step.hpp"
#include "lagrange_dirac/saddle_system.hpp"

namespace dirac::lagrange_dirac {
namespace {

constexpr int kSe2NewtonIterations = 50;

// ad_x on se(2) in the basis (e1, e2, e3) = (x translation, y translation, rotation) with
// [e1, e3] = -e2, [e2, e3] = e1: column j is [x, e_j].
Eigen::Matrix3d AdSE2(const Eigen::Vector3d& x) {
  Eigen::Matrix3d ad;
  ad << 0, -x.z(), x.y(), x.z(), 0, -x.x(), 0, 0, 0;
  return ad;
}

// c(θ) = (1 - (θ/2) cot(θ/2))/θ² and its derivative, series below |θ| = 1e-3.
double DexpCoefficient(double t, double* derivative) {
  if (std::abs(t) < 1e-3) {
    const double t2 = t * t;
    *derivative = t / 360.0 + t2 * t / 7560.0;
    return 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0;
  }
  const double half = 0.5 * t, cot = std::cos(half) / std::sin(half);
  const double s = half * cot;                                                 // (θ/2) cot(θ/2)
  const double ds = 0.5 * cot - 0.25 * t / (std::sin(half) * std::sin(half));  // its derivative
  *derivative = -ds / (t * t) - 2.0 * (1.0 - s) / (t * t * t);
  return (1.0 - s) / (t * t);
}

// dexp⁻¹_x = I + sign ½ ad_x + c(θ) ad_x² (sign = +1: left-trivialized at x; -1: at -x).
Eigen::Matrix3d DexpInverse(const Eigen::Vector3d& x, double sign) {
  double dc = 0.0;
  const double c = DexpCoefficient(x.z(), &dc);
  const Eigen::Matrix3d ad = AdSE2(x);
  return Eigen::Matrix3d::Identity() + 0.5 * sign * ad + c * ad * ad;
}

// Ad_(g⁻¹) for g = [R t; 0 1]: [Rᵀ, J Rᵀ t; 0 1], J the rotation by +90 degrees.
Eigen::Matrix3d AdInverseSE2(const Eigen::Matrix3d& g) {
  const Eigen::Matrix2d Rt = g.topLeftCorner<2, 2>().transpose();
  const Eigen::Vector2d u = Rt * g.topRightCorner<2, 1>();
  Eigen::Matrix3d ad = Eigen::Matrix3d::Identity();
  ad.topLeftCorner<2, 2>() = Rt;
  ad(0, 2) = -u.y();
  ad(1, 2) = u.x();
  return ad;
}

}  // namespace

std::optional<Eigen::Matrix3d> PlanarBodyOnSE2(const CompiledDae& dae,
                                               const std::vector<double>& parameters,
                                               const ReconstructionSpec& reconstruction,
                                               std::string* why) {
  return FreeBodyOnGroup(dae, parameters, reconstruction,
                         {"SE2", &AdSE2, "se(2), [e1, e3] = -e2, [e2, e3] = e1"}, why);
}

PlanarBodyLieVariational::PlanarBodyLieVariational(const Eigen::Matrix3d& M,
                                                   const Eigen::Matrix3d& g0,
                                                   const Eigen::Vector3d& xi0, double step,
                                                   double t0)
    : M_(M), M_llt_(M), g_(g0), m_(M * xi0), xi_(xi0), h_(step), t0_(t0) {
  if (M_llt_.info() != Eigen::Success)
    throw ModelError("lie_variational: the mass matrix M is not positive definite");
}

Eigen::Vector3d PlanarBodyLieVariational::SpatialMomentum() const {
  return AdInverseSE2(g_).transpose() * m_;
}

int PlanarBodyLieVariational::Step(double h) {
  // (dexp⁻¹_{-hξ})ᵀ M ξ = m by Newton from ξ = the node velocity. With B(ξ) = dexp⁻¹_{-hξ} =
  // I - ½ ad_x + c ad_x², x = hξ: d(Bᵀ p)/dξ_j = Bᵀ M e_j + (dB/dξ_j)ᵀ p, dB/dξ_j = h (-½ ad_j +
  // c (ad_j ad_x + ad_x ad_j)) + δ_j3 h c'(θ) ad_x².
  Eigen::Vector3d xi = xi_;
  double previous = std::numeric_limits<double>::infinity();
  for (int iteration = 1; iteration <= kSe2NewtonIterations; ++iteration) {
    const Eigen::Vector3d x = h * xi, p = M_ * xi;
    double dc = 0.0;
    const double c = DexpCoefficient(x.z(), &dc);
    const Eigen::Matrix3d ad = AdSE2(x), ad2 = ad * ad;
    const Eigen::Matrix3d B = Eigen::Matrix3d::Identity() - 0.5 * ad + c * ad2;
    Eigen::Matrix3d jacobian = B.transpose() * M_;
    for (int j = 0; j < 3; ++j) {
      const Eigen::Matrix3d adj = AdSE2(Eigen::Vector3d::Unit(j));
      Eigen::Matrix3d dB = h * (-0.5 * adj + c * (adj * ad + ad * adj));
      if (j == 2) dB += h * dc * ad2;
      jacobian.col(j) += dB.transpose() * p;
    }
    const Eigen::Vector3d delta = jacobian.partialPivLu().solve(B.transpose() * p - m_);
    xi -= delta;
    const double change = delta.cwiseAbs().maxCoeff();
    const double size = std::max(xi.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    if (!std::isfinite(change)) break;
    if (change <= 4.0 * std::numeric_limits<double>::epsilon() * size ||
        (change >= previous && change <= 1e-12 * size)) {
      const Eigen::Vector3d step = h * xi;
      m_ = DexpInverse(step, 1.0).transpose() * (M_ * xi);
      g_ = g_ * geometry::Exp(geometry::MatrixGroup::kSE2, step);
      xi_ = M_llt_.solve(m_);
      return iteration;
    }
    previous = change;
  }
  throw NumericalError(
      "lie_variational: Newton's iteration for the SE(2) step (dexp^-1_{-h xi}^T M xi = m) did "
      "not converge; try a smaller simulation.step");
}

double PlanarBodyLieVariational::Advance(double tout) {
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

dynamics::IdasStatistics PlanarBodyLieVariational::statistics() const {
  dynamics::IdasStatistics s;
  s.steps = steps_;
  s.last_order = 2;
  return s;
}

}  // namespace dirac::lagrange_dirac
