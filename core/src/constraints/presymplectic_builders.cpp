#include <algorithm>
#include <set>

#include "constraints/presymplectic_data.hpp"
#include "constraints/symbolic_linear_algebra.hpp"
#include "dirac/error.hpp"
#include "model/algebroid_data.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::constraints {

using GiNaC::ex;
using GiNaC::matrix;
using GiNaC::symbol;

namespace {

struct CommonSymbols {
  std::vector<symbol> q, v, p;
};

// Copies the scenario's symbol table (t, coordinates, the chosen velocities, momenta when asked,
// parameters) into `data`.
scenario::ScenarioSymbols DeclareInto(const Scenario& s, PresymplecticData& data,
                                      scenario::SymbolOptions options) {
  scenario::ScenarioSymbols symbols(s, options);
  data.t = symbols.t();
  data.table = symbols.table();
  data.parse_table = symbols.parse_table();
  data.definitions = symbols.definitions();
  data.parameters = symbols.parameters();
  data.parameter_names = symbols.parameter_names();
  data.num_configuration = s.coordinates.size();
  return symbols;
}

// Coordinates, velocities v^i of TQ (and momenta when asked) and parameters.
CommonSymbols Declare(const Scenario& s, PresymplecticData& data, bool with_momenta) {
  const auto symbols = DeclareInto(s, data, {scenario::Velocities::kTangent, with_momenta});
  return {symbols.q(), symbols.velocities(), symbols.momenta()};
}

// The scenario's Lagrangian in the symbols of `data`.
ex ParseLagrangian(const Scenario& s, const PresymplecticData& data) {
  return symbolic::ParseExpression(s.lagrangian, data.parse_table,
                                   {s.source_file, s.lagrangian_where.line, "lagrangian"})
      .subs(data.definitions, GiNaC::subs_options::no_pattern);
}

// Appends one coordinate of M with its name, kind ('q', 'v', 'p' or 'n') and initial value.
void AddCoordinate(PresymplecticData& data, const symbol& z, const std::string& name, char kind,
                   unsigned index, double initial, ColumnKind role = ColumnKind::kCoordinate) {
  if (kind != 'n')
    role = kind == 'q'   ? ColumnKind::kCoordinate
           : kind == 'v' ? ColumnKind::kVelocity
                         : ColumnKind::kMomentum;
  data.z_role.push_back(role);
  data.z.push_back(z);
  data.z_names.push_back(name);
  data.is_configuration.push_back(kind == 'q');
  data.initial.push_back(initial);
  data.z_kind.push_back(kind);
  data.z_coordinate.push_back(index);
}

void AddCoordinate(PresymplecticData& data, const symbol& z, const Coordinate& c, char kind,
                   unsigned index) {
  AddCoordinate(data, z,
                kind == 'q'   ? c.name
                : kind == 'v' ? c.velocity
                              : c.momentum,
                kind, index,
                kind == 'q'   ? c.initial
                : kind == 'v' ? c.initial_velocity
                              : c.initial_momentum);
}

// Base coordinates q and fibre coordinates y of the scenario's algebroid (TQ: y = v), declared
// in data.table, with the algebroid's anchor and structure functions.
struct AlgebroidSymbols {
  std::vector<symbol> q, y;
  std::vector<std::string> y_names;
  std::vector<double> y_initial;
  model::AlgebroidData algebroid;
};

AlgebroidSymbols DeclareAlgebroid(const Scenario& s, PresymplecticData& data) {
  const auto symbols = DeclareInto(s, data, {scenario::Velocities::kFibre});
  AlgebroidSymbols sym;
  sym.q = symbols.q();
  sym.y = symbols.velocities();
  sym.y_names = symbols.velocity_names();
  sym.y_initial = symbols.velocity_initial();
  sym.algebroid = model::ReadAlgebroid(s, data.table, sym.q, sym.y_names);
  return sym;
}

// z^A = y'^A, the accelerations of the fibre coordinates.
std::vector<symbol> AccelerationSymbols(const AlgebroidSymbols& sym) {
  std::vector<symbol> z;
  for (const auto& name : sym.y_names) z.emplace_back("a_" + name, "\\dot{" + name + "}");
  return z;
}

// The Euler–Lagrange operator on the algebroid (seed L eq (38)) with z = y':
// EL_A = d/dt dL/dy^A - rho^i_A dL/dq^i + C^C_AB y^B dL/dy^C, d/dt expanded along q' = rho y.
std::vector<ex> AlgebroidEulerLagrange(const AlgebroidSymbols& sym, const ex& L, const symbol& t,
                                       const std::vector<symbol>& z) {
  const unsigned n = static_cast<unsigned>(sym.q.size()), k = static_cast<unsigned>(sym.y.size());
  const auto& rho = sym.algebroid.anchor;
  const auto& C = sym.algebroid.structure;
  std::vector<ex> el(k);
  for (unsigned a = 0; a < k; ++a) {
    const ex dLdy = L.diff(sym.y[a]);
    ex row = dLdy.diff(t);
    for (unsigned b = 0; b < k; ++b) row += dLdy.diff(sym.y[b]) * z[b];
    for (unsigned i = 0; i < n; ++i) {
      ex rate = 0;
      for (unsigned b = 0; b < k; ++b) rate += rho(i, b) * sym.y[b];
      row += dLdy.diff(sym.q[i]) * rate - rho(i, a) * L.diff(sym.q[i]);
    }
    for (unsigned b = 0; b < k; ++b)
      for (unsigned c = 0; c < k; ++c)
        if (!C[c][a][b].is_zero()) row += C[c][a][b] * sym.y[b] * L.diff(sym.y[c]);
    el[a] = row;
  }
  return el;
}

// Reads the velocity-linear constraint forms into an m x n matrix omega^r_i(q).
matrix ConstraintForms(const Scenario& s, const PresymplecticData& data,
                       const std::vector<symbol>& v) {
  const unsigned m = static_cast<unsigned>(s.constraints.size());
  const unsigned n = static_cast<unsigned>(v.size());
  matrix forms(m, n);
  for (unsigned r = 0; r < m; ++r) {
    const auto& spec = s.constraints[r];
    const ex form = symbolic::ParseExpression(spec.form, data.parse_table,
                                              {s.source_file, spec.where.line, spec.name + ".form"})
                        .subs(data.definitions, GiNaC::subs_options::no_pattern);
    ex rebuilt = 0;
    for (unsigned i = 0; i < n; ++i) {
      forms(r, i) = Simplify(form.diff(v[i]));
      if (!IsFreeOf(forms(r, i), v))
        throw ScenarioError(s.source_file, spec.where.line, spec.name,
                            "constraint form is not linear in the velocities");
      rebuilt += forms(r, i) * v[i];
    }
    if (!Simplify(form - rebuilt).is_zero())
      throw ScenarioError(s.source_file, spec.where.line, spec.name,
                          "constraint form must be homogeneous linear in the velocities");
  }
  return forms;
}

// Coordinates (q, y, p, pbar, z): the accelerations last, so the primary constraint
// pbar = dL/dz is solved for them and the costates remain free initial data (initial guesses
// from the scenario's second_order.initial, 0 by default).
void AddPontryaginCoordinates(PresymplecticData& data, const Scenario& s,
                              const AlgebroidSymbols& sym, const std::vector<symbol>& p,
                              const std::vector<symbol>& pbar,
                              const std::vector<symbol>& accelerations) {
  const auto& guess = s.second_order;
  for (unsigned i = 0; i < sym.q.size(); ++i)
    AddCoordinate(data, sym.q[i], s.coordinates[i], 'q', i);
  for (unsigned a = 0; a < sym.y.size(); ++a)
    AddCoordinate(data, sym.y[a], sym.y_names[a], 'v', a, sym.y_initial[a]);
  for (const auto* costates : {&p, &pbar})
    for (unsigned a = 0; a < costates->size(); ++a) {
      const std::string name = (*costates)[a].get_name();
      AddCoordinate(data, (*costates)[a], name, 'n', a, guess.InitialValue(name),
                    ColumnKind::kCostate);
    }
  for (unsigned j = 0; j < accelerations.size(); ++j) {
    const std::string name = accelerations[j].get_name();
    AddCoordinate(data, accelerations[j], name, 'n', j, guess.InitialValue(name),
                  ColumnKind::kAcceleration);
  }
}

// The symplectic structure of the Pontryagin bundle W0 = E^(2) x_E (T^E E)* on the coordinates
// (q, y, p, pbar, z^j) with `accelerations` coordinates z^j (j < k, the last ones), sections
// [e(1,1), e(2,1), e(1,2), e(2,2) (k each), e_check (one per acceleration)]:
// Omega_0 = e^(1,1) ^ e_(1,2) + e^(2,1) ^ e_(2,2) + 1/2 C^C_AB p_C e^(1,1) ^ e^(1,1).
void AddPontryaginStructure(PresymplecticData& data, const AlgebroidSymbols& sym,
                            const std::vector<symbol>& p, unsigned accelerations) {
  const unsigned n = static_cast<unsigned>(sym.q.size()), k = static_cast<unsigned>(sym.y.size());
  const auto& rho = sym.algebroid.anchor;
  const auto& C = sym.algebroid.structure;
  const unsigned N = n + 3 * k + accelerations, K = 4 * k + accelerations;
  data.rho = matrix(N, K);
  for (unsigned a = 0; a < k; ++a) {
    for (unsigned i = 0; i < n; ++i) data.rho(i, a) = rho(i, a);
    data.rho(n + a, k + a) = 1;              // e(2,1) -> d/dy
    data.rho(n + k + a, 2 * k + a) = 1;      // e(1,2) -> d/dp
    data.rho(n + 2 * k + a, 3 * k + a) = 1;  // e(2,2) -> d/dpbar
  }
  for (unsigned j = 0; j < accelerations; ++j) data.rho(n + 3 * k + j, 4 * k + j) = 1;  // d/dz
  data.omega_e = matrix(K, K);
  for (unsigned a = 0; a < k; ++a) {
    data.omega_e(a, 2 * k + a) = 1;
    data.omega_e(2 * k + a, a) = -1;
    data.omega_e(k + a, 3 * k + a) = 1;
    data.omega_e(3 * k + a, k + a) = -1;
    for (unsigned b = 0; b < k; ++b) {
      ex value = 0;
      for (unsigned c = 0; c < k; ++c) value += C[c][a][b] * p[c];
      data.omega_e(a, b) = Simplify(value);
    }
  }
  data.omega_on_e = true;
  // The configuration frame and the conjugate costates, for boundary conditions.
  data.fibre = sym.y;
  data.fibre_names = sym.y_names;
  for (unsigned i = 0; i < n; ++i) data.base_names.push_back(sym.q[i].get_name());
  data.frame_anchor = rho;
  data.section_costate_names.clear();
  data.fibre_costate_names.clear();
  for (unsigned a = 0; a < k; ++a) {
    data.section_costate_names.push_back(p[a].get_name());
    data.fibre_costate_names.push_back("pbar_" + sym.y_names[a]);
  }
}

}  // namespace

