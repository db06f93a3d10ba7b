// The scenario reader: one function per top-level YAML section, called in file-format order by
// ReadDocument, then the cross-section checks (expressions, trajectory columns).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "dirac/scene_options.hpp"
#include "scenario/scenario_symbols.hpp"
#include "scenario/yaml_reader.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

using scenario::Reader;

// Checks that symbol names are identifiers, unique and not reserved.
class SymbolRegistry {
 public:
  explicit SymbolRegistry(const Reader& reader) : reader_(reader) {}
  void Add(const std::string& name, const YAML::Node& node, const std::string& role) {
    if (!symbolic::IsValidIdentifier(name))
      reader_.Fail(node, name, role + " name must be an identifier (letters, digits, _)");
    if (symbolic::IsReservedName(name))
      reader_.Fail(node, name, role + " name is reserved (a function, constant, t or E)");
    if (!names_.insert(name).second) reader_.Fail(node, name, "symbol defined twice");
  }
  const std::set<std::string>& names() const { return names_; }

 private:
  const Reader& reader_;
  std::set<std::string> names_;
};

// ---- name, description, formulation ---------------------------------------------------------

void ReadHeader(const Reader& r, const YAML::Node& root, Scenario& s) {
  s.name = r.String(r.Required(root, "name"), "name");
  s.description = r.OptionalString(root, "description", "");
  if (const YAML::Node formulation = root["formulation"]) {
    const std::string f = r.String(formulation, "formulation");
    const auto parsed = scenario::FormulationFromName(f);
    if (!parsed)
      r.Fail(formulation, f, "unknown formulation (" + scenario::FormulationList() + ")");
    s.formulation = *parsed;
  }
}

// ---- coordinates ----------------------------------------------------------------------------

Coordinate ReadCoordinate(const Reader& r, const YAML::Node& node) {
  r.CheckKeys(
      node, "coordinates",
      {"name", "velocity", "initial", "initial_velocity", "unit", "momentum", "initial_momentum"});
  Coordinate c;
  c.name = r.String(r.Required(node, "name"), "name");
  c.velocity = r.OptionalString(node, "velocity", "v" + c.name);
  c.initial = r.OptionalNumber(node, "initial", 0.0);
  c.initial_velocity = r.OptionalNumber(node, "initial_velocity", 0.0);
  c.unit = r.OptionalString(node, "unit", "");
  c.momentum = r.OptionalString(node, "momentum", "p_" + c.name);
  c.initial_momentum = r.OptionalNumber(node, "initial_momentum", 0.0);
  c.where.line = r.Line(node);
  return c;
}

// On a Lie algebroid the coordinates may be absent (a Lie algebra) and have no velocities.
void ReadCoordinates(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols,
                     Scenario& s) {
  const bool algebroid = s.algebroid.present;
  const YAML::Node coordinates = algebroid && !root["coordinates"]
                                     ? YAML::Node(YAML::NodeType::Sequence)
                                     : r.Required(root, "coordinates");
  if (!coordinates.IsSequence() || (coordinates.size() == 0 && !algebroid))
    r.Fail(coordinates, "coordinates", "expected a non-empty list of coordinates");
  for (const auto& node : coordinates) {
    Coordinate c = ReadCoordinate(r, node);
    symbols.Add(c.name, node, "coordinate");
    if (!algebroid) symbols.Add(c.velocity, node, "velocity");
    // Momentum symbols are always declared so a scenario can switch formulation (--formulation).
    if (!algebroid) symbols.Add(c.momentum, node, "momentum");
    s.coordinates.push_back(std::move(c));
  }
}

// ---- algebroid ------------------------------------------------------------------------------

bool SectionKnown(const AlgebroidSpec& algebroid, const std::string& name) {
  return std::any_of(algebroid.fibre.begin(), algebroid.fibre.end(),
                     [&](const FibreCoordinate& y) { return y.name == name; });
}

bool CoordinateKnown(const Scenario& s, const std::string& name) {
  return std::any_of(s.coordinates.begin(), s.coordinates.end(),
                     [&](const Coordinate& c) { return c.name == name; });
}

