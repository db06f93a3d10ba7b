#include "dirac/build_model.hpp"

#include <ginac/ginac.h>

#include "base/foreign_errors.hpp"
#include "constraints/presymplectic_data.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

// True if det D2D2L vanishes identically (the index-1 DAE of eq (29) then does not apply).
bool IsDegenerate(const Scenario& scenario) {
  return GiNaC::normal(constraints::FibreHessian(scenario).determinant()).is_zero();
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
      if (IsDegenerate(scenario)) return ConstrainedSystem::Analyze(scenario);
      return LagrangeDiracSystem::Derive(scenario);
  }
  return LagrangeDiracSystem::Derive(scenario);
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the equations");
}

}  // namespace dirac
