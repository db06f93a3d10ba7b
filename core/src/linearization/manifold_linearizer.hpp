#pragma once
// Internal: the linearization of a regular Lagrange–Dirac system (TQ or a Lie algebroid) on its
// constraint manifold, and of an explicit flow on M_f (linearizer.cpp chooses).

#include <memory>

#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/linearization.hpp"

namespace dirac::linearization {

std::shared_ptr<const Linearizer> MakeManifoldLinearizer(
    const Scenario& scenario, const LinearizationOptions& options,
    std::shared_ptr<const LagrangeDiracSystem> model);

std::shared_ptr<const Linearizer> MakeFlowLinearizer(const Scenario& scenario,
                                                     const LinearizationOptions& options,
                                                     std::shared_ptr<const Model> model);

}  // namespace dirac::linearization