// {name: expression}; names are sections (brackets) or base coordinates (anchor).
Components ReadComponents(const Reader& r, const YAML::Node& map, const std::string& key,
                          bool sections, const Scenario& s) {
  if (!map.IsMap()) r.Fail(map, key, "expected a mapping {name: expression}");
  Components out;
  for (const auto& item : map) {
    const std::string name = item.first.Scalar();
    const bool known = sections ? SectionKnown(s.algebroid, name) : CoordinateKnown(s, name);
    if (!known)
      r.Fail(item.first, name,
             sections ? "names no fibre coordinate (section)" : "names no base coordinate");
    out.emplace_back(name, r.String(item.second, name));
  }
  return out;
}

void ReadFibre(const Reader& r, const YAML::Node& fibre, SymbolRegistry& symbols,
               AlgebroidSpec& algebroid) {
  if (!fibre.IsSequence() || fibre.size() == 0)
    r.Fail(fibre, "fibre", "expected a non-empty list of fibre coordinates");
  for (const auto& node : fibre) {
    r.CheckKeys(node, "algebroid.fibre", {"name", "initial", "unit"});
    FibreCoordinate y;
    y.name = r.String(r.Required(node, "name"), "name");
    y.initial = r.OptionalNumber(node, "initial", 0.0);
    y.unit = r.OptionalString(node, "unit", "");
    y.where.line = r.Line(node);
    symbols.Add(y.name, node, "fibre coordinate");
    algebroid.fibre.push_back(y);
  }
}

void ReadAnchor(const Reader& r, const YAML::Node& anchor, Scenario& s) {
  if (!anchor.IsSequence()) r.Fail(anchor, "anchor", "expected a list of {section, components}");
  for (const auto& node : anchor) {
    r.CheckKeys(node, "algebroid.anchor", {"section", "components"});
    AnchorSpec a;
    a.section = r.String(r.Required(node, "section"), "section");
    if (!SectionKnown(s.algebroid, a.section)) r.Fail(node, a.section, "names no fibre coordinate");
    a.components = ReadComponents(r, r.Required(node, "components"), a.section, false, s);
    a.where.line = r.Line(node);
    s.algebroid.anchor.push_back(a);
  }
}

BracketSpec ReadBracket(const Reader& r, const YAML::Node& node, const Scenario& s) {
  r.CheckKeys(node, "algebroid.brackets", {"pair", "value"});
  BracketSpec b;
  const YAML::Node pair = r.Required(node, "pair");
  if (!pair.IsSequence() || pair.size() != 2)
    r.Fail(node, "pair", "expected [X_a, X_b] as two fibre names");
  b.a = r.String(pair[0], "pair");
  b.b = r.String(pair[1], "pair");
  for (const auto& name : {b.a, b.b})
    if (!SectionKnown(s.algebroid, name)) r.Fail(pair, name, "names no fibre coordinate (section)");
  if (b.a == b.b) r.Fail(pair, b.a, "[X, X] = 0 by antisymmetry; do not list it");
  b.value = ReadComponents(r, r.Required(node, "value"), "[" + b.a + ", " + b.b + "]", true, s);
  b.where.line = r.Line(node);
  return b;
}

void ReadBrackets(const Reader& r, const YAML::Node& brackets, Scenario& s) {
  if (!brackets.IsSequence()) r.Fail(brackets, "brackets", "expected a list of {pair, value}");
  for (const auto& node : brackets) {
    BracketSpec b = ReadBracket(r, node, s);
    for (const auto& other : s.algebroid.brackets)
      if ((other.a == b.a && other.b == b.b) || (other.a == b.b && other.b == b.a))
        r.Fail(node, "[" + b.a + ", " + b.b + "]",
               "bracket given twice (the other order follows by antisymmetry)");
    s.algebroid.brackets.push_back(std::move(b));
  }
}

void ReadAlgebroid(const Reader& r, const YAML::Node& algebroid, SymbolRegistry& symbols,
                   Scenario& s) {
  r.CheckKeys(algebroid, "algebroid", {"fibre", "anchor", "brackets"});
  s.algebroid.where.line = r.Line(algebroid);
  ReadFibre(r, r.Required(algebroid, "fibre"), symbols, s.algebroid);
  if (const YAML::Node anchor = algebroid["anchor"]) ReadAnchor(r, anchor, s);
  if (const YAML::Node brackets = algebroid["brackets"]) ReadBrackets(r, brackets, s);
}

// ---- parameters, lagrangian, constraints ----------------------------------------------------

