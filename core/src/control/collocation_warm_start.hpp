#pragma once
// Internal to control/: what a collocation solve keeps for the next one (WarmStart::collocation
// in dirac/optimal_control.hpp): the compiled controlled equations, reused while the problem's
// structure stays the same, and the NLP's primal-dual optimum on the final (refined) mesh, the
// next IPOPT solve's start on that mesh.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/optimal_control.hpp"

namespace dirac {

/// Opaque in the public header. `structure` is control::StructureKey of the scenario solved.
struct CollocationWarmStart {
  std::string structure;
  std::shared_ptr<const control::CollocationDynamics> dynamics;
  CollocationScheme scheme = CollocationScheme::kHermiteSimpson;
  int intervals = 0;         ///< the first mesh's intervals (as asked: options or settings)
  std::vector<double> mesh;  ///< the final mesh after refinement (node fractions), `point`'s
  control::NlpPoint point;   ///< the NLP's optimum on `mesh`: unknowns, z_L, z_U, lambda
  /// The optimum's group elements at the nodes (empty without group rows): the next NLP's chart
  /// reference, re-centred there (`point`'s chart coordinates are 0).
  std::vector<Eigen::Matrix3d> reference;
};

}  // namespace dirac

namespace dirac::control {

/// What the controlled equations and the NLP's rows depend on: the scenario with every value a
/// re-solve may change (parameter values, initial values, boundary values, bounds, horizon and
/// its bounds, solver settings, the view) set to fixed stand-in values, serialised. Two scenarios
/// with the same key have the same tapes (at their own parameter values) and, for the same
/// intervals and the same fixed/free pattern, NLPs of the same shape.
std::string StructureKey(const Scenario& scenario);

/// The compiled controlled equations of `scenario`: the warm start's when it was derived for
/// the same structure (evaluated at this scenario's parameter values), else derived (GiNaC).
std::shared_ptr<const CollocationDynamics> DynamicsFor(const Scenario& scenario,
                                                       const std::string& structure,
                                                       const WarmStart* warm);

/// Keeps the optimum `point` of `nlp` in `kept`: its mesh, the point with the chart re-centred
/// at the optimum's group elements (the chart coordinates 0, the elements the reference; the
/// rows, hence the multipliers, do not depend on the chart).
void KeepOptimum(const CollocationNlp& nlp, const NlpPoint& point, CollocationWarmStart& kept);

/// The warm start's collocation part if it was solved for the same structure and scheme from a
/// first mesh of the same intervals, else null. The re-solve then starts on its final mesh from
/// its point (the NLP checks the sizes again: a fixed horizon freed changes the unknowns) and
/// refines further from there if the estimate asks.
const CollocationWarmStart* WarmFor(const std::string& structure, CollocationScheme scheme,
                                    int intervals, const WarmStart* warm);

}  // namespace dirac::control
