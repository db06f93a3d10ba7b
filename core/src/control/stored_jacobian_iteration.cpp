#include "control/stored_jacobian_iteration.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace dirac::control {
namespace {

// A step must at least halve |F|_2 (Newton from nearby contracts far faster; slower means
// the stored Jacobian no longer describes the problem).
constexpr double kContraction = 0.5;

// Inexact iterates: far from the solution the motion is integrated only as accurately as the
// residual it is about to be compared with needs (its error ~1e-6 of the current max |F|, at
// most 1e-8); the last iterates, and the acceptance, use the tight tolerance.
constexpr double kLooseTolerance = 1e-8, kErrorPerResidual = 1e-6;
double IntegrationTolerance(double residual) {
  return std::clamp(kErrorPerResidual * residual, MultipleShooting::kTightTolerance,
                    kLooseTolerance);
}

void NoteResidual(SolveReport& report, double residual) {
  report.residual = residual;
  if (!(report.best_residual > 0) || residual < report.best_residual)
    report.best_residual = residual;
}

}  // namespace

bool IterateOnStoredJacobian(MultipleShooting& ms, Eigen::MatrixXd& H, ShootingPoint& point,
                             double tolerance, int max_iterations, const SolveOptions& options,
                             SolveReport& report) {
  const auto n = static_cast<Eigen::Index>(ms.num_unknowns());
  if (H.rows() != n || H.cols() != n || !H.allFinite()) return false;
  ms.set_relative_tolerance(kLooseTolerance);
  Eigen::VectorXd F, trial_F;
  std::string failure;
  if (!ms.Evaluate(point, F, nullptr, &failure)) return false;
  for (int k = 0; k < max_iterations; ++k) {
    if (MaxAbs(F) <= tolerance) {
      if (ms.relative_tolerance() <= MultipleShooting::kTightTolerance) break;
      ms.set_relative_tolerance(MultipleShooting::kTightTolerance);  // confirm it tightly
      if (!ms.Evaluate(point, F, nullptr, &failure)) return false;
      continue;
    }
    if (options.cancel && options.cancel->load()) throw Cancelled{};
    const Eigen::VectorXd step = -(H * F);
    if (!step.allFinite()) return false;
    ShootingPoint trial = ms.Displace(point, step);
    ms.set_relative_tolerance(IntegrationTolerance(MaxAbs(F)));
    if (!ms.Evaluate(trial, trial_F, nullptr, &failure)) return false;
    if (!(trial_F.norm() <= kContraction * F.norm())) return false;
    // Broyden's good update of the inverse: H += (s - H y) s^T H / (s^T H y), y = F+ - F.
    const Eigen::VectorXd Hy = H * (trial_F - F);
    const double denominator = step.dot(Hy);
    if (std::abs(denominator) > 1e-12 * step.norm() * Hy.norm()) {
      const Eigen::RowVectorXd sH = step.transpose() * H;
      H.noalias() += ((step - Hy) / denominator) * sH;
    }
    point = std::move(trial);
    F.swap(trial_F);
    NewtonIterate iterate;
    iterate.iteration = ++report.iterations;
    ++report.stored_jacobian_iterations;
    iterate.residual = MaxAbs(F);
    iterate.step_norm = MaxAbs(step);
    iterate.stored_jacobian = true;
    report.history.push_back(iterate);
    NoteResidual(report, iterate.residual);
    if (options.progress && !options.progress(iterate)) throw Cancelled{};
  }
  NoteResidual(report, MaxAbs(F));
  return MaxAbs(F) <= tolerance && ms.relative_tolerance() <= MultipleShooting::kTightTolerance;
}

}  // namespace dirac::control
