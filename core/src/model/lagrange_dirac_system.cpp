#include "dirac/lagrange_dirac_system.hpp"

#include <ginac/ginac.h>

#include <sstream>

#include "dirac/error.hpp"
#include "dirac/simulation.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

using GiNaC::ex;
using GiNaC::symbol;

struct LagrangeDiracSystem::Impl {
  std::vector<std::string> coordinate_names, velocity_names, multiplier_names, constraint_names,
      parameter_names;
  symbol t{"t"}, alpha{"alpha", "\\alpha"};
  std::vector<symbol> q, v, mu, qd, vd, p;
  ex lagrangian, energy;
  GiNaC::matrix hessian, omega;                                      // W (n x n), omega (m x n)
  std::vector<ex> g, second_order, euler_lagrange, constraint_rate;  // constraint_rate: dg/dt
  CompiledDae dae;

  std::size_t n() const { return q.size(); }
  std::size_t m() const { return mu.size(); }

  std::vector<symbol> Inputs() const {
    std::vector<symbol> in{t};
    for (auto* block : {&q, &v, &mu, &qd, &vd, &p})
      in.insert(in.end(), block->begin(), block->end());
    in.push_back(alpha);
    return in;
  }

  // Substitution q' -> v: on the second-order manifold the rows simplify to the textbook form.
  GiNaC::exmap SecondOrderSubstitution() const {
    GiNaC::exmap map;
    for (std::size_t i = 0; i < n(); ++i) map[qd[i]] = v[i];
    return map;
  }
};

