#include "lagrange_dirac/lagrange_dirac_system.hpp"

#include "lagrange_dirac/compiled_dae.hpp"

#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <sstream>

#include "base/foreign_errors.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "geometry/reconstruction.hpp"
#include "lagrange_dirac/gauge_derivation.hpp"
#include "lagrange_dirac/lagrange_dirac_simulation.hpp"
#include "model/algebroid_data.hpp"
#include "model/native_tape_set.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/generic_rank.hpp"

namespace dirac {

using GiNaC::ex;
using GiNaC::symbol;

struct LagrangeDiracSystem::Impl {
  std::vector<std::string> coordinate_names, velocity_names, multiplier_names, constraint_names,
      parameter_names, holonomic_names;
  symbol t{"t"}, alpha{"alpha", "\\alpha"};
  std::vector<symbol> q, v, mu, qd, vd, p;
  ex lagrangian, energy;
  // The scenario's definitions (user's in terms of the earlier ones, then what the bodies
  // generate) and L in terms of them, for Equations(); empty without definitions.
  std::vector<std::pair<std::string, ex>> definitions;
  ex lagrangian_by_name;
  GiNaC::matrix hessian, omega;                         // W (k x k), A = omega (m x k)
  GiNaC::matrix anchor;                                 // rho (n x k)
  std::vector<std::vector<std::vector<ex>>> structure;  // C[c][a][b] = C^c_ab
  bool algebroid = false;
  bool autonomous = true;  // L and the constraint forms free of t: E_L is conserved
  std::vector<ex> body_velocity;
  ReconstructionSpec reconstruction;
  std::vector<ex> g, second_order, euler_lagrange, constraint_rate;  // constraint_rate: dg/dt
  CompiledDae dae;
  std::unique_ptr<model::NativeTapeSet<CompiledDae>> native;  // machine code of `dae`
  std::vector<ColumnInfo> columns;
  std::vector<InitialValueInfo> initial_values;
  // The gauge two-form, derived on first request (gauge_two_form()), from this copy of the
  // scenario; offered only where it does not vanish identically and may solve symbolically.
  bool gauge_offered = false;
  Scenario scenario;
  mutable std::once_flag gauge_once;
  mutable std::shared_ptr<const GaugeTwoForm> gauge;
  symbolic::GenericRank regularity;  // rank of W and how it was decided

  std::size_t n() const { return q.size(); }
  std::size_t k() const { return v.size(); }
  std::size_t m() const { return mu.size(); }

  std::vector<symbol> Inputs() const {
    std::vector<symbol> in{t};
    for (auto* block : {&q, &v, &mu, &qd, &vd, &p})
      in.insert(in.end(), block->begin(), block->end());
    in.push_back(alpha);
    return in;
  }

  // Substitution q' -> rho(q) y: on the admissible (second-order) set the rows take the
  // textbook form.
  GiNaC::exmap SecondOrderSubstitution() const {
    GiNaC::exmap map;
    for (std::size_t i = 0; i < n(); ++i) {
      ex rate = 0;
      for (std::size_t a = 0; a < k(); ++a) rate += anchor(i, a) * v[a];
      map[qd[i]] = rate;
    }
    return map;
  }
};

namespace {

// Most terms of the expanded energy E_L that `equations` prints expanded (the shipped scenarios
// have at most a few dozen); larger energies are printed and compiled as derived.
constexpr double kMaxExpandedEnergyTerms = 2000;
// Largest system whose accelerations and multipliers `equations` solves symbolically.
constexpr std::size_t kMaxSolvedFormUnknowns = 8;
constexpr std::size_t kMaxSolvedFormNodes = 2000;
// Residual tape instructions times unknowns up to which the DAE's Jacobians are derived
// symbolically (every shipped scenario); above it they come from forward-mode differentiation
// on the residual's tape.
constexpr std::size_t kMaxSymbolicJacobianWork = 40000;

// The longest printed expression of a model with definitions (dirac equations stays readable).
constexpr std::size_t kMaxPrintedCharacters = 3000;
constexpr std::size_t kMaxPrintedNodes = 1500;

// Canonical text: the same bytes in every run, whatever GiNaC's address-dependent term order.
std::string Print(const ex& e, EquationFormat format) {
  return format == EquationFormat::kLatex ? symbolic::CanonicalLatex(e)
                                          : symbolic::CanonicalString(e);
}

CompiledSparseMatrix CompileJacobian(const std::vector<ex>& rows, const std::vector<symbol>& wrt,
                                     const std::vector<symbol>& inputs) {
  CompiledSparseMatrix jac;
  jac.num_rows = rows.size();
  jac.num_cols = wrt.size();
  std::vector<ex> values;
  // One per column, sharing one dependence index: rows share subexpressions.
  std::vector<symbolic::Differentiator> d_by = symbolic::MakeDifferentiators(wrt);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < wrt.size(); ++j) {
      ex d = d_by[j](rows[i]);
      if (d.is_zero()) continue;
      values.push_back(d);
      jac.rows.push_back(i);
      jac.cols.push_back(j);
    }
  }
  jac.values = symbolic::CompileExpressions(values, inputs);
  return jac;
}