Parameter ReadParameter(const Reader& r, const YAML::Node& node) {
  r.CheckKeys(node, "parameters", {"name", "default", "min", "max", "unit", "description"});
  Parameter p;
  p.name = r.String(r.Required(node, "name"), "name");
  p.default_value = r.Number(r.Required(node, "default"), p.name + ".default");
  p.value = p.default_value;
  p.min = r.OptionalNumber(node, "min", std::min(0.0, 2 * p.default_value));
  p.max = r.OptionalNumber(node, "max", std::max(1.0, 2 * p.default_value));
  if (!(p.min < p.max)) r.Fail(node, p.name, "parameter range needs min < max");
  if (p.default_value < p.min || p.default_value > p.max)
    r.Fail(node, p.name, "default lies outside [min, max]");
  p.unit = r.OptionalString(node, "unit", "");
  p.description = r.OptionalString(node, "description", "");
  p.where.line = r.Line(node);
  return p;
}

void ReadParameters(const Reader& r, const YAML::Node& parameters, SymbolRegistry& symbols,
                    std::vector<Parameter>& out) {
  if (!parameters.IsSequence()) r.Fail(parameters, "parameters", "expected a list");
  for (const auto& node : parameters) {
    Parameter p = ReadParameter(r, node);
    symbols.Add(p.name, node, "parameter");
    out.push_back(std::move(p));
  }
}

void ReadLagrangian(const Reader& r, const YAML::Node& root, Scenario& s) {
  const YAML::Node lagrangian = r.Required(root, "lagrangian");
  s.lagrangian = r.String(lagrangian, "lagrangian");
  s.lagrangian_where.line = r.Line(lagrangian);
}

// Default names: c<k>; multiplier "mu" for a single constraint, else mu<k>.
ConstraintSpec ReadConstraint(const Reader& r, const YAML::Node& node, std::size_t index,
                              bool single) {
  r.CheckKeys(node, "constraints", {"name", "form", "multiplier"});
  const std::string k = std::to_string(index);  // append(): "c" + k trips GCC 12's -Wrestrict
  ConstraintSpec c;
  c.name = r.OptionalString(node, "name", std::string("c").append(k));
  c.form = r.String(r.Required(node, "form"), c.name + ".form");
  c.multiplier = r.OptionalString(node, "multiplier", single ? "mu" : std::string("mu").append(k));
  c.where.line = r.Line(node);
  if (!symbolic::IsValidIdentifier(c.name))
    r.Fail(node, c.name, "constraint name must be an identifier");
  return c;
}

void ReadConstraints(const Reader& r, const YAML::Node& constraints, SymbolRegistry& symbols,
                     std::vector<ConstraintSpec>& out) {
  if (!constraints.IsSequence()) r.Fail(constraints, "constraints", "expected a list");
  std::size_t index = 0;
  for (const auto& node : constraints) {
    ConstraintSpec c = ReadConstraint(r, node, ++index, constraints.size() == 1);
    symbols.Add(c.multiplier, node, "multiplier");
    for (const auto& other : out)
      if (other.name == c.name) r.Fail(node, c.name, "constraint defined twice");
    out.push_back(std::move(c));
  }
}

// ---- simulation, gauge ----------------------------------------------------------------------

void ReadSimulation(const Reader& r, const YAML::Node& sim, SimulationSpec& spec) {
  r.CheckKeys(
      sim, "simulation",
      {"t_end", "output_step", "rtol", "atol", "stabilization", "method", "tape", "linear_solver"});
  spec.t_end = r.OptionalNumber(sim, "t_end", spec.t_end);
  spec.output_step = r.OptionalNumber(sim, "output_step", spec.output_step);
  spec.rtol = r.OptionalNumber(sim, "rtol", spec.rtol);
  spec.atol = r.OptionalNumber(sim, "atol", spec.atol);
  spec.stabilization = r.OptionalNumber(sim, "stabilization", spec.stabilization);
  // A named choice: `parse` maps the name to the value, or the key fails listing the names.
  const auto choice = [&](const char* key, auto parse, auto& field, const char* names) {
    const YAML::Node node = sim[key];
    if (!node) return;
    const auto parsed = node.IsScalar() ? parse(node.Scalar()) : decltype(parse(""))();
    if (!parsed) r.Fail(node, key, std::string("must be one of ") + names);
    field = *parsed;
  };
  choice("method", IntegrationMethodFromName, spec.method, "auto, adams, bdf, idas");
  choice("tape", TapeModeFromName, spec.tape, "auto, native, interpreter");
  choice("linear_solver", LinearSolverModeFromName, spec.linear_solver, "auto, dense, sparse");
  if (const auto problem = CheckSimulationSpec(spec)) r.Fail(sim, problem->key, problem->message);
}

