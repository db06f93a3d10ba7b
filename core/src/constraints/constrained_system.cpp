#include "dirac/constrained_system.hpp"

#include <ginac/ginac.h>
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "base/foreign_errors.hpp"
#include "constraints/constrained_system_impl.hpp"
#include "constraints/generic_rank_chain.hpp"
#include "constraints/presymplectic_data.hpp"
#include "constraints/symbolic_linear_algebra.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/local_tolerance.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/reconstruction.hpp"
#include "model/native_tape_set.hpp"
#include "scenario/initial_state.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

using constraints::NullSpace;
using constraints::ReduceRows;
using constraints::Simplify;
using GiNaC::ex;
using GiNaC::matrix;
using GiNaC::symbol;

namespace {

matrix Column(const std::vector<ex>& values) {
  matrix m(static_cast<unsigned>(values.size()), 1);
  for (unsigned i = 0; i < values.size(); ++i) m(i, 0) = values[i];
  return m;
}

matrix Mul(const matrix& a, const matrix& b) { return a.mul(b); }

// Every coordinate of M_0 is an initial value; those the chain eliminated are fixed by the
// equation that solved for them. Scenario symbols that are no coordinates of M_0 (e.g. the
// constrained velocities v^alpha of a vakonomic problem) are fixed by the formulation.
std::vector<InitialValueInfo> InitialValues(const Scenario& scenario,
                                            const constraints::PresymplecticData& data,
                                            const ConstraintChain& chain) {
  std::vector<InitialValueInfo> values;
  for (std::size_t i = 0; i < data.z.size(); ++i)
    values.push_back({data.z_names[i], data.z_role[i]});
  auto find = [&](const std::string& name) {
    return std::find_if(values.begin(), values.end(),
                        [&](const InitialValueInfo& v) { return v.name == name; });
  };
  for (const ConstraintStep& step : chain.steps)
    for (std::size_t j = 0; j < step.solved_for.size(); ++j) {
      const auto it = find(step.solved_for[j]);
      if (it == values.end()) continue;
      it->free = false;
      it->fixed_because = "fixed on M_" + std::to_string(step.index + 1) +
                          " by the constraint algorithm: " +
                          (j < step.solved_as.size() ? step.solved_as[j] : step.solved_for[j]);
    }
  auto add_fixed = [&](const std::string& name, ColumnKind kind) {
    if (name.empty() || find(name) != values.end()) return;
    values.push_back({name, kind, false,
                      name + " is not a coordinate of M_0 in this formulation: the constraints "
                             "determine it"});
  };
  for (const Coordinate& c : scenario.coordinates) {
    add_fixed(c.name, ColumnKind::kCoordinate);
    if (!scenario.algebroid.present) add_fixed(c.velocity, ColumnKind::kVelocity);
    if (scenario.formulation == Formulation::kVakonomic)
      add_fixed(c.momentum, ColumnKind::kMomentum);
  }
  return values;
}

}  // namespace

