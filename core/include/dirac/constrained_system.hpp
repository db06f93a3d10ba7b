#pragma once
/// @file constrained_system.hpp
/// The Gotay–Nester–Hinds constraint algorithm (seed L §3.2.1) in its Lie algebroid form
/// (§3.2.2, eq (27)) applied to the presymplectic system a scenario defines, and the dynamics
/// it leaves on the final constraint submanifold M_f.
///
/// The presymplectic system is (M, Omega, H) with a bundle E -> M and anchor rho: E -> TM:
///  - Lagrange–Dirac on TQ: M = TQ, Omega = Omega_L, H = E_L, E = Delta_TQ (rho the inclusion;
///    E = TTQ without constraints);
///  - vakonomic (Skinner–Rusk, seed V): M = W0 = T*Q x_Q M_c, Omega = dq^A ^ dp_A,
///    H = <p, v> - L restricted to the constraint set M_c, E = TW0.
/// The algorithm: M_{k+1} = {x in M_k : alpha(x)(e) = 0 for all e in (rho^-1(T_x M_k))^perp},
/// alpha = rho^T dH, perp taken with respect to Omega on E. On M_f: i_X Omega = dH has
/// solutions X = X_p + sum_a lambda_a K_a, K_a spanning ker Omega ∩ E_f (the gauge directions).
/// Layer: constraints.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac {

/// One submanifold M_k of the chain.
struct ConstraintStep {
  std::size_t index = 0;                 ///< k
  std::size_t dimension = 0;             ///< dim M_k
  std::size_t tangent_sections = 0;      ///< rank of E_k = rho^-1(T M_k)
  std::size_t orthogonal_dimension = 0;  ///< dim (E_k)^perp; its elements give the new constraints
  std::vector<std::string> new_constraints;  ///< equations defining M_{k+1} in M_k ("= 0")
  std::vector<std::string> new_constraints_latex;
  std::vector<std::string> solved_as;   ///< how each was used to parametrise M_{k+1}: "v3 = 0"
  std::vector<std::string> solved_for;  ///< the coordinate each one eliminated: "v3"
  /// Trajectory column of each new constraint's value along a run ("residual_hidden<K>", K
  /// counting the constraints of the whole chain in step order).
  std::vector<std::string> residual_columns;
};

/// A direction of the remaining (gauge) freedom on M_f with the free function multiplying it.
struct GaugeDirection {
  std::string name;                     ///< free function, e.g. "lambda1"
  std::vector<std::string> components;  ///< components along M's coordinates (plain text)
  bool fibre_only = false;  ///< moves no configuration coordinate (only auxiliary velocities)
  std::string value;        ///< the expression used when integrating (scenario `gauge:`, or 0)
};

/// Numeric cross-check of the symbolic verdicts at points sampled on M_f.
struct NumericCrossCheck {
  std::size_t points = 0;
  bool ranks_agree = true;
  double max_constraint_value = 0.0;  ///< max |phi| of all constraints at the sampled points
  std::vector<std::string> messages;  ///< rank drops found at specific points, etc.
};

enum class ChainOutcome { kStabilized, kEmpty, kIsolatedPoints, kNotStabilized };

/// Everything the algorithm found, ready for printing, JSON or the GUI.
struct ConstraintChain {
  std::string formulation;
  std::vector<std::string> coordinates;  ///< coordinates of M_0
  std::vector<ConstraintStep> steps;     ///< steps[k] describes M_k
  ChainOutcome outcome = ChainOutcome::kStabilized;
  std::string verdict;  ///< one human sentence
  std::size_t final_dimension = 0;
  std::size_t final_rank = 0;                  ///< rank of Omega on E_f
  bool symplectic = false;                     ///< Omega restricted to E_f is nondegenerate
  bool configuration_dynamics_unique = false;  ///< every gauge direction is fibre-only
  /// rank Omega_f + #gauge = rank E_f: Omega_f descends to a symplectic form on E_f / gauge
  /// (e.g. Lagrangians linear in velocity: symplectic on Q once the fibre gauge is quotiented).
  bool symplectic_modulo_gauge = false;
  std::vector<std::string> final_constraints;    ///< all equations of M_f in M_0
  std::vector<std::string> validity_conditions;  ///< symbolic pivots: verdict holds where != 0
  std::vector<GaugeDirection> gauge;
  std::vector<DerivedEquation> dynamics;  ///< z' = f(z, lambda) on M_f
  NumericCrossCheck check;
  /// True when the chain came from the exact symbolic elimination; false when it was read off
  /// generic ranks (large systems: AnalyzeChain), which has no symbolic verdict to cross-check.
  bool exact = true;
  /// How each verdict was reached: "regularity of W (40 x 40): rank 40, numeric (...)", or the
  /// exact elimination; printed last by FormatChain and in the JSON report.
  std::vector<std::string> decisions;
};

