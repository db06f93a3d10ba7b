#pragma once
/// @file families.hpp
/// Generated scenario families: textbook systems of any size, written as scenario YAML (the
/// format of README.md, "Scenario file format"), for tests, benchmarks and users
/// (`dirac generate FAMILY N`). Each generated file is a valid scenario with parameters, a
/// non-chaotic default motion and its horizon; the families and their conventions:
///
/// - `pendulum_chain`, n = 2 … 40: the planar n-link pendulum of point masses m on massless
///   links of length l under gravity g. Coordinates are the ABSOLUTE angles th1 … thn of the
///   links from the downward vertical (velocities vth1 … vthn). Written with bodies (frames
///   link1 … linkn turned by th_k about x, points bob1 … bobn, point masses mass1 … massn,
///   gravity), so the window draws it in the bodies scene; the engine's L = T − V equals
///   L = m l²/2 Σ_{i,j} (n + 1 − max(i, j)) cos(th_i − th_j) vth_i vth_j
///       + m g l Σ_j (n + 1 − j) cos(th_j).
///   Starts at rest with th_k = 0.2 (the chain held straight at 0.2 rad), t_end 10.
/// - `rigid_body_so`, n = 3 … 12: the free generalised (Manakov) rigid body on so(n), a Lie
///   algebra of dimension n(n − 1)/2 with the basis E_ij = e_i e_jᵀ − e_j e_iᵀ (i < j) and the
///   structure constants of the matrix commutator; fibre coordinates w<i>_<j> = Ω_ij,
///   L = ½ Σ_{i<j} (d_i + d_j) Ω_ij² with distinct d_i = 1 + (i − 1)/2 (parameters d1 … dn).
///   The body momentum M = JΩ + ΩJ (J = diag d) obeys M' = [M, Ω]; tr(M^k) are Casimirs.
///   t_end 10.
/// - `point_vortices`, N = 2 … 32: N point vortices in the plane (coordinates x<i>, y<i>),
///   L = Σ G_i (y_i vx_i − x_i vy_i)/2 − H, H = −(1/4π) Σ_{i<j} G_i G_j log|x_i − x_j|², linear
///   in velocity (formulation lagrange_dirac; the convention of scenarios/point_vortices.yaml).
///   A strong vortex (G1 = 6) at the origin and weak ones (G = 0.2, 0.25, 0.3, …) on circles of
///   radius 1.25, 1.75, 2.25, … around it: a near-integrable "planetary" motion. t_end 10.
/// - `car_trailers`, n = 1 … 20: a car pulling n trailers on the plane, each body on a knife
///   edge (n + 1 nonholonomic constraints). Coordinates x, y (the car's rear axle), th0 (the
///   car's heading), th1 … thn (the trailers' headings); trailer k's axle is at distance d behind
///   the axle of body k − 1 (hitched at that axle); every body has mass m, inertia J about its
///   centre of mass, which lies at distance a ahead of its axle. Constraint knife<k>: the axle of
///   body k does not slide sideways. Starts with the car at unit forward speed turning at
///   0.5 rad/s and the trailers in a zig-zag (consistent velocities). t_end 10.
///
/// Every file uses rtol = atol = 1e-12.

#include <string>
#include <string_view>
#include <vector>

#include "dirac/error.hpp"

namespace dirac {

/// Thrown for an unknown family or a size outside the family's range; the message names the
/// family, the size and the accepted range (or the known families).
class FamilyError : public Error {
 public:
  using Error::Error;
};

/// One generated family: its name and the sizes it accepts.
struct FamilyInfo {
  std::string_view name;     ///< e.g. "pendulum_chain"
  int min_size, max_size;    ///< accepted n, both included
  std::string_view summary;  ///< one line, for `dirac generate --help` and the docs
};

/// The four families, in a fixed order.
const std::vector<FamilyInfo>& Families();

/// The scenario YAML of `family` at size `n` (see above). Deterministic: the same input gives
/// the same bytes. Throws FamilyError on an unknown family or an n outside its range.
std::string GenerateFamilyScenario(std::string_view family, int n);

/// The same past the family's stated maximum (n at least its minimum): for benchmarks that
/// measure beyond the tested range (tests/bench/bench_sizes.cpp runs so(n) to n = 32). Larger
/// members may exceed the scenario format's limits or take minutes to derive.
std::string GenerateFamilyScenarioBeyondRange(std::string_view family, int n);

/// Writes GenerateFamilyScenario(family, n) to `path` atomically (a temporary beside it, renamed
/// into place; every write checked). Throws FamilyError as above, IoError naming `path`.
void WriteFamilyScenario(std::string_view family, int n, const std::string& path);

}  // namespace dirac
