#pragma once
/// @file integrators.hpp
/// The registry of integration methods: every name `simulation.method` (and `--set method=`)
/// accepts, sorted by name, with the systems it applies to. Adding a method is one class in
/// core/src/dynamics and one line of this registry (core/src/scenario/integrator_registry.cpp).
/// Layer: scenario (names only; the solvers are in core/src/dynamics).

#include <optional>
#include <string>
#include <vector>

#include "dirac/simulation_settings.hpp"

namespace dirac {

/// One registered method.
struct IntegratorInfo {
  IntegrationMethod method;
  const char* name;        ///< the name in the scenario file, e.g. "adams"
  const char* applies_to;  ///< the systems it applies to, in words
  const char* summary;     ///< what it does, one line
  bool fixed_step;         ///< takes whole steps of `simulation.step` (needs it set)
};

/// Whether a registered method applies to a model (Model::integration_methods).
struct MethodVerdict {
  IntegrationMethod method = IntegrationMethod::kAuto;
  bool applies = false;
  /// Why not, when it does not: the refusal a run with it would get ("simulation.method:
  /// variational does not apply to this Euler-Poincare system on so(3): ...").
  std::string reason;
};

/// Every method, sorted by name (std::strcmp order); never empty.
const std::vector<IntegratorInfo>& IntegratorRegistry();

/// The registered names joined by ", " in registry order: "adams, auto, bdf, idas,
/// isospectral, lie_variational, variational".
std::string IntegrationMethodNames();

/// The registry entry of `method` (every method has one).
const IntegratorInfo& IntegratorInfoOf(IntegrationMethod method);

/// A method as a number, for editors that hold numbers (the window's undo and sessions): the
/// position of its enumerator in IntegrationMethod (auto 0, adams 1, bdf 2, idas 3, variational
/// 4, isospectral 5, lie_variational 6; new methods are appended, so a code keeps its meaning).
/// CurrentValue(scenario, "method") gives it; ApplyOverride(scenario, "method", code) and
/// `--set method=CODE` take it as well as the name.
double IntegrationMethodCode(IntegrationMethod method);
/// The method of a code (an integer of IntegrationMethodCode), or nullopt.
std::optional<IntegrationMethod> IntegrationMethodFromCode(double code);

}  // namespace dirac