PresymplecticData BuildLagrangeDirac(const Scenario& s) {
  PresymplecticData data;
  data.formulation = "Lagrange-Dirac system (TQ, Omega_L, E_L)";
  CommonSymbols sym = Declare(s, data, false);
  const unsigned n = static_cast<unsigned>(sym.q.size());
  const ex L = ParseLagrangian(s, data);
  for (unsigned i = 0; i < n; ++i) {
    AddCoordinate(data, sym.q[i], s.coordinates[i], 'q', i);
  }
  for (unsigned i = 0; i < n; ++i) {
    AddCoordinate(data, sym.v[i], s.coordinates[i], 'v', i);
  }
  // Omega_L(X, Y) = W_ij (X_q^i Y_v^j - Y_q^i X_v^j) + (M_ij - M_ji) X_q^j Y_q^i (seed D §3.2),
  // M_ij = d2L/dq^i dv^j: as a matrix [[M^T - M, W], [-W, 0]].
  data.omega = matrix(2 * n, 2 * n);
  ex energy = -L;
  for (unsigned i = 0; i < n; ++i) energy += L.diff(sym.v[i]) * sym.v[i];
  data.hamiltonian = Simplify(energy);
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned j = 0; j < n; ++j) {
      const ex W = L.diff(sym.v[i]).diff(sym.v[j]);
      const ex Mij = L.diff(sym.v[j]).diff(sym.q[i]);
      const ex Mji = L.diff(sym.v[i]).diff(sym.q[j]);
      data.omega(j, i) = Simplify(Mij - Mji);  // (X_q^j, Y_q^i) entry
      data.omega(i, n + j) = Simplify(W);
      data.omega(n + i, j) = Simplify(-W);
    }
  }
  data.constraint_forms = ConstraintForms(s, data, sym.v);
  const unsigned m = data.constraint_forms.rows();
  for (const auto& c : s.constraints) {
    data.multiplier_names.push_back(c.multiplier);
    data.constraint_names.push_back(c.name);
  }
  // E = Delta_TQ = {(dq, dv) : dq in Delta_Q}: rho = blockdiag(basis of ker omega, I_n).
  matrix basis = m == 0 ? matrix(n, n) : NullSpace(data.constraint_forms);
  if (m == 0)
    for (unsigned i = 0; i < n; ++i) basis(i, i) = 1;
  if (basis.cols() + m != n)
    throw ScenarioError(s.source_file, s.constraints.front().where.line, "constraints",
                        "the constraint one-forms are linearly dependent");
  data.rho = matrix(2 * n, basis.cols() + n);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned a = 0; a < basis.cols(); ++a) data.rho(i, a) = basis(i, a);
  for (unsigned i = 0; i < n; ++i) data.rho(n + i, basis.cols() + i) = 1;
  return data;
}

