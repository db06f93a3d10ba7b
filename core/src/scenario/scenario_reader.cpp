// The scenario reader: one function per top-level YAML section, called in file-format order by
// ReadDocument, then the cross-section checks (expressions, trajectory columns). The algebroid
// and optimal_control sections have their own files (algebroid_reader, optimal_control_reader).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dirac/error.hpp"
#include "dirac/integrators.hpp"
#include "dirac/scenario.hpp"
#include "dirac/scene_options.hpp"
#include "scenario/algebroid_reader.hpp"
#include "scenario/energy_unit.hpp"
#include "scenario/multibody.hpp"
#include "scenario/multibody_reader.hpp"
#include "scenario/initial_state.hpp"
#include "scenario/optimal_control_reader.hpp"
#include "scenario/scenario_document.hpp"
#include "scenario/scenario_symbols.hpp"
#include "scenario/stability_reader.hpp"
#include "scenario/symbol_registry.hpp"
#include "scenario/yaml_reader.hpp"
#include "symbolic/expression_parser.hpp"
#include "symbolic/parse_session.hpp"

namespace dirac {
namespace {

using scenario::Reader;
using scenario::SymbolRegistry;

// ---- name, description, formulation ---------------------------------------------------------

void ReadHeader(const Reader& r, const YAML::Node& root, Scenario& s) {
  s.name = r.String(r.Required(root, "name"), "name");
  s.description = r.OptionalString(root, "description", "");
  s.energy_unit = r.OptionalString(root, "energy_unit", "");
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
  r.CheckKeys(node, "coordinates",
              {"name", "velocity", "initial", "initial_velocity", "unit", "momentum",
               "initial_momentum", "solve"});
  Coordinate c;
  c.name = r.String(r.Required(node, "name"), "name");
  c.velocity = r.OptionalString(node, "velocity", "v" + c.name);
  c.initial = r.OptionalNumber(node, "initial", 0.0);
  // An initial velocity that is not a number is an expression of the parameters (read after).
  if (const YAML::Node v = node["initial_velocity"]; v && v.IsScalar()) {
    char* end = nullptr;
    const double number = std::strtod(v.Scalar().c_str(), &end);
    if (v.Scalar().empty() || *end != '\0' || !std::isfinite(number))
      c.initial_velocity_expression = v.Scalar();
    else
      c.initial_velocity = number;
  } else {
    c.initial_velocity = r.OptionalNumber(node, "initial_velocity", 0.0);
  }
  c.unit = r.OptionalString(node, "unit", "");
  c.momentum = r.OptionalString(node, "momentum", "p_" + c.name);
  c.initial_momentum = r.OptionalNumber(node, "initial_momentum", 0.0);
  c.velocity_given = static_cast<bool>(node["initial_velocity"]);
  if (const YAML::Node solve = node["solve"]) {
    if (!solve.IsScalar() || (solve.Scalar() != "true" && solve.Scalar() != "false"))
      r.Fail(solve, c.name + ".solve", "expected true or false");
    c.solve = solve.Scalar() == "true";
  }
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

// ---- parameters, lagrangian, constraints ----------------------------------------------------

// A `default` that is not a number is an expression of constants and earlier parameters.
Parameter ReadParameter(const Reader& r, const YAML::Node& node,
                        const std::vector<Parameter>& earlier) {
  r.CheckKeys(node, "parameters", {"name", "default", "min", "max", "unit", "description"});
  Parameter p;
  p.name = r.String(r.Required(node, "name"), "name");
  const YAML::Node given = r.Required(node, "default");
  const std::string text = r.String(given, p.name + ".default");
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0' && std::isfinite(number)) {
    p.default_value = number;
  } else {
    p.default_expression = text;
    p.default_value = scenario::EvaluateParameterDefault(r, given, p.name, text, earlier);
  }
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
    Parameter p = ReadParameter(r, node, out);
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
  r.CheckKeys(node, "constraints", {"name", "form", "multiplier", "unit"});
  const std::string k = std::to_string(index);  // append(): "c" + k trips GCC 12's -Wrestrict
  ConstraintSpec c;
  c.name = r.OptionalString(node, "name", std::string("c").append(k));
  c.form = r.String(r.Required(node, "form"), c.name + ".form");
  c.multiplier = r.OptionalString(node, "multiplier", single ? "mu" : std::string("mu").append(k));
  c.unit = r.OptionalString(node, "unit", "");
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

// Default names: h<k>; multiplier "mu_<name>" (apart from the constraints' mu, mu<k>).
HolonomicSpec ReadHolonomicConstraint(const Reader& r, const YAML::Node& node, std::size_t index) {
  r.CheckKeys(node, "holonomic", {"name", "equation", "multiplier", "unit"});
  HolonomicSpec h;
  h.name = r.OptionalString(node, "name", std::string("h").append(std::to_string(index)));
  h.equation = r.String(r.Required(node, "equation"), h.name + ".equation");
  h.multiplier = r.OptionalString(node, "multiplier", "mu_" + h.name);
  h.unit = r.OptionalString(node, "unit", "");
  h.where.line = r.Line(node);
  if (!symbolic::IsValidIdentifier(h.name))
    r.Fail(node, h.name, "holonomic constraint name must be an identifier");
  return h;
}

// Names share the constraints' (one residual_<name> column each).
void ReadHolonomic(const Reader& r, const YAML::Node& holonomic, SymbolRegistry& symbols,
                   Scenario& s) {
  if (!holonomic.IsSequence()) r.Fail(holonomic, "holonomic", "expected a list");
  if (s.algebroid.present)
    r.Fail(holonomic, "holonomic",
           "holonomic constraints are read on TQ (a scenario without `algebroid:`)");
  std::size_t index = 0;
  for (const auto& node : holonomic) {
    HolonomicSpec h = ReadHolonomicConstraint(r, node, ++index);
    for (const auto& other : s.constraints)
      if (other.name == h.name) r.Fail(node, h.name, "name already used by a constraint");
    for (const auto& other : s.holonomic)
      if (other.name == h.name) r.Fail(node, h.name, "holonomic constraint defined twice");
    symbols.Add(h.multiplier, node, "multiplier");
    s.holonomic.push_back(std::move(h));
  }
}

// ---- simulation, gauge ----------------------------------------------------------------------

void ReadSimulation(const Reader& r, const YAML::Node& sim, SimulationSpec& spec) {
  r.CheckKeys(sim, "simulation",
              {"t_end", "output_step", "rtol", "atol", "stabilization", "method", "step", "order",
               "tape", "linear_solver"});
  spec.t_end = r.OptionalNumber(sim, "t_end", spec.t_end);
  spec.output_step = r.OptionalNumber(sim, "output_step", spec.output_step);
  spec.rtol = r.OptionalNumber(sim, "rtol", spec.rtol);
  spec.atol = r.OptionalNumber(sim, "atol", spec.atol);
  spec.stabilization = r.OptionalNumber(sim, "stabilization", spec.stabilization);
  spec.step = r.OptionalNumber(sim, "step", spec.step);
  const double order = r.OptionalNumber(sim, "order", spec.order);
  if (order != 2.0 && order != 4.0) r.Fail(sim["order"], "order", "must be 2 or 4");
  spec.order = static_cast<int>(order);
  // A named choice: `parse` maps the name to the value, or the key fails listing the names.
  const auto choice = [&](const char* key, auto parse, auto& field, const char* names) {
    const YAML::Node node = sim[key];
    if (!node) return;
    const auto parsed = node.IsScalar() ? parse(node.Scalar()) : decltype(parse(""))();
    if (!parsed) r.Fail(node, key, std::string("must be one of ") + names);
    field = *parsed;
  };
  choice("method", IntegrationMethodFromName, spec.method, IntegrationMethodNames().c_str());
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

// ---- cross-section checks -------------------------------------------------------------------

// Every expression must parse with the declared symbols (and t) only; multipliers and controls
// are not allowed in expressions, except the controls in the cost.
void CheckExpressions(const Scenario& s, std::set<std::string> names) {
  // Each definition may name the earlier ones only (and nothing the bodies generate).
  std::set<std::string> earlier = names;
  for (const auto& d : s.definitions) earlier.erase(d.name);
  for (const auto& g : scenario::GeneratedNames(s.multibody)) earlier.erase(g);
  for (const auto& c : s.constraints) earlier.erase(c.multiplier);
  for (const auto& h : s.holonomic) earlier.erase(h.multiplier);
  for (const auto& d : s.definitions) {
    symbolic::ParseExpression(d.value, scenario::TableOfNames({earlier.begin(), earlier.end()}),
                              {s.source_file, d.where.line, d.name});
    earlier.insert(d.name);
  }
  for (const auto& c : s.constraints) names.erase(c.multiplier);
  for (const auto& h : s.holonomic) names.erase(h.multiplier);
  for (const auto& u : s.optimal_control.controls) names.erase(u.name);
  const GiNaC::symtab table = scenario::TableOfNames({names.begin(), names.end()});
  auto parse = [&](const std::string& text, std::size_t line, const std::string& key) {
    symbolic::ParseExpression(text, table, {s.source_file, line, key});
  };
  if (s.optimal_control.present) {
    const OptimalControlSpec& oc = s.optimal_control;
    const GiNaC::symtab costs = scenario::TableOfNames(scenario::CostNames(s));
    symbolic::ParseExpression(oc.cost, costs, {s.source_file, oc.cost_where.line, "cost"});
    if (!oc.terminal_cost.empty())
      symbolic::ParseExpression(oc.terminal_cost,
                                scenario::TableOfNames(scenario::TerminalCostNames(s)),
                                {s.source_file, oc.terminal_cost_where.line, "terminal_cost"});
    for (const auto& c : oc.path_constraints)
      symbolic::ParseExpression(c.g, costs, {s.source_file, c.where.line, c.text});
  }
  parse(s.lagrangian, s.lagrangian_where.line, "lagrangian");
  for (const auto& c : s.constraints) parse(c.form, c.where.line, c.name + ".form");
  scenario::CheckHolonomicEquations(s, names);
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
  for (const auto& h : s.holonomic)
    columns.insert({h.multiplier, "residual_" + h.name, "position_residual_" + h.name});
  for (const auto& u : s.optimal_control.controls) columns.insert(u.name);
  if (s.algebroid.algebra.present) {  // the Euler–Poincaré model's diagnostics
    columns.insert({"enstrophy", "casimir_drift"});
    for (int k = 2; k <= s.algebroid.algebra.size + 1; ++k)
      columns.insert("casimir" + std::to_string(k));
  }
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
  r.CheckKeys(node, "view.plots", {"title", "series", "pairs", "section", "direction"});
  PlotSpec plot;
  plot.title = r.OptionalString(node, "title", "");
  plot.where.line = r.Line(node);
  const char* const kColumnHelp =
      "plot series names no trajectory column (t, coordinates, velocities, multipliers, E, "
      "residual_<constraint>)";
  if (const YAML::Node pairs = node["pairs"]) {
    // A phase portrait: [[x, y], ...], each pair's y against its x.
    if (node["series"]) r.Fail(node, "pairs", "a plot has either series or pairs, not both");
    if (!pairs.IsSequence() || pairs.size() == 0)
      r.Fail(pairs, "pairs", "expected a non-empty list of column pairs, e.g. [[x, vx]]");
    for (const auto& pair : pairs) {
      if (!pair.IsSequence() || pair.size() != 2)
        r.Fail(pair, "pairs", "expected a pair of column names [x, y]");
      std::array<std::string, 2> names;
      for (std::size_t i = 0; i < 2; ++i) {
        names[i] = r.String(pair[i], "pairs");
        RequireColumn(r, columns, pair[i], names[i], kColumnHelp);
      }
      plot.pairs.push_back(names);
    }
    if (const YAML::Node section = node["section"]) {
      plot.section = r.String(section, "section");
      // The section is a function of the columns (checked here; compiled by the chart).
      std::vector<std::string> names(columns.begin(), columns.end());
      names.erase(std::remove_if(names.begin(), names.end(),
                                 [](const std::string& n) {
                                   return !symbolic::IsValidIdentifier(n) ||
                                          symbolic::IsReservedName(n);
                                 }),
                  names.end());
      symbolic::ParseExpression(plot.section, scenario::TableOfNames(names),
                                {r.file(), r.Line(section), "view.plots.section"});
    }
    // "+", "-" (quoted in YAML), or the words, kept as "+" / "-".
    plot.section_direction = r.OptionalString(node, "direction", "+");
    if (plot.section_direction == "increasing") plot.section_direction = "+";
    if (plot.section_direction == "decreasing") plot.section_direction = "-";
    if (plot.section_direction != "+" && plot.section_direction != "-" &&
        plot.section_direction != "both")
      r.Fail(node["direction"], "direction",
             "expected \"+\", \"-\" (quoted), increasing, decreasing or both");
    if (node["direction"] && plot.section.empty())
      r.Fail(node["direction"], "direction", "a direction belongs to a section");
    return plot;
  }
  if (node["section"] || node["direction"])
    r.Fail(node, "section", "a section needs the pairs it draws ([[x, y]])");
  const YAML::Node series = r.Required(node, "series");
  if (!series.IsSequence() || series.size() == 0)
    r.Fail(series, "series", "expected a non-empty list of column names");
  for (const auto& item : series) {
    const std::string name = r.String(item, "series");
    RequireColumn(r, columns, item, name, kColumnHelp);
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
              [] {
                std::set<std::string> keys{"name",           "description", "coordinates",
                                           "parameters",     "lagrangian",  "constraints", "holonomic",
                                           "formulation",    "gauge",       "algebroid",
                                           "reconstruction", "second_order", "boundary_value",
                                           "optimal_control", "simulation", "view",
                                           "stability",      "energy_unit"};
                for (const auto& key : scenario::MultibodyKeys()) keys.insert(key);
                return keys;
              }());
  Scenario s;
  s.source_file = origin;
  SymbolRegistry symbols(r);
  ReadHeader(r, root, s);
  s.algebroid.present = static_cast<bool>(root["algebroid"]);
  ReadCoordinates(r, root, symbols, s);
  if (s.algebroid.present) scenario::ReadAlgebroid(r, root["algebroid"], symbols, s);
  if (const YAML::Node node = root["parameters"]) ReadParameters(r, node, symbols, s.parameters);
  UpdateDerivedParameters(s);  // initial velocities written as expressions of the parameters
  if (const YAML::Node node = root["definitions"]) scenario::ReadDefinitions(r, node, symbols, s);
  scenario::GenerateAlgebraLagrangian(r, root, s);
  if (const YAML::Node node = root["constraints"]) ReadConstraints(r, node, symbols, s.constraints);
  if (const YAML::Node node = root["holonomic"]) ReadHolonomic(r, node, symbols, s);
  scenario::ReadMultibody(r, root, symbols, s);
  for (const auto& h : s.holonomic) symbols.Add(h.name + "_rate", root, "holonomic rate");
  if (!s.lagrangian_generated) ReadLagrangian(r, root, s);
  if (const YAML::Node node = root["simulation"]) ReadSimulation(r, node, s.simulation);
  if (const YAML::Node node = root["gauge"]) ReadGauge(r, node, s.gauge);
  if (const YAML::Node node = root["second_order"]) ReadSecondOrder(r, node, symbols, s);
  if (const YAML::Node node = root["reconstruction"])
    ReadReconstruction(r, node, symbols, s.reconstruction);
  if (root["optimal_control"]) scenario::ReadOptimalControl(r, root, symbols, s);
  if (s.formulation == Formulation::kOptimalControl && !s.optimal_control.present)
    r.Fail(root["formulation"], "optimal_control",
           "formulation optimal_control needs an optimal_control block");
  CheckExpressions(s, symbols.names());
  scenario::CheckMultibody(r, root, s);
  const std::set<std::string> columns = KnownColumns(s);
  if (const YAML::Node node = root["boundary_value"])
    ReadBoundaryValue(r, node, columns, s.boundary_value);
  s.scene.options = SceneOptions(origin, OptionValue::Map({}));
  if (const YAML::Node node = root["view"]) ReadView(r, node, columns, s);
  // Initial coordinates on f(q) = 0 and the dependent velocities solved (refused with the key).
  scenario::SolveInitialState(s);
  if (const YAML::Node node = root["stability"]) scenario::ReadStability(r, node, s);
  s.inferred_energy_unit = scenario::InferEnergyUnit(s);  // the energy axis' unit
  return s;
}

}  // namespace

Scenario ParseScenario(const std::string& yaml_text, const std::string& origin) {
  const YAML::Node root = scenario::LoadScenarioDocument(yaml_text, origin);
  const symbolic::ParseSession parse_once;  // each expression read once by the checks below
  try {
    return ReadDocument(root, origin);
  } catch (const YAML::Exception& e) {
    throw scenario::FromYamlException(e, origin, "");
  }
}

Scenario LoadScenario(const std::string& path) {
  return ParseScenario(scenario::ReadScenarioFile(path), path);
}

}  // namespace dirac
