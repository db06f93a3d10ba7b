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

/// The rolling disk of scenarios/rolling_disk.yaml in another formalism: Newton–Euler about the
/// contact point in Kane's generalized speeds, the contact force eliminated by hand.
///   Frames: A = heading theta about n3, B = A turned by the tilt alpha about b1 = a1; b2 is the
///   axle, b3 points from the contact point P to the centre C. Speeds (components of the disk's
///   angular velocity in B): u1 = alpha', u2 = phi' + theta' sin(alpha), u3 = theta' cos(alpha).
///   B turns with w_B = (u1, u3 tan(alpha), u3). Rolling (P at rest): v_C = w x R b3
///   = R (u2, -u1, 0), so a_C = R (u2' + u1 u3, -u1' + u2 u3, -u1^2 - u2 u3 tan(alpha)).
///   H_C = (Id u1, Ja u2, Id u3), dH_C/dt = H' + w_B x H_C. With the contact force
///   F = m a_C + m g n3, n3 = (0, sin(alpha), cos(alpha)), the moment balance about C,
///   dH_C/dt = -R b3 x F, gives
///     (Id + m R^2) u1' = -Id u3^2 tan(alpha) + (Ja + m R^2) u2 u3 + m g R sin(alpha),
///     (Ja + m R^2) u2' = -m R^2 u1 u3,
///     Id u3' = Id u1 u3 tan(alpha) - Ja u1 u2,
///   and the kinematics theta' = u3 / cos(alpha), phi' = u2 - u3 tan(alpha); the contact point
///   moves with v_C - R w_B x b3 = R phi' b1: x' = R phi' cos(theta), y' = R phi' sin(theta).
///   The multipliers of the scenario are the horizontal contact force F = m a_C (n1, n2 parts).
struct RollingDiskReference {
  double m, R, Id, Ja, g;
  using State = std::array<double, 8>;  // x, y, theta, alpha, phi, u1, u2, u3

  static State FromCoordinates(double x, double y, double theta, double alpha, double phi,
                               double vtheta, double valpha, double vphi) {
    return {
        x, y, theta, alpha, phi, valpha, vphi + vtheta * std::sin(alpha), vtheta * std::cos(alpha)};
  }
  /// u1', u2', u3'.
  std::array<double, 3> SpeedRates(const State& s) const {
    const double ta = std::tan(s[3]), u1 = s[5], u2 = s[6], u3 = s[7], mr2 = m * R * R;
    return {(-Id * u3 * u3 * ta + (Ja + mr2) * u2 * u3 + m * g * R * std::sin(s[3])) / (Id + mr2),
            -mr2 * u1 * u3 / (Ja + mr2), u1 * u3 * ta - Ja * u1 * u2 / Id};
  }
  double ThetaRate(const State& s) const { return s[7] / std::cos(s[3]); }
  double PhiRate(const State& s) const { return s[6] - s[7] * std::tan(s[3]); }
  State Rate(double, const State& s) const {
    const auto du = SpeedRates(s);
    const double phid = PhiRate(s);
    return {R * phid * std::cos(s[2]),
            R * phid * std::sin(s[2]),
            ThetaRate(s),
            s[5],
            phid,
            du[0],
            du[1],
            du[2]};
  }
  /// Horizontal contact force (Fx, Fy) = m a_C . (n1, n2), a_C from the components in B.
  std::array<double, 2> ContactForce(const State& s) const {
    const auto du = SpeedRates(s);
    const double ta = std::tan(s[3]), u1 = s[5], u2 = s[6], u3 = s[7];
    const double a1 = R * (du[1] + u1 * u3), a2 = R * (-du[0] + u2 * u3),
                 a3 = R * (-u1 * u1 - u2 * u3 * ta);
    const double ct = std::cos(s[2]), st = std::sin(s[2]), ca = std::cos(s[3]), sa = std::sin(s[3]);
    // b1 = (ct, st, 0), b2 = (-ca st, ca ct, sa), b3 = (sa st, -sa ct, ca).
    return {m * (a1 * ct - a2 * ca * st + a3 * sa * st),
            m * (a1 * st + a2 * ca * ct - a3 * sa * ct)};
  }
  double Energy(const State& s) const {
    const double u1 = s[5], u2 = s[6], u3 = s[7];
    return 0.5 * m * R * R * (u1 * u1 + u2 * u2) + 0.5 * (Id * (u1 * u1 + u3 * u3) + Ja * u2 * u2) +
           m * g * R * std::cos(s[3]);
  }
};

/// The Chaplygin sleigh of scenarios/chaplygin_sleigh.yaml by Newton–Euler in the body speeds
/// u = v_C . e1 (forward), w = theta' (e1 = (cos theta, sin theta), e2 = (-sin, cos)); the knife
/// edge at P = C - a e1 gives v_C . e2 = a w, so v_C = u e1 + a w e2 and
/// a_C = (u' - a w^2) e1 + (u w + a w') e2. The blade force lam e2 at P: m a_C = lam e2 and
/// I w' = (-a e1) x (lam e2) = -a lam, hence
///   u' = a w^2,  (I + m a^2) w' = -m a u w,  lam = m (u w + a w').
/// Closed form: c^2 = u^2 + k^2 w^2 (k^2 = a^2 + I/m, the energy), u = c tanh(s),
/// w = sign(w0) (c/k) sech(s), s = a c t / k^2 + atanh(u0 / c).
struct ChaplyginSleighReference {
  double m, I, a;
  using State = std::array<double, 5>;  // x, y, theta, u, w

  double AngularAcceleration(const State& s) const {
    return -m * a * s[3] * s[4] / (I + m * a * a);
  }
  State Rate(double, const State& s) const {
    const double c = std::cos(s[2]), sn = std::sin(s[2]);
    return {s[3] * c - a * s[4] * sn, s[3] * sn + a * s[4] * c, s[4], a * s[4] * s[4],
            AngularAcceleration(s)};
  }
  double BladeForce(const State& s) const { return m * (s[3] * s[4] + a * AngularAcceleration(s)); }
  double Energy(const State& s) const {
    return 0.5 * m * (s[3] * s[3] + a * a * s[4] * s[4]) + 0.5 * I * s[4] * s[4];
  }
};

}  // namespace dirac::testing
