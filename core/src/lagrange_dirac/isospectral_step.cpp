#include "lagrange_dirac/isospectral_step.hpp"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "dirac/error.hpp"

namespace dirac::lagrange_dirac {
namespace {

constexpr int kMaxFixedPointIterations = 100;

double MatrixMaxAbs(const Eigen::MatrixXcd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace

// Zeitlin's torus basis by FFTs along the wrapped diagonals (families/lie_algebra_family.hpp:
// (T_m)_(j, j+m2) = c ε^(m1 m2 + 2 j m1), c = iN/4π, C_m = (T_m + T_-m)/2, S_m = (T_m - T_-m)/2i):
// the modes with one m2 live on one wrapped diagonal and are separated there by a DFT at the
// frequency 2 m1 mod N, so reading p and writing Σ y E cost O(N² log N) and no entry list.
struct IsospectralMidpoint::TorusTransform {
  int N = 0, M = 0;
  std::complex<double> c;
  std::vector<std::array<int, 2>> modes;  // per basis element
  std::vector<bool> sine;
  std::vector<std::complex<double>> phase;  // ε^e, e = 0 ... N - 1
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> line, spectrum;
  Eigen::MatrixXcd t;  // t(m1 + M, m2 + M) = tr(T_m X), or the coefficients w_m

  explicit TorusTransform(const families::LieAlgebraBasis& basis)
      : N(basis.size), M((basis.size - 1) / 2), modes(basis.modes), sine(basis.sine) {
    c = std::complex<double>(0.0, N / (4 * std::numbers::pi));
    for (int e = 0; e < N; ++e) phase.push_back(std::polar(1.0, 2 * std::numbers::pi * e / N));
    line.resize(N);
    spectrum.resize(N);
    t.resize(N, N);
  }
  int Mod(long e) const { return static_cast<int>(((e % N) + N) % N); }

  // p_a = Re tr(E_a X).
  void Extract(const Eigen::MatrixXcd& X, double* p) {
    for (int m2 = -M; m2 <= M; ++m2) {
      const int d = Mod(m2);
      for (int j = 0; j < N; ++j) line[j] = X((j + d) % N, j);
      fft.inv(spectrum, line);  // (1/N) Σ_j line_j e^(2πi jk/N)
      for (int m1 = -M; m1 <= M; ++m1)
        t(m1 + M, m2 + M) = c * phase[Mod(static_cast<long>(m1) * m2)] * static_cast<double>(N) *
                            spectrum[Mod(2L * m1)];
    }
    for (std::size_t a = 0; a < modes.size(); ++a) {
      const auto [m1, m2] = modes[a];
      const std::complex<double> plus = t(m1 + M, m2 + M), minus = t(M - m1, M - m2);
      p[a] = sine[a] ? 0.5 * (plus - minus).imag() : 0.5 * (plus + minus).real();
    }
  }

  // out = factor Σ_b y_b E_b.
  void Assemble(const double* y, double factor, Eigen::MatrixXcd& out) {
    t.setZero();
    for (std::size_t b = 0; b < modes.size(); ++b) {
      const auto [m1, m2] = modes[b];
      // C_m: y/2 on T_m and T_-m; S_m: y/2i on T_m, -y/2i on T_-m.
      const std::complex<double> w =
          sine[b] ? std::complex<double>(0.0, -0.5 * y[b]) : std::complex<double>(0.5 * y[b], 0.0);
      t(m1 + M, m2 + M) += w;
      t(M - m1, M - m2) += sine[b] ? -w : w;
    }
    out.resize(N, N);
    for (int m2 = -M; m2 <= M; ++m2) {
      const int d = Mod(m2);
      std::fill(line.begin(), line.end(), std::complex<double>(0.0));
      for (int m1 = -M; m1 <= M; ++m1)
        line[Mod(2L * m1)] = t(m1 + M, m2 + M) * phase[Mod(static_cast<long>(m1) * m2)];
      fft.inv(spectrum, line);
      const std::complex<double> scale = factor * c * static_cast<double>(N);
      for (int j = 0; j < N; ++j) out(j, (j + d) % N) = scale * spectrum[j];
    }
  }
};

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

IsospectralMidpoint::IsospectralMidpoint(const families::LieAlgebraBasis& basis,
                                         std::function<void(const double* p, double* y)> velocity)
    : IsospectralMidpoint(
          basis.family == "zeitlin_torus" ? basis.size : families::MatrixSize(basis),
          basis.family == "zeitlin_torus" ? std::vector<std::vector<families::MatrixEntry>>{}
                                          : families::MatrixRealization(basis),
          std::move(velocity)) {
  if (basis.family != "zeitlin_torus") return;
  torus_ = std::make_unique<TorusTransform>(basis);
  // tr(C_m C_m) = tr(S_m S_m) = tr(T_m T_-m)/2 = (iN/4π)² N / 2 for every mode.
  const double N = basis.size;
  kappa_.assign(basis.dimension(), -N * N * N / (32 * std::numbers::pi * std::numbers::pi));
  p_.assign(basis.dimension(), 0.0);
  y_.assign(basis.dimension(), 0.0);
}

IsospectralMidpoint::~IsospectralMidpoint() = default;

std::size_t IsospectralMidpoint::dimension() const { return kappa_.size(); }

void IsospectralMidpoint::Extract(const Eigen::MatrixXcd& X, double* p) const {
  if (torus_) {
    torus_->Extract(X, p);
    return;
  }
  for (std::size_t a = 0; a < basis_.size(); ++a) {
    std::complex<double> trace = 0.0;
    for (const auto& e : basis_[a]) trace += e.value * X(e.col, e.row);
    p[a] = trace.real();
  }
}

void IsospectralMidpoint::Assemble(const double* y, double factor, Eigen::MatrixXcd& out) const {
  if (torus_) {
    torus_->Assemble(y, factor, out);
    return;
  }
  out.setZero(size_, size_);
  for (std::size_t b = 0; b < basis_.size(); ++b)
    if (y[b] != 0.0)
      for (const auto& e : basis_[b]) out(e.row, e.col) += (factor * y[b]) * e.value;
}

void IsospectralMidpoint::SetMomentum(const double* p) {
  // M = Σ (p_a / κ_a) E_a.
  for (std::size_t a = 0; a < kappa_.size(); ++a) y_[a] = p[a] / kappa_[a];
  Assemble(y_.data(), 1.0, M_);
}

void IsospectralMidpoint::Momentum(double* p) const { Extract(M_, p); }

void IsospectralMidpoint::Generator(const Eigen::MatrixXcd& X) {
  Extract(X, p_.data());
  velocity_(p_.data(), y_.data());
  Assemble(y_.data(), -1.0, B_);
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
    const families::LieAlgebraBasis& basis,
    std::function<void(const double* p, double* y)> velocity, const std::vector<double>& momentum0,
    double step, double t0)
    : midpoint_(basis, velocity),
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