void ReadGauge(const Reader& r, const YAML::Node& gauge, std::vector<GaugeChoice>& out) {
  if (!gauge.IsSequence()) r.Fail(gauge, "gauge", "expected a list of {name, value}");
  for (const auto& node : gauge) {
    r.CheckKeys(node, "gauge", {"name", "value"});
    GaugeChoice g;
    g.name = r.String(r.Required(node, "name"), "name");
    g.value = r.String(r.Required(node, "value"), g.name + ".value");
    g.where.line = r.Line(node);
    if (!symbolic::IsValidIdentifier(g.name))
      r.Fail(node, g.name, "gauge name must be an identifier");
    out.push_back(g);
  }
}

// ---- second_order ---------------------------------------------------------------------------

// What the accelerations z^A pair with: the fibre coordinates, else the velocities.
std::vector<std::string> SecondOrderFibre(const Scenario& s) {
  std::vector<std::string> fibre;
  for (const auto& y : s.algebroid.fibre) fibre.push_back(y.name);
  if (!s.algebroid.present)
    for (const auto& c : s.coordinates) fibre.push_back(c.velocity);
  return fibre;
}

std::vector<std::string> ReadAccelerations(const Reader& r, const YAML::Node& second,
                                           const std::vector<std::string>& fibre) {
  std::vector<std::string> out;
  const YAML::Node acc = second["accelerations"];
  if (!acc) {
    for (const auto& y : fibre) out.push_back("a" + y);
    return out;
  }
  for (const auto& e : acc) out.push_back(r.String(e, "accelerations"));
  if (out.size() != fibre.size())
    r.Fail(acc, "accelerations", "expected one acceleration per velocity");
  return out;
}

void ReadSecondOrderInitial(const Reader& r, const YAML::Node& initial,
                            const std::set<std::string>& known,
                            std::vector<std::pair<std::string, double>>& out) {
  if (!initial.IsMap()) r.Fail(initial, "initial", "expected {name: value}");
  for (const auto& item : initial) {
    const std::string name = item.first.Scalar();
    if (!known.count(name))
      r.Fail(item.first, name, "names no acceleration or costate (p_<v>, pbar_<v>)");
    out.emplace_back(name, r.Number(item.second, name));
  }
}

void ReadSecondOrder(const Reader& r, const YAML::Node& second, SymbolRegistry& symbols,
                     Scenario& s) {
  r.CheckKeys(second, "second_order", {"accelerations", "initial"});
  auto& spec = s.second_order;
  spec.where.line = r.Line(second);
  const std::vector<std::string> fibre = SecondOrderFibre(s);
  spec.accelerations = ReadAccelerations(r, second, fibre);
  std::set<std::string> known;
  for (std::size_t a = 0; a < fibre.size(); ++a) {
    symbols.Add(spec.accelerations[a], second, "acceleration");
    symbols.Add("p_" + fibre[a], second, "costate");
    symbols.Add("pbar_" + fibre[a], second, "costate");
    known.insert({spec.accelerations[a], "p_" + fibre[a], "pbar_" + fibre[a]});
  }
  if (const YAML::Node initial = second["initial"])
    ReadSecondOrderInitial(r, initial, known, spec.initial);
}

// ---- reconstruction -------------------------------------------------------------------------

// SE2: the columns [x, y, theta] (default gx, gy, gtheta); SO3: one prefix (default R).
std::vector<std::string> ReadReconstructionNames(const Reader& r, const YAML::Node& rec,
                                                 const std::string& group) {
  std::vector<std::string> names;
  if (const YAML::Node list = rec["names"])
    for (const auto& e : list) names.push_back(r.String(e, "names"));
  if (names.empty())
    names = group == "SE2" ? std::vector<std::string>{"gx", "gy", "gtheta"}
                           : std::vector<std::string>{"R"};
  if (names.size() != (group == "SE2" ? 3u : 1u))
    r.Fail(rec, "names",
           group == "SE2" ? "SE2 needs three names [x, y, theta]"
                          : "SO3 needs one name (a prefix, e.g. R)");
  return names;
}