PresymplecticData BuildVakonomic(const Scenario& s) {
  PresymplecticData data;
  data.formulation = "vakonomic problem, Skinner-Rusk presymplectic system on W0 = T*Q x_Q M";
  CommonSymbols sym = Declare(s, data, true);
  const unsigned n = static_cast<unsigned>(sym.q.size());
  const ex L = ParseLagrangian(s, data);
  const matrix forms = ConstraintForms(s, data, sym.v);
  const unsigned m = forms.rows();
  // Solve the constraints for m velocities v^alpha = Psi^alpha(q, v^a), preferring the last
  // coordinates (so "vz - y vx + x vy" is solved for vz).
  RowEchelon echelon;
  matrix reversed(m, n);
  for (unsigned r = 0; r < m; ++r)
    for (unsigned i = 0; i < n; ++i) reversed(r, i) = forms(r, n - 1 - i);
  echelon = ReduceRows(reversed);
  if (echelon.rank() != m)
    throw ScenarioError(s.source_file, m ? s.constraints.front().where.line : 0, "constraints",
                        "the constraint one-forms are linearly dependent");
  std::set<unsigned> solved;
  GiNaC::exmap psi;
  for (unsigned r = 0; r < m; ++r) {
    const unsigned alpha = n - 1 - echelon.pivot_columns[r];
    solved.insert(alpha);
  }
  for (unsigned r = 0; r < m; ++r) {
    const unsigned alpha = n - 1 - echelon.pivot_columns[r];
    ex value = 0;
    for (unsigned i = 0; i < n; ++i) {
      const unsigned col = n - 1 - i;
      if (solved.count(i)) continue;
      value -= echelon.reduced(r, col) * sym.v[i];
    }
    psi[sym.v[alpha]] = Simplify(value);
  }
  // Coordinates of W0: (q^A, v^a, p_A); the momenta last so the algorithm solves for them.
  for (unsigned i = 0; i < n; ++i) {
    AddCoordinate(data, sym.q[i], s.coordinates[i], 'q', i);
  }
  for (unsigned i = 0; i < n; ++i) {
    if (solved.count(i)) continue;
    AddCoordinate(data, sym.v[i], s.coordinates[i], 'v', i);
  }
  for (unsigned i = 0; i < n; ++i) {
    AddCoordinate(data, sym.p[i], s.coordinates[i], 'p', i);
  }
  const unsigned N = static_cast<unsigned>(data.z.size());
  // H_W0 = p_a v^a + p_alpha Psi^alpha - L~ (seed V), L~ = L on M.
  ex H = -L.subs(psi);
  for (unsigned i = 0; i < n; ++i) H += sym.p[i] * sym.v[i].subs(psi);
  data.hamiltonian = Simplify(H);
  data.running_cost = Simplify(L.subs(psi));  // the action int L~ dt of the vakonomic problem
  // omega = dq^A ^ dp_A: Omega(X, Y) = X_q . Y_p - X_p . Y_q.
  data.omega = matrix(N, N);
  const unsigned p0 = N - n;
  for (unsigned i = 0; i < n; ++i) {
    data.omega(i, p0 + i) = 1;
    data.omega(p0 + i, i) = -1;
  }
  data.rho = matrix(N, N);
  for (unsigned i = 0; i < N; ++i) data.rho(i, i) = 1;
  data.constraint_forms = forms;
  for (const auto& c : s.constraints) data.constraint_names.push_back(c.name);
  return data;
}