namespace {

// GiNaC::factor nests the terms of each factor in an address-dependent way; expanding every
// factor on its own keeps the factorisation and makes the form canonical.
ex ExpandFactors(const ex& product) {
  const auto expand_factor = [](const ex& f) {
    if (GiNaC::is_a<GiNaC::power>(f)) return GiNaC::pow(f.op(0).expand(), f.op(1));
    return f.expand();
  };
  if (!GiNaC::is_a<GiNaC::mul>(product)) return expand_factor(product);
  ex out = 1;
  for (std::size_t i = 0; i < product.nops(); ++i) out *= expand_factor(product.op(i));
  return out;
}

// "c != 0" with the sign of c fixed: numer() of a fraction may carry either sign.
std::string NonzeroCondition(const ex& c) {
  const std::string text = Print(c);
  return text.front() == '-' ? Print(-c) : text;
}

// Picks the coordinate to solve phi = 0 for: linear in it with a coefficient free of every
// coordinate (preferring the last coordinates), else linear with a state-dependent coefficient
// (returned in `condition`, the verdict then holds where it is nonzero).
int ChooseElimination(const ex& phi, const std::vector<symbol>& z, const GiNaC::exmap& eliminated,
                      ex* coefficient, bool* state_dependent) {
  for (int pass = 0; pass < 2; ++pass) {
    for (int j = static_cast<int>(z.size()) - 1; j >= 0; --j) {
      if (eliminated.count(z[j]) || !phi.has(z[j])) continue;
      const ex c = Simplify(phi.diff(z[j]));
      if (c.is_zero() || !Simplify(c.diff(z[j])).is_zero()) continue;  // not linear in z_j
      const bool free_of_state = constraints::IsFreeOf(c, z);
      if (pass == 0 && !free_of_state) continue;
      *coefficient = c;
      *state_dependent = !free_of_state;
      return j;
    }
  }
  return -1;
}

}  // namespace

void ConstrainedSystem::Impl::RunAlgorithm(std::size_t max_steps) {
  const auto& z = data.z;
  const unsigned N = static_cast<unsigned>(z.size());
  const unsigned K = data.rho.cols();
  std::vector<ex> grad(N);
  for (unsigned i = 0; i < N; ++i) grad[i] = data.hamiltonian.diff(z[i]);
  omega_e = data.omega_on_e
                ? data.omega_e
                : constraints::Substitute(Mul(Mul(data.rho.transpose(), data.omega), data.rho), {});
  alpha = constraints::Substitute(Mul(data.rho.transpose(), Column(grad)), {});

  chain.formulation = data.formulation;
  chain.coordinates = data.z_names;
  chain.outcome = ChainOutcome::kNotStabilized;
  for (std::size_t k = 0; k <= max_steps; ++k) {
    EnterDerivationStage("the constraint algorithm, step " + std::to_string(k + 1));
    ConstraintStep step;
    StepRecord record;
    step.index = k;
    step.dimension = N - elimination.size();
    record.elimination = elimination;
    // E_k = rho^-1(T M_k): kernel of d(z_j - expr_j) rho over the eliminated coordinates.
    matrix basis = Identity(K);
    if (!elimination.empty()) {
      std::vector<ex> phis;
      for (const auto& [var, value] : InCoordinateOrder(elimination, z))
        phis.push_back(var - value);
      record.tangency = OnManifold(Mul(constraints::Jacobian(phis, z), data.rho));
      basis = NullSpace(record.tangency);
    }
    record.tangent_rank = basis.cols();
    step.tangent_sections = basis.cols();
    // (E_k)^perp = {e in E : Omega(e, f) = 0 for all f in E_k} = ker (B^T Omega_E).
    matrix perp;
    if (basis.cols() == 0) {
      perp = Identity(K);
    } else {
      perp = NullSpace(OnManifold(Mul(basis.transpose(), omega_e)));
    }
    record.orthogonal = perp.cols();
    step.orthogonal_dimension = perp.cols();
    bool ended = false;
    for (unsigned c = 0; c < perp.cols(); ++c) {
      ex phi = 0;
      for (unsigned a = 0; a < K; ++a) phi += alpha(a, 0) * perp(a, c);
      phi = GiNaC::numer(OnManifold(phi));
      phi = Simplify(phi);
      if (phi.is_zero()) continue;
      if (Print(phi).front() == '-') phi = Simplify(-phi);  // "q3 = 0", not "-q3 = 0"
      record.has_new = true;
      step.new_constraints.push_back(Print(phi) + " = 0");
      step.new_constraints_latex.push_back(Print(phi, EquationFormat::kLatex) + " = 0");
      found_constraints.push_back(phi);
      if (GiNaC::is_a<GiNaC::numeric>(phi)) {
        chain.outcome = ChainOutcome::kEmpty;
        ended = true;
        break;
      }
      ex coefficient;
      bool state_dependent = false;
      const int j = ChooseElimination(phi, z, elimination, &coefficient, &state_dependent);
      if (j < 0)
        throw ModelError("constraint algorithm, step " + std::to_string(k + 1) +
                         ": the constraint " + Print(phi) +
                         " = 0 is not linear in any remaining coordinate; " +
                         "cannot parametrise M_" + std::to_string(k + 1));
      if (state_dependent)
        chain.validity_conditions.push_back(NonzeroCondition(GiNaC::numer(coefficient)) +
                                            " != 0  (solving for " + data.z_names[j] + ")");
      const ex value = Simplify(z[j] - phi / coefficient);
      step.solved_as.push_back(data.z_names[j] + " = " + Print(value));
      step.solved_for.push_back(data.z_names[j]);
      step.residual_columns.push_back("residual_hidden" + std::to_string(found_constraints.size()));
      for (auto& [var, expr] : elimination)
        expr = Simplify(expr.subs(GiNaC::lst{z[j]}, GiNaC::lst{value}));
      elimination[z[j]] = value;
    }
    chain.steps.push_back(step);
    records.push_back(record);
    if (ended) break;
    if (!record.has_new) {
      chain.outcome = ChainOutcome::kStabilized;
      break;
    }
    if (elimination.size() == N) {
      chain.outcome = ChainOutcome::kIsolatedPoints;
      ConstraintStep last;
      last.index = k + 1;
      last.dimension = 0;
      chain.steps.push_back(last);
      break;
    }
  }
  for (unsigned i = 0; i < N; ++i)
    if (!elimination.count(z[i])) free_index.push_back(i);
  chain.final_dimension = free_index.size();
  for (const auto& [var, value] : InCoordinateOrder(elimination, z))
    chain.final_constraints.push_back(Print(var) + " = " + Print(value));
  std::ostringstream verdict;
  switch (chain.outcome) {
    case ChainOutcome::kStabilized:
      verdict << "stabilised: M_f = M_" << chain.steps.back().index << " of dimension "
              << chain.final_dimension << " (" << found_constraints.size()
              << " constraint(s) found)";
      break;
    case ChainOutcome::kEmpty:
      verdict << "the algorithm ends on the empty set: step " << chain.steps.back().index + 1
              << " requires " << chain.steps.back().new_constraints.back()
              << " (no dynamics anywhere)";
      break;
    case ChainOutcome::kIsolatedPoints:
      verdict << "the algorithm ends on isolated points (dim M_f = 0): no proper dynamics";
      break;
    case ChainOutcome::kNotStabilized:
      verdict << "not stabilised within " << max_steps << " steps";
      break;
  }
  chain.verdict = verdict.str();
}

