#include "dirac/integrators.hpp"

namespace dirac {

const std::vector<IntegratorInfo>& IntegratorRegistry() {
  // Sorted by name: the order of error messages, `dirac --help` and the window's choice.
  static const std::vector<IntegratorInfo> registry = {
      {IntegrationMethod::kAdams, "adams", "every model",
       "CVODES Adams-Moulton (fixed point, or Newton on the exact Jacobian when there is one)",
       false},
      {IntegrationMethod::kAuto, "auto", "every model",
       "Adams unless the linearisation at t = 0 is stiff (the stiffness test), then BDF", false},
      {IntegrationMethod::kBdf, "bdf", "every model",
       "CVODES BDF, Newton on the exact Jacobian (or difference quotients), projection onto "
       "the constraints",
       false},
      {IntegrationMethod::kIdas, "idas",
       "systems with an index-1 DAE form (regular Lagrange-Dirac systems, the constraint "
       "algorithm's flow on M_f)",
       "IDAS (BDF) on the index-1 DAE with a Baumgarte term", false},
      {IntegrationMethod::kIsospectral, "isospectral",
       "Euler-Poincare systems on a matrix Lie algebra with a diagonal trace form "
       "(algebroid.algebra so(n) or zeitlin_torus, quadratic autonomous Lagrangian)",
       "fixed-step isospectral midpoint (Modin-Viviani) on the Lax form M' = [B(M), M], "
       "fixed-point iteration to round-off: every Casimir tr(M^k) kept to round-off",
       true},
      {IntegrationMethod::kLieVariational, "lie_variational",
       "the free rigid body on SO(3) and the free planar body on SE(2): an algebroid over a "
       "point with the so(3) or se(2) brackets, a quadratic Lagrangian with constant inertia, "
       "reconstruction on SO3 or SE2 of the fibre",
       "fixed-step Lie group variational integrator: on SO(3) Lee-Leok-McClamroch, h Pi^ = F "
       "J_d - J_d F^T by Newton on F = exp(f^), R' = R F, Pi' = F^T Pi; on SE(2) the discrete "
       "Euler-Poincare equations with the exponential map (Bou-Rabee-Marsden), g' = g exp(h xi)",
       true},
      {IntegrationMethod::kVariational, "variational",
       "regular Lagrangians on TQ, unconstrained or with nonholonomic or holonomic constraints "
       "(not on an algebroid)",
       "fixed-step variational integrator: midpoint discrete Lagrangian (order 2) or its "
       "triple-jump composition (order 4), discrete Lagrange-d'Alembert constraints, RATTLE for "
       "holonomic constraints, Newton on exact Jacobians",
       true},
  };
  return registry;
}

const IntegratorInfo& IntegratorInfoOf(IntegrationMethod method) {
  for (const IntegratorInfo& info : IntegratorRegistry())
    if (info.method == method) return info;
  return IntegratorRegistry().front();
}

double IntegrationMethodCode(IntegrationMethod method) { return static_cast<double>(method); }

std::optional<IntegrationMethod> IntegrationMethodFromCode(double code) {
  for (const IntegratorInfo& info : IntegratorRegistry())
    if (IntegrationMethodCode(info.method) == code) return info.method;
  return std::nullopt;
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
