#include "scenes/torus_field.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace dirac::ui {

TorusFourierGrid::TorusFourierGrid(int max_wave, std::vector<double> coordinates)
    : max_wave_(std::max(max_wave, 0)), coordinates_(std::move(coordinates)) {
  const std::size_t n = coordinates_.size();
  const int waves = 2 * max_wave_ + 1;
  cos_.resize(static_cast<std::size_t>(waves) * n);
  sin_.resize(cos_.size());
  for (int k = -max_wave_; k <= max_wave_; ++k)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(k + max_wave_) * n + i;
      cos_[at] = std::cos(k * coordinates_[i]);
      sin_[at] = std::sin(k * coordinates_[i]);
    }
  row_a_.resize(n);
  row_b_.resize(n);
}

std::size_t TorusFourierGrid::slot_count() const {
  return static_cast<std::size_t>(max_wave_ + 1) * static_cast<std::size_t>(2 * max_wave_ + 1);
}

std::size_t TorusFourierGrid::Slot(int m1, int m2) const {
  return static_cast<std::size_t>(m1) * static_cast<std::size_t>(2 * max_wave_ + 1) +
         static_cast<std::size_t>(m2 + max_wave_);
}

void TorusFourierGrid::Evaluate(const std::vector<double>& a, const std::vector<double>& b,
                                double* out) const {
  const std::size_t n = coordinates_.size();
  std::fill(out, out + n * n, 0.0);
  const int M = max_wave_;
  for (int m1 = 0; m1 <= M; ++m1) {
    // A(y) = Σ_m2 a cos(m2 y) + b sin(m2 y), B(y) = Σ_m2 b cos(m2 y) − a sin(m2 y), so that
    // a cos(m·x) + b sin(m·x) summed over m2 is cos(m1 x) A(y) + sin(m1 x) B(y).
    std::fill(row_a_.begin(), row_a_.end(), 0.0);
    std::fill(row_b_.begin(), row_b_.end(), 0.0);
    bool any = false;
    for (int m2 = -M; m2 <= M; ++m2) {
      const double am = a[Slot(m1, m2)], bm = b[Slot(m1, m2)];
      if (am == 0.0 && bm == 0.0) continue;
      any = true;
      const double* c = &cos_[static_cast<std::size_t>(m2 + M) * n];
      const double* s = &sin_[static_cast<std::size_t>(m2 + M) * n];
      for (std::size_t j = 0; j < n; ++j) {
        row_a_[j] += am * c[j] + bm * s[j];
        row_b_[j] += bm * c[j] - am * s[j];
      }
    }
    if (!any) continue;
    const double* cx = &cos_[static_cast<std::size_t>(m1 + M) * n];
    const double* sx = &sin_[static_cast<std::size_t>(m1 + M) * n];
    for (std::size_t j = 0; j < n; ++j) {
      const double ra = row_a_[j], rb = row_b_[j];
      double* row = out + j * n;
      for (std::size_t i = 0; i < n; ++i) row[i] += cx[i] * ra + sx[i] * rb;
    }
  }
}

void TorusCoefficients(const std::vector<TorusMode>& modes, const TorusFourierGrid& grid,
                       const double* y, TorusQuantity quantity, std::vector<double>& a,
                       std::vector<double>& b) {
  a.assign(grid.slot_count(), 0.0);
  b.assign(grid.slot_count(), 0.0);
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const TorusMode& mode = modes[k];
    const std::size_t slot = grid.Slot(mode.m1, mode.m2);
    // ψ = −Σ (y_c cos + y_s sin): ω = Δψ = Σ |m|² y φ; u_x = −ψ_y and u_y = ψ_x give, for a
    // cosine mode, u = y sin(m·x) (−m2, m1) and, for a sine mode, u = y cos(m·x) (m2, −m1).
    double cos_part = 0.0, sin_part = 0.0;
    switch (quantity) {
      case TorusQuantity::kVorticity:
        (mode.sine ? sin_part : cos_part) = mode.laplacian() * y[k];
        break;
      case TorusQuantity::kVelocityX:
        if (mode.sine)
          cos_part = mode.m2 * y[k];
        else
          sin_part = -mode.m2 * y[k];
        break;
      case TorusQuantity::kVelocityY:
        if (mode.sine)
          cos_part = -mode.m1 * y[k];
        else
          sin_part = mode.m1 * y[k];
        break;
    }
    a[slot] += cos_part;
    b[slot] += sin_part;
  }
}

std::vector<double> TorusGridCoordinates(int n) {
  std::vector<double> x(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) x[static_cast<std::size_t>(i)] = 2 * std::numbers::pi * i / n;
  return x;
}

std::vector<double> TorusCellCentres(int n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = 2 * std::numbers::pi * (i + 0.5) / n;
  return x;
}

}  // namespace dirac::ui
