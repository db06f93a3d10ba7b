#include <array>
#include <cmath>
#include <string>

#include "dirac/error.hpp"
#include "dirac/simulation_settings.hpp"

namespace dirac {

std::optional<SettingProblem> CheckSimulationSpec(const SimulationSpec& spec) {
  if (!(spec.t_end > 0) || !std::isfinite(spec.t_end))
    return SettingProblem{"t_end", "must be > 0"};
  if (!(spec.output_step > 0) || !std::isfinite(spec.output_step))
    return SettingProblem{"output_step", "must be > 0"};
  if (!(spec.rtol > 0) || !std::isfinite(spec.rtol))
    return SettingProblem{"rtol", "tolerances must be > 0"};
  if (!(spec.atol > 0) || !std::isfinite(spec.atol))
    return SettingProblem{"atol", "tolerances must be > 0"};
  if (!(spec.stabilization >= 0) || !std::isfinite(spec.stabilization))
    return SettingProblem{"stabilization", "must be >= 0"};
  if (!std::isfinite(spec.step) || spec.step < 0.0)
    return SettingProblem{"step", "must be >= 0 (0: not set)"};
  if (spec.order != 2 && spec.order != 4) return SettingProblem{"order", "must be 2 or 4"};
  if (spec.t_end / spec.output_step > kMaxSamples)
    return SettingProblem{"output_step", "t_end / output_step asks for more than " +
                                             std::to_string(static_cast<long>(kMaxSamples)) +
                                             " samples"};
  return std::nullopt;
}

// IntegrationMethodName and IntegrationMethodFromName: the registry of dirac/integrators.hpp
// (core/src/scenario/integrator_registry.cpp).

namespace {

// The names of an enumeration's values, in the order of the values (0, 1, 2, ...).
template <class Enum, std::size_t N>
const char* NameOf(Enum value, const std::array<const char*, N>& names) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : names[0];
}

template <class Enum, std::size_t N>
std::optional<Enum> ValueNamed(const std::string& name, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (name == names[i]) return static_cast<Enum>(i);
  return std::nullopt;
}

constexpr std::array<const char*, 3> kTapeModeNames = {"auto", "native", "interpreter"};
constexpr std::array<const char*, 3> kLinearSolverNames = {"auto", "dense", "sparse"};

}  // namespace

const char* TapeModeName(TapeMode mode) { return NameOf(mode, kTapeModeNames); }

std::optional<TapeMode> TapeModeFromName(const std::string& name) {
  return ValueNamed<TapeMode>(name, kTapeModeNames);
}

const char* LinearSolverModeName(LinearSolverMode mode) { return NameOf(mode, kLinearSolverNames); }

std::optional<LinearSolverMode> LinearSolverModeFromName(const std::string& name) {
  return ValueNamed<LinearSolverMode>(name, kLinearSolverNames);
}

void RequireValidSimulationSpec(const SimulationSpec& spec) {
  if (const auto problem = CheckSimulationSpec(spec))
    throw ModelError("simulation settings: " + problem->key + " " + problem->message);
}

}  // namespace dirac
