#include <ginac/ginac.h>

#include "constraints/presymplectic_data.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

// True if det D2D2L vanishes identically (the index-1 DAE of eq (29) then does not apply).
bool IsDegenerate(const Scenario& scenario) {
  const constraints::PresymplecticData data = constraints::BuildLagrangeDirac(scenario);
  const unsigned n = static_cast<unsigned>(data.num_configuration);
  GiNaC::matrix W(n, n);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) W(i, j) = data.omega(i, n + j);
  return GiNaC::normal(W.determinant()).is_zero();
}

}  // namespace

std::shared_ptr<const Model> BuildModel(const Scenario& scenario) {
  // Lagrangians on a Lie algebroid use the algebroid Euler–Lagrange (–Suslov) DAE; the
  // constraint algorithm's builders cover TQ and the Skinner–Rusk W0 (see ARCHITECTURE.md).
  if (scenario.algebroid.present) return LagrangeDiracSystem::Derive(scenario);
  switch (scenario.formulation) {
    case Formulation::kVakonomic:
    case Formulation::kConstraintAlgorithm:
      return ConstrainedSystem::Analyze(scenario);
    case Formulation::kAuto:
    case Formulation::kLagrangeDirac:
      if (IsDegenerate(scenario)) return ConstrainedSystem::Analyze(scenario);
      return LagrangeDiracSystem::Derive(scenario);
  }
  return LagrangeDiracSystem::Derive(scenario);
}

}  // namespace dirac