std::vector<ex> Flatten(const GiNaC::matrix& matrix) {
  std::vector<ex> out;
  for (unsigned i = 0; i < matrix.rows(); ++i)
    for (unsigned j = 0; j < matrix.cols(); ++j) out.push_back(matrix(i, j));
  return out;
}

std::vector<ColumnInfo> Columns(const LagrangeDiracSystem::Impl& s) {
  std::vector<ColumnInfo> columns{{"t", ColumnKind::kTime}};
  for (const auto& name : s.coordinate_names) columns.push_back({name, ColumnKind::kCoordinate});
  for (const auto& name : s.velocity_names) columns.push_back({name, ColumnKind::kVelocity});
  for (const auto& name : s.multiplier_names) columns.push_back({name, ColumnKind::kMultiplier});
  columns.push_back({"E", ColumnKind::kEnergy});
  for (const auto& name : s.constraint_names)
    columns.push_back({"residual_" + name, ColumnKind::kConstraintResidual});
  for (const auto& name : s.holonomic_names)
    columns.push_back({"position_residual_" + name, ColumnKind::kConstraintResidual});
  for (const auto& name : geometry::GroupReconstruction::Columns(s.reconstruction)) {
    const bool diagnostic = name == "orthogonality_error" || name.rfind("spatial_momentum", 0) == 0;
    columns.push_back({name, diagnostic ? ColumnKind::kDiagnostic : ColumnKind::kGroup});
  }
  return columns;
}

std::vector<InitialValueInfo> InitialValues(const LagrangeDiracSystem::Impl& s) {
  std::vector<InitialValueInfo> values;
  for (const auto& name : s.coordinate_names) values.push_back({name, ColumnKind::kCoordinate});
  for (const auto& name : s.velocity_names) values.push_back({name, ColumnKind::kVelocity});
  return values;
}

// Whether the gauge two-form is offered: a Lagrangian flow on TQ with constraints (without them
// B_t vanishes identically, seed D Remark 2.9) whose accelerations and multipliers may solve
// symbolically (at most 8 unknowns). Deciding it derives nothing.
bool OffersGaugeTwoForm(const LagrangeDiracSystem::Impl& s) {
  return !s.algebroid && s.m() > 0 && s.k() + s.m() <= 8;
}

}  // namespace

