#include "constraints/generic_rank_chain.hpp"

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "constraints/presymplectic_data.hpp"
#include "dirac/derivation_control.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/generic_rank.hpp"

namespace dirac::constraints {
namespace {

using GiNaC::ex;

std::string Decision(const std::string& what, const symbolic::GenericRank& r) {
  return what + " (" + std::to_string(r.rows) + " x " + std::to_string(r.cols) + "): rank " +
         std::to_string(r.rank) + ", " + r.How();
}

bool IsLagrangeDirac(const Scenario& s) {
  if (s.optimal_control.present) return false;
  return s.formulation == Formulation::kAuto || s.formulation == Formulation::kLagrangeDirac ||
         s.formulation == Formulation::kConstraintAlgorithm;
}

ConstraintStep Step(std::size_t index, std::size_t dimension, std::size_t sections,
                    std::size_t orthogonal) {
  ConstraintStep step;
  step.index = index;
  step.dimension = dimension;
  step.tangent_sections = sections;
  step.orthogonal_dimension = orthogonal;
  return step;
}

}  // namespace

bool AboveExactChainSize(const Scenario& scenario) {
  const std::size_t k =
      scenario.algebroid.present ? scenario.algebroid.fibre.size() : scenario.coordinates.size();
  return scenario.coordinates.size() + k > kMaxExactChainDimension;
}

std::optional<std::pair<ConstraintChain, ChainStructure>> GenericRankChain(
    const Scenario& scenario) {
  EnterDerivationStage("deciding the constraint chain by generic ranks");
  if (!IsLagrangeDirac(scenario)) return std::nullopt;
  const scenario::ScenarioSymbols symbols(scenario, {scenario::Velocities::kFibre});
  const auto nominal = scenario::NominalValuesOf(scenario);
  const auto& q = symbols.q();
  const auto& y = symbols.velocities();
  const std::size_t n = q.size(), k = y.size(), m = scenario.constraints.size();

  ConstraintChain chain;
  chain.exact = false;
  chain.formulation = scenario.algebroid.present
                          ? "Lagrangian on the Lie algebroid's prolongation (T^E E, Omega_L, E_L)"
                          : "Lagrange-Dirac system (TQ, Omega_L, E_L)";
  chain.coordinates = symbols.coordinate_names();
  for (const auto& name : symbols.velocity_names()) chain.coordinates.push_back(name);

  const GiNaC::matrix W = FibreHessian(scenario);
  const symbolic::GenericRank w_rank = symbolic::ComputeGenericRank(W, nominal);
  const auto dependence = std::make_shared<symbolic::SymbolDependence>();
  std::vector<symbolic::Differentiator> d_dy = symbolic::MakeDifferentiators(y, dependence);

  if (w_rank.full()) {
    // Regular: the constraint forms A (m x k) must be independent.
    GiNaC::matrix A(static_cast<unsigned>(m), static_cast<unsigned>(k));
    for (std::size_t r = 0; r < m; ++r) {
      const auto& spec = scenario.constraints[r];
      const ex form = symbols.Parse(spec.form, spec.where.line, spec.name + ".form");
      for (std::size_t a = 0; a < k; ++a)
        A(static_cast<unsigned>(r), static_cast<unsigned>(a)) = d_dy[a](form);
    }
    const symbolic::GenericRank a_rank = symbolic::ComputeGenericRank(A, nominal);
    if (m > 0 && !a_rank.full()) return std::nullopt;
    chain.decisions.push_back(Decision("regularity of W = D2D2L", w_rank));
    if (m > 0) chain.decisions.push_back(Decision("independence of the constraint forms", a_rank));
    chain.decisions.push_back(
        "no symbolic elimination (M_0 of dimension " + std::to_string(n + k) +
        "): the chain follows from the ranks (regular W and independent forms: the saddle matrix "
        "[W -A^T; A 0] is regular, so the algorithm stops at the constraint set)");
    chain.steps.push_back(Step(0, n + k, 2 * k - m, m));
    for (const auto& spec : scenario.constraints) {
      chain.steps[0].new_constraints.push_back(spec.form + " = 0");
      chain.steps[0].new_constraints_latex.push_back(spec.form + " = 0");
      chain.final_constraints.push_back(spec.form + " = 0");
    }
    if (m > 0) chain.steps.push_back(Step(1, n + k - m, 2 * k - 2 * m, m));
    chain.final_dimension = n + k - m;
    chain.final_rank = 2 * k - 2 * m;
    chain.symplectic = true;
    chain.configuration_dynamics_unique = true;
    chain.verdict = "stabilised: M_f = M_" + std::to_string(m > 0 ? 1 : 0) + " of dimension " +
                    std::to_string(n + k - m) + " (" + std::to_string(m) + " constraint(s) found)";
    chain.dynamics.push_back({"q'", "rho(q) y"});
    chain.dynamics.push_back(
        {"y'", std::string("solved numerically at every step") +
                   (m > 0 ? " with the multipliers" : "") +
                   " from the saddle system [W -A^T; A 0] (solved forms omitted at this size)"});
    return std::make_pair(std::move(chain), ChainStructure::kRegular);
  }

  // Affine in the velocities on TQ without constraints: W vanishes identically.
  if (scenario.algebroid.present || m > 0 || w_rank.rank != 0) return std::nullopt;
  const ex L = symbols.Parse(scenario.lagrangian, scenario.lagrangian_where.line, "lagrangian");
  GiNaC::matrix B(static_cast<unsigned>(n), static_cast<unsigned>(n));
  std::vector<ex> theta;
  for (std::size_t a = 0; a < n; ++a) theta.push_back(d_dy[a](L));
  for (std::size_t i = 0; i < n; ++i) {
    symbolic::Differentiator d_dq(q[i], dependence);
    for (std::size_t j = 0; j < n; ++j) {
      B(static_cast<unsigned>(j), static_cast<unsigned>(i)) += d_dq(theta[j]);
      B(static_cast<unsigned>(i), static_cast<unsigned>(j)) -= d_dq(theta[j]);
    }
  }
  const symbolic::GenericRank b_rank = symbolic::ComputeGenericRank(B, nominal);
  if (!b_rank.full()) return std::nullopt;
  chain.decisions.push_back(Decision("W = D2D2L vanishes (L affine in the velocities)", w_rank));
  chain.decisions.push_back(Decision("regularity of d theta on Q", b_rank));
  chain.decisions.push_back("no symbolic elimination (M_0 of dimension " + std::to_string(2 * n) +
                            "): the chain follows from the ranks");
  chain.steps.push_back(Step(0, 2 * n, 2 * n, n));
  chain.final_dimension = 2 * n;
  chain.final_rank = n;
  chain.symplectic = false;
  chain.symplectic_modulo_gauge = true;
  chain.configuration_dynamics_unique = true;
  chain.verdict =
      "stabilised: M_f = M_0 of dimension " + std::to_string(2 * n) + " (0 constraint(s) found)";
  const auto& velocity_names = symbols.velocity_names();
  for (std::size_t a = 0; a < n; ++a) {
    GaugeDirection g;
    g.name = "lambda" + std::to_string(a + 1);
    for (std::size_t c = 0; c < 2 * n; ++c) g.components.push_back(c == n + a ? "1" : "0");
    g.fibre_only = true;
    g.value = "0";
    chain.gauge.push_back(std::move(g));
  }
  chain.dynamics.push_back({"q'",
                            "solved numerically at every step from (d theta)(q) q' = dH(q), "
                            "B_ij = d_i theta_j - d_j theta_i"});
  for (std::size_t a = 0; a < n; ++a)
    chain.dynamics.push_back({velocity_names[a] + "'", "lambda" + std::to_string(a + 1)});
  return std::make_pair(std::move(chain), ChainStructure::kAffineInVelocities);
}

}  // namespace dirac::constraints
