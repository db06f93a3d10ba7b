// The `--set NAME=VALUE` overrides and the lookups by name they share with CurrentValue.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dirac/error.hpp"
#include "dirac/integrators.hpp"
#include "dirac/scenario.hpp"
#include "scenario/initial_state.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac {
namespace {

// The initial value (or parameter value) named `name`; S is Scenario or const Scenario.
template <typename S>
auto InitialField(S& s, const std::string& name) -> decltype(&s.coordinates.front().initial) {
  if (const auto index = s.FindParameter(name)) return &s.parameters[*index].value;
  for (auto& c : s.coordinates) {
    if (c.name == name) return &c.initial;
    if (c.velocity == name) return &c.initial_velocity;
    if (c.momentum == name) return &c.initial_momentum;
  }
  for (auto& y : s.algebroid.fibre)
    if (y.name == name) return &y.initial;
  return nullptr;
}

// The simulation setting named `name`; Spec is SimulationSpec or const SimulationSpec.
template <typename Spec>
auto SettingField(Spec& spec, const std::string& name) -> decltype(&spec.t_end) {
  if (name == "t_end") return &spec.t_end;
  if (name == "output_step") return &spec.output_step;
  if (name == "rtol") return &spec.rtol;
  if (name == "atol") return &spec.atol;
  if (name == "stabilization") return &spec.stabilization;
  if (name == "step") return &spec.step;
  return nullptr;
}

// An acceleration or costate (p_<v>, pbar_<v>) of a second-order problem.
bool IsSecondOrderName(const Scenario& s, const std::string& name) {
  const auto& spec = s.second_order;
  if (spec.accelerations.empty()) return false;
  if (std::find(spec.accelerations.begin(), spec.accelerations.end(), name) !=
      spec.accelerations.end())
    return true;
  for (const auto& c : s.coordinates)
    if (name == "p_" + c.velocity || name == "pbar_" + c.velocity) return true;
  for (const auto& y : s.algebroid.fibre)
    if (name == "p_" + y.name || name == "pbar_" + y.name) return true;
  return false;
}

void SetSecondOrderInitial(SecondOrderSpec& spec, const std::string& name, double value) {
  for (auto& [n, v] : spec.initial)
    if (n == name) {
      v = value;
      return;
    }
  spec.initial.emplace_back(name, value);
}

// The whole spec is checked with the new value; on failure nothing changes. With an
// optimal_control block, t_end and horizon are the one T and set each other.
// While ApplyOverrides runs, the spec is checked once after the last assignment instead.
thread_local bool defer_setting_check = false;

void SetSimulationSetting(Scenario& s, const std::string& name, double value) {
  SimulationSpec spec = s.simulation;
  *SettingField(spec, name == "horizon" ? std::string("t_end") : name) = value;
  if (const auto problem = defer_setting_check ? std::nullopt : CheckSimulationSpec(spec))
    throw ScenarioError(s.source_file, 0, name, problem->message);
  s.simulation = spec;
  if (s.optimal_control.present) s.optimal_control.horizon = spec.t_end;
  // Setting the horizon (or t_end, the same T) fixes it, as final.<q>=value fixes a boundary
  // value: `dirac run --t-end 1` integrates a free-horizon problem's model over 1 s.
  if (name == "horizon" || name == "t_end") s.optimal_control.horizon_free = false;
}

// ---- optimal_control bounds and free horizon: --set bounds.<name>.min / .max,
// horizon_bounds.min / .max, horizon_guess, horizon=free ----------------------------------

// The number a bound name refers to (nullptr if `name` is none); Spec may be const.
template <typename Spec>
auto BoundField(Spec& spec, const std::string& name) -> decltype(&spec.horizon) {
  if (!spec.present) return nullptr;
  if (name == "horizon_bounds.min") return &spec.horizon_min;
  if (name == "horizon_bounds.max") return &spec.horizon_max;
  if (name == "horizon_guess") return spec.horizon_free ? &spec.horizon : nullptr;
  if (name.rfind("bounds.", 0) != 0) return nullptr;
  for (auto& b : spec.bounds)
    for (const char* side : {".min", ".max"})
      if (name == "bounds." + b.name + side) return std::string(side) == ".min" ? &b.min : &b.max;
  return nullptr;
}

void ThrowIfBoundProblem(const Scenario& s) {
  if (defer_setting_check) return;
  if (const auto problem = CheckOptimalControlBounds(s))
    throw ScenarioError(s.source_file, 0, problem->key, problem->message);
}

// Sets a bound by its --set name; a bound not yet listed is added (its other side open).
bool SetBound(Scenario& s, const std::string& name, double value) {
  auto& spec = s.optimal_control;
  if (!spec.present) return false;
  Scenario edited = s;
  if (double* field = BoundField(edited.optimal_control, name)) {
    *field = value;
  } else if (name.rfind("bounds.", 0) == 0 && name.size() > 11 &&
             (name.substr(name.size() - 4) == ".min" || name.substr(name.size() - 4) == ".max")) {
    VariableBound b;
    b.name = name.substr(7, name.size() - 11);
    (name.substr(name.size() - 4) == ".min" ? b.min : b.max) = value;
    edited.optimal_control.bounds.push_back(b);
  } else {
    return false;
  }
  if (name == "horizon_guess") {
    edited.simulation.t_end = value;
    if (const auto problem =
            defer_setting_check ? std::nullopt : CheckSimulationSpec(edited.simulation))
      throw ScenarioError(s.source_file, 0, name, problem->message);
  }
  ThrowIfBoundProblem(edited);
  s = std::move(edited);
  return true;
}

// ---- optimal_control boundary values: --set initial.<quantity>, final.<quantity> -----------

struct BoundaryName {
  bool initial = false;  ///< initial.<quantity> (else final.<quantity>)
  std::string quantity;
};

// "initial.X" / "final.X" of a scenario with an optimal_control block, X any text.
std::optional<BoundaryName> ParseBoundaryName(const Scenario& s, const std::string& name) {
  if (!s.optimal_control.present) return std::nullopt;
  for (const std::string prefix : {"initial.", "final."})
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
      return BoundaryName{prefix == "initial.", name.substr(prefix.size())};
  return std::nullopt;
}

// The condition listed for `quantity`, if any.
BoundaryCondition* FindCondition(std::vector<BoundaryCondition>& conditions,
                                 const std::string& quantity) {
  for (auto& bc : conditions)
    if (bc.quantity == quantity) return &bc;
  return nullptr;
}

const BoundaryCondition* FindCondition(const std::vector<BoundaryCondition>& conditions,
                                       const std::string& quantity) {
  for (const auto& bc : conditions)
    if (bc.quantity == quantity) return &bc;
  return nullptr;
}

void SetBoundaryValue(Scenario& s, const std::string& name, const BoundaryName& b, double value,
                      bool free = false) {
  if (!scenario::IsBoundaryQuantity(s, b.quantity))
    throw ScenarioError(
        s.source_file, 0, name,
        "names no boundary quantity (one of " + scenario::BoundaryQuantityList(s) + ")");
  auto& conditions = b.initial ? s.optimal_control.initial : s.optimal_control.final;
  BoundaryCondition* bc = FindCondition(conditions, b.quantity);
  if (!bc) {
    conditions.push_back(BoundaryCondition{b.quantity, false, 0.0, {}});
    bc = &conditions.back();
  }
  bc->free = free;
  bc->value = free ? 0.0 : value;
}

// log R as a rotation vector (inverse Rodrigues) of a row-major 3x3 rotation matrix; accurate
// near angle 0 (series of theta / sin theta) and pi (axis from the symmetric part).
std::array<double, 3> RotationVector(const std::vector<double>& R) {
  if (R.size() != 9) return {0.0, 0.0, 0.0};  // identity
  auto at = [&](int i, int j) { return R[3 * i + j]; };
  const std::array<double, 3> w{(at(2, 1) - at(1, 2)) / 2, (at(0, 2) - at(2, 0)) / 2,
                                (at(1, 0) - at(0, 1)) / 2};  // sin(theta) n
  const double sin_theta = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double cos_theta = std::clamp((at(0, 0) + at(1, 1) + at(2, 2) - 1) / 2, -1.0, 1.0);
  const double theta = std::atan2(sin_theta, cos_theta);
  if (cos_theta >= 0) {  // theta <= pi/2: n sin(theta) from the antisymmetric part
    const double factor = sin_theta < 1e-6 ? 1 + sin_theta * sin_theta / 6 : theta / sin_theta;
    return {factor * w[0], factor * w[1], factor * w[2]};
  }
  // theta > pi/2: (R + R^T)/2 - cos(theta) I = (1 - cos(theta)) n n^T; the sign from w.
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (at(i, i) > at(k, k)) k = i;
  std::array<double, 3> n{};
  for (int i = 0; i < 3; ++i)
    n[i] = ((at(i, k) + at(k, i)) / 2 - (i == k ? cos_theta : 0.0)) / (1 - cos_theta);
  const double norm = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const double sign = n[0] * w[0] + n[1] * w[1] + n[2] * w[2] < 0 ? -1.0 : 1.0;
  for (auto& e : n) e *= sign * theta / norm;
  return n;
}

// The scenario's own initial value of a boundary quantity (what an unlisted initial condition
// fixes): coordinate, velocity or fibre coordinate, or group component of reconstruction.initial.
std::optional<double> ScenarioInitialValue(const Scenario& s, const std::string& quantity) {
  for (const auto& c : s.coordinates) {
    if (c.name == quantity) return c.initial;
    if (!s.algebroid.present && c.velocity == quantity) return c.initial_velocity;
  }
  for (const auto& y : s.algebroid.fibre)
    if (y.name == quantity) return y.initial;
  const auto& rec = s.reconstruction;
  if (rec.group == "SE2")
    for (std::size_t k = 0; k < rec.names.size(); ++k)
      if (rec.names[k] == quantity) return rec.initial.size() == 3 ? rec.initial[k] : 0.0;
  if (rec.group == "SO3" && !rec.names.empty()) {
    const std::array<double, 3> log_r = RotationVector(rec.initial);
    for (std::size_t k = 0; k < 3; ++k)
      if (quantity == rec.names[0] + "." + "xyz"[k]) return log_r[k];
  }
  return std::nullopt;
}

std::optional<double> BoundaryValue(const Scenario& s, const BoundaryName& b) {
  const auto& spec = s.optimal_control;
  if (const BoundaryCondition* bc =
          FindCondition(b.initial ? spec.initial : spec.final, b.quantity))
    return bc->free ? std::nullopt : std::optional(bc->value);
  if (!b.initial || !scenario::IsBoundaryQuantity(s, b.quantity)) return std::nullopt;
  return ScenarioInitialValue(s, b.quantity);
}

}  // namespace