LagrangeDiracSystem::LagrangeDiracSystem(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LagrangeDiracSystem::~LagrangeDiracSystem() = default;

std::shared_ptr<const LagrangeDiracSystem> LagrangeDiracSystem::Derive(const Scenario& scenario) {
  return DeriveImpl(scenario, true);
}

std::shared_ptr<const LagrangeDiracSystem> LagrangeDiracSystem::DeriveIfRegular(
    const Scenario& scenario) {
  return DeriveImpl(scenario, false);
}

std::shared_ptr<const LagrangeDiracSystem> LagrangeDiracSystem::DeriveImpl(
    const Scenario& scenario, bool degenerate_is_an_error) try {
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  const std::string& file = scenario.source_file;
  scenario::ScenarioSymbols symbols(scenario, {scenario::Velocities::kFibre});
  const GiNaC::symtab& table = symbols.table();
  s.t = symbols.t();
  s.algebroid = scenario.algebroid.present;
  s.coordinate_names = symbols.coordinate_names();
  s.q = symbols.q();
  for (const auto& name : s.coordinate_names) s.qd.emplace_back(name + "'", "\\dot{" + name + "}");
  // Fibre coordinates: the velocities on TQ, the algebroid's y^A otherwise.
  s.velocity_names = symbols.velocity_names();
  s.v = symbols.velocities();
  for (const auto& name : s.velocity_names) s.vd.emplace_back(name + "'", "\\dot{" + name + "}");
  s.parameter_names = symbols.parameter_names();
  s.p = symbols.parameters();
  for (const auto& c : scenario.constraints) {
    s.constraint_names.push_back(c.name);
    s.multiplier_names.push_back(c.multiplier);
    s.mu.emplace_back(c.multiplier);
  }
  const std::size_t n = s.n(), k = s.k(), m = s.m();

  // Anchor rho^i_A(q) and structure functions C^C_AB(q); TQ: identity and zero.
  EnterDerivationStage("reading the Lie algebroid data");
  {
    model::AlgebroidData algebroid = model::ReadAlgebroid(scenario, table, s.q, s.velocity_names);
    s.anchor = algebroid.anchor;
    s.structure = std::move(algebroid.structure);
  }

  s.lagrangian = symbols.Parse(scenario.lagrangian, scenario.lagrangian_where.line, "lagrangian");
  if (!symbols.definition_values().empty()) {
    // As written: each text with its definitions' stand-ins, not their expressions.
    auto by_name = [&](const std::string& text, std::size_t line, const std::string& key) {
      return symbolic::ParseExpression(text, symbols.parse_table(), {file, line, key});
    };
    std::size_t user = 0;
    for (const auto& d : scenario.definitions)
      for (const auto& [name, value] : symbols.definition_values())
        if (name == d.name) {
          s.definitions.emplace_back(name, by_name(d.value, d.where.line, name));
          ++user;
        }
    for (std::size_t k = user; k < symbols.definition_values().size(); ++k)
      s.definitions.push_back(symbols.definition_values()[k]);
    s.lagrangian_by_name =
        by_name(scenario.lagrangian, scenario.lagrangian_where.line, "lagrangian");
  }

  // Fibre derivatives, the Hessian W = D2D2L and the energy E_L = D2L.y - L (seed D Prop 3.4).
  // One differentiator per symbol, shared by every expression, so that shared subexpressions
  // are differentiated once.
  EnterDerivationStage("differentiating the Lagrangian");
  const auto dependence = std::make_shared<symbolic::SymbolDependence>();
  std::vector<symbolic::Differentiator> d_dq = symbolic::MakeDifferentiators(s.q, dependence);
  std::vector<symbolic::Differentiator> d_dv = symbolic::MakeDifferentiators(s.v, dependence);
  symbolic::Differentiator d_dt(s.t, dependence);
  std::vector<ex> dLdv(k), dLdq(n);
  s.hessian = GiNaC::matrix(k, k);
  s.energy = -s.lagrangian;
  for (std::size_t a = 0; a < k; ++a) {
    dLdv[a] = d_dv[a](s.lagrangian);
    s.energy += dLdv[a] * s.v[a];
  }
  for (std::size_t i = 0; i < n; ++i) dLdq[i] = d_dq[i](s.lagrangian);
  // Expanded for reading where that stays small; a large energy keeps its factored form (the
  // tape shares its subexpressions either way).
  if (symbolic::ExpandedTermsEstimate(s.energy) <= kMaxExpandedEnergyTerms)
    s.energy = s.energy.expand();
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b < k; ++b) s.hessian(a, b) = d_dv[b](dLdv[a]);

  EnterDerivationStage("deciding regularity (the rank of W)");
  s.regularity = symbolic::ComputeGenericRank(s.hessian, scenario::NominalValuesOf(scenario));
  if (!s.regularity.full()) {
    if (!degenerate_is_an_error) return nullptr;
    throw ModelError(file +
                     ": the Lagrangian is degenerate (det D2D2L = 0 identically): the "
                     "second-order condition q' = v does not follow from eq (29); this "
                     "integrator needs a regular Lagrangian");
  }

  // Constraint forms A^r_A(q) (omega^r_i on TQ) read off g^r = A^r_A y^A. The structural
  // verdicts (linear, homogeneous, nonzero) are made by substitution and by evaluation at seeded
  // points (symbolic::FirstNonVanishing), never by cancellation in GiNaC's term order: with
  // float coefficients that cancellation depends on the launch (docs/robustness.md).
  EnterDerivationStage("reading the constraint forms");
  s.omega = GiNaC::matrix(m, k);
  const auto nominal = scenario::NominalValuesOf(scenario);
  GiNaC::exmap no_velocity;
  for (std::size_t a = 0; a < k; ++a) no_velocity[s.v[a]] = 0;
  std::vector<std::uint32_t> v_ids;
  for (std::size_t a = 0; a < k; ++a) v_ids.push_back(dependence->IdOf(s.v[a]));
  for (std::size_t r = 0; r < m; ++r) {
    const auto& spec = scenario.constraints[r];
    const ex form = symbols.Parse(spec.form, spec.where.line, spec.name + ".form");
    ex rebuilt = 0;
    std::vector<ex> terms;  // omega^r_a v^a: the size the tests below compare with
    for (std::size_t a = 0; a < k; ++a) {
      s.omega(r, a) = d_dv[a](form);
      rebuilt += s.omega(r, a) * s.v[a];
      if (!s.omega(r, a).is_zero()) terms.push_back(s.omega(r, a) * s.v[a]);
    }
    // Linear: every d omega^r_a / dv^b vanishes (compared with omega^r's size per unit velocity).
    std::vector<symbolic::VanishingTest> second;
    std::vector<std::pair<std::size_t, std::size_t>> which;
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        // Structurally free of v^b: nothing to decide (the shared dependence memo walks each
        // node of the DAG once, where has() walks every path).
        if (!dependence->DependsOn(s.omega(r, a), v_ids[b])) continue;
        second.push_back({d_dv[b](s.omega(r, a)) * s.v[b], terms});
        which.emplace_back(a, b);
      }
    if (const std::size_t bad = symbolic::FirstNonVanishing(second, nominal); bad < second.size())
      throw ScenarioError(file, spec.where.line, spec.name,
                          "constraint form is not linear in the velocities (coefficient of " +
                              s.velocity_names[which[bad].first] + " depends on " +
                              s.velocity_names[which[bad].second] + ")");
    // Homogeneous: the velocity-free part form(q, v = 0) vanishes.
    const ex velocity_free = form.subs(no_velocity, GiNaC::subs_options::no_pattern);
    if (symbolic::FirstNonVanishing({{velocity_free, terms}}, nominal) == 0)
      throw ScenarioError(file, spec.where.line, spec.name,
                          "constraint form must be homogeneous linear in the velocities, "
                          "<omega(q), v>; it has a velocity-free part " +
                              Print(velocity_free, EquationFormat::kPlain).substr(0, 2000));
    std::vector<symbolic::VanishingTest> coefficients;
    for (std::size_t a = 0; a < k; ++a) coefficients.push_back({s.omega(r, a), {}});
    if (symbolic::FirstNonVanishing(coefficients, nominal) == coefficients.size())
      throw ScenarioError(file, spec.where.line, spec.name, "constraint form is zero");
    s.g.push_back(rebuilt);
  }
  s.autonomous = !s.lagrangian.has(s.t);
  for (const ex& g : s.g) s.autonomous = s.autonomous && !g.has(s.t);

  // Euler–Lagrange on the algebroid (seed L eq (17)) = eq (29) of seed D on TQ, with
  // d/dt dL/dy expanded by the chain rule:
  //   W y' + (d2L/dq^j dy^A) q'^j + d2L/dt dy^A - rho^i_A dL/dq^i + C^C_AB y^B dL/dy^C
  //   [TQ: - (d2L/dq^i dv^j)(q'^j - v^j)] - mu_r A^r_A = 0.
  EnterDerivationStage("assembling the Euler-Lagrange equations");
  for (std::size_t a = 0; a < k; ++a) {
    CheckDerivationCancelled();  // the structure term below is O(k^2) per row
    ex row = d_dt(dLdv[a]);
    for (std::size_t b = 0; b < k; ++b) row += s.hessian(a, b) * s.vd[b];
    for (std::size_t j = 0; j < n; ++j) row += d_dq[j](dLdv[a]) * s.qd[j];
    for (std::size_t i = 0; i < n; ++i) row -= s.anchor(i, a) * dLdq[i];
    for (std::size_t b = 0; b < k; ++b)
      for (std::size_t c = 0; c < k; ++c)
        if (!s.structure[c][a][b].is_zero()) row += s.structure[c][a][b] * s.v[b] * dLdv[c];
    if (!s.algebroid)
      for (std::size_t j = 0; j < n; ++j) row -= d_dq[a](dLdv[j]) * (s.qd[j] - s.v[j]);
    for (std::size_t r = 0; r < m; ++r) row -= s.mu[r] * s.omega(r, a);
    s.euler_lagrange.push_back(row);
  }
  for (std::size_t i = 0; i < n; ++i) {
    ex rate = 0;
    for (std::size_t a = 0; a < k; ++a) rate += s.anchor(i, a) * s.v[a];
    s.second_order.push_back(s.qd[i] - rate);
  }
  // Index-1 constraint rows: d/dt g^r along (q', y'); the residual uses it on q' = rho y (so the
  // row couples to y' only) and adds the Baumgarte term alpha g.
  for (std::size_t r = 0; r < m; ++r) {
    ex rate = d_dt(s.g[r]);
    for (std::size_t i = 0; i < n; ++i) rate += d_dq[i](s.g[r]) * s.qd[i];
    for (std::size_t a = 0; a < k; ++a) rate += d_dv[a](s.g[r]) * s.vd[a];
    s.constraint_rate.push_back(rate);
  }

  // Compile: residual F = (F_q, F_y, F_mu) and its exact Jacobians.
  std::vector<ex> residual;
  residual.insert(residual.end(), s.second_order.begin(), s.second_order.end());
  residual.insert(residual.end(), s.euler_lagrange.begin(), s.euler_lagrange.end());
  const auto on_shell = s.SecondOrderSubstitution();
  for (std::size_t r = 0; r < m; ++r)
    residual.push_back(s.constraint_rate[r].subs(on_shell, GiNaC::subs_options::no_pattern) +
                       s.alpha * s.g[r]);

  std::vector<symbol> y, yp;
  for (auto* block : {&s.q, &s.v, &s.mu}) y.insert(y.end(), block->begin(), block->end());
  yp.insert(yp.end(), s.qd.begin(), s.qd.end());
  yp.insert(yp.end(), s.vd.begin(), s.vd.end());
  yp.insert(yp.end(), s.mu.size(), symbol("unused_mu_dot"));
  const auto inputs = s.Inputs();
  CompiledDae& dae = s.dae;
  dae.layout.n = n;
  dae.layout.k = k;
  dae.layout.m = m;
  dae.layout.num_parameters = s.p.size();
  EnterDerivationStage("compiling the residual");
  // One canonical-form memo for every tape below (the same inputs): shared subexpressions
  // (dL/dv, the Hessian, the forms) are normalised once.
  symbolic::CompileMemo compile_memo;
  dae.residual = symbolic::CompileExpressions(residual, inputs, &compile_memo);
  EnterDerivationStage("compiling the Jacobians");
  // mu' never appears in F: its Jacobian column is structurally zero (mu is algebraic).
  if (dae.residual.instruction_count() * y.size() <= kMaxSymbolicJacobianWork) {
    dae.jacobian_y = CompileJacobian(residual, y, inputs);
    dae.jacobian_yp = CompileJacobian(residual, yp, inputs);
  } else {
    // Large models: the Jacobians by forward-mode differentiation of the residual's tape (the
    // symbolic Jacobian would grow like the residual times the number of unknowns).
    std::vector<std::size_t> wrt_y, wrt_yp;  // input positions: t, q, v, mu, q', v', ...
    for (std::size_t i = 0; i < n + k + m; ++i) wrt_y.push_back(1 + i);
    for (std::size_t i = 0; i < n + k; ++i) wrt_yp.push_back(1 + n + k + m + i);
    dae.jacobian_y = TangentJacobian(dae.residual, wrt_y);
    dae.jacobian_yp = TangentJacobian(dae.residual, wrt_yp);
    dae.jacobian_yp.num_cols = n + k + m;
  }
  EnterDerivationStage("compiling the energy, constraints and outputs");
  dae.energy = symbolic::CompileExpressions({s.energy}, inputs, &compile_memo);
  dae.constraints = symbolic::CompileExpressions(s.g, inputs, &compile_memo);
  dae.constraint_matrix = symbolic::CompileExpressions(Flatten(s.omega), inputs, &compile_memo);
  dae.mass_matrix = symbolic::CompileExpressions(Flatten(s.hessian), inputs, &compile_memo);
  dae.anchor = symbolic::CompileExpressions(Flatten(s.anchor), inputs, &compile_memo);
  for (const auto& text : scenario.reconstruction.body_velocity)
    s.body_velocity.push_back(
        symbols.Parse(text, scenario.reconstruction.where.line, "body_velocity"));
  dae.body_velocity = symbolic::CompileExpressions(s.body_velocity, inputs, &compile_memo);
  dae.fibre_momentum = symbolic::CompileExpressions(dLdv, inputs, &compile_memo);
  // Holonomic constraints f(q) = 0: their differentials are among the forms above (BuildModel
  // appends them); the runs keep f itself at the tolerance by projection.
  std::vector<ex> holonomic, holonomic_jacobian;
  for (const auto& h : scenario.holonomic) {
    s.holonomic_names.push_back(h.name);
    holonomic.push_back(symbols.Parse(h.equation, h.where.line, h.name + ".equation"));
    for (std::size_t i = 0; i < n; ++i) holonomic_jacobian.push_back(d_dq[i](holonomic.back()));
  }
  dae.holonomic = symbolic::CompileExpressions(holonomic, inputs, &compile_memo);
  dae.holonomic_jacobian = symbolic::CompileExpressions(holonomic_jacobian, inputs, &compile_memo);
  if (!s.algebroid) {  // (dL/dq, dL/dv): method variational (lagrange_dirac/variational_step.*)
    std::vector<ex> gradient(dLdq.begin(), dLdq.end());
    gradient.insert(gradient.end(), dLdv.begin(), dLdv.end());
    dae.lagrangian_gradient = symbolic::CompileExpressions(gradient, inputs, &compile_memo);
  }
  s.reconstruction = scenario.reconstruction;
  s.columns = Columns(s);
  s.initial_values = InitialValues(s);
  s.gauge_offered = OffersGaugeTwoForm(s);
  if (s.gauge_offered) s.scenario = scenario;
  s.native = std::make_unique<model::NativeTapeSet<CompiledDae>>(s.dae, &ForEachTape);

  auto system = std::shared_ptr<LagrangeDiracSystem>(new LagrangeDiracSystem(std::move(impl)));
  system->has_boundary_value_problem_ = scenario.boundary_value.present();
  return system;
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the Lagrange-Dirac equations");
}

