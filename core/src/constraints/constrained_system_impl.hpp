#pragma once
// Internal: the state ConstrainedSystem keeps (the algorithm's records, the solved dynamics, the
// compiled tapes), shared by its three source files: constrained_system.cpp (the algorithm and
// the interface), constrained_system_compile.cpp (cross-check and compilation) and
// constrained_system_run.cpp (Simulate).

#include <ginac/ginac.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "constraints/presymplectic_data.hpp"
#include "constraints/symbolic_linear_algebra.hpp"
#include "dirac/constrained_system.hpp"
#include "model/explicit_flow.hpp"
#include "model/native_tape_set.hpp"
#include "symbolic/canonical_print.hpp"

namespace dirac {

using GiNaC::ex;
using GiNaC::matrix;
using GiNaC::symbol;

// Canonical text: the same bytes in every run, whatever GiNaC's address-dependent term order.
inline std::string Print(const ex& e, EquationFormat format = EquationFormat::kPlain) {
  return format == EquationFormat::kLatex ? symbolic::CanonicalLatex(e)
                                          : symbolic::CanonicalString(e);
}

inline GiNaC::matrix Identity(unsigned n) {
  GiNaC::matrix m(n, n);
  for (unsigned i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}

// The entries of `m` in the order of the coordinates z. GiNaC::exmap iterates in GiNaC's order,
// which follows address-dependent hashes, so iterating it directly changes row orders (and the
// sign of minors, and the order of printed lines) from run to run.
inline std::vector<std::pair<GiNaC::ex, GiNaC::ex>> InCoordinateOrder(
    const GiNaC::exmap& m, const std::vector<symbol>& z) {
  std::vector<std::pair<ex, ex>> out;
  for (const symbol& s : z) {
    if (auto it = m.find(s); it != m.end()) out.emplace_back(it->first, it->second);
  }
  std::vector<std::pair<ex, ex>> others;  // keys that are not coordinates, if any: by text
  for (const auto& entry : m) {           // not a structured binding: clang 14 cannot capture one
    const ex& var = entry.first;
    const auto is_var = [&var](const symbol& s) { return var.is_equal(s); };
    if (std::none_of(z.begin(), z.end(), is_var)) others.emplace_back(var, entry.second);
  }
  std::sort(others.begin(), others.end(), [](const auto& l, const auto& r) {
    return symbolic::CanonicalString(l.first) < symbolic::CanonicalString(r.first);
  });
  out.insert(out.end(), others.begin(), others.end());
  return out;
}

// One recorded step of the algorithm, kept for the numeric cross-check.
struct StepRecord {
  GiNaC::exmap elimination;   // parametrisation of M_k
  matrix tangency;            // d(Phi_k) rho on M_k (rows: constraints so far; may be 0 x K)
  unsigned tangent_rank = 0;  // dim E_k
  unsigned orthogonal = 0;    // dim E_k^perp
  bool has_new = false;
};

// The tapes a run evaluates: one batch of machine code (`simulation.tape`).
struct ConstrainedRunTapes {
  CompiledFunction free_rates, free_jacobian, outputs, extras, body_velocity, group_momentum;
};

inline void ForEachRunTape(ConstrainedRunTapes& t,
                           const std::function<void(CompiledFunction&)>& f) {
  for (CompiledFunction* tape : {&t.free_rates, &t.free_jacobian, &t.outputs, &t.extras,
                                 &t.body_velocity, &t.group_momentum})
    f(*tape);
}

struct ConstrainedSystem::Impl {
  constraints::PresymplecticData data;
  ConstraintChain chain;
  GiNaC::exmap elimination;           // eliminated z -> expression in the free coordinates
  std::vector<unsigned> free_index;   // y = z[free_index]
  std::vector<ex> found_constraints;  // every phi as found, in z
  std::vector<StepRecord> records;
  matrix omega_e, alpha;  // Omega on E (K x K), alpha = rho^T dH (K x 1)
  std::vector<symbol> gauge_symbols;
  std::vector<ex> gauge_values;
  std::vector<ex> rates;              // z' on M_f (N), gauge substituted
  std::vector<ex> multipliers;        // Lagrange–Dirac multipliers (m)
  std::vector<ex> dynamics_residual;  // rho^T (Omega^T z' - dH), identically 0 on M_f
  bool integrable = false;
  bool autonomous = false;  // H and z' free of t: the energy column is conserved

  CompiledFunction free_rates, free_jacobian, outputs;
  CompiledFunction covectors;  // omega^r_i(t, q; parameters), inputs [t, q, parameters]
  ReconstructionSpec reconstruction;
  CompiledFunction body_velocity, group_momentum;  // xi(y) and the momentum mapped by R
  std::vector<ex> body_velocity_exprs;
  CompiledFunction extras;  // further columns after residual_dynamics (controls, running cost)
  ConstrainedRunTapes run_tapes;  // copies of the tapes Simulate evaluates, compiled as one batch
  std::unique_ptr<model::NativeTapeSet<ConstrainedRunTapes>> native;
  ExplicitFlow flow;
  std::vector<ColumnInfo> columns;
  std::vector<InitialValueInfo> initial_values;
  std::vector<std::string> scenario_constraint_names;

  std::vector<symbol> FreeSymbols() const {
    std::vector<symbol> y;
    for (unsigned i : free_index) y.push_back(data.z[i]);
    return y;
  }
  std::vector<symbol> CompileInputs() const {
    std::vector<symbol> in{data.t};
    for (const auto& s : FreeSymbols()) in.push_back(s);
    in.insert(in.end(), data.parameters.begin(), data.parameters.end());
    return in;
  }
  ex OnManifold(const ex& e) const { return constraints::Simplify(e.subs(elimination)); }
  matrix OnManifold(const matrix& m) const { return constraints::Substitute(m, elimination); }

  void RunAlgorithm(std::size_t max_steps);
  void CompileFlow(const std::vector<ex>& f, const std::vector<ex>& xi);
  std::vector<double> InitialPoint(const SimulationInput& input) const;
  void SolveDynamics(const Scenario& scenario);
  void CrossCheck();
  void Compile();
};

}  // namespace dirac
