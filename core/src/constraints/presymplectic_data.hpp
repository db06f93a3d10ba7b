#pragma once
// Internal: a presymplectic system (M, Omega, H) with anchor rho: E -> TM, in coordinates.

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"

namespace dirac::constraints {

struct PresymplecticData {
  std::string formulation;
  GiNaC::symbol t{"t"};
  std::vector<GiNaC::symbol> z;  ///< coordinates of M (N)
  std::vector<std::string> z_names;
  std::vector<bool> is_configuration;  ///< z_i is a configuration coordinate q (not v or p)
  std::vector<GiNaC::symbol> parameters;
  std::vector<std::string> parameter_names;
  GiNaC::matrix omega;  ///< N x N antisymmetric: Omega(X, Y) = X^T omega Y (TM formulations)
  GiNaC::matrix rho;    ///< N x K: columns span E in TM (the anchor of E)
  /// Omega given directly on E (K x K) for algebroid formulations (prolongations), where it is
  /// not a pull-back of a form on TM; then `omega` is unused.
  GiNaC::matrix omega_e;
  bool omega_on_e = false;
  GiNaC::ex hamiltonian;
  GiNaC::symtab table;  ///< every symbol a scenario expression may use (z, params, t, ...)
  /// The scenario's definitions (and generated body energies and forms) as stand-in symbols,
  /// with their expressions: texts that may name generated ones (the Lagrangian, the forms)
  /// are parsed with `parse_table` and then substituted (ScenarioSymbols::Parse).
  GiNaC::symtab parse_table;
  GiNaC::exmap definitions;

  /// Lagrange–Dirac with a distribution: the constraint one-forms (m x n) on the first n
  /// coordinates (q), and the multiplier names, to recover mu from i_X Omega - dH in Delta°.
  GiNaC::matrix constraint_forms;  ///< m x n (m may be 0)
  std::vector<std::string> multiplier_names, constraint_names;
  std::size_t num_configuration = 0;  ///< n

  /// Body momentum mapped to space by a reconstruction (k = 3): dL/dy, or the costates p.
  std::vector<GiNaC::ex> momentum;

  /// Initial value of each z from the scenario (coordinates, velocities, momenta).
  std::vector<double> initial;
  /// Where each z comes from: 'q', 'v' or 'p' of coordinate (or fibre) `z_coordinate[i]`, or
  /// 'n': a named value (accelerations, costates) looked up by z_names[i].
  std::vector<char> z_kind;
  std::vector<unsigned> z_coordinate;
  /// What each z is, for the model's column and initial-value kinds.
  std::vector<ColumnKind> z_role;

  /// Integrand of the cost along the motion (L of a second-order problem, C(q, y, u(q, y, z))
  /// of an optimal-control problem); empty (0) for mechanical systems.
  GiNaC::ex running_cost;
  /// Further columns derived on M (e.g. the controls u_a of an optimal-control problem).
  struct Output {
    std::string name;
    GiNaC::ex value;
    ColumnKind kind;
  };
  std::vector<Output> outputs;
  /// The configuration frame for boundary conditions: base q^i and fibre y^A symbols, the
  /// anchor rho (n x k), and the costates conjugate to y (pbar) and to the sections (p).
  std::vector<GiNaC::symbol> fibre;
  std::vector<std::string> base_names, fibre_names, fibre_costate_names, section_costate_names;
  GiNaC::matrix frame_anchor;
};

/// (TQ, Omega_L, E_L) with E = Delta_TQ (seed D §3.2). Throws ScenarioError.
PresymplecticData BuildLagrangeDirac(const Scenario& scenario);

/// Skinner–Rusk W0 = T*Q x_Q M for the vakonomic problem (seed V eqs (5)–(7)): the scenario's
/// constraint forms are solved for some velocities v^alpha = Psi^alpha(q, v^a). Throws
/// ScenarioError / ModelError.
PresymplecticData BuildVakonomic(const Scenario& scenario);

/// The Lagrangian on a Lie algebroid E in its prolongation T^E E (seed L §3.1 eq (15)):
/// z = (q, y), sections e^(1), e^(2), anchor (rho, I), Omega_L on T^E E, H = E_L; a constraint
/// <A(q), y> = 0 restricts e^(1) to ker A (Lagrange–Dirac on the algebroid). Throws
/// ScenarioError.
PresymplecticData BuildAlgebroidLagrangian(const Scenario& scenario);

/// The Pontryagin bundle W0 = E^(2) x_E (T^E E)* of the second-order problem L(q, y, z)
/// (seed L §3.4.2): z = (q, y, p, pbar, z), Omega_0 = e^(1,1) ^ e_(1,2) + e^(2,1) ^ e_(2,2)
/// + 1/2 C^C_AB p_C e^A_(1,1) ^ e^B_(1,1), H = pbar z + p y - L. TQ is the case rho = I, C = 0.
PresymplecticData BuildSecondOrder(const Scenario& scenario);

/// The Pontryagin bundle of the scenario's optimal-control problem (`optimal_control:`, seed L
/// §4.1–4.2): the controlled equations EL_A(q, y, y') = u_a on the actuated directions give the
/// control law; the unactuated ones EL_alpha = 0 are solved for their accelerations
/// (y'^alpha = G^alpha(q, y, y'^a), needs W_alpha beta regular); L~ = C(q, y, u(q, y, z)) is the
/// second-order Lagrangian, and W0 = M x (T^E E)* carries H = p_A y^A + pbar_a z^a +
/// pbar_alpha G^alpha - L~. Throws ScenarioError / ModelError.
PresymplecticData BuildOptimalControl(const Scenario& scenario);

/// The controlled equations of the scenario's optimal-control problem as an explicit ODE with
/// the controls as inputs: q' = rho(q) y, y' = z(t, q, y, u) from EL_A(q, y, y') = u_a on the
/// actuated directions and 0 on the others (direct collocation's dynamics), with the cost
/// C(t, q, y, u) and the reconstruction's body velocity xi(q, y).
struct ControlledEquations {
  PresymplecticData data;  ///< t, parameters and the symbol table
  std::vector<GiNaC::symbol> q, y, u;
  std::vector<std::string> base_names, fibre_names;
  std::vector<GiNaC::ex> rates;  ///< q' (n) then y' (k)
  GiNaC::ex cost;
  GiNaC::ex terminal_cost;               ///< phi(t, q, y) at t = T (0 without one)
  std::vector<GiNaC::ex> path;           ///< g(t, q, y, u) <= 0, one per path constraint
  std::vector<GiNaC::ex> body_velocity;  ///< xi (empty without reconstruction)
};

/// Derives ControlledEquations. Throws ScenarioError / ModelError (W singular).
ControlledEquations BuildControlledEquations(const Scenario& scenario);

/// d2L/dy dy (the fibre Hessian) of the scenario's Lagrangian, on TQ or on the algebroid.
GiNaC::matrix FibreHessian(const Scenario& scenario);

}  // namespace dirac::constraints