void ConstrainedSystem::Impl::SolveDynamics(const Scenario& scenario) {
  const auto& z = data.z;
  const unsigned N = static_cast<unsigned>(z.size());
  const unsigned K = data.rho.cols();
  // E_f and Omega on it.
  std::vector<ex> phis;
  for (const auto& [var, value] : InCoordinateOrder(elimination, z)) phis.push_back(var - value);
  matrix tangency(0 == phis.size() ? 1 : static_cast<unsigned>(phis.size()), K);
  if (!phis.empty()) tangency = OnManifold(Mul(constraints::Jacobian(phis, z), data.rho));
  const matrix basis = phis.empty() ? Identity(K) : NullSpace(tangency);
  const matrix omega_f = OnManifold(Mul(Mul(basis.transpose(), omega_e), basis));
  constraints::RowEchelon echelon = ReduceRows(omega_f);
  chain.final_rank = echelon.rank();
  chain.symplectic = basis.cols() > 0 && echelon.rank() == basis.cols();
  chain.symplectic_modulo_gauge = false;  // set below once the gauge is known
  // The product of the elimination pivots is an r x r minor of Omega_f: the rank holds where
  // its numerator does not vanish.
  ex minor = 1;
  for (const auto& p : echelon.pivots) minor *= p;
  minor = GiNaC::numer(Simplify(minor));
  // Factoring is for reading; on a large polynomial it would cost minutes (multivariate gcds
  // that cannot be interrupted), so a large minor is printed as it is.
  constexpr std::size_t kMaxFactoredNodes = 400;
  if (!GiNaC::is_a<GiNaC::numeric>(minor))
    chain.validity_conditions.push_back(
        NonzeroCondition(
            ExpandFactors(symbolic::NodeCount(minor, kMaxFactoredNodes + 1) <= kMaxFactoredNodes
                              ? GiNaC::factor(minor)
                              : minor)) +
        " != 0  (rank of Omega on E_f)");

  // Solve i_X Omega = dH for X = rho xi, xi in E_f: [d(Phi) rho; Omega_E^T] xi = [0; alpha].
  // Columns are taken in reverse order so that the free unknowns (the gauge parameters) are, where
  // possible, the configuration rates: "q2' = lambda1" rather than a velocity combination.
  const unsigned rows = static_cast<unsigned>(phis.size()) + K;
  auto col = [K](unsigned c) { return K - 1 - c; };
  matrix augmented(rows, K + 1);
  const matrix omega_t = OnManifold(omega_e.transpose());
  const matrix alpha_m = OnManifold(alpha);
  for (unsigned r = 0; r < phis.size(); ++r)
    for (unsigned c = 0; c < K; ++c) augmented(r, col(c)) = tangency(r, c);
  for (unsigned r = 0; r < K; ++r) {
    for (unsigned c = 0; c < K; ++c) augmented(phis.size() + r, col(c)) = omega_t(r, c);
    augmented(phis.size() + r, K) = alpha_m(r, 0);
  }
  const constraints::RowEchelon solved = ReduceRows(augmented);
  for (unsigned r = 0; r < solved.rank(); ++r)
    if (solved.pivot_columns[r] == K)
      throw ModelError("constraint algorithm: i_X Omega = dH has no solution on M_f (" +
                       Print(solved.pivots[r]) + " != 0); the chain is inconsistent");
  std::vector<ex> xi(K, 0);
  for (unsigned r = 0; r < solved.rank(); ++r)
    xi[col(solved.pivot_columns[r])] = solved.reduced(r, K);
  matrix lhs(rows, K);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < K; ++c) lhs(r, c) = augmented(r, c);
  const matrix reversed_kernel = NullSpace(lhs);
  matrix kernel(K, reversed_kernel.cols());
  for (unsigned c = 0; c < K; ++c)
    for (unsigned a = 0; a < reversed_kernel.cols(); ++a)
      kernel(c, a) = reversed_kernel(col(c), reversed_kernel.cols() - 1 - a);
  for (unsigned a = 0; a < kernel.cols(); ++a) {
    const std::string name = "lambda" + std::to_string(a + 1);
    gauge_symbols.emplace_back(name);
    GaugeDirection direction;
    direction.name = name;
    direction.fibre_only = true;
    for (unsigned i = 0; i < N; ++i) {
      ex component = 0;
      for (unsigned c = 0; c < K; ++c) component += data.rho(i, c) * kernel(c, a);
      component = OnManifold(component);
      direction.components.push_back(Print(component));
      if (data.is_configuration[i] && !component.is_zero()) direction.fibre_only = false;
    }
    direction.value = "0";
    for (const auto& choice : scenario.gauge)
      if (choice.name == name) direction.value = choice.value;
    chain.gauge.push_back(direction);
    for (unsigned c = 0; c < K; ++c) xi[c] += gauge_symbols.back() * kernel(c, a);
  }
  for (const auto& choice : scenario.gauge) {
    bool known = false;
    for (const auto& g : chain.gauge) known |= g.name == choice.name;
    if (!known)
      throw ScenarioError(scenario.source_file, choice.where.line, choice.name,
                          "no such free function: the constraint algorithm leaves " +
                              std::to_string(chain.gauge.size()) + " gauge direction(s)");
  }
  chain.configuration_dynamics_unique = true;
  for (const auto& g : chain.gauge) chain.configuration_dynamics_unique &= g.fibre_only;
  chain.symplectic_modulo_gauge = chain.final_rank + chain.gauge.size() == basis.cols();

  // z' = rho xi, printed with the free functions, integrated with their chosen values.
  GiNaC::exmap gauge_map;
  for (unsigned a = 0; a < gauge_symbols.size(); ++a) {
    const auto& direction = chain.gauge[a];
    std::size_t line = 0;
    for (const auto& choice : scenario.gauge)
      if (choice.name == direction.name) line = choice.where.line;
    const ex value = symbolic::ParseExpression(direction.value, data.table,
                                               {scenario.source_file, line, direction.name});
    try {
      gauge_values.push_back(OnManifold(value));
    } catch (const Error&) {
      throw;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      // e.g. 1/v3 where the constraints of M_f make v3 = 0.
      throw ScenarioError(scenario.source_file, line, direction.name,
                          "gauge value \"" + direction.value +
                              "\" is undefined on the final constraint manifold M_f (" + e.what() +
                              ")");
    }
    gauge_map[gauge_symbols[a]] = gauge_values.back();
  }
  std::vector<ex> rates_with_gauge(N);
  for (unsigned i = 0; i < N; ++i) {
    ex rate = 0;
    for (unsigned c = 0; c < K; ++c) rate += data.rho(i, c) * xi[c];
    rates_with_gauge[i] = OnManifold(rate);
    chain.dynamics.push_back({data.z_names[i] + "'", Print(rates_with_gauge[i])});
    try {
      rates.push_back(Simplify(rates_with_gauge[i].subs(gauge_map)));
    } catch (const Error&) {
      throw;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      const std::size_t line = scenario.gauge.empty() ? 0 : scenario.gauge.front().where.line;
      throw ScenarioError(scenario.source_file, line, "gauge",
                          "the rate of " + data.z_names[i] +
                              " is undefined with the chosen gauge values (" + e.what() + ")");
    }
  }
  // Multipliers of a Lagrange–Dirac system: Omega^T X - dH = -(mu_r omega^r, 0).
  const unsigned m = data.constraint_forms.rows();
  const unsigned n = static_cast<unsigned>(data.num_configuration);
  if (m > 0 && !data.multiplier_names.empty()) {
    matrix residual = Mul(data.omega.transpose(), Column(rates));
    matrix rq(n, 1);
    for (unsigned i = 0; i < n; ++i) rq(i, 0) = residual(i, 0) - data.hamiltonian.diff(z[i]);
    rq = OnManifold(rq);
    const matrix F = OnManifold(data.constraint_forms);
    const matrix gram = Mul(F, F.transpose());
    const matrix mu = Mul(Mul(gram.inverse(), F), rq);
    for (unsigned r = 0; r < m; ++r) multipliers.push_back(Simplify(-mu(r, 0)));
  }
  // Omega_E^T xi - alpha on E: zero on M_f by construction, evaluated along runs as a check.
  for (unsigned c = 0; c < K; ++c) {
    ex value = -alpha(c, 0);
    for (unsigned a = 0; a < K; ++a) value += omega_e(a, c) * xi[a];
    dynamics_residual.push_back(Simplify(OnManifold(value).subs(gauge_map)));
  }
  integrable = chain.outcome == ChainOutcome::kStabilized && !free_index.empty();
  autonomous = !data.hamiltonian.has(data.t);
  for (const ex& rate : rates) autonomous = autonomous && !rate.has(data.t);
}

