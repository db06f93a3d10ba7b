#include "dirac/build_model.hpp"

#include "base/foreign_errors.hpp"
#include "constraints/first_order_system.hpp"
#include "constraints/generic_rank_chain.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "lagrange_dirac/euler_poincare_system.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

// A degenerate Lagrangian: the exact constraint algorithm, except for a Lagrangian affine in the
// velocities above the exact chain's size or whose elimination exceeds the work bound, which
// integrates by a linear solve per step instead (constraints/first_order_system.hpp).
std::shared_ptr<const Model> ConstraintAlgorithmOrFirstOrder(const Scenario& scenario) {
  const bool large = constraints::AboveExactChainSize(scenario);
  if (large)
    if (auto affine = constraints::DeriveFirstOrderSystemIfApplicable(scenario)) return affine;
  try {
    return ConstrainedSystem::Analyze(scenario);
  } catch (const ModelError& e) {
    if (!large && symbolic::IsWorkBoundError(e))
      if (auto affine = constraints::DeriveFirstOrderSystemIfApplicable(scenario)) return affine;
    throw;
  }
}

}  // namespace

std::shared_ptr<const Model> BuildModel(const Scenario& scenario) try {
  if (scenario.optimal_control.present) return ConstrainedSystem::Analyze(scenario);
  switch (scenario.formulation) {
    case Formulation::kOptimalControl:
    case Formulation::kVakonomic:
    case Formulation::kSecondOrder:
    case Formulation::kConstraintAlgorithm:
      return ConstrainedSystem::Analyze(scenario);
    case Formulation::kAuto:
    case Formulation::kLagrangeDirac:
      if (auto ep = lagrange_dirac::DeriveEulerPoincareSystemIfApplicable(scenario)) return ep;
      if (auto regular = LagrangeDiracSystem::DeriveIfRegular(scenario)) return regular;
      return ConstraintAlgorithmOrFirstOrder(scenario);
  }
  return LagrangeDiracSystem::Derive(scenario);
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the equations");
}

}  // namespace dirac