PresymplecticData BuildAlgebroidLagrangian(const Scenario& s) {
  PresymplecticData data;
  data.formulation = "Lagrangian on the Lie algebroid's prolongation (T^E E, Omega_L, E_L)";
  AlgebroidSymbols sym = DeclareAlgebroid(s, data);
  const unsigned n = static_cast<unsigned>(sym.q.size()), k = static_cast<unsigned>(sym.y.size());
  const ex L = ParseLagrangian(s, data);
  for (unsigned i = 0; i < n; ++i) AddCoordinate(data, sym.q[i], s.coordinates[i], 'q', i);
  for (unsigned a = 0; a < k; ++a)
    AddCoordinate(data, sym.y[a], sym.y_names[a], 'v', a, sym.y_initial[a]);
  ex energy = -L;
  for (unsigned a = 0; a < k; ++a) energy += L.diff(sym.y[a]) * sym.y[a];
  data.hamiltonian = Simplify(energy);
  // Seed L eq (15): omega_L = W_AB e^A_(1) ^ e^B_(2) + 1/2 M_AB e^A_(1) ^ e^B_(1) with
  // M_AB = rho^i_B d2L/dq^i dy^A - rho^i_A d2L/dq^i dy^B + dL/dy^C C^C_AB.
  const auto& rho = sym.algebroid.anchor;
  const auto& C = sym.algebroid.structure;
  matrix omega(2 * k, 2 * k);
  for (unsigned a = 0; a < k; ++a) {
    for (unsigned b = 0; b < k; ++b) {
      const ex W = L.diff(sym.y[a]).diff(sym.y[b]);
      ex M = 0;
      for (unsigned i = 0; i < n; ++i)
        M += rho(i, b) * L.diff(sym.y[a]).diff(sym.q[i]) -
             rho(i, a) * L.diff(sym.y[b]).diff(sym.q[i]);
      for (unsigned c = 0; c < k; ++c) M += L.diff(sym.y[c]) * C[c][a][b];
      omega(a, b) = Simplify(M);
      omega(a, k + b) = Simplify(W);
      omega(k + a, b) = Simplify(-W);
    }
  }
  // Anchor of T^E E: e^(1)_A -> rho^i_A d/dq^i, e^(2)_A -> d/dy^A.
  matrix anchor(n + k, 2 * k);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned a = 0; a < k; ++a) anchor(i, a) = rho(i, a);
  for (unsigned a = 0; a < k; ++a) anchor(n + a, k + a) = 1;
  // Constraints <A^r(q), y> = 0 restrict the e^(1) part to ker A.
  data.constraint_forms = ConstraintForms(s, data, sym.y);
  const unsigned m = data.constraint_forms.rows();
  for (const auto& c : s.constraints) data.constraint_names.push_back(c.name);
  matrix T = matrix(2 * k, 2 * k);
  for (unsigned a = 0; a < 2 * k; ++a) T(a, a) = 1;
  if (m > 0) {
    const matrix basis = NullSpace(data.constraint_forms);
    T = matrix(2 * k, basis.cols() + k);
    for (unsigned a = 0; a < k; ++a)
      for (unsigned c = 0; c < basis.cols(); ++c) T(a, c) = basis(a, c);
    for (unsigned a = 0; a < k; ++a) T(k + a, basis.cols() + a) = 1;
  }
  for (unsigned a = 0; a < k; ++a) data.momentum.push_back(L.diff(sym.y[a]));
  data.rho = anchor.mul(T);
  data.omega_e = T.transpose().mul(omega).mul(T);
  data.omega_on_e = true;
  return data;
}