ConstrainedSystem::ConstrainedSystem(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ConstrainedSystem::~ConstrainedSystem() = default;

std::shared_ptr<const ConstrainedSystem> ConstrainedSystem::Analyze(const Scenario& scenario,
                                                                    std::size_t max_steps) try {
  EnterDerivationStage("building the presymplectic system");
  // Decimals as the rationals they spell: the eliminations below decide by exact zero tests,
  // which float cancellations would defeat (docs/robustness.md, "Verdicts independent of term
  // order").
  const symbolic::ScopedExactDecimals exact_decimals;
  auto impl = std::make_unique<Impl>();
  if (scenario.optimal_control.present) {
    impl->data = constraints::BuildOptimalControl(scenario);
  } else if (scenario.formulation == Formulation::kVakonomic) {
    impl->data = constraints::BuildVakonomic(scenario);
  } else if (scenario.formulation == Formulation::kSecondOrder) {
    impl->data = constraints::BuildSecondOrder(scenario);
  } else if (scenario.algebroid.present) {
    impl->data = constraints::BuildAlgebroidLagrangian(scenario);
  } else {
    impl->data = constraints::BuildLagrangeDirac(scenario);
  }
  for (const auto& c : scenario.constraints) impl->scenario_constraint_names.push_back(c.name);
  impl->reconstruction = scenario.reconstruction;
  {
    // Compiled once so that drawing Delta(q) never touches GiNaC (thread safety, speed).
    const auto& d = impl->data;
    std::vector<symbol> in{d.t};
    for (std::size_t i = 0; i < d.num_configuration; ++i) in.push_back(d.z[i]);
    in.insert(in.end(), d.parameters.begin(), d.parameters.end());
    std::vector<ex> entries;
    for (unsigned r = 0; r < d.constraint_forms.rows(); ++r)
      for (unsigned i = 0; i < d.constraint_forms.cols(); ++i)
        entries.push_back(d.constraint_forms(r, i));
    impl->covectors = symbolic::CompileExpressions(entries, in);
  }
  impl->RunAlgorithm(max_steps);
  impl->chain.decisions.push_back(
      "exact: the Gotay-Nester-Hinds algorithm by symbolic elimination (M_0 of dimension " +
      std::to_string(impl->chain.coordinates.size()) + ")");
  if (impl->chain.outcome == ChainOutcome::kStabilized) {
    EnterDerivationStage("solving for the dynamics on the final constraint manifold");
    impl->SolveDynamics(scenario);
    impl->CrossCheck();
    EnterDerivationStage("compiling the tapes");
    if (impl->integrable) impl->Compile();
  }
  impl->run_tapes = {impl->free_rates, impl->free_jacobian, impl->outputs,
                     impl->extras,     impl->body_velocity, impl->group_momentum};
  impl->native =
      std::make_unique<model::NativeTapeSet<ConstrainedRunTapes>>(impl->run_tapes, &ForEachRunTape);
  impl->initial_values = InitialValues(scenario, impl->data, impl->chain);
  auto system = std::shared_ptr<ConstrainedSystem>(new ConstrainedSystem(std::move(impl)));
  system->has_boundary_value_problem_ = scenario.boundary_value.present();
  return system;
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "running the constraint algorithm");
}

