#include <cmath>
#include <string>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"

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
  if (spec.t_end / spec.output_step > kMaxSamples)
    return SettingProblem{"output_step", "t_end / output_step asks for more than " +
                                             std::to_string(static_cast<long>(kMaxSamples)) +
                                             " samples"};
  return std::nullopt;
}

const char* IntegrationMethodName(IntegrationMethod method) {
  switch (method) {
    case IntegrationMethod::kAuto:
      return "auto";
    case IntegrationMethod::kAdams:
      return "adams";
    case IntegrationMethod::kBdf:
      return "bdf";
    case IntegrationMethod::kIdas:
      return "idas";
  }
  return "auto";
}

std::optional<IntegrationMethod> IntegrationMethodFromName(const std::string& name) {
  for (auto m : {IntegrationMethod::kAuto, IntegrationMethod::kAdams, IntegrationMethod::kBdf,
                 IntegrationMethod::kIdas})
    if (name == IntegrationMethodName(m)) return m;
  return std::nullopt;
}

const char* TapeModeName(TapeMode mode) {
  switch (mode) {
    case TapeMode::kAuto:
      return "auto";
    case TapeMode::kNative:
      return "native";
    case TapeMode::kInterpreter:
      return "interpreter";
  }
  return "auto";
}

std::optional<TapeMode> TapeModeFromName(const std::string& name) {
  for (auto m : {TapeMode::kAuto, TapeMode::kNative, TapeMode::kInterpreter})
    if (name == TapeModeName(m)) return m;
  return std::nullopt;
}

const char* LinearSolverModeName(LinearSolverMode mode) {
  switch (mode) {
    case LinearSolverMode::kAuto:
      return "auto";
    case LinearSolverMode::kDense:
      return "dense";
    case LinearSolverMode::kSparse:
      return "sparse";
  }
  return "auto";
}

std::optional<LinearSolverMode> LinearSolverModeFromName(const std::string& name) {
  for (auto m : {LinearSolverMode::kAuto, LinearSolverMode::kDense, LinearSolverMode::kSparse})
    if (name == LinearSolverModeName(m)) return m;
  return std::nullopt;
}

void RequireValidSimulationSpec(const SimulationSpec& spec) {
  if (const auto problem = CheckSimulationSpec(spec))
    throw ModelError("simulation settings: " + problem->key + " " + problem->message);
}

}  // namespace dirac
