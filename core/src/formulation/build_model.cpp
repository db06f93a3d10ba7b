#include "dirac/build_model.hpp"

#include <memory>

#include "dirac/body_poses.hpp"

#include "base/foreign_errors.hpp"
#include "constraints/first_order_system.hpp"
#include "constraints/generic_rank_chain.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "lagrange_dirac/euler_poincare_system.hpp"
#include "scenario/initial_state.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/parse_session.hpp"

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

// Holonomic constraints join as their differentials on TQ: the Lagrange-Dirac system and the
// constraint algorithm take them; the other formulations refuse them by name.
void RequireHolonomicFormulation(const Scenario& scenario) {
  if (scenario.holonomic.empty()) return;
  const char* refused = scenario.optimal_control.present                    ? "optimal_control"
                        : scenario.formulation == Formulation::kVakonomic   ? "vakonomic"
                        : scenario.formulation == Formulation::kSecondOrder ? "second_order"
                                                                            : nullptr;
  if (refused)
    throw ScenarioError(scenario.source_file, scenario.holonomic.front().where.line, "holonomic",
                        std::string("holonomic constraints are enforced by the Lagrange-Dirac "
                                    "system and the constraint algorithm on TQ; the ") +
                            refused + " formulation does not take them");
}

std::shared_ptr<const Model> BuildFromForms(const Scenario& scenario) {
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
}

}  // namespace

std::shared_ptr<const Model> BuildModel(const Scenario& scenario) try {
  // Every formulation tried below reads the scenario's texts in one parse session: each text
  // parsed once, the symbols and the bodies' kinematics built once.
  const symbolic::ParseSession parse_once;
  RequireHolonomicFormulation(scenario);
  std::shared_ptr<const Model> model =
      scenario.holonomic.empty() ? BuildFromForms(scenario)
                                 : BuildFromForms(scenario::WithHolonomicDifferentials(scenario));
  if (scenario.multibody.present()) {
    // The model was made here and is shared with no one yet: its body poses are compiled with
    // it (GiNaC, on the deriving thread) so that scenes evaluate tapes only.
    std::const_pointer_cast<Model>(model)->body_poses_ =
        std::make_shared<const BodyPoseEvaluator>(scenario);
  }
  return model;
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the equations");
}

}  // namespace dirac
