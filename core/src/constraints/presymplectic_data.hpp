#pragma once
// Internal: a presymplectic system (M, Omega, H) with anchor rho: E -> TM, in coordinates.

#include <ginac/ginac.h>

#include <string>
#include <vector>

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
  GiNaC::matrix omega;  ///< N x N antisymmetric: Omega(X, Y) = X^T omega Y
  GiNaC::matrix rho;    ///< N x K: columns span E in TM
  GiNaC::ex hamiltonian;
  GiNaC::symtab table;  ///< every symbol a scenario expression may use (z, params, t, ...)

  /// Lagrange–Dirac with a distribution: the constraint one-forms (m x n) on the first n
  /// coordinates (q), and the multiplier names, to recover mu from i_X Omega - dH in Delta°.
  GiNaC::matrix constraint_forms;  ///< m x n (m may be 0)
  std::vector<std::string> multiplier_names, constraint_names;
  std::size_t num_configuration = 0;  ///< n

  /// Initial value of each z from the scenario (coordinates, velocities, momenta).
  std::vector<double> initial;
  /// Where each z comes from: 'q', 'v' or 'p' of coordinate `z_coordinate[i]`.
  std::vector<char> z_kind;
  std::vector<unsigned> z_coordinate;
};

/// (TQ, Omega_L, E_L) with E = Delta_TQ (seed D §3.2). Throws ScenarioError.
PresymplecticData BuildLagrangeDirac(const Scenario& scenario);

/// Skinner–Rusk W0 = T*Q x_Q M for the vakonomic problem (seed V eqs (5)–(7)): the scenario's
/// constraint forms are solved for some velocities v^alpha = Psi^alpha(q, v^a). Throws
/// ScenarioError / ModelError.
PresymplecticData BuildVakonomic(const Scenario& scenario);

}  // namespace dirac::constraints