PresymplecticData BuildSecondOrder(const Scenario& s) {
  PresymplecticData data;
  data.formulation =
      "second-order problem, Pontryagin bundle W0 = E^(2) x_E (T^E E)* (Skinner-Rusk)";
  AlgebroidSymbols sym = DeclareAlgebroid(s, data);
  const unsigned k = static_cast<unsigned>(sym.y.size());
  const auto& spec = s.second_order;
  if (spec.accelerations.size() != k)
    throw ScenarioError(s.source_file, spec.where.line, "second_order",
                        "a second-order problem needs one acceleration per velocity");
  std::vector<symbol> acc, p, pbar;
  for (unsigned a = 0; a < k; ++a) {
    acc.emplace_back(spec.accelerations[a]);
    p.emplace_back("p_" + sym.y_names[a]);
    pbar.emplace_back("pbar_" + sym.y_names[a]);
    data.table[spec.accelerations[a]] = acc.back();
  }
  const ex L = ParseLagrangian(s, data);
  for (unsigned a = 0; a < k; ++a) {
    data.table[p[a].get_name()] = p[a];
    data.table[pbar[a].get_name()] = pbar[a];
  }
  AddPontryaginCoordinates(data, s, sym, p, pbar, acc);
  ex H = -L;
  for (unsigned a = 0; a < k; ++a) H += pbar[a] * acc[a] + p[a] * sym.y[a];
  data.momentum.assign(p.begin(), p.end());  // costates: R p is conserved (Lie–Poisson)
  data.hamiltonian = Simplify(H);
  data.running_cost = L;
  AddPontryaginStructure(data, sym, p, k);
  return data;
}