namespace {

std::string Print(const ex& e, EquationFormat format) {
  std::ostringstream out;
  if (format == EquationFormat::kLatex) out << GiNaC::latex;
  out << e;
  return out.str();
}

CompiledSparseMatrix CompileJacobian(const std::vector<ex>& rows, const std::vector<symbol>& wrt,
                                     const std::vector<symbol>& inputs) {
  CompiledSparseMatrix jac;
  jac.num_rows = rows.size();
  jac.num_cols = wrt.size();
  std::vector<ex> values;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < wrt.size(); ++j) {
      ex d = rows[i].diff(wrt[j]);
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

}  // namespace

LagrangeDiracSystem::LagrangeDiracSystem(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LagrangeDiracSystem::~LagrangeDiracSystem() = default;

std::shared_ptr<const LagrangeDiracSystem> LagrangeDiracSystem::Derive(const Scenario& scenario) {
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  const std::string& file = scenario.source_file;
  GiNaC::symtab table;
  table["t"] = s.t;
  for (const auto& c : scenario.coordinates) {
    s.coordinate_names.push_back(c.name);
    s.velocity_names.push_back(c.velocity);
    s.q.emplace_back(c.name);
    s.v.emplace_back(c.velocity);
    s.qd.emplace_back(c.name + "'", "\\dot{" + c.name + "}");
    s.vd.emplace_back(c.velocity + "'", "\\dot{" + c.velocity + "}");
    table[c.name] = s.q.back();
    table[c.velocity] = s.v.back();
  }
  for (const auto& par : scenario.parameters) {
    s.parameter_names.push_back(par.name);
    s.p.emplace_back(par.name);
    table[par.name] = s.p.back();
  }
  for (const auto& c : scenario.constraints) {
    s.constraint_names.push_back(c.name);
    s.multiplier_names.push_back(c.multiplier);
    s.mu.emplace_back(c.multiplier);
  }
  const std::size_t n = s.n(), m = s.m();

  s.lagrangian = symbolic::ParseExpression(scenario.lagrangian, table,
                                           {file, scenario.lagrangian_where.line, "lagrangian"});

  // Fibre derivatives, the Hessian W = D2D2L and the energy E_L = D2L.v - L (seed D Prop 3.4).
  std::vector<ex> dLdv(n), dLdq(n);
  s.hessian = GiNaC::matrix(n, n);
  s.energy = -s.lagrangian;
  for (std::size_t i = 0; i < n; ++i) {
    dLdv[i] = s.lagrangian.diff(s.v[i]);
    dLdq[i] = s.lagrangian.diff(s.q[i]);
    s.energy += dLdv[i] * s.v[i];
  }
  s.energy = s.energy.expand();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) s.hessian(i, j) = dLdv[i].diff(s.v[j]);

  const ex det = GiNaC::normal(s.hessian.determinant());
  if (det.is_zero()) {
    throw ModelError(file +
                     ": the Lagrangian is degenerate (det D2D2L = 0 identically): the "
                     "second-order condition q' = v does not follow from eq (29); this "
                     "integrator needs a regular Lagrangian");
  }

  // Constraint one-forms omega^r_i(q) read off the velocity-linear forms g^r = omega^r_i v^i.
  s.omega = GiNaC::matrix(m, n);
  for (std::size_t r = 0; r < m; ++r) {
    const auto& spec = scenario.constraints[r];
    const ex form =
        symbolic::ParseExpression(spec.form, table, {file, spec.where.line, spec.name + ".form"});
    ex rebuilt = 0;
    for (std::size_t i = 0; i < n; ++i) {
      s.omega(r, i) = form.diff(s.v[i]);
      for (std::size_t k = 0; k < n; ++k) {
        if (!GiNaC::normal(s.omega(r, i).diff(s.v[k])).is_zero())
          throw ScenarioError(file, spec.where.line, spec.name,
                              "constraint form is not linear in the velocities (coefficient of " +
                                  s.velocity_names[i] + " depends on " + s.velocity_names[k] + ")");
      }
      rebuilt += s.omega(r, i) * s.v[i];
    }
    if (!GiNaC::normal(form - rebuilt).is_zero())
      throw ScenarioError(file, spec.where.line, spec.name,
                          "constraint form must be homogeneous linear in the velocities, "
                          "<omega(q), v>; it has a velocity-free part " +
                              Print(GiNaC::normal(form - rebuilt), EquationFormat::kPlain));
    bool all_zero = true;
    for (std::size_t i = 0; i < n; ++i) all_zero &= s.omega(r, i).is_zero();
    if (all_zero) throw ScenarioError(file, spec.where.line, spec.name, "constraint form is zero");
    s.g.push_back(rebuilt);
  }

  // Eq (29) of seed D, first row, with d/dt D2L expanded by the chain rule:
  //   W v' + (d2L/dq^j dv^i) q'^j + d2L/dt dv^i - dL/dq^i - (d2L/dq^i dv^j)(q'^j - v^j)
  //   - mu_r omega^r_i = 0.
  for (std::size_t i = 0; i < n; ++i) {
    ex row = dLdv[i].diff(s.t) - dLdq[i];
    for (std::size_t j = 0; j < n; ++j) {
      row += s.hessian(i, j) * s.vd[j] + dLdv[i].diff(s.q[j]) * s.qd[j] -
             dLdv[j].diff(s.q[i]) * (s.qd[j] - s.v[j]);
    }
    for (std::size_t r = 0; r < m; ++r) row -= s.mu[r] * s.omega(r, i);
    s.euler_lagrange.push_back(row);
    s.second_order.push_back(s.qd[i] - s.v[i]);
  }
  // Index-1 constraint rows: d/dt g^r along (q', v'); the residual uses it on q' = v (so the row
  // couples to v' only) and adds the Baumgarte term alpha g.
  for (std::size_t r = 0; r < m; ++r) {
    ex rate = s.g[r].diff(s.t);
    for (std::size_t k = 0; k < n; ++k)
      rate += s.g[r].diff(s.q[k]) * s.qd[k] + s.g[r].diff(s.v[k]) * s.vd[k];
    s.constraint_rate.push_back(rate);
  }

  // Compile: residual F = (F_q, F_v, F_mu) and its exact Jacobians.
  std::vector<ex> residual;
  residual.insert(residual.end(), s.second_order.begin(), s.second_order.end());
  residual.insert(residual.end(), s.euler_lagrange.begin(), s.euler_lagrange.end());
  const auto on_shell = s.SecondOrderSubstitution();
  for (std::size_t r = 0; r < m; ++r)
    residual.push_back(s.constraint_rate[r].subs(on_shell) + s.alpha * s.g[r]);

  std::vector<symbol> y, yp;
  for (auto* block : {&s.q, &s.v, &s.mu}) y.insert(y.end(), block->begin(), block->end());
  yp.insert(yp.end(), s.qd.begin(), s.qd.end());
  yp.insert(yp.end(), s.vd.begin(), s.vd.end());
  yp.insert(yp.end(), s.mu.size(), symbol("unused_mu_dot"));
  const auto inputs = s.Inputs();
  CompiledDae& dae = s.dae;
  dae.layout.n = n;
  dae.layout.m = m;
  dae.layout.num_parameters = s.p.size();
  dae.residual = symbolic::CompileExpressions(residual, inputs);
  dae.jacobian_y = CompileJacobian(residual, y, inputs);
  // mu' never appears in F: its Jacobian column is structurally zero (mu is algebraic).
  dae.jacobian_yp = CompileJacobian(residual, yp, inputs);
  dae.energy = symbolic::CompileExpressions({s.energy}, inputs);
  dae.constraints = symbolic::CompileExpressions(s.g, inputs);
  dae.constraint_matrix = symbolic::CompileExpressions(Flatten(s.omega), inputs);
  dae.mass_matrix = symbolic::CompileExpressions(Flatten(s.hessian), inputs);

  return std::shared_ptr<const LagrangeDiracSystem>(new LagrangeDiracSystem(std::move(impl)));
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
const CompiledDae& LagrangeDiracSystem::dae() const { return impl_->dae; }

std::string LagrangeDiracSystem::formulation() const {
  return "Lagrange-d'Alembert-Dirac equations, index-1 DAE (regular Lagrangian)";
}

Trajectory LagrangeDiracSystem::Simulate(const SimulationInput& input,
                                         const SimulationProgress& progress,
                                         SimulationReport* report) const {
  return dirac::Simulate(*this, input, progress, report);
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

std::vector<std::string> LagrangeDiracSystem::TrajectoryColumns() const {
  std::vector<std::string> columns{"t"};
  const Impl& s = *impl_;
  columns.insert(columns.end(), s.coordinate_names.begin(), s.coordinate_names.end());
  columns.insert(columns.end(), s.velocity_names.begin(), s.velocity_names.end());
  columns.insert(columns.end(), s.multiplier_names.begin(), s.multiplier_names.end());
  columns.push_back("E");
  for (const auto& name : s.constraint_names) columns.push_back("residual_" + name);
  return columns;
}

std::vector<DerivedEquation> LagrangeDiracSystem::Equations(EquationFormat format) const {
  const Impl& s = *impl_;
  std::vector<DerivedEquation> out;
  out.push_back({"L", Print(s.lagrangian, format)});
  out.push_back({"E_L", Print(s.energy, format)});
  out.push_back({"W = D2D2L", Print(s.hessian, format)});
  for (std::size_t r = 0; r < s.m(); ++r) {
    GiNaC::matrix row(1, s.n());
    for (std::size_t i = 0; i < s.n(); ++i) row(0, i) = s.omega(r, i);
    out.push_back({"omega[" + s.constraint_names[r] + "]", Print(row, format)});
  }
  for (std::size_t i = 0; i < s.n(); ++i)
    out.push_back(
        {"second_order[" + s.coordinate_names[i] + "]", Print(s.second_order[i], format)});
  for (std::size_t i = 0; i < s.n(); ++i)
    out.push_back({"EL[" + s.coordinate_names[i] + "]", Print(s.euler_lagrange[i], format)});
  for (std::size_t r = 0; r < s.m(); ++r) {
    out.push_back({"constraint[" + s.constraint_names[r] + "]", Print(s.g[r], format)});
    out.push_back(
        {"d/dt constraint[" + s.constraint_names[r] + "]", Print(s.constraint_rate[r], format)});
  }
  // Solved form on q' = v: v' and mu from the linear system [W -omega^T; omega 0].
  const std::size_t unknowns = s.n() + s.m();
  if (unknowns <= 8) {
    const auto on_shell = s.SecondOrderSubstitution();
    GiNaC::lst equations, variables;
    for (std::size_t i = 0; i < s.n(); ++i) {
      equations.append(s.euler_lagrange[i].subs(on_shell) == 0);
      variables.append(s.vd[i]);
    }
    for (std::size_t r = 0; r < s.m(); ++r) {
      equations.append(s.constraint_rate[r].subs(on_shell) == 0);
      variables.append(s.mu[r]);
    }
    const ex solution = GiNaC::lsolve(equations, variables);
    for (std::size_t k = 0; k < solution.nops(); ++k) {
      const ex relation = solution.op(k);
      std::string label = "solved[" + Print(relation.lhs(), EquationFormat::kPlain) + "]";
      out.push_back({label, Print(relation.lhs() - GiNaC::normal(relation.rhs()), format)});
    }
  }
  return out;
}

}  // namespace dirac
