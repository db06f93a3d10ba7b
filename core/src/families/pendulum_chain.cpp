// The planar n-link pendulum in absolute angles (families.hpp), written with bodies: link k is
// the frame turned by th_k about x, bob k hangs l below bob k-1 along it, so it sits at
// l Σ_{j≤k} (0, sin th_j, −cos th_j) in N (y across, z up), as in the chain's hand-written
// Lagrangian m l²/2 Σ_{i,j} (n + 1 − max(i, j)) cos(th_i − th_j) vth_i vth_j
// + m g l Σ_j (n + 1 − j) cos(th_j), which tests/core/families/test_families.cpp keeps as the reference
// the motion is checked against. The engine builds L = T − V from the bodies, and the bodies
// scene draws the chain.
#include <algorithm>
#include <string>
#include <vector>

#include "families/family_text.hpp"

namespace dirac::families {

std::string PendulumChain(int n) {
  auto th = [](int i) { return Indexed("th", i); };
  auto vth = [](int i) { return Indexed("vth", i); };

  std::string text = Header("pendulum_chain", n, "Planar " + std::to_string(n) + "-link pendulum");
  text +=
      "description: >\n"
      "  A chain of " +
      std::to_string(n) +
      " point masses m on massless links of length l under gravity g, in the absolute\n"
      "  angles thk of the links from the downward vertical, written with bodies. Held straight\n"
      "  at 0.2 rad and let go, it swings in small, regular oscillations; the energy E is\n"
      "  conserved.\n";
  text += "coordinates:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + th(k) + ", velocity: " + vth(k) +
            ", initial: 0.2, initial_velocity: 0, unit: rad}\n";
  text +=
      "parameters:\n"
      "  - {name: m, default: 1, min: 0.1, max: 10, unit: kg, description: mass of each bob}\n"
      "  - {name: l, default: 1, min: 0.1, max: 10, unit: m, description: length of each link}\n"
      "  - {name: g, default: 9.81, min: 0, max: 20, unit: m/s^2, description: gravity}\n";
  // Link k turned by th_k about x from the world frame: its -z axis points along the link.
  text += "frames:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + Indexed("link", k) +
            ", parent: N, rotations: [{axis: x, angle: " + th(k) + "}]}\n";
  text += "points:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + Indexed("bob", k) +
            ", parent: " + (k == 1 ? std::string("O") : Indexed("bob", k - 1)) +
            ", frame: " + Indexed("link", k) + ", offset: [0, 0, -l]}\n";
  // Point masses: no inertia; a small sphere each for the scene.
  text += "bodies:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + Indexed("mass", k) + ", mass: m, point: " + Indexed("bob", k) +
            ", frame: " + Indexed("link", k) + ", shape: {type: sphere, size: [l/20]}}\n";
  text += "gravity: [0, 0, -g]\n";
  text += Simulation(10.0, 0.01);

  std::vector<std::string> angles;
  for (int k = 1; k <= std::min(n, 6); ++k) angles.push_back(th(k));
  text +=
      Plots({{n <= 6 ? "Link angles" : "Link angles (the first six)", angles}, {"Energy", {"E"}}});
  return text;
}

}  // namespace dirac::families
