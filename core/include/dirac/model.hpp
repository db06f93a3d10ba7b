#pragma once
/// @file model.hpp
/// The common interface of every dynamical model the engine derives from a scenario, so that the
/// CLI and the GUI never depend on which formulation a scenario uses.

#include <memory>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

struct ConstraintChain;

/// Text form of derived equations.
enum class EquationFormat { kPlain, kLatex };

/// One labelled derived equation: `text` is an expression that equals zero (or "lhs = rhs").
struct DerivedEquation {
  std::string label;
  std::string text;
};

/// A derived model: immutable after construction. Simulate, TrajectoryColumns and
/// ConstraintCovectors evaluate compiled tapes only and may run concurrently from several
/// threads. Derivation (BuildModel), Equations() and destroying a model use GiNaC, whose
/// reference counts are not thread-safe: do those on one thread at a time.
class Model {
 public:
  virtual ~Model() = default;
  /// Human name of the formulation, e.g. "Lagrange-d'Alembert-Dirac (index-1 DAE)".
  virtual std::string formulation() const = 0;
  /// Columns of the trajectories Simulate returns (column 0 is "t").
  virtual std::vector<std::string> TrajectoryColumns() const = 0;
  /// Integrates from t = 0 to input.spec.t_end. Throws NumericalError / ModelError.
  virtual Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress = {},
                              SimulationReport* report = nullptr) const = 0;
  /// The derived equations in readable form.
  virtual std::vector<DerivedEquation> Equations(EquationFormat format) const = 0;
  /// The constraint algorithm's chain, if this model went through it (else nullptr).
  virtual const ConstraintChain* constraint_chain() const { return nullptr; }
  /// Names of the scenario's nonholonomic constraints, in order.
  virtual std::vector<std::string> constraint_names() const = 0;
  /// omega^r_i(t, q) for every scenario constraint (m x n, row-major), e.g. to draw Delta(q).
  virtual std::vector<double> ConstraintCovectors(double t, const std::vector<double>& q,
                                                  const std::vector<double>& parameters) const = 0;
};

/// Derives the model the scenario asks for: `formulation: lagrange_dirac` with a regular
/// Lagrangian gives the index-1 LagrangeDiracSystem; a degenerate Lagrangian, `vakonomic`, or
/// `constraint_algorithm` goes through the Gotay–Nester–Hinds algorithm (ConstrainedSystem).
/// Throws ScenarioError / ModelError.
std::shared_ptr<const Model> BuildModel(const Scenario& scenario);

}  // namespace dirac