matrix FibreHessian(const Scenario& s) {
  // The Hessian needs the fibre symbols only, not the brackets (a family-named algebra of
  // hundreds of elements is never expanded into dense structure functions here).
  PresymplecticData data;
  const auto symbols = DeclareInto(s, data, {scenario::Velocities::kFibre});
  const ex L = ParseLagrangian(s, data);
  const unsigned k = static_cast<unsigned>(symbols.velocities().size());
  std::vector<symbolic::Differentiator> d_dy = symbolic::MakeDifferentiators(symbols.velocities());
  matrix W(k, k);
  for (unsigned a = 0; a < k; ++a) {
    const ex dLdy = d_dy[a](L);
    for (unsigned b = 0; b < k; ++b) W(a, b) = d_dy[b](dLdy);
  }
  return W;
}

PresymplecticData BuildOptimalControl(const Scenario& s) {
  const OptimalControlSpec& ocp = s.optimal_control;
  if (!ocp.present)
    throw ScenarioError(s.source_file, 0, "optimal_control",
                        "the scenario has no optimal_control block");
  PresymplecticData data;
  data.formulation =
      "optimal control: Pontryagin bundle of L~ = C(q, y, u(q, y, y')) with the unactuated "
      "equations as second-order constraints (seed L §4)";
  AlgebroidSymbols sym = DeclareAlgebroid(s, data);
  const unsigned k = static_cast<unsigned>(sym.y.size());
  const ex L = ParseLagrangian(s, data);

  const std::vector<symbol> z = AccelerationSymbols(sym);
  const std::vector<ex> el = AlgebroidEulerLagrange(sym, L, data.t, z);

  // Which direction each control forces; the others are unactuated.
  std::vector<int> control_of(k, -1);
  std::vector<symbol> u;
  for (std::size_t j = 0; j < ocp.controls.size(); ++j) {
    const auto& c = ocp.controls[j];
    const auto it = std::find(sym.y_names.begin(), sym.y_names.end(), c.acts_on);
    if (it == sym.y_names.end())
      throw ScenarioError(s.source_file, c.where.line, c.acts_on,
                          "a control acts on a velocity or fibre coordinate");
    control_of[it - sym.y_names.begin()] = static_cast<int>(j);
    u.emplace_back(c.name);
    data.table[c.name] = u.back();
  }
  // Unactuated directions: EL_alpha = 0 solved for their accelerations, z^alpha = G^alpha.
  GiNaC::exmap unactuated;
  {
    GiNaC::lst equations, unknowns;
    for (unsigned a = 0; a < k; ++a)
      if (control_of[a] < 0) {
        equations.append(el[a] == 0);
        unknowns.append(z[a]);
      }
    if (unknowns.nops() > 0) {
      ex solution;
      try {
        solution = GiNaC::lsolve(equations, unknowns);
      } catch (const std::exception&) {
        solution = GiNaC::lst{};
      }
      if (solution.nops() != unknowns.nops())
        throw ModelError(s.source_file +
                         ": the unactuated equations cannot be solved for their accelerations "
                         "(W_alpha beta = d2L/dy^alpha dy^beta is singular)");
      for (std::size_t i = 0; i < solution.nops(); ++i)
        unactuated[solution.op(i).lhs()] = Simplify(solution.op(i).rhs());
    }
  }
  // The control law u_j = EL_{A_j} on M and the second-order Lagrangian L~ = C(q, y, u).
  GiNaC::exmap law;
  for (unsigned a = 0; a < k; ++a)
    if (control_of[a] >= 0) law[u[control_of[a]]] = Simplify(el[a].subs(unactuated));
  const ex cost =
      symbolic::ParseExpression(ocp.cost, data.table, {s.source_file, ocp.cost_where.line, "cost"});
  const ex Ltilde = Simplify(cost.subs(law));

  // Coordinates (q, y, p, pbar, z^a): the actuated accelerations last, so the primary
  // constraint of W1 is solved for them and the costates remain free initial data.
  std::vector<symbol> p, pbar, acc;
  for (unsigned a = 0; a < k; ++a) {
    p.emplace_back("p_" + sym.y_names[a]);
    pbar.emplace_back("pbar_" + sym.y_names[a]);
    data.table[p[a].get_name()] = p[a];
    data.table[pbar[a].get_name()] = pbar[a];
  }
  for (unsigned a = 0; a < k; ++a)
    if (control_of[a] >= 0) {
      acc.push_back(z[a]);
      data.table[z[a].get_name()] = z[a];
    }
  AddPontryaginCoordinates(data, s, sym, p, pbar, acc);
  ex H = -Ltilde;
  for (unsigned a = 0; a < k; ++a)
    H += p[a] * sym.y[a] + pbar[a] * (control_of[a] >= 0 ? ex(z[a]) : unactuated.at(z[a]));
  data.hamiltonian = Simplify(H);
  data.running_cost = Ltilde;
  for (std::size_t j = 0; j < u.size(); ++j)
    data.outputs.push_back({u[j].get_name(), law.at(u[j]), ColumnKind::kControl});
  data.momentum.assign(p.begin(), p.end());
  AddPontryaginStructure(data, sym, p, static_cast<unsigned>(acc.size()));
  return data;
}

