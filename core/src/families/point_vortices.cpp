// N point vortices, a Lagrangian linear in velocity (families.hpp), in the convention of
// scenarios/point_vortices.yaml: L = Σ G_i (y_i vx_i − x_i vy_i)/2 + (1/4π) Σ_{i<j} G_i G_j
// log r_ij², whose equations are Kirchhoff's G_i x_i' = ∂H/∂y_i, G_i y_i' = −∂H/∂x_i.
#include <cmath>
#include <string>
#include <vector>

#include "families/family_text.hpp"

namespace dirac::families {

std::string PointVortices(int n) {
  auto x = [](int i) { return Indexed("x", i); };
  auto y = [](int i) { return Indexed("y", i); };
  auto G = [](int i) { return Indexed("G", i); };
  constexpr double kGoldenAngle = 2.399963229728653;  // spreads the weak vortices in angle

  std::string text = Header("point_vortices", n, std::to_string(n) + " point vortices");
  text +=
      "description: >\n"
      "  A strong vortex (G1) near the origin and weak ones on circles of radius 1.25, 1.75,\n"
      "  2.25, ... around it: a near-integrable, planetary motion. The Hamiltonian E, the\n"
      "  impulse sum G_i (x_i, y_i) and the angular impulse sum G_i |x_i|^2 are conserved.\n"
      "formulation: lagrange_dirac\n"
      "coordinates:\n";
  std::vector<double> circulation(n + 1);
  for (int i = 1; i <= n; ++i) {
    double px = 0.0, py = 0.0;
    circulation[i] = 6.0;
    if (i > 1) {
      const double radius = 0.75 + 0.5 * (i - 1), angle = kGoldenAngle * (i - 2);
      px = radius * std::cos(angle);
      py = radius * std::sin(angle);
      circulation[i] = 0.2 + 0.05 * ((i - 2) % 4);
    }
    text += "  - {name: " + x(i) + ", velocity: " + Indexed("vx", i) +
            ", initial: " + Rounded(px, 4) + "}\n";
    text += "  - {name: " + y(i) + ", velocity: " + Indexed("vy", i) +
            ", initial: " + Rounded(py, 4) + "}\n";
  }
  text += "parameters:\n";
  for (int i = 1; i <= n; ++i)
    text += "  - {name: " + G(i) + ", default: " + Number(circulation[i]) +
            ", min: -10, max: 10, description: circulation of vortex " + std::to_string(i) + "}\n";

  std::vector<std::string> terms;
  for (int i = 1; i <= n; ++i)
    terms.push_back((i == 1 ? "" : "+ ") + G(i) + "*(" + y(i) + "*" + Indexed("vx", i) + " - " +
                    x(i) + "*" + Indexed("vy", i) + ")/2");
  bool first = true;
  for (int i = 1; i <= n; ++i)
    for (int j = i + 1; j <= n; ++j) {
      terms.push_back(std::string(first ? "+ (" : "+ ") + G(i) + "*" + G(j) + "*log((" + x(i) +
                      " - " + x(j) + ")^2 + (" + y(i) + " - " + y(j) + ")^2)");
      first = false;
    }
  terms.back() += ")/(4*Pi)";
  text += FoldedExpression("lagrangian", terms);
  text += Simulation(10.0, 0.01);

  text +=
      "view:\n"
      "  scene:\n"
      "    type: planar_points\n"
      "    trail: 1000\n"
      "    points:\n";
  for (int i = 1; i <= n; ++i)
    text += "      - {x: " + x(i) + ", y: " + y(i) + ", label: vortex " + std::to_string(i) + "}\n";
  text +=
      "  plots:\n"
      "    - {title: \"Strong vortex\", series: [x1, y1]}\n"
      "    - {title: \"Vortex 2\", series: [x2, y2]}\n"
      "    - {title: \"Hamiltonian\", series: [E]}\n";
  return text;
}

}  // namespace dirac::families