void ReadReconstruction(const Reader& r, const YAML::Node& rec, SymbolRegistry& symbols,
                        ReconstructionSpec& spec) {
  r.CheckKeys(rec, "reconstruction", {"group", "body_velocity", "names", "initial"});
  spec.where.line = r.Line(rec);
  spec.group = r.String(r.Required(rec, "group"), "group");
  if (spec.group != "SO3" && spec.group != "SE2")
    r.Fail(rec["group"], spec.group, "reconstruction group must be SO3 or SE2");
  const YAML::Node xi = r.Required(rec, "body_velocity");
  if (!xi.IsSequence() || xi.size() != 3) r.Fail(xi, "body_velocity", "expected three expressions");
  for (const auto& e : xi) spec.body_velocity.push_back(r.String(e, "body_velocity"));
  spec.names = ReadReconstructionNames(r, rec, spec.group);
  for (const auto& n : spec.names) symbols.Add(n, rec, "reconstruction column");
  if (const YAML::Node initial = rec["initial"]) {
    for (const auto& e : initial) spec.initial.push_back(r.Number(e, "initial"));
    const std::size_t expected = spec.group == "SE2" ? 3 : 9;
    if (spec.initial.size() != expected)
      r.Fail(initial, "initial", "expected " + std::to_string(expected) + " numbers");
  }
}

// ---- optimal_control ------------------------------------------------------------------------

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
    r.Fail(controls, "controls", "expected a non-empty list of {name, acts_on}");
  const std::vector<std::string> directions = ControlledDirections(s);
  for (const auto& node : controls) {
    r.CheckKeys(node, "optimal_control.controls", {"name", "acts_on"});
    ControlSpec u;
    u.name = r.String(r.Required(node, "name"), "name");
    u.acts_on = r.String(r.Required(node, "acts_on"), u.name + ".acts_on");
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

void ReadOptimalControl(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols,
                        Scenario& s) {
  const YAML::Node oc = root["optimal_control"];
  r.CheckKeys(oc, "optimal_control",
              {"horizon", "controls", "cost", "initial", "final", "shooting"});
  auto& spec = s.optimal_control;
  spec.present = true;
  spec.where.line = r.Line(oc);
  if (const YAML::Node bvp = root["boundary_value"])
    r.Fail(bvp, "boundary_value",
           "a file holds one problem: boundary_value and optimal_control exclude each other");
  const YAML::Node horizon = r.Required(oc, "horizon");
  spec.horizon = r.Number(horizon, "horizon");
  if (!(spec.horizon > 0)) r.Fail(horizon, "horizon", "must be > 0");
  ReadControls(r, r.Required(oc, "controls"), symbols, s, spec.controls);
  const YAML::Node cost = r.Required(oc, "cost");
  spec.cost = r.String(cost, "cost");
  spec.cost_where.line = r.Line(cost);
  if (const YAML::Node initial = oc["initial"])
    ReadBoundaryConditions(r, initial, "initial", s, spec.initial);
  if (const YAML::Node final_values = oc["final"])
    ReadBoundaryConditions(r, final_values, "final", s, spec.final);
  if (const YAML::Node shooting = oc["shooting"]) ReadShooting(r, shooting, spec.shooting);
  ApplyOptimalControlFormulation(r, root, horizon, s);
}

// ---- cross-section checks -------------------------------------------------------------------

// The names the cost may use: t, coordinates, velocities or fibre coordinates, parameters and
// the controls.
std::vector<std::string> CostNames(const Scenario& s) {
  std::vector<std::string> names = ControlledDirections(s);
  for (const auto& c : s.coordinates) names.push_back(c.name);
  for (const auto& p : s.parameters) names.push_back(p.name);
  for (const auto& u : s.optimal_control.controls) names.push_back(u.name);
  return names;
}

// Every expression must parse with the declared symbols (and t) only; multipliers and controls
// are not allowed in expressions, except the controls in the cost.
void CheckExpressions(const Scenario& s, std::set<std::string> names) {
  for (const auto& c : s.constraints) names.erase(c.multiplier);
  for (const auto& u : s.optimal_control.controls) names.erase(u.name);
  const GiNaC::symtab table = scenario::TableOfNames({names.begin(), names.end()});
  auto parse = [&](const std::string& text, std::size_t line, const std::string& key) {
    symbolic::ParseExpression(text, table, {s.source_file, line, key});
  };
  if (s.optimal_control.present)
    symbolic::ParseExpression(s.optimal_control.cost, scenario::TableOfNames(CostNames(s)),
                              {s.source_file, s.optimal_control.cost_where.line, "cost"});
  parse(s.lagrangian, s.lagrangian_where.line, "lagrangian");
  for (const auto& c : s.constraints) parse(c.form, c.where.line, c.name + ".form");
  for (const auto& g : s.gauge) parse(g.value, g.where.line, g.name + ".value");
  for (const auto& a : s.algebroid.anchor)
    for (const auto& [name, e] : a.components) parse(e, a.where.line, "anchor[" + a.section + "]");
  for (const auto& b : s.algebroid.brackets)
    for (const auto& [name, e] : b.value)
      parse(e, b.where.line, "[" + b.a + ", " + b.b + "]." + name);
  for (const auto& e : s.reconstruction.body_velocity)
    parse(e, s.reconstruction.where.line, "body_velocity");
}

// Every column a run of this scenario may produce, whatever the formulation.
std::set<std::string> KnownColumns(const Scenario& s) {
  std::set<std::string> columns{"t", "E", "residual_dynamics"};
  for (const auto& c : s.coordinates)
    columns.insert({c.name, c.velocity, c.name + "_dot", c.velocity + "_dot", c.momentum,
                    c.momentum + "_dot"});
  for (const auto& y : s.algebroid.fibre) columns.insert({y.name, y.name + "_dot"});
  const std::vector<std::string> fibre = SecondOrderFibre(s);
  for (std::size_t a = 0; a < s.second_order.accelerations.size(); ++a)
    for (const std::string& name :
         {s.second_order.accelerations[a], "p_" + fibre[a], "pbar_" + fibre[a]})
      columns.insert({name, name + "_dot"});
  const auto& rec = s.reconstruction;
  if (rec.group == "SE2") columns.insert(rec.names.begin(), rec.names.end());
  if (rec.group == "SO3") {
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j)
        columns.insert(rec.names[0] + std::to_string(i) + std::to_string(j));
    columns.insert(
        {"orthogonality_error", "spatial_momentum_x", "spatial_momentum_y", "spatial_momentum_z"});
  }
  for (std::size_t k = 1; k <= 32; ++k) columns.insert("residual_hidden" + std::to_string(k));
  for (const auto& c : s.constraints) columns.insert({c.multiplier, "residual_" + c.name});
  for (const auto& u : s.optimal_control.controls) columns.insert(u.name);
  if (s.optimal_control.present || !s.second_order.accelerations.empty()) {
    // The Pontryagin bundle's costates p_<y>, pbar_<y> and accelerations a_<y>, the cost rate.
    columns.insert("running_cost");
    for (const std::string& y : fibre)
      for (const std::string& name : {"p_" + y, "pbar_" + y, "a_" + y})
        columns.insert({name, name + "_dot"});
  }
  return columns;
}

