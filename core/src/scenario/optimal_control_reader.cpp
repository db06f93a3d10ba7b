// The optimal_control section: one function per key, called by ReadOptimalControl.
#include "scenario/optimal_control_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dirac/error.hpp"

namespace dirac::scenario {
namespace {

// The velocities (TQ) or fibre coordinates (algebroid) a control may act on.
std::vector<std::string> ControlledDirections(const Scenario& s) {
  std::vector<std::string> directions;
  if (s.algebroid.present)
    for (const auto& y : s.algebroid.fibre) directions.push_back(y.name);
  else
    for (const auto& c : s.coordinates) directions.push_back(c.velocity);
  return directions;
}

void ReadControls(const Reader& r, const YAML::Node& controls, SymbolRegistry& symbols,
                  const Scenario& s, std::vector<ControlSpec>& out) {
  if (!controls.IsSequence() || controls.size() == 0)
    r.Fail(controls, "controls", "expected a non-empty list of {name, acts_on, unit}");
  const std::vector<std::string> directions = ControlledDirections(s);
  for (const auto& node : controls) {
    r.CheckKeys(node, "optimal_control.controls", {"name", "acts_on", "unit"});
    ControlSpec u;
    u.name = r.String(r.Required(node, "name"), "name");
    u.acts_on = r.String(r.Required(node, "acts_on"), u.name + ".acts_on");
    u.unit = r.OptionalString(node, "unit", "");
    u.where.line = r.Line(node);
    symbols.Add(u.name, node, "control");
    if (std::find(directions.begin(), directions.end(), u.acts_on) == directions.end())
      r.Fail(
          node, u.acts_on,
          s.algebroid.present ? "acts_on names no fibre coordinate" : "acts_on names no velocity");
    for (const auto& other : out)
      if (other.acts_on == u.acts_on)
        r.Fail(node, u.acts_on,
               "two controls act on the same direction (" + other.name + ", " + u.name + ")");
    out.push_back(std::move(u));
  }
}

// {quantity: value or free}, each quantity once.
void ReadBoundaryConditions(const Reader& r, const YAML::Node& map, const std::string& key,
                            const Scenario& s, std::vector<BoundaryCondition>& out) {
  if (!map.IsMap()) r.Fail(map, key, "expected {quantity: value or free}");
  for (const auto& item : map) {
    BoundaryCondition bc;
    bc.quantity = item.first.Scalar();
    bc.where.line = r.Line(item.first);
    if (!scenario::IsBoundaryQuantity(s, bc.quantity))
      r.Fail(item.first, bc.quantity,
             "names no base coordinate, " +
                 std::string(s.algebroid.present ? "fibre coordinate" : "velocity") +
                 " or group component (one of " + scenario::BoundaryQuantityList(s) + ")");
    for (const auto& other : out)
      if (other.quantity == bc.quantity)
        r.Fail(item.first, bc.quantity, "boundary condition given twice in " + key);
    const std::string text = item.second.IsScalar() ? item.second.Scalar() : "";
    char* end = nullptr;
    bc.free = text == "free";
    if (!bc.free) bc.value = std::strtod(text.c_str(), &end);
    if (!bc.free && (text.empty() || *end != '\0' || !std::isfinite(bc.value)))
      r.Fail(item.second, bc.quantity, "expected a finite number or free, found \"" + text + "\"");
    out.push_back(std::move(bc));
  }
}

int ReadInteger(const Reader& r, const YAML::Node& map, const std::string& key, int fallback,
                int min) {
  const YAML::Node node = map[key];
  if (!node) return fallback;
  const double value = r.Number(node, key);
  if (value != std::floor(value) || value < min || value > 1e6)
    r.Fail(node, key, "expected an integer >= " + std::to_string(min) + " (at most 1e6)");
  return static_cast<int>(value);
}

void ReadShooting(const Reader& r, const YAML::Node& node, ShootingSettings& spec) {
  r.CheckKeys(node, "optimal_control.shooting",
              {"nodes", "max_iterations", "tolerance", "max_steps"});
  spec.nodes = ReadInteger(r, node, "nodes", spec.nodes, 0);
  spec.max_iterations = ReadInteger(r, node, "max_iterations", spec.max_iterations, 1);
  spec.max_steps = ReadInteger(r, node, "max_steps", spec.max_steps, 1);
  spec.tolerance = r.OptionalNumber(node, "tolerance", spec.tolerance);
  if (!(spec.tolerance > 0)) r.Fail(node["tolerance"], "tolerance", "must be > 0");
}

// A bound's side: a finite number, or -inf / inf for an open side.
double ReadBoundSide(const Reader& r, const YAML::Node& node, const std::string& key) {
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (text == "inf" || text == "+inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  return r.Number(node, key);
}

// {name: [min, max]}, each a control, base coordinate or velocity / fibre coordinate.
void ReadBounds(const Reader& r, const YAML::Node& map, const Scenario& s,
                std::vector<VariableBound>& out) {
  if (!map.IsMap()) r.Fail(map, "bounds", "expected {name: [min, max]}");
  std::vector<std::string> names = scenario::BoundedQuantities(s);
  for (const auto& u : s.optimal_control.controls) names.push_back(u.name);
  for (const auto& item : map) {
    VariableBound b;
    b.name = item.first.Scalar();
    b.where.line = r.Line(item.first);
    if (std::find(names.begin(), names.end(), b.name) == names.end())
      r.Fail(item.first, b.name,
             "a bound names a control, base coordinate or " +
                 std::string(s.algebroid.present ? "fibre coordinate" : "velocity") + " (one of " +
                 JoinNames(names) + ")");
    for (const auto& other : out)
      if (other.name == b.name) r.Fail(item.first, b.name, "bound given twice");
    if (!item.second.IsSequence() || item.second.size() != 2)
      r.Fail(item.second, b.name, "expected [min, max] (-inf / inf for an open side)");
    b.min = ReadBoundSide(r, item.second[0], b.name);
    b.max = ReadBoundSide(r, item.second[1], b.name);
    if (!(b.min <= b.max)) r.Fail(item.second, b.name, "expected min <= max");
    out.push_back(std::move(b));
  }
}

// One inequality "lhs <= rhs" or "lhs >= rhs" (exactly one operator) into g <= 0.
PathConstraintSpec ReadPathConstraint(const Reader& r, const YAML::Node& node) {
  PathConstraintSpec c;
  c.text = r.String(node, "path_constraints");
  c.where.line = r.Line(node);
  const std::size_t le = c.text.find("<="), ge = c.text.find(">=");
  const bool one = (le == std::string::npos) != (ge == std::string::npos);
  const std::size_t at = le != std::string::npos ? le : ge;
  if (!one || c.text.find("<=", at + 2) != std::string::npos ||
      c.text.find(">=", at + 2) != std::string::npos)
    r.Fail(node, c.text, "expected one inequality \"lhs <= rhs\" or \"lhs >= rhs\"");
  const std::string lhs = c.text.substr(0, at), rhs = c.text.substr(at + 2);
  if (lhs.find_first_not_of(" \t") == std::string::npos ||
      rhs.find_first_not_of(" \t") == std::string::npos)
    r.Fail(node, c.text, "an inequality needs an expression on each side");
  c.g = le != std::string::npos ? "(" + lhs + ") - (" + rhs + ")" : "(" + rhs + ") - (" + lhs + ")";
  return c;
}

// path_constraints: one inequality or a list of them.
void ReadPathConstraints(const Reader& r, const YAML::Node& node,
                         std::vector<PathConstraintSpec>& out) {
  if (node.IsScalar()) {
    out.push_back(ReadPathConstraint(r, node));
    return;
  }
  if (!node.IsSequence() || node.size() == 0)
    r.Fail(node, "path_constraints", "expected an inequality or a non-empty list of them");
  for (const auto& item : node) out.push_back(ReadPathConstraint(r, item));
}

// horizon: a number (fixed T), or free with horizon_bounds: [min, max] and horizon_guess.
void ReadHorizon(const Reader& r, const YAML::Node& oc, OptimalControlSpec& spec) {
  const YAML::Node horizon = r.Required(oc, "horizon");
  const YAML::Node bounds = oc["horizon_bounds"];
  const YAML::Node guess = oc["horizon_guess"];
  spec.horizon_free = horizon.IsScalar() && horizon.Scalar() == "free";
  if (!spec.horizon_free) {
    spec.horizon = r.Number(horizon, "horizon");
    if (!(spec.horizon > 0)) r.Fail(horizon, "horizon", "must be > 0");
    if (bounds) r.Fail(bounds, "horizon_bounds", "belongs to a free horizon (horizon: free)");
    if (guess) r.Fail(guess, "horizon_guess", "belongs to a free horizon (horizon: free)");
    return;
  }
  if (!bounds) r.Fail(horizon, "horizon_bounds", "a free horizon needs horizon_bounds: [min, max]");
  if (!bounds.IsSequence() || bounds.size() != 2)
    r.Fail(bounds, "horizon_bounds", "expected [min, max] in seconds");
  spec.horizon_min = r.Number(bounds[0], "horizon_bounds");
  spec.horizon_max = r.Number(bounds[1], "horizon_bounds");
  if (!(spec.horizon_min > 0 && spec.horizon_min < spec.horizon_max))
    r.Fail(bounds, "horizon_bounds", "expected 0 < min < max");
  spec.horizon =
      guess ? r.Number(guess, "horizon_guess") : (spec.horizon_min + spec.horizon_max) / 2;
  if (guess && !(spec.horizon >= spec.horizon_min && spec.horizon <= spec.horizon_max))
    r.Fail(guess, "horizon_guess", "lies outside horizon_bounds");
}

void ReadMethod(const Reader& r, const YAML::Node& node, OptimalControlSpec& spec) {
  const std::string name = r.String(node, "method");
  const auto method = OptimalControlMethodFromName(name);
  if (!method) r.Fail(node, name, "method is none of auto, shooting, collocation");
  spec.method = *method;
}

void ReadCollocation(const Reader& r, const YAML::Node& node, CollocationSettings& spec) {
  r.CheckKeys(node, "optimal_control.collocation",
              {"nodes", "max_iterations", "tolerance", "hessian", "scheme", "mesh_tolerance",
               "mesh_rounds", "max_nodes", "polish"});
  spec.nodes = ReadInteger(r, node, "nodes", spec.nodes, 0);
  if (const YAML::Node scheme = node["scheme"]) {
    const std::string name = r.String(scheme, "scheme");
    if (name != "hermite-simpson" && name != "trapezoidal")
      r.Fail(scheme, name, "scheme is neither hermite-simpson nor trapezoidal");
    spec.scheme = name == "trapezoidal" ? CollocationScheme::kTrapezoidal
                                        : CollocationScheme::kHermiteSimpson;
  }
  spec.mesh_tolerance = r.OptionalNumber(node, "mesh_tolerance", spec.mesh_tolerance);
  if (!(spec.mesh_tolerance > 0)) r.Fail(node["mesh_tolerance"], "mesh_tolerance", "must be > 0");
  spec.mesh_rounds = ReadInteger(r, node, "mesh_rounds", spec.mesh_rounds, 0);
  spec.max_nodes = ReadInteger(r, node, "max_nodes", spec.max_nodes, 1);
  if (const YAML::Node hessian = node["hessian"]) {
    const std::string name = r.String(hessian, "hessian");
    if (name != "exact" && name != "limited-memory")
      r.Fail(hessian, name, "hessian is neither exact nor limited-memory");
    spec.exact_hessian = name == "exact";
  }
  if (const YAML::Node polish = node["polish"]) {
    const std::string name = r.String(polish, "polish");
    if (name != "auto" && name != "off") r.Fail(polish, name, "polish is neither auto nor off");
    spec.polish = name == "auto";
  }
  spec.max_iterations = ReadInteger(r, node, "max_iterations", spec.max_iterations, 1);
  spec.tolerance = r.OptionalNumber(node, "tolerance", spec.tolerance);
  if (!(spec.tolerance > 0)) r.Fail(node["tolerance"], "tolerance", "must be > 0");
}

// The formulation follows the block (auto implies it); the horizon is the one T: simulation.t_end
// takes its value (a different t_end in the file is refused).
void ApplyOptimalControlFormulation(const Reader& r, const YAML::Node& root,
                                    const YAML::Node& horizon, Scenario& s) {
  if (s.formulation == Formulation::kAuto) s.formulation = Formulation::kOptimalControl;
  if (s.formulation != Formulation::kOptimalControl)
    r.Fail(root["formulation"], scenario::FormulationName(s.formulation),
           "an optimal_control block needs formulation auto or optimal_control");
  const YAML::Node sim = root["simulation"];
  if (sim && sim["t_end"] && s.simulation.t_end != s.optimal_control.horizon)
    r.Fail(sim["t_end"], "t_end", "differs from optimal_control.horizon (the one T; omit t_end)");
  s.simulation.t_end = s.optimal_control.horizon;
  if (const auto problem = CheckSimulationSpec(s.simulation))
    r.Fail(horizon, problem->key == "t_end" ? "horizon" : problem->key, problem->message);
}

}  // namespace

void ReadOptimalControl(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols,
                        Scenario& s) {
  const YAML::Node oc = root["optimal_control"];
  r.CheckKeys(oc, "optimal_control",
              {"horizon", "horizon_bounds", "horizon_guess", "controls", "cost", "initial", "final",
               "bounds", "method", "shooting", "collocation", "terminal_cost", "path_constraints"});
  auto& spec = s.optimal_control;
  spec.present = true;
  spec.where.line = r.Line(oc);
  if (const YAML::Node bvp = root["boundary_value"])
    r.Fail(bvp, "boundary_value",
           "a file holds one problem: boundary_value and optimal_control exclude each other");
  ReadHorizon(r, oc, spec);
  ReadControls(r, r.Required(oc, "controls"), symbols, s, spec.controls);
  // The running cost; it may be omitted (0) when a terminal cost is given.
  const YAML::Node terminal = oc["terminal_cost"];
  const YAML::Node cost = terminal ? oc["cost"] : r.Required(oc, "cost");
  spec.cost = cost ? r.String(cost, "cost") : "0";
  spec.cost_where.line = r.Line(cost ? cost : terminal);
  if (terminal) {
    spec.terminal_cost = r.String(terminal, "terminal_cost");
    spec.terminal_cost_where.line = r.Line(terminal);
  }
  if (const YAML::Node path = oc["path_constraints"])
    ReadPathConstraints(r, path, spec.path_constraints);
  if (const YAML::Node initial = oc["initial"])
    ReadBoundaryConditions(r, initial, "initial", s, spec.initial);
  if (const YAML::Node final_values = oc["final"])
    ReadBoundaryConditions(r, final_values, "final", s, spec.final);
  if (const YAML::Node bounds = oc["bounds"]) ReadBounds(r, bounds, s, spec.bounds);
  if (const YAML::Node method = oc["method"]) ReadMethod(r, method, spec);
  if (const YAML::Node shooting = oc["shooting"]) ReadShooting(r, shooting, spec.shooting);
  if (const YAML::Node collocation = oc["collocation"])
    ReadCollocation(r, collocation, spec.collocation);
  ApplyOptimalControlFormulation(r, root, oc["horizon"], s);
  // Bounds against the boundary values (infeasible ends), at the bound's line.
  if (const auto problem = CheckOptimalControlBounds(s)) {
    const std::string name = problem->key.rfind("bounds.", 0) == 0 ? problem->key.substr(7) : "";
    const YAML::Node at = name.empty() ? oc[problem->key] : oc["bounds"][name];
    r.Fail(at ? at : oc, name.empty() ? problem->key : name, problem->message);
  }
}

std::vector<std::string> TerminalCostNames(const Scenario& s) {
  std::vector<std::string> names = ControlledDirections(s);
  for (const auto& c : s.coordinates) names.push_back(c.name);
  for (const auto& p : s.parameters) names.push_back(p.name);
  return names;
}

std::vector<std::string> CostNames(const Scenario& s) {
  std::vector<std::string> names = ControlledDirections(s);
  for (const auto& c : s.coordinates) names.push_back(c.name);
  for (const auto& p : s.parameters) names.push_back(p.name);
  for (const auto& u : s.optimal_control.controls) names.push_back(u.name);
  return names;
}

}  // namespace dirac::scenario
