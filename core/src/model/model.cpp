#include "dirac/model.hpp"

#include <algorithm>

#include "dirac/error.hpp"
#include "dynamics/integrator.hpp"
#include "model/explicit_flow.hpp"

namespace dirac {

std::vector<std::string> Model::TrajectoryColumns() const {
  std::vector<std::string> names;
  for (const ColumnInfo& column : columns()) names.push_back(column.name);
  return names;
}

std::vector<std::string> Model::ColumnsOfKind(ColumnKind kind) const {
  std::vector<std::string> names;
  for (const ColumnInfo& column : columns())
    if (column.kind == kind) names.push_back(column.name);
  return names;
}

const InitialValueInfo* Model::FindInitialValue(const std::string& name) const {
  const auto& values = initial_values();
  const auto it = std::find_if(values.begin(), values.end(),
                               [&](const InitialValueInfo& v) { return v.name == name; });
  return it == values.end() ? nullptr : &*it;
}

std::vector<MethodVerdict> Model::integration_methods(const std::vector<double>&) const {
  return dynamics::MethodVerdicts(dynamics::SystemForm::kExplicitOde, "this system");
}

std::vector<double> Model::FlowState(const SimulationInput&) const {
  throw ModelError("this model (" + formulation() + ") has no explicit flow on M_f");
}

std::vector<std::string> Model::FlowStateNames() const {
  const ExplicitFlow* flow = explicit_flow();
  return flow ? flow->states : std::vector<std::string>{};
}

const char* ColumnKindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kTime:
      return "time";
    case ColumnKind::kCoordinate:
      return "coordinate";
    case ColumnKind::kVelocity:
      return "velocity";
    case ColumnKind::kMomentum:
      return "momentum";
    case ColumnKind::kCostate:
      return "costate";
    case ColumnKind::kAcceleration:
      return "acceleration";
    case ColumnKind::kRate:
      return "rate";
    case ColumnKind::kMultiplier:
      return "multiplier";
    case ColumnKind::kEnergy:
      return "energy";
    case ColumnKind::kConstraintResidual:
      return "constraint_residual";
    case ColumnKind::kHiddenConstraintResidual:
      return "hidden_constraint_residual";
    case ColumnKind::kDynamicsResidual:
      return "dynamics_residual";
    case ColumnKind::kGroup:
      return "group";
    case ColumnKind::kDiagnostic:
      return "diagnostic";
  }
  return "diagnostic";
}

}  // namespace dirac