double SecondOrderSpec::InitialValue(const std::string& name) const {
  for (const auto& [n, v] : initial)
    if (n == name) return v;
  return 0.0;
}

std::optional<std::size_t> Scenario::FindParameter(const std::string& name) const {
  for (std::size_t i = 0; i < parameters.size(); ++i)
    if (parameters[i].name == name) return i;
  return std::nullopt;
}

// A target of a boundary_value block, "final.<column>".
std::pair<std::string, double>* BoundaryTarget(Scenario& s, const std::string& name) {
  if (s.optimal_control.present || name.rfind("final.", 0) != 0) return nullptr;
  for (auto& target : s.boundary_value.targets)
    if (target.first == name.substr(6)) return &target;
  return nullptr;
}

std::optional<double> CurrentValue(const Scenario& s, const std::string& name) {
  if (auto* target = BoundaryTarget(const_cast<Scenario&>(s), name)) return target->second;
  if (const double* field = InitialField(s, name)) return *field;
  if (IsSecondOrderName(s, name)) return s.second_order.InitialValue(name);
  if (const double* field = SettingField(s.simulation, name)) return *field;
  if (name == "method") return IntegrationMethodCode(s.simulation.method);
  if (s.optimal_control.present && name == "horizon") return s.optimal_control.horizon;
  if (const double* field = BoundField(s.optimal_control, name)) return *field;
  if (const auto boundary = ParseBoundaryName(s, name)) return BoundaryValue(s, *boundary);
  return std::nullopt;
}

