// The planar n-link pendulum in absolute angles (families.hpp). Bob k sits at
// l Σ_{j≤k} (sin th_j, −cos th_j), so its speed² is l² Σ_{i,j≤k} cos(th_i − th_j) vth_i vth_j and
// its height −l Σ_{j≤k} cos th_j; summed over k, the pair (i, j) counts n + 1 − max(i, j) times.
// The Lagrangian is written in that summed form: O(n²) terms, none of them a power of a sum.
#include <algorithm>
#include <string>
#include <vector>

#include "families/family_text.hpp"

namespace dirac::families {

std::string PendulumChain(int n) {
  auto th = [](int i) { return Indexed("th", i); };
  auto vth = [](int i) { return Indexed("vth", i); };
  auto weight = [n](int i, int j) { return n + 1 - std::max(i, j); };

  std::string text = Header("pendulum_chain", n, "Planar " + std::to_string(n) + "-link pendulum");
  text +=
      "description: >\n"
      "  A chain of " +
      std::to_string(n) +
      " point masses m on massless links of length l under gravity g, in the absolute\n"
      "  angles thk of the links from the downward vertical. Held straight at 0.2 rad and let go,\n"
      "  it swings in small, regular oscillations; the energy E is conserved.\n";
  text += "coordinates:\n";
  for (int k = 1; k <= n; ++k)
    text += "  - {name: " + th(k) + ", velocity: " + vth(k) +
            ", initial: 0.2, initial_velocity: 0, unit: rad}\n";
  text +=
      "parameters:\n"
      "  - {name: m, default: 1, min: 0.1, max: 10, unit: kg, description: mass of each bob}\n"
      "  - {name: l, default: 1, min: 0.1, max: 10, unit: m, description: length of each link}\n"
      "  - {name: g, default: 9.81, min: 0, max: 20, unit: m/s^2, description: gravity}\n";

  std::vector<std::string> kinetic;  // inside m*l^2/2*( ... )
  for (int i = 1; i <= n; ++i) {
    const std::string w = weight(i, i) == 1 ? "" : std::to_string(weight(i, i)) + "*";
    kinetic.push_back((i == 1 ? "" : "+ ") + w + vth(i) + "^2");
  }
  for (int i = 1; i <= n; ++i)
    for (int j = i + 1; j <= n; ++j)
      kinetic.push_back("+ " + std::to_string(2 * weight(i, j)) + "*cos(" + th(i) + " - " + th(j) +
                        ")*" + vth(i) + "*" + vth(j));
  kinetic.front() = "m*l^2/2*(" + kinetic.front();
  kinetic.back() += ")";
  std::vector<std::string> terms = kinetic;
  for (int j = 1; j <= n; ++j) {
    const std::string w = weight(j, j) == 1 ? "" : std::to_string(weight(j, j)) + "*";
    terms.push_back((j == 1 ? "+ m*g*l*(" : "+ ") + w + "cos(" + th(j) + ")");
  }
  terms.back() += ")";
  text += FoldedExpression("lagrangian", terms);
  text += Simulation(10.0, 0.01);

  std::vector<std::string> angles;
  for (int k = 1; k <= std::min(n, 6); ++k) angles.push_back(th(k));
  text +=
      Plots({{n <= 6 ? "Link angles" : "Link angles (the first six)", angles}, {"Energy", {"E"}}});
  return text;
}

}  // namespace dirac::families
