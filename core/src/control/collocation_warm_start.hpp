#pragma once
// Internal to control/: what a collocation solve keeps for the next one (WarmStart::collocation
// in dirac/optimal_control.hpp): the compiled controlled equations, reused while the problem's
// structure stays the same, and the NLP's primal-dual optimum, the next IPOPT solve's start.

#include <memory>
#include <string>

#include "control/collocation_dynamics.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/optimal_control.hpp"

namespace dirac {

/// Opaque in the public header. `structure` is control::StructureKey of the scenario solved.
struct CollocationWarmStart {
  std::string structure;
  std::shared_ptr<const control::CollocationDynamics> dynamics;
  int intervals = 0;
  control::NlpPoint point;  ///< the NLP's optimum: unknowns, z_L, z_U, lambda
};

}  // namespace dirac

namespace dirac::control {

/// What the controlled equations and the NLP's rows depend on: the scenario with every value a
/// re-solve may change (parameter values, initial values, boundary values, bounds, horizon and
/// its bounds, solver settings, the view) set to fixed placeholders, serialised. Two scenarios
/// with the same key have the same tapes (at their own parameter values) and, for the same
/// intervals and the same fixed/free pattern, NLPs of the same shape.
std::string StructureKey(const Scenario& scenario);

/// The compiled controlled equations of `scenario`: the warm start's when it was derived for
/// the same structure (evaluated at this scenario's parameter values), else derived (GiNaC).
std::shared_ptr<const CollocationDynamics> DynamicsFor(const Scenario& scenario,
                                                       const std::string& structure,
                                                       const WarmStart* warm);

/// The warm start's NLP point if it was solved for the same structure on the same mesh, else
/// null (the NLP checks its sizes again: a fixed horizon freed changes the unknowns).
const NlpPoint* PointFor(const std::string& structure, int intervals, const WarmStart* warm);

}  // namespace dirac::control