/// The chain `dirac analyze` reports: above the exact algorithm's size, from generic ranks when
/// the scenario is a regular Lagrange–Dirac system or a Lagrangian affine in the velocities
/// (no symbolic elimination; see constraints/generic_rank_chain.hpp), else the exact
/// Gotay–Nester–Hinds algorithm (ConstrainedSystem::Analyze). Throws as ConstrainedSystem::Analyze.
ConstraintChain AnalyzeChain(const Scenario& scenario);

/// Plain-text report of a chain (what `dirac analyze` prints).
std::string FormatChain(const ConstraintChain& chain);
/// JSON report of a chain (what `dirac analyze --json` prints).
std::string ChainToJson(const ConstraintChain& chain);

/// A presymplectic system run through the constraint algorithm, integrable on M_f.
class ConstrainedSystem : public Model {
 public:
  /// Builds the presymplectic system of the scenario's formulation, runs the algorithm for at
  /// most `max_steps` steps, solves the dynamics on M_f and compiles it. Throws ScenarioError
  /// (bad expressions, unknown gauge names), ModelError (a constraint that cannot be solved for
  /// any coordinate; a chain ending on the empty set or points when integration is requested is
  /// reported in the chain, not thrown).
  static std::shared_ptr<const ConstrainedSystem> Analyze(const Scenario& scenario,
                                                          std::size_t max_steps = 12);
  ~ConstrainedSystem() override;

  const ConstraintChain& chain() const;
  const ConstraintChain* constraint_chain() const override { return &chain(); }

  std::string formulation() const override;
  /// t, M's coordinates, their rates "<name>_dot", multipliers (Lagrange–Dirac with
  /// constraints), E (the energy H), residual_hidden<k> (every constraint of the chain) and
  /// residual_dynamics (max |alpha - Omega_E^T xi| on E); empty if M_f cannot be integrated.
  const std::vector<ColumnInfo>& columns() const override;
  /// The coordinates of M_0; those the chain solved for are fixed (with the equation), as are
  /// scenario symbols that are no coordinates of M_0 in this formulation.
  const std::vector<InitialValueInfo>& initial_values() const override;
  /// The dynamics on M_f as an explicit ODE with exact Jacobians (nullptr if not integrable).
  const ExplicitFlow* explicit_flow() const override;
  std::vector<double> FlowState(const SimulationInput& input) const override;
  /// auto, adams, bdf, idas (the flow on M_f has an ODE and a DAE form).
  std::vector<MethodVerdict> integration_methods(
      const std::vector<double>& parameters) const override;
  /// Integrates the dynamics on M_f with IDAS (coordinates of M_f as differential unknowns; the
  /// coordinates eliminated by the constraints are reconstructed, so every constraint holds).
  /// Throws ModelError if M_f is empty or a set of points.
  Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress = {},
                      SimulationReport* report = nullptr) const override;
  std::vector<DerivedEquation> Equations(EquationFormat format) const override;
  std::vector<std::string> constraint_names() const override;
  std::vector<double> ConstraintCovectors(double t, const std::vector<double>& q,
                                          const std::vector<double>& parameters) const override;

  struct Impl;

 private:
  explicit ConstrainedSystem(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dirac