std::size_t LagrangeDiracSystem::num_coordinates() const { return impl_->n(); }
std::size_t LagrangeDiracSystem::num_constraints() const { return impl_->m(); }
const std::vector<std::string>& LagrangeDiracSystem::coordinate_names() const {
  return impl_->coordinate_names;
}
const std::vector<std::string>& LagrangeDiracSystem::velocity_names() const {
  return impl_->velocity_names;
}
const std::vector<std::string>& LagrangeDiracSystem::multiplier_names() const {
  return impl_->multiplier_names;
}
std::vector<std::string> LagrangeDiracSystem::constraint_names() const {
  return impl_->constraint_names;
}
const std::vector<std::string>& LagrangeDiracSystem::parameter_names() const {
  return impl_->parameter_names;
}
const CompiledDae& CompiledDaeOf(const LagrangeDiracSystem& system) { return system.impl().dae; }

const CompiledDae& TapesOf(const LagrangeDiracSystem& system, TapeMode mode,
                           std::string* description) {
  std::string text;
  const CompiledDae& chosen = system.impl().native->Select(mode, text);
  if (description) *description = std::move(text);
  return chosen;
}

void ForEachTape(CompiledDae& dae, const std::function<void(CompiledFunction&)>& f) {
  for (CompiledFunction* tape :
       {&dae.residual, &dae.jacobian_y.values, &dae.jacobian_yp.values, &dae.energy,
        &dae.constraints, &dae.constraint_matrix, &dae.mass_matrix, &dae.anchor, &dae.body_velocity,
        &dae.fibre_momentum, &dae.holonomic, &dae.holonomic_jacobian})
    f(*tape);
}

