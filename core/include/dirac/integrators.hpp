#pragma once
/// @file integrators.hpp
/// The registry of integration methods: every name `simulation.method` (and `--set method=`)
/// accepts, sorted by name, with the systems it applies to. Adding a method is one class in
/// core/src/dynamics and one line of this registry (core/src/scenario/integrator_registry.cpp).
/// Layer: scenario (names only; the solvers are in core/src/dynamics).

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
};

/// Every method, sorted by name (std::strcmp order); never empty.
const std::vector<IntegratorInfo>& IntegratorRegistry();

/// The registered names joined by ", " in registry order: "adams, auto, bdf, idas,
/// isospectral, lie_variational, variational".
std::string IntegrationMethodNames();

}  // namespace dirac
