#include "lagrange_dirac/isospectral_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dirac/error.hpp"

namespace dirac::lagrange_dirac {
namespace {

constexpr int kMaxFixedPointIterations = 100;

double MatrixMaxAbs(const Eigen::MatrixXcd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace

IsospectralMidpoint::IsospectralMidpoint(int size,
                                         std::vector<std::vector<families::MatrixEntry>> basis,
                                         std::function<void(const double* p, double* y)> velocity)
    : size_(size), basis_(std::move(basis)), velocity_(std::move(velocity)) {
  const std::size_t k = basis_.size();
  kappa_.assign(k, 0.0);
  p_.assign(k, 0.0);
  y_.assign(k, 0.0);
  // κ_a = Re tr(E_a E_a) = Re Σ E_ij E_ji, with E_a scattered into a dense scratch (O(nnz)).
  Eigen::MatrixXcd scratch = Eigen::MatrixXcd::Zero(size_, size_);
  for (std::size_t a = 0; a < k; ++a) {
    for (const auto& e : basis_[a]) scratch(e.row, e.col) += e.value;
    std::complex<double> trace = 0.0;
    for (const auto& e : basis_[a]) trace += e.value * scratch(e.col, e.row);
    for (const auto& e : basis_[a]) scratch(e.row, e.col) = 0.0;
    kappa_[a] = trace.real();
    if (!(std::abs(kappa_[a]) > 0.0))
      throw ModelError("isospectral: basis element " + std::to_string(a) +
                       " has tr(E E) = 0: the trace form is degenerate on this basis");
  }
  M_ = Eigen::MatrixXcd::Zero(size_, size_);
}

void IsospectralMidpoint::SetMomentum(const double* p) {
  M_.setZero();
  for (std::size_t a = 0; a < basis_.size(); ++a)
    if (p[a] != 0.0)
      for (const auto& e : basis_[a]) M_(e.row, e.col) += (p[a] / kappa_[a]) * e.value;
}

void IsospectralMidpoint::Momentum(double* p) const {
  for (std::size_t a = 0; a < basis_.size(); ++a) {
    std::complex<double> trace = 0.0;
    for (const auto& e : basis_[a]) trace += e.value * M_(e.col, e.row);
    p[a] = trace.real();
  }
}

void IsospectralMidpoint::Generator(const Eigen::MatrixXcd& X) {
  const std::size_t k = basis_.size();
  for (std::size_t a = 0; a < k; ++a) {
    std::complex<double> trace = 0.0;
    for (const auto& e : basis_[a]) trace += e.value * X(e.col, e.row);
    p_[a] = trace.real();
  }
  velocity_(p_.data(), y_.data());
  B_.setZero(size_, size_);
  for (std::size_t b = 0; b < k; ++b)
    if (y_[b] != 0.0)
      for (const auto& e : basis_[b]) B_(e.row, e.col) -= y_[b] * e.value;
}

int IsospectralMidpoint::Step(double h) {
  const double scale = std::max(MatrixMaxAbs(M_), std::numeric_limits<double>::min());
  const double roundoff = 4.0 * std::numeric_limits<double>::epsilon() * scale;
  tilde_ = M_;
  double previous = std::numeric_limits<double>::infinity();
  for (int iteration = 1; iteration <= kMaxFixedPointIterations; ++iteration) {
    Generator(tilde_);
    BX_.noalias() = B_ * tilde_;
    XB_.noalias() = tilde_ * B_;
    BXB_.noalias() = B_ * XB_;
    // M̃ = M_n + h/2 [B, M̃] + h²/4 B M̃ B
    next_ = M_ + (0.5 * h) * (BX_ - XB_) + (0.25 * h * h) * BXB_;
    const double change = MatrixMaxAbs(next_ - tilde_);
    tilde_.swap(next_);
    if (!std::isfinite(change)) break;
    // Converged at round-off, or stalled there (the change no longer decreases).
    if (change <= roundoff || (change >= previous && change <= 1e-11 * scale)) {
      // M_(n+1) = 2 M̃ - M_n - h²/2 B M̃ B, with B and B M̃ B of the last iterate (equal to
      // those of M̃ to round-off).
      next_ = 2.0 * tilde_ - M_ - (0.5 * h * h) * BXB_;
      M_.swap(next_);
      return iteration;
    }
    previous = change;
  }
  throw NumericalError(
      "isospectral midpoint: the fixed-point iteration for the midpoint matrix did not reach "
      "round-off in " +
      std::to_string(kMaxFixedPointIterations) + " iterations; try a smaller simulation.step");
}

IsospectralIntegrator::IsospectralIntegrator(
    int size, std::vector<std::vector<families::MatrixEntry>> basis,
    std::function<void(const double* p, double* y)> velocity, const std::vector<double>& momentum0,
    double step, double t0)
    : midpoint_(size, std::move(basis), velocity),
      velocity_(std::move(velocity)),
      h_(step),
      t0_(t0),
      p_(momentum0),
      y_(momentum0.size()) {
  midpoint_.SetMomentum(p_.data());
  midpoint_.Momentum(p_.data());
  velocity_(p_.data(), y_.data());
}

double IsospectralIntegrator::Advance(double tout) {
  const double now = t0_ + static_cast<double>(steps_) * h_;
  const double ratio = (tout - now) / h_;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) > 1e-9 * std::max(1.0, std::abs(ratio)) || whole < 0)
    throw NumericalError("isospectral integrator: t = " + std::to_string(tout) +
                         " is not a whole number of steps from t = " + std::to_string(now));
  for (long s = 0; s < static_cast<long>(whole); ++s) {
    try {
      iterations_ += midpoint_.Step(h_);
    } catch (const NumericalError& e) {
      throw NumericalError("at t = " + std::to_string(t0_ + static_cast<double>(steps_) * h_) +
                           ": " + e.what());
    }
    ++steps_;
  }
  midpoint_.Momentum(p_.data());
  velocity_(p_.data(), y_.data());
  return tout;
}

dynamics::IdasStatistics IsospectralIntegrator::statistics() const {
  dynamics::IdasStatistics s;
  s.steps = steps_;
  s.last_order = 2;
  return s;
}

}  // namespace dirac::lagrange_dirac