std::string LagrangeDiracSystem::formulation() const {
  if (impl_->algebroid)
    return impl_->m() ? "Euler-Poincare-Suslov / Lagrange-Dirac equations on a Lie algebroid, "
                        "regular Lagrangian (index 1: ODE with the multipliers eliminated)"
                      : "Euler-Lagrange equations on a Lie algebroid (seed L eq (17)), regular "
                        "Lagrangian (ODE)";
  return "Lagrange-d'Alembert-Dirac equations, regular Lagrangian (index 1: ODE with the "
         "multipliers eliminated)";
}

Trajectory LagrangeDiracSystem::Simulate(const SimulationInput& input,
                                         const SimulationProgress& progress,
                                         SimulationReport* report) const {
  std::string tape;
  const CompiledDae& dae = TapesOf(*this, input.spec.tape, &tape);
  SimulationReport local;
  SimulationReport* out = report != nullptr ? report : &local;
  Trajectory trajectory = lagrange_dirac::Simulate(dae, impl_->reconstruction, TrajectoryColumns(),
                                                   input, progress, impl_->autonomous, out);
  out->tape = std::move(tape);
  return trajectory;
}

const std::vector<ColumnInfo>& LagrangeDiracSystem::columns() const { return impl_->columns; }

const std::vector<InitialValueInfo>& LagrangeDiracSystem::initial_values() const {
  return impl_->initial_values;
}