ControlledEquations BuildControlledEquations(const Scenario& s) {
  const OptimalControlSpec& ocp = s.optimal_control;
  ControlledEquations eq;
  PresymplecticData& data = eq.data;
  AlgebroidSymbols sym = DeclareAlgebroid(s, data);
  const unsigned n = static_cast<unsigned>(sym.q.size()), k = static_cast<unsigned>(sym.y.size());
  const ex L = ParseLagrangian(s, data);
  const std::vector<symbol> z = AccelerationSymbols(sym);
  const std::vector<ex> el = AlgebroidEulerLagrange(sym, L, data.t, z);
  // EL_A = u_a on the actuated directions, 0 on the others, solved for all accelerations.
  std::vector<ex> force(k, 0);
  for (const auto& c : ocp.controls) {
    const auto it = std::find(sym.y_names.begin(), sym.y_names.end(), c.acts_on);
    if (it == sym.y_names.end())
      throw ScenarioError(s.source_file, c.where.line, c.acts_on,
                          "a control acts on a velocity or fibre coordinate");
    eq.u.emplace_back(c.name);
    data.table[c.name] = eq.u.back();
    force[it - sym.y_names.begin()] = eq.u.back();
  }
  GiNaC::lst equations, unknowns;
  for (unsigned a = 0; a < k; ++a) {
    equations.append(el[a] == force[a]);
    unknowns.append(z[a]);
  }
  ex solution;
  try {
    solution = GiNaC::lsolve(equations, unknowns);
  } catch (const std::exception&) {
    solution = GiNaC::lst{};
  }
  if (solution.nops() != k)
    throw ModelError(s.source_file +
                     ": the controlled equations cannot be solved for the accelerations "
                     "(W = d2L/dy dy is singular)");
  for (unsigned i = 0; i < n; ++i) {
    ex rate = 0;
    for (unsigned b = 0; b < k; ++b) rate += sym.algebroid.anchor(i, b) * sym.y[b];
    eq.rates.push_back(rate);
  }
  for (unsigned a = 0; a < k; ++a) eq.rates.push_back(Simplify(solution.op(a).rhs()));
  eq.cost =
      symbolic::ParseExpression(ocp.cost, data.table, {s.source_file, ocp.cost_where.line, "cost"});
  eq.terminal_cost = ocp.terminal_cost.empty()
                         ? ex(0)
                         : symbolic::ParseExpression(
                               ocp.terminal_cost, data.table,
                               {s.source_file, ocp.terminal_cost_where.line, "terminal_cost"});
  for (const auto& c : ocp.path_constraints)
    eq.path.push_back(
        symbolic::ParseExpression(c.g, data.table, {s.source_file, c.where.line, c.text}));
  for (const auto& text : s.reconstruction.body_velocity)
    eq.body_velocity.push_back(symbolic::ParseExpression(
        text, data.table, {s.source_file, s.reconstruction.where.line, "body_velocity"}));
  eq.q = sym.q;
  eq.y = sym.y;
  eq.base_names.clear();
  for (const auto& q : sym.q) eq.base_names.push_back(q.get_name());
  eq.fibre_names = sym.y_names;
  return eq;
}

}  // namespace dirac::constraints
