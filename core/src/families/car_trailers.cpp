// A car pulling n trailers with n + 1 knife edges (families.hpp). Body k's axle moves with
//   (vx + d Σ_{1≤j≤k} sin(th_j) vth_j,  vy − d Σ_{1≤j≤k} cos(th_j) vth_j)
// (body 0 is the car, its axle at (x, y)); its centre of mass a further a (cos th_k, sin th_k).
// Knife edge k: the axle velocity across the heading, −sin(th_k) u + cos(th_k) v, vanishes.
#include <cmath>
#include <string>
#include <vector>

#include "families/family_text.hpp"

namespace dirac::families {
namespace {

constexpr double kHitch = 1.0;  // the default of d: the initial velocities are consistent for it

// "d*(sin(th1)*vth1 + ... + sin(thk)*vthk)" (f = "sin" or "cos"), empty for k = 0.
std::string HitchSum(const char* f, int k) {
  std::vector<std::string> terms;
  for (int j = 1; j <= k; ++j)
    terms.push_back(std::string(f) + "(" + Indexed("th", j) + ")*" + Indexed("vth", j));
  if (terms.empty()) return "";
  return k == 1 ? "d*" + terms[0] : "d*(" + Join(terms, " + ") + ")";
}

}  // namespace

std::string CarTrailers(int n) {
  auto th = [](int i) { return Indexed("th", i); };
  auto vth = [](int i) { return Indexed("vth", i); };
  std::string text = Header(
      "car_trailers", n, "Car pulling " + std::to_string(n) + (n == 1 ? " trailer" : " trailers"));
  text +=
      "description: >\n"
      "  A car (heading th0, rear axle at (x, y)) and trailers th1, th2, ..., each hitched at the\n"
      "  axle of the body ahead at distance d, every body on a knife edge at its axle (mass m,\n"
      "  inertia J about its centre of mass, a ahead of the axle). Started at unit speed turning\n"
      "  at 0.5 rad/s with the trailers in a zig-zag; the energy is conserved and the multipliers\n"
      "  lam<k> are the sideways forces of the blades.\n";

  // Initial state: car at the origin heading along x at unit speed, turning; trailers zig-zag;
  // the trailer rates solved from the knife edges (d vth_k = −s_k U_{k−1} + c_k V_{k−1}).
  std::vector<double> angle(n + 1, 0.0), rate(n + 1, 0.0);
  const double vx = 1.0, vy = 0.0;
  rate[0] = 0.5;
  double u = vx, v = vy;  // the axle velocity of the body ahead
  for (int k = 1; k <= n; ++k) {
    angle[k] = k % 2 ? 0.2 : -0.1;
    const double s = std::sin(angle[k]), c = std::cos(angle[k]);
    rate[k] = (-s * u + c * v) / kHitch;
    u += kHitch * s * rate[k];
    v -= kHitch * c * rate[k];
  }
  text += "coordinates:\n";
  text +=
      "  - {name: x, velocity: vx, initial: 0, initial_velocity: " + Number(vx) + ", unit: m}\n";
  text +=
      "  - {name: y, velocity: vy, initial: 0, initial_velocity: " + Number(vy) + ", unit: m}\n";
  for (int k = 0; k <= n; ++k)
    text += "  - {name: " + th(k) + ", velocity: " + vth(k) + ", initial: " + Number(angle[k]) +
            ", initial_velocity: " + Number(rate[k]) + ", unit: rad}\n";
  text +=
      "parameters:\n"
      "  - {name: m, default: 1, min: 0.1, max: 10, unit: kg, description: mass of each body}\n"
      "  - {name: J, default: 0.1, min: 0.01, max: 5, unit: kg m^2, description: inertia of each "
      "body about its centre of mass}\n"
      "  - {name: d, default: " +
      Number(kHitch) +
      ", min: 0.2, max: 5, unit: m, description: from a hitch to the axle behind it}\n"
      "  - {name: a, default: 0.3, min: -1, max: 1, unit: m, description: centre of mass ahead "
      "of the axle}\n";

  std::vector<std::string> terms;
  for (int k = 0; k <= n; ++k) {
    const std::string s = HitchSum("sin", k), c = HitchSum("cos", k);
    const std::string own_s = "a*sin(" + th(k) + ")*" + vth(k);
    const std::string own_c = "a*cos(" + th(k) + ")*" + vth(k);
    terms.push_back((k == 0 ? "m/2*((" : "+ (") + std::string("vx") + (s.empty() ? "" : " + " + s) +
                    " - " + own_s + ")^2");
    terms.push_back("+ (vy" + (c.empty() ? "" : " - " + c) + " + " + own_c + ")^2");
  }
  terms.back() += ")";
  for (int k = 0; k <= n; ++k) terms.push_back((k == 0 ? "+ J/2*(" : "+ ") + vth(k) + "^2");
  terms.back() += ")";
  text += FoldedExpression("lagrangian", terms);

  text += "constraints:\n";
  for (int k = 0; k <= n; ++k) {
    const std::string s = HitchSum("sin", k), c = HitchSum("cos", k);
    const std::string form =
        k == 0 ? "-sin(th0)*vx + cos(th0)*vy"
               : "-sin(" + th(k) + ")*(vx + " + s + ") + cos(" + th(k) + ")*(vy - " + c + ")";
    text += "  - {name: " + Indexed("knife", k) + ", form: \"" + form +
            "\", multiplier: " + Indexed("lam", k) + "}\n";
  }
  text += Simulation(10.0, 0.01, ", stabilization: 10");
  std::vector<std::string> headings, residuals;
  for (int k = 0; k <= n && k < 6; ++k) {
    headings.push_back(th(k));
    residuals.push_back("residual_" + Indexed("knife", k));
  }
  text += Plots({{"Car position", {"x", "y"}},
                 {n < 6 ? "Headings" : "Headings (car and the first five trailers)", headings},
                 {"Energy", {"E"}},
                 {"Knife-edge constraints", residuals}});
  return text;
}

}  // namespace dirac::families