std::vector<MethodVerdict> LagrangeDiracSystem::integration_methods(
    const std::vector<double>& parameters) const {
  return lagrange_dirac::MethodVerdictsOf(CompiledDaeOf(*this), parameters, impl_->reconstruction);
}

bool LagrangeDiracSystem::offers_gauge_two_form() const { return impl_->gauge_offered; }

const GaugeTwoForm* LagrangeDiracSystem::gauge_two_form() const {
  if (!impl_->gauge_offered) return nullptr;
  std::call_once(impl_->gauge_once, [this] {
    try {
      impl_->gauge = lagrange_dirac::DeriveGaugeTwoForm(impl_->scenario);
    } catch (const ModelError&) {
      impl_->gauge = nullptr;  // too large to solve symbolically: not offered after all
    }
  });
  return impl_->gauge.get();
}

std::vector<double> LagrangeDiracSystem::ConstraintCovectors(
    double t, const std::vector<double>& q, const std::vector<double>& parameters) const {
  const InputLayout& L = impl_->dae.layout;
  if (q.size() != L.n || parameters.size() != L.num_parameters)
    throw ModelError("ConstraintCovectors: expected " + std::to_string(L.n) + " coordinates and " +
                     std::to_string(L.num_parameters) + " parameters");
  std::vector<double> in(L.size(), 0.0);
  in[L.t()] = t;
  std::copy(q.begin(), q.end(), in.begin() + L.q());
  std::copy(parameters.begin(), parameters.end(), in.begin() + L.parameters());
  return impl_->dae.constraint_matrix.Evaluate(in);
}

