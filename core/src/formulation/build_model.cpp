#include "dirac/build_model.hpp"

#include "base/foreign_errors.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/lagrange_dirac_system.hpp"

namespace dirac {

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
      if (auto regular = LagrangeDiracSystem::DeriveIfRegular(scenario)) return regular;
      return ConstrainedSystem::Analyze(scenario);
  }
  return LagrangeDiracSystem::Derive(scenario);
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the equations");
}

}  // namespace dirac