void RequireColumn(const Reader& r, const std::set<std::string>& columns, const YAML::Node& node,
                   const std::string& name, const std::string& message) {
  if (!columns.count(name)) r.Fail(node, name, message);
}

// ---- boundary_value -------------------------------------------------------------------------

void ReadBoundaryValue(const Reader& r, const YAML::Node& bvp, const std::set<std::string>& columns,
                       BoundaryValueSpec& spec) {
  r.CheckKeys(bvp, "boundary_value", {"unknowns", "targets"});
  spec.where.line = r.Line(bvp);
  const YAML::Node unknowns = r.Required(bvp, "unknowns");
  const YAML::Node targets = r.Required(bvp, "targets");
  if (!unknowns.IsSequence()) r.Fail(unknowns, "unknowns", "expected a list of initial values");
  for (const auto& e : unknowns) spec.unknowns.push_back(r.String(e, "unknowns"));
  if (!targets.IsMap()) r.Fail(targets, "targets", "expected {column: value at t_end}");
  for (const auto& item : targets) {
    const std::string name = item.first.Scalar();
    RequireColumn(r, columns, item.first, name, "target names no trajectory column");
    spec.targets.emplace_back(name, r.Number(item.second, name));
  }
  if (spec.unknowns.size() != spec.targets.size() || spec.unknowns.empty())
    r.Fail(bvp, "boundary_value", "needs as many unknowns as targets (and at least one)");
}

// ---- view: scene and plots ------------------------------------------------------------------

std::vector<std::pair<std::string, OptionValue>> ToOptionEntries(const Reader& r,
                                                                 const YAML::Node& map,
                                                                 const std::string& path,
                                                                 const std::string& skip);

