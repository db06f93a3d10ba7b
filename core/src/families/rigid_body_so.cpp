// The free generalised (Manakov) rigid body on so(n) as a Lie algebra scenario (families.hpp).
// The structure constants are read off the matrix commutators of the basis E_ij = e_i e_jᵀ −
// e_j e_iᵀ (i < j): [E_A, E_B] = Σ_{a<b} C_ab E_ab where C = E_A E_B − E_B E_A, so they are
// those of so(n) by construction, not by a formula that could be mistyped.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "families/family_text.hpp"

namespace dirac::families {
namespace {

struct BasisElement {
  int i, j;  // 1-based, i < j
  std::string name;
};

std::vector<BasisElement> Basis(int n) {
  std::vector<BasisElement> basis;
  for (int i = 1; i <= n; ++i)
    for (int j = i + 1; j <= n; ++j)
      basis.push_back({i, j, Indexed("w", i) + "_" + std::to_string(j)});
  return basis;
}

using Matrix = std::vector<std::vector<int>>;

Matrix Element(int n, const BasisElement& e) {
  Matrix m(n, std::vector<int>(n, 0));
  m[e.i - 1][e.j - 1] = 1;
  m[e.j - 1][e.i - 1] = -1;
  return m;
}

Matrix Commutator(const Matrix& a, const Matrix& b) {
  const std::size_t n = a.size();
  Matrix c(n, std::vector<int>(n, 0));
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t s = 0; s < n; ++s)
      for (std::size_t k = 0; k < n; ++k) c[r][s] += a[r][k] * b[k][s] - b[r][k] * a[k][s];
  return c;
}

// The bracket lines: one per unordered pair with a nonzero bracket.
std::string Brackets(int n, const std::vector<BasisElement>& basis) {
  std::string text = "  brackets:\n";
  for (std::size_t a = 0; a < basis.size(); ++a)
    for (std::size_t b = a + 1; b < basis.size(); ++b) {
      const Matrix c = Commutator(Element(n, basis[a]), Element(n, basis[b]));
      std::vector<std::string> value;
      for (const BasisElement& e : basis)
        if (const int coefficient = c[e.i - 1][e.j - 1])
          value.push_back(e.name + ": \"" + std::to_string(coefficient) + "\"");
      if (!value.empty())
        text += "    - {pair: [" + basis[a].name + ", " + basis[b].name + "], value: {" +
                Join(value, ", ") + "}}\n";
    }
  return text;
}

}  // namespace

std::string RigidBodySo(int n) {
  const std::vector<BasisElement> basis = Basis(n);
  const std::string size = std::to_string(n);
  std::string text = Header("rigid_body_so", n, "Free rigid body on so(" + size + ") (Manakov)");
  text += "description: >\n  The generalised rigid body on so(" + size + ") (dimension " +
          std::to_string(basis.size()) +
          "): body angular velocity Omega = sum w<i>_<j> E_ij\n"
          "  with E_ij = e_i e_j^T - e_j e_i^T, body momentum M = J Omega + Omega J (J = diag d),\n"
          "  L = sum (d_i + d_j) w<i>_<j>^2 / 2; the engine derives M' = [M, Omega]. The energy "
          "and\n  the Casimirs tr(M^k) are conserved; the motion is integrable (Manakov).\n";
  text += "parameters:\n";
  for (int i = 1; i <= n; ++i)
    text += "  - {name: " + Indexed("d", i) + ", default: " + Number(1.0 + 0.5 * (i - 1)) +
            ", min: 0.1, max: 20, unit: kg m^2, description: 'inertia J = diag(d): entry " +
            std::to_string(i) + "'}\n";
  text += "algebroid:\n  fibre:\n";
  for (const BasisElement& e : basis)
    text += "    - {name: " + e.name +
            ", initial: " + Rounded(0.5 * std::cos(1.3 * e.i + 0.7 * e.j), 3) + ", unit: rad/s}\n";
  text += Brackets(n, basis);
  std::vector<std::string> terms;
  for (const BasisElement& e : basis)
    terms.push_back((terms.empty() ? "(" : "+ ") + std::string("(") + Indexed("d", e.i) + " + " +
                    Indexed("d", e.j) + ")*" + e.name + "^2");
  terms.back() += ")/2";
  text += FoldedExpression("lagrangian", terms);
  text += Simulation(10.0, 0.01);
  std::vector<std::string> shown;
  for (std::size_t k = 0; k < basis.size() && k < 6; ++k) shown.push_back(basis[k].name);
  text += Plots({{basis.size() <= 6 ? "Body angular velocity"
                                    : "Body angular velocity (the first six components)",
                  shown},
                 {"Energy", {"E"}}});
  return text;
}

}  // namespace dirac::families