void ApplyOverride(Scenario& s, const std::string& name, double value) {
  if (!std::isfinite(value)) throw ScenarioError(s.source_file, 0, name, "value is not finite");
  if (const auto index = s.FindParameter(name)) {
    // A derived parameter set by hand stops following its expression; the others follow it.
    s.parameters[*index].value = value;
    s.parameters[*index].set_by_user = true;
    UpdateDerivedParameters(s);
    return;
  }
  for (auto& c : s.coordinates)
    if (c.velocity == name) c.initial_velocity_set = true;  // stops following its expression
  if (double* field = InitialField(s, name)) {
    *field = value;
    return;
  }
  if (IsSecondOrderName(s, name)) return SetSecondOrderInitial(s.second_order, name, value);
  if (name == "method") {  // by its code (IntegrationMethodCode): the window's number editors
    const auto method = IntegrationMethodFromCode(value);
    if (!method)
      throw ScenarioError(s.source_file, 0, name,
                          "value " + std::to_string(value) +
                              " is no method's code (names: " + IntegrationMethodNames() + ")");
    s.simulation.method = *method;
    return;
  }
  if (SettingField(s.simulation, name) || (s.optimal_control.present && name == "horizon"))
    return SetSimulationSetting(s, name, value);
  if (auto* target = BoundaryTarget(s, name)) {
    target->second = value;
    return;
  }
  if (const auto boundary = ParseBoundaryName(s, name)) {
    Scenario edited = s;
    SetBoundaryValue(edited, name, *boundary, value);
    ThrowIfBoundProblem(edited);
    s = std::move(edited);
    return;
  }
  if (SetBound(s, name, value)) return;
  throw ScenarioError(s.source_file, 0, name,
                      "--set names no parameter, coordinate, velocity or simulation setting");
}