const ConstraintChain& ConstrainedSystem::chain() const { return impl_->chain; }

std::string ConstrainedSystem::formulation() const {
  return impl_->data.formulation + ", Gotay-Nester-Hinds constraint algorithm";
}

const std::vector<ColumnInfo>& ConstrainedSystem::columns() const { return impl_->columns; }

const std::vector<InitialValueInfo>& ConstrainedSystem::initial_values() const {
  return impl_->initial_values;
}

const ExplicitFlow* ConstrainedSystem::explicit_flow() const {
  return impl_->integrable ? &impl_->flow : nullptr;
}

std::vector<double> ConstrainedSystem::FlowState(const SimulationInput& input) const {
  const Impl& s = *impl_;
  if (!s.integrable) throw ModelError("nothing to integrate: " + s.chain.verdict);
  const std::vector<double> z0 = s.InitialPoint(input);
  std::vector<double> x;
  for (unsigned i : s.free_index) x.push_back(z0[i]);
  return x;
}

std::vector<std::string> ConstrainedSystem::constraint_names() const {
  return impl_->scenario_constraint_names;
}

std::vector<double> ConstrainedSystem::ConstraintCovectors(
    double t, const std::vector<double>& q, const std::vector<double>& parameters) const {
  const auto& d = impl_->data;
  if (q.size() != d.num_configuration || parameters.size() != d.parameters.size())
    throw ModelError("ConstraintCovectors: wrong number of coordinates or parameters");
  std::vector<double> in{t};
  in.insert(in.end(), q.begin(), q.end());
  in.insert(in.end(), parameters.begin(), parameters.end());
  return impl_->covectors.Evaluate(in);
}

