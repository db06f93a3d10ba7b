#include "dirac/integrators.hpp"

namespace dirac {

const std::vector<IntegratorInfo>& IntegratorRegistry() {
  // Sorted by name: the order of error messages, `dirac --help` and the window's choice.
  static const std::vector<IntegratorInfo> registry = {
      {IntegrationMethod::kAdams, "adams", "every model",
       "CVODES Adams-Moulton (fixed point, or Newton on the exact Jacobian when there is one)"},
      {IntegrationMethod::kAuto, "auto", "every model",
       "Adams unless the linearisation at t = 0 is stiff (the stiffness test), then BDF"},
      {IntegrationMethod::kBdf, "bdf", "every model",
       "CVODES BDF, Newton on the exact Jacobian (or difference quotients), projection onto "
       "the constraints"},
      {IntegrationMethod::kIdas, "idas",
       "systems with an index-1 DAE form (regular Lagrange-Dirac systems, the constraint "
       "algorithm's flow on M_f)",
       "IDAS (BDF) on the index-1 DAE with a Baumgarte term"},
      {IntegrationMethod::kVariational, "variational",
       "regular Lagrangians on TQ, unconstrained or with nonholonomic constraints (not on an "
       "algebroid, not with holonomic constraints)",
       "fixed-step variational integrator: midpoint discrete Lagrangian (order 2) or its "
       "triple-jump composition (order 4), discrete Lagrange-d'Alembert constraints, Newton "
       "on exact Jacobians"},
  };
  return registry;
}

std::string IntegrationMethodNames() {
  std::string out;
  for (const IntegratorInfo& info : IntegratorRegistry()) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

const char* IntegrationMethodName(IntegrationMethod method) {
  for (const IntegratorInfo& info : IntegratorRegistry())
    if (info.method == method) return info.name;
  return "auto";
}

std::optional<IntegrationMethod> IntegrationMethodFromName(const std::string& name) {
  for (const IntegratorInfo& info : IntegratorRegistry())
    if (name == info.name) return info.method;
  return std::nullopt;
}

}  // namespace dirac