// A YAML node as an option value: scalars keep their text (null reads as ""), `line` is where
// the value starts (its key's line for map entries).
OptionValue ToOptionValue(const Reader& r, const YAML::Node& node, std::size_t line,
                          const std::string& path) {
  if (node.IsMap()) return OptionValue::Map(ToOptionEntries(r, node, path, ""), line);
  if (!node.IsSequence()) return OptionValue::Scalar(node.IsScalar() ? node.Scalar() : "", line);
  std::vector<OptionValue> items;
  for (const auto& item : node)
    items.push_back(
        ToOptionValue(r, item, r.Line(item), path + "[" + std::to_string(items.size()) + "]"));
  return OptionValue::List(std::move(items), line);
}

std::vector<std::pair<std::string, OptionValue>> ToOptionEntries(const Reader& r,
                                                                 const YAML::Node& map,
                                                                 const std::string& path,
                                                                 const std::string& skip) {
  std::vector<std::pair<std::string, OptionValue>> entries;
  for (const auto& item : map) {
    if (!item.first.IsScalar()) r.Fail(item.first, path, "expected text keys");
    const std::string key = item.first.Scalar();
    if (key == skip) continue;
    entries.emplace_back(key, ToOptionValue(r, item.second, r.Line(item.first), path + "." + key));
  }
  return entries;
}

// `type` selects the scene; everything else is the scene's own options, checked by the scene.
SceneSpec ReadScene(const Reader& r, const YAML::Node& scene) {
  if (!scene.IsMap()) r.Fail(scene, "view.scene", "expected a mapping");
  SceneSpec spec;
  spec.type = r.OptionalString(scene, "type", "particle");
  spec.where.line = r.Line(scene);
  spec.options = SceneOptions(
      r.file(), OptionValue::Map(ToOptionEntries(r, scene, "view.scene", "type"), spec.where.line));
  return spec;
}

PlotSpec ReadPlot(const Reader& r, const YAML::Node& node, const std::set<std::string>& columns) {
  r.CheckKeys(node, "view.plots", {"title", "series"});
  PlotSpec plot;
  plot.title = r.OptionalString(node, "title", "");
  plot.where.line = r.Line(node);
  const YAML::Node series = r.Required(node, "series");
  if (!series.IsSequence() || series.size() == 0)
    r.Fail(series, "series", "expected a non-empty list of column names");
  for (const auto& item : series) {
    const std::string name = r.String(item, "series");
    RequireColumn(r, columns, item, name,
                  "plot series names no trajectory column (t, coordinates, velocities, "
                  "multipliers, E, residual_<constraint>)");
    plot.series.push_back(name);
  }
  return plot;
}

void ReadView(const Reader& r, const YAML::Node& view, const std::set<std::string>& columns,
              Scenario& s) {
  r.CheckKeys(view, "view", {"scene", "plots"});
  if (const YAML::Node scene = view["scene"]) s.scene = ReadScene(r, scene);
  if (const YAML::Node plots = view["plots"]) {
    if (!plots.IsSequence()) r.Fail(plots, "plots", "expected a list");
    for (const auto& node : plots) s.plots.push_back(ReadPlot(r, node, columns));
  }
}

// ---- the document ---------------------------------------------------------------------------

Scenario ReadDocument(const YAML::Node& root, const std::string& origin) {
  Reader r(origin);
  if (!root || !root.IsMap()) throw ScenarioError(origin, 1, "", "a scenario is a YAML mapping");
  r.CheckKeys(root, "scenario",
              {"name", "description", "coordinates", "parameters", "lagrangian", "constraints",
               "formulation", "gauge", "algebroid", "reconstruction", "second_order",
               "boundary_value", "optimal_control", "simulation", "view"});
  Scenario s;
  s.source_file = origin;
  SymbolRegistry symbols(r);
  ReadHeader(r, root, s);
  s.algebroid.present = static_cast<bool>(root["algebroid"]);
  ReadCoordinates(r, root, symbols, s);
  if (s.algebroid.present) ReadAlgebroid(r, root["algebroid"], symbols, s);
  if (const YAML::Node node = root["parameters"]) ReadParameters(r, node, symbols, s.parameters);
  ReadLagrangian(r, root, s);
  if (const YAML::Node node = root["constraints"]) ReadConstraints(r, node, symbols, s.constraints);
  if (const YAML::Node node = root["simulation"]) ReadSimulation(r, node, s.simulation);
  if (const YAML::Node node = root["gauge"]) ReadGauge(r, node, s.gauge);
  if (const YAML::Node node = root["second_order"]) ReadSecondOrder(r, node, symbols, s);
  if (const YAML::Node node = root["reconstruction"])
    ReadReconstruction(r, node, symbols, s.reconstruction);
  if (root["optimal_control"]) ReadOptimalControl(r, root, symbols, s);
  if (s.formulation == Formulation::kOptimalControl && !s.optimal_control.present)
    r.Fail(root["formulation"], "optimal_control",
           "formulation optimal_control needs an optimal_control block");
  CheckExpressions(s, symbols.names());
  const std::set<std::string> columns = KnownColumns(s);
  if (const YAML::Node node = root["boundary_value"])
    ReadBoundaryValue(r, node, columns, s.boundary_value);
  s.scene.options = SceneOptions(origin, OptionValue::Map({}));
  if (const YAML::Node node = root["view"]) ReadView(r, node, columns, s);
  return s;
}

