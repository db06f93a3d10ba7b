#pragma once
// Canonical problems with hand-derived equations, shared by the tests (independent checks of
// what the engine derives; never used by the engine itself).

#include <array>
#include <cmath>
#include <string>

#include "dirac/scenario.hpp"

namespace dirac::testing {

inline std::string SourcePath(const std::string& relative) {
  return std::string(DIRAC_SOURCE_DIR) + "/" + relative;
}

/// scenarios/heisenberg.yaml with stiffnesses set.
inline Scenario HeisenbergScenario(double kx, double ky) {
  Scenario s = LoadScenario(SourcePath("scenarios/heisenberg.yaml"));
  ApplyOverride(s, "kx", kx);
  ApplyOverride(s, "ky", ky);
  return s;
}

/// Heisenberg particle with the multiplier eliminated by hand:
///   x'' = -kx x - mu y, y'' = -ky y + mu x, z'' = mu,  mu = (ky - kx) x y / (1 + x^2 + y^2),
/// the latter from d/dt (z' - y x' + x y') = z'' - y x'' + x y'' = 0.
struct HeisenbergReference {
  double kx, ky;
  using State = std::array<double, 6>;  // x, y, z, vx, vy, vz

  double Multiplier(const State& s) const {
    return (ky - kx) * s[0] * s[1] / (1.0 + s[0] * s[0] + s[1] * s[1]);
  }
  State Rate(const State& s) const {
    const double mu = Multiplier(s);
    return {s[3], s[4], s[5], -kx * s[0] - mu * s[1], -ky * s[1] + mu * s[0], mu};
  }
  /// One classical RK4 step.
  State Step(const State& s, double h) const {
    auto axpy = [](const State& a, double c, const State& b) {
      State r;
      for (int i = 0; i < 6; ++i) r[i] = a[i] + c * b[i];
      return r;
    };
    const State k1 = Rate(s), k2 = Rate(axpy(s, h / 2, k1)), k3 = Rate(axpy(s, h / 2, k2)),
                k4 = Rate(axpy(s, h, k3));
    State r;
    for (int i = 0; i < 6; ++i) r[i] = s[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return r;
  }
  double Energy(const State& s) const {
    return 0.5 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]) +
           0.5 * (kx * s[0] * s[0] + ky * s[1] * s[1]);
  }
};

}  // namespace dirac::testing
