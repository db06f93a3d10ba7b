#pragma once
/// @file torus_modes.hpp
/// The basis of Zeitlin's torus algebra (`algebroid.algebra: {family: zeitlin_torus, size: N}`,
/// docs/scenario-format.md) as wave vectors, for whoever draws the field: the fibre coordinate
/// of each basis element, its wave vector m and whether it is the sine mode. With the generated
/// Lagrangian L = ½ Σ |m|² y_m² (`inertia: laplacian`) the momentum p_m = |m|² y_m is the
/// vorticity, ω(x) = Σ_m p_m φ_m(m·x) with φ = cos for a cosine mode and sin for a sine mode,
/// the fibre coordinates are y = −ψ (the stream function) and the velocity is u = (−ψ_y, ψ_x).

#include <string>
#include <vector>

namespace dirac {

/// One basis element of zeitlin_torus(N).
struct TorusMode {
  std::string name;    ///< the fibre coordinate, e.g. "c1_0", "s2_m1" (m = (2, −1))
  int m1 = 0, m2 = 0;  ///< the wave vector, in the half plane m1 > 0 or m1 = 0 < m2
  bool sine = false;   ///< sin(m·x) (true) or cos(m·x) (false)
  /// |m|², the eigenvalue of −Δ: p_m = |m|² y_m.
  int laplacian() const { return m1 * m1 + m2 * m2; }
};

/// The N² − 1 modes of zeitlin_torus(N) in the engine's order of the fibre coordinates
/// (|m1|, |m2| ≤ (N − 1)/2). Throws FamilyError (dirac/families.hpp) for an N the family
/// refuses (even, or outside 3 … 41).
std::vector<TorusMode> ZeitlinTorusModes(int size);

}  // namespace dirac
