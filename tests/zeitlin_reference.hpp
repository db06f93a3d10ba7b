#pragma once
// Zeitlin's model written by hand in its matrix form, independent of the engine's structure
// constants (tests and benchmarks only): T_m = (iN/4π) J_m, J_m = ε^(m1 m2) g^m1 h^m2 with the
// clock g = diag(ε^2j), the shift h (h_j,j+1 = 1), ε = exp(2πi/N); W = Σ_m w_m T_m over
// m ∈ [−M, M]² \ {0}, P = Δ⁻¹W (Δ T_m = −|m|² T_m), Ẇ = [P, W]. The real cosine/sine
// coefficients (c_m, s_m) of the half plane give w_m = (c − i s)/2, w_−m = (c + i s)/2.
#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace dirac::testing {

class ZeitlinMatrixForm {
 public:
  using Matrix = Eigen::MatrixXcd;
  using Complex = std::complex<double>;

  explicit ZeitlinMatrixForm(int N) : N_(N), M_((N - 1) / 2) {
    for (int m1 = -M_; m1 <= M_; ++m1)
      for (int m2 = -M_; m2 <= M_; ++m2) {
        if (m1 == 0 && m2 == 0) continue;
        Mode mode{m1, m2, std::vector<Complex>(N)};
        for (int j = 0; j < N; ++j) {
          const long e = ((static_cast<long>(m1) * m2 + 2L * j * m1) % N + N) % N;
          mode.entries[j] = Complex(0.0, N / (4 * std::numbers::pi)) *
                            std::polar(1.0, 2 * std::numbers::pi * static_cast<double>(e) / N);
        }
        modes_.push_back(mode);
      }
  }

  // (T_m)_{j, j + m2}.
  int Column(const auto& mode, int j) const { return ((j + mode.m2) % N_ + N_) % N_; }

  /// W from real coefficients on the half plane: cos[(m1, m2)] and sin[...] given by a function
  /// coefficient(m1, m2, sine).
  template <typename F>
  Matrix FromReal(F coefficient) const {
    Matrix W = Matrix::Zero(N_, N_);
    for (const auto& mode : modes_) {
      const bool half = mode.m1 > 0 || (mode.m1 == 0 && mode.m2 > 0);
      const int s1 = half ? mode.m1 : -mode.m1, s2 = half ? mode.m2 : -mode.m2;
      const double c = coefficient(s1, s2, false), s = coefficient(s1, s2, true);
      const Complex w = half ? Complex(c, -s) / 2.0 : Complex(c, s) / 2.0;
      for (int j = 0; j < N_; ++j) W(j, Column(mode, j)) += w * mode.entries[j];
    }
    return W;
  }

  /// The coefficient w_m of T_m in W.
  Complex Coefficient(const Matrix& W, int m1, int m2) const {
    for (const auto& mode : modes_)
      if (mode.m1 == m1 && mode.m2 == m2) {
        Complex sum = 0.0, norm = 0.0;
        for (int j = 0; j < N_; ++j) {
          sum += std::conj(mode.entries[j]) * W(j, Column(mode, j));
          norm += std::conj(mode.entries[j]) * mode.entries[j];
        }
        return sum / norm;
      }
    return 0.0;
  }
  /// Real coefficient (cosine or sine) of the half-plane mode m.
  double Real(const Matrix& W, int m1, int m2, bool sine) const {
    const Complex w = Coefficient(W, m1, m2);
    return sine ? -2.0 * w.imag() : 2.0 * w.real();
  }

  /// Ẇ = [P, W], P = Δ⁻¹W.
  Matrix Rate(const Matrix& W) const {
    Matrix P = Matrix::Zero(N_, N_);
    for (const auto& mode : modes_) {
      Complex sum = 0.0, norm = 0.0;
      for (int j = 0; j < N_; ++j) {
        sum += std::conj(mode.entries[j]) * W(j, Column(mode, j));
        norm += std::conj(mode.entries[j]) * mode.entries[j];
      }
      const Complex p = -(sum / norm) / static_cast<double>(mode.m1 * mode.m1 + mode.m2 * mode.m2);
      for (int j = 0; j < N_; ++j) P(j, Column(mode, j)) += p * mode.entries[j];
    }
    return P * W - W * P;
  }

  /// Classical RK4 from W over [0, T] with `steps` steps.
  Matrix Integrate(Matrix W, double T, int steps) const {
    const double h = T / steps;
    for (int i = 0; i < steps; ++i) {
      const Matrix k1 = Rate(W), k2 = Rate(W + 0.5 * h * k1), k3 = Rate(W + 0.5 * h * k2),
                   k4 = Rate(W + h * k3);
      W += (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    return W;
  }

 private:
  struct Mode {
    int m1, m2;
    std::vector<Complex> entries;
  };
  int N_, M_;
  std::vector<Mode> modes_;
};

}  // namespace dirac::testing