const ReconstructionSpec& LagrangeDiracSystem::reconstruction() const {
  return impl_->reconstruction;
}

std::vector<DerivedEquation> LagrangeDiracSystem::Equations(EquationFormat format) const {
  // A model with definitions (bodies): an expression too large to print is named by its size,
  // counted on the tree before printing (printing it whole took a minute on the bicycle).
  const auto print = [&](const ex& e, EquationFormat f) -> std::string {
    if (!impl_->definitions.empty() &&
        symbolic::NodeCount(e, kMaxPrintedNodes + 1) > kMaxPrintedNodes)
      return "omitted: more than " + std::to_string(kMaxPrintedNodes) +
             " expression nodes (the run evaluates it compiled)";
    return Print(e, f);
  };
  const Impl& s = *impl_;
  std::vector<DerivedEquation> out;
  if (!s.definitions.empty()) {
    // A model with definitions (bodies) prints them and L by name; its derived expressions
    // are large trees: one longer than kMaxPrintedCharacters is named with its size instead.
    for (const auto& [name, value] : s.definitions)
      out.push_back({"definition " + name, print(value, format)});
    out.push_back({"L", print(s.lagrangian_by_name, format)});
  } else {
    out.push_back({"L", print(s.lagrangian, format)});
  }
  out.push_back({"E_L", print(s.energy, format)});
  out.push_back({"W = D2D2L", print(s.hessian, format)});
  for (std::size_t r = 0; r < s.m(); ++r) {
    GiNaC::matrix row(1, s.k());
    for (std::size_t i = 0; i < s.k(); ++i) row(0, i) = s.omega(r, i);
    out.push_back({"omega[" + s.constraint_names[r] + "]", print(row, format)});
  }
  for (std::size_t i = 0; i < s.n(); ++i)
    out.push_back(
        {"second_order[" + s.coordinate_names[i] + "]", print(s.second_order[i], format)});
  for (std::size_t a = 0; a < s.k(); ++a)
    out.push_back({"EL[" + (s.algebroid ? s.velocity_names[a] : s.coordinate_names[a]) + "]",
                   print(s.euler_lagrange[a], format)});
  for (std::size_t r = 0; r < s.m(); ++r) {
    out.push_back({"constraint[" + s.constraint_names[r] + "]", print(s.g[r], format)});
    out.push_back(
        {"d/dt constraint[" + s.constraint_names[r] + "]", print(s.constraint_rate[r], format)});
  }
  // Solved form on q' = v: v' and mu from the linear system [W -omega^T; omega 0], symbolically
  // only while that is cheap (lsolve normalises rational functions: its cost grows faster than
  // exponentially with the size); the integrator solves the same system numerically per step.
  const std::size_t unknowns = s.k() + s.m();
  std::size_t nodes = 0;
  for (std::size_t a = 0; a < s.k() && nodes <= kMaxSolvedFormNodes; ++a)
    nodes += symbolic::NodeCount(s.euler_lagrange[a], kMaxSolvedFormNodes + 1);
  if (unknowns > kMaxSolvedFormUnknowns || nodes > kMaxSolvedFormNodes) {
    out.push_back(
        {"solved", "omitted: " + std::to_string(unknowns) +
                       " unknowns (accelerations and multipliers) in Euler-Lagrange rows of " +
                       (nodes > kMaxSolvedFormNodes ? "more than " : "") +
                       std::to_string(std::min(nodes, kMaxSolvedFormNodes)) +
                       " expression nodes; solved symbolically up to " +
                       std::to_string(kMaxSolvedFormUnknowns) + " unknowns and " +
                       std::to_string(kMaxSolvedFormNodes) +
                       " nodes (the run solves them numerically at every step)"});
  } else {
    const auto on_shell = s.SecondOrderSubstitution();
    GiNaC::lst equations, variables;
    for (std::size_t i = 0; i < s.k(); ++i) {
      equations.append(s.euler_lagrange[i].subs(on_shell, GiNaC::subs_options::no_pattern) == 0);
      variables.append(s.vd[i]);
    }
    for (std::size_t r = 0; r < s.m(); ++r) {
      equations.append(s.constraint_rate[r].subs(on_shell, GiNaC::subs_options::no_pattern) == 0);
      variables.append(s.mu[r]);
    }
    const ex solution = GiNaC::lsolve(equations, variables);
    for (std::size_t k = 0; k < solution.nops(); ++k) {
      const ex relation = solution.op(k);
      std::string label = "solved[" + print(relation.lhs(), EquationFormat::kPlain) + "]";
      out.push_back({label, print(relation.lhs() - GiNaC::normal(relation.rhs()), format)});
    }
  }
  if (!s.definitions.empty())
    for (auto& eq : out)
      if (eq.text.size() > kMaxPrintedCharacters)
        eq.text = "omitted: " + std::to_string(eq.text.size()) +
                  " characters when printed (one printed expression of a model with definitions "
                  "is at most " +
                  std::to_string(kMaxPrintedCharacters) +
                  "; the run evaluates it compiled, `dirac run` writes its values)";
  return out;
}

}  // namespace dirac