std::vector<DerivedEquation> ConstrainedSystem::Equations(EquationFormat format) const {
  const auto& s = *impl_;
  std::vector<DerivedEquation> out;
  out.push_back({"H", Print(s.data.hamiltonian, format)});
  for (const auto& step : s.chain.steps) {
    const auto& list =
        format == EquationFormat::kLatex ? step.new_constraints_latex : step.new_constraints;
    for (const auto& c : list) out.push_back({"M_" + std::to_string(step.index + 1), c});
  }
  for (const auto& eq : s.chain.dynamics) out.push_back(eq);
  for (std::size_t r = 0; r < s.multipliers.size(); ++r)
    out.push_back({s.data.multiplier_names[r], Print(s.multipliers[r], format)});
  return out;
}

namespace {

ConstraintChain ChainOf(const Scenario& scenario) {
  const bool large = constraints::AboveExactChainSize(scenario);
  if (large)
    if (auto found = constraints::GenericRankChain(scenario)) return std::move(found->first);
  Scenario copy = scenario;
  if (copy.formulation == Formulation::kAuto || copy.formulation == Formulation::kLagrangeDirac)
    copy.formulation = Formulation::kConstraintAlgorithm;  // analyse even regular L
  // At this size the exact chain is the report (its solved forms and validity conditions). An
  // elimination that grows past the work bound (a 4-link chain's Omega already does) falls back
  // to the chain read off generic ranks where the structure allows it (a regular W with
  // independent constraint forms, or L affine in the velocities), which says so; other
  // structures stop with the bound's message.
  try {
    return ConstrainedSystem::Analyze(copy)->chain();
  } catch (const ModelError& e) {
    if (!symbolic::IsWorkBoundError(e)) throw;
    auto found = constraints::GenericRankChain(scenario);
    if (!found) throw;
    found->first.decisions.insert(
        found->first.decisions.begin(),
        "the exact elimination grew past the symbolic work bound (" +
            std::to_string(symbolic::SymbolicWorkBound()) +
            " nodes; DIRAC_SYMBOLIC_WORK_BOUND raises it): the chain is read off generic ranks");
    return std::move(found->first);
  }
}

}  // namespace

ConstraintChain AnalyzeChain(const Scenario& given) try {
  if (given.holonomic.empty()) return ChainOf(given);
  // Holonomic constraints join by their differentials (<name>_rate), as in BuildModel, and the
  // report names each by its given name (the bicycle's front_contact).
  ConstraintChain chain = ChainOf(scenario::WithHolonomicDifferentials(given));
  for (const auto& h : given.holonomic)
    chain.decisions.push_back("holonomic constraint " + h.name + ": " + h.equation +
                              " = 0, in the chain by its rate " + h.name +
                              "_rate = 0; runs also hold it at position level (column "
                              "position_residual_" +
                              h.name + ")");
  return chain;
} catch (...) {
  base::RethrowNamingFile(given.source_file, "running the constraint algorithm");
}

}  // namespace dirac
