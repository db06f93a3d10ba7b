#pragma once
// The Heisenberg particle written by hand for CVODE: "the limit" the engine is compared with.
//
//   L = |v|^2/2 - (kx x^2 + ky y^2)/2,  constraint g = vz - y vx + x vy = 0.
// Lagrange-d'Alembert: x'' = -kx x - mu y, y'' = -ky y + mu x, z'' = mu; differentiating g along
// the motion and eliminating the multiplier by hand gives mu = (ky - kx) x y / (1 + x^2 + y^2).
// The six first-order equations are integrated by CVODE (Adams-Moulton, fixed-point or Newton
// iteration) with dense output at every output_step; each sample stores the same columns as
// `dirac run`: t, x, y, z, vx, vy, vz, mu, E, residual_heisenberg.

#include <array>
#include <vector>

namespace dirac::bench {

struct HandWrittenSettings {
  double kx = 1.0, ky = 2.0;
  double t_end = 20.0, output_step = 0.01;
  double rtol = 1e-12, atol = 1e-12;
  bool newton = false;  ///< false: fixed-point iteration (what Adams is for); true: Newton, dense
  std::array<double, 6> initial{1.0, 0.0, 0.0, 0.0, 0.8, -0.8};  ///< x y z vx vy vz
};

struct HandWrittenRun {
  std::vector<double> samples;  ///< rows of kColumns values
  long steps = 0, rhs_evaluations = 0, nonlinear_iterations = 0;
  static constexpr int kColumns = 10;
};

/// Integrates; throws std::runtime_error with the CVODE flag if CVODE fails.
HandWrittenRun RunHeisenbergHandWritten(const HandWrittenSettings& settings);

}  // namespace dirac::bench