ScenarioError FromYamlException(const YAML::Exception& e, const std::string& origin,
                                const std::string& prefix) {
  return ScenarioError(origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", prefix + e.msg);
}

}  // namespace

namespace {

// Throws ScenarioError at the first line where the YAML text nests deeper than kMaxYamlDepth:
// block indentation levels, sequence dashes at the start of a line and open flow brackets.
// yaml-cpp recurses once per level and says only "bad file" when it gives up.
void CheckYamlDepth(const std::string& text, const std::string& origin) {
  std::vector<std::size_t> indents;
  std::size_t flow = 0, line = 0, begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    ++line;
    std::size_t i = begin;
    while (i < end && text[i] == ' ') ++i;
    if (i < end && text[i] != '#' && text[i] != '\r') {
      if (flow == 0) {
        while (!indents.empty() && indents.back() > i - begin) indents.pop_back();
        if (indents.empty() || indents.back() < i - begin) indents.push_back(i - begin);
      }
      std::size_t dashes = 0;
      while (i + 1 < end && text[i] == '-' && (text[i + 1] == ' ' || text[i + 1] == '\t')) {
        ++dashes;
        i += 2;
        while (i < end && text[i] == ' ') ++i;
      }
      char quote = 0;
      for (; i < end; ++i) {
        const char c = text[i];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '#' && (i == begin || text[i - 1] == ' ')) {
          break;
        } else if (c == '[' || c == '{') {
          ++flow;
        } else if ((c == ']' || c == '}') && flow > 0) {
          --flow;
        }
        if (indents.size() + dashes + flow > kMaxYamlDepth) break;
      }
      if (indents.size() + dashes + flow > kMaxYamlDepth)
        throw ScenarioError(origin, line, "",
                            "YAML nested deeper than " + std::to_string(kMaxYamlDepth) +
                                " levels (indentation, '- ' and brackets)");
    }
    begin = end + 1;
  }
}

}  // namespace

Scenario ParseScenario(const std::string& yaml_text, const std::string& origin) {
  if (yaml_text.size() > kMaxScenarioBytes)
    throw ScenarioError(origin, 0, "",
                        "scenario text of " + std::to_string(yaml_text.size()) +
                            " bytes is larger than the " + std::to_string(kMaxScenarioBytes) +
                            " allowed");
  CheckYamlDepth(yaml_text, origin);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw FromYamlException(e, origin, "invalid YAML: ");
  }
  try {
    return ReadDocument(root, origin);
  } catch (const YAML::Exception& e) {
    throw FromYamlException(e, origin, "");
  }
}

Scenario LoadScenario(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(status))
    throw ScenarioError(path, 0, "", "is a directory, not a scenario file");
  if (!ec && std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxScenarioBytes)
      throw ScenarioError(path, 0, "",
                          "scenario file of " + std::to_string(size) +
                              " bytes is larger than the " + std::to_string(kMaxScenarioBytes) +
                              " allowed");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "", "cannot open scenario file");
  // Devices and pipes have no size: read at most one byte past the limit.
  std::string text(kMaxScenarioBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw ScenarioError(path, 0, "", "cannot read scenario file");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioError(path, 0, "",
                        "scenario file is larger than the " + std::to_string(kMaxScenarioBytes) +
                            " bytes allowed (not a regular file?)");
  return ParseScenario(text, path);
}

}  // namespace dirac