// As in the file: optimal_control needs the block, and auto with the block means it.
void SetFormulation(Scenario& s, const std::string& name) {
  const auto formulation = scenario::FormulationFromName(name);
  if (!formulation)
    throw ScenarioError(s.source_file, 0, name,
                        "unknown formulation (" + scenario::FormulationList() + ")");
  if (*formulation == Formulation::kOptimalControl && !s.optimal_control.present)
    throw ScenarioError(s.source_file, 0, name,
                        "formulation optimal_control needs an optimal_control block");
  s.formulation = *formulation == Formulation::kAuto && s.optimal_control.present
                      ? Formulation::kOptimalControl
                      : *formulation;
}

void ApplyOverride(Scenario& s, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ScenarioError(s.source_file, 0, assignment, "expected NAME=VALUE");
  const std::string name = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  if (text == "free" && name == "horizon" && s.optimal_control.present) {
    // The horizon becomes an unknown in its bounds, from its current value as the guess.
    Scenario edited = s;
    edited.optimal_control.horizon_free = true;
    ThrowIfBoundProblem(edited);
    s = std::move(edited);
    return;
  }
  if (name == "optimal_control.method" && s.optimal_control.present) {
    const auto method = scenario::OptimalControlMethodFromName(text);
    if (!method)
      throw ScenarioError(s.source_file, 0, name,
                          "value \"" + text + "\" is none of auto, shooting, collocation");
    s.optimal_control.method = *method;
    return;
  }
  if (name == "optimal_control.collocation.polish" && s.optimal_control.present) {
    if (text != "auto" && text != "off")
      throw ScenarioError(s.source_file, 0, name, "value \"" + text + "\" is neither auto nor off");
    s.optimal_control.collocation.polish = text == "auto";
    return;
  }
  if (text == "free") {
    // A boundary value may be released: its transversality condition holds instead.
    const auto boundary = ParseBoundaryName(s, name);
    if (!boundary)
      throw ScenarioError(s.source_file, 0, name,
                          "only boundary values (initial.<q>, final.<q>) can be set free");
    return SetBoundaryValue(s, name, *boundary, 0.0, true);
  }
  if (name == "method") {
    auto method = IntegrationMethodFromName(text);
    char* end = nullptr;
    const double code = std::strtod(text.c_str(), &end);
    if (!method && !text.empty() && *end == '\0') method = IntegrationMethodFromCode(code);
    if (!method)
      throw ScenarioError(s.source_file, 0, name,
                          "value \"" + text + "\" is none of " + IntegrationMethodNames());
    s.simulation.method = *method;
    return;
  }
  const auto names_parameter = [&] {
    for (const auto& parameter : s.parameters)
      if (parameter.name == name) return true;
    return InitialField(s, name) != nullptr;
  };
  if (name == "order" && !names_parameter()) {  // the fixed-step methods' order: 2 or 4
    if (text != "2" && text != "4")
      throw ScenarioError(s.source_file, 0, name, "value \"" + text + "\" is neither 2 nor 4");
    s.simulation.order = text == "2" ? 2 : 4;
    return;
  }
  // Named choices: the parsed value, or a ScenarioError listing the names.
  const auto choose = [&](auto parsed, auto& field, const char* names) {
    if (!parsed)
      throw ScenarioError(s.source_file, 0, name,
                          "value \"" + text + "\" is none of " + std::string(names));
    field = *parsed;
  };
  if (name == "tape")
    return choose(TapeModeFromName(text), s.simulation.tape, "auto, native, interpreter");
  if (name == "linear_solver")
    return choose(LinearSolverModeFromName(text), s.simulation.linear_solver,
                  "auto, dense, sparse");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    throw ScenarioError(s.source_file, 0, name, "value \"" + text + "\" is not a number");
  ApplyOverride(s, name, value);
}

void ApplyOverrides(Scenario& s, const std::vector<std::string>& assignments) {
  Scenario result = s;
  struct Defer {
    Defer() { defer_setting_check = true; }
    ~Defer() { defer_setting_check = false; }
  };
  std::set<std::string> names;
  {
    Defer defer;
    for (const auto& assignment : assignments) {
      ApplyOverride(result, assignment);
      names.insert(assignment.substr(0, assignment.find('=')));
    }
  }
  // Coordinates solved from the holonomic constraints and the dependent velocities follow the
  // new values (a set of one of them is refused).
  scenario::SolveInitialState(result, names);
  if (const auto problem = CheckSimulationSpec(result.simulation))
    throw ScenarioError(s.source_file, 0, problem->key, problem->message);
  if (const auto problem = CheckOptimalControlBounds(result))
    throw ScenarioError(s.source_file, 0, problem->key, problem->message);
  s = std::move(result);
}

}  // namespace dirac
