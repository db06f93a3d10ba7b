// The scenario writer: one function per top-level YAML section, in the reader's format.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dirac/scenario.hpp"
#include "dirac/scenario_text.hpp"
#include "dirac/scene_options.hpp"
#include "io/atomic_file.hpp"
#include "scenario/multibody_reader.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac {

std::string ShortestNumber(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

namespace {

// Numbers are emitted as their shortest round-trip text (0.8, not 0.80000000000000004).
std::string Num(double value) { return ShortestNumber(value); }
std::vector<std::string> Nums(const std::vector<double>& values) {
  std::vector<std::string> out;
  for (double v : values) out.push_back(Num(v));
  return out;
}

// With holonomic constraints a velocity the engine solved (a dependent one) is left out, so
// that it is solved again on reading; `solve: true` keeps its solved value as Newton's guess.
void EmitCoordinates(YAML::Emitter& out, const std::vector<Coordinate>& coordinates,
                     bool holonomic) {
  out << YAML::Key << "coordinates" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const auto& c : coordinates) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key
        << "velocity" << YAML::Value << c.velocity << YAML::Key << "initial" << YAML::Value
        << Num(c.initial);
    if (c.solve) out << YAML::Key << "solve" << YAML::Value << "true";
    if (!c.initial_velocity_expression.empty() && !c.initial_velocity_set)
      out << YAML::Key << "initial_velocity" << YAML::Value << YAML::DoubleQuoted
          << c.initial_velocity_expression;
    else if (!holonomic || c.velocity_given || (!c.velocity_solved && c.initial_velocity != 0.0))
      out << YAML::Key << "initial_velocity" << YAML::Value << Num(c.initial_velocity);
    if (!c.unit.empty()) out << YAML::Key << "unit" << YAML::Value << c.unit;
    if (c.initial_momentum != 0.0 || c.momentum != "p_" + c.name)
      out << YAML::Key << "momentum" << YAML::Value << c.momentum << YAML::Key << "initial_momentum"
          << YAML::Value << Num(c.initial_momentum);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// Current values become the defaults; a --set value outside the slider range widens it.
void EmitParameters(YAML::Emitter& out, const std::vector<Parameter>& parameters) {
  if (parameters.empty()) return;
  out << YAML::Key << "parameters" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : parameters) {
    // A derived parameter keeps its expression until it is set by hand.
    const bool derived = !p.default_expression.empty() && !p.set_by_user;
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name << YAML::Key
        << "default" << YAML::Value;
    if (derived)
      out << YAML::DoubleQuoted << p.default_expression;
    else
      out << Num(p.value);
    out << YAML::Key << "min" << YAML::Value
        << Num(std::min(p.min, p.value)) << YAML::Key << "max" << YAML::Value
        << Num(std::max(p.max, p.value));
    if (!p.unit.empty()) out << YAML::Key << "unit" << YAML::Value << p.unit;
    if (!p.description.empty()) out << YAML::Key << "description" << YAML::Value << p.description;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The constraints written in the file (those generated from the bodies are not).
void EmitConstraints(YAML::Emitter& out, const Scenario& s) {
  const std::set<std::string> generated = scenario::GeneratedConstraintNames(s);
  std::vector<ConstraintSpec> constraints;
  for (const auto& c : s.constraints)
    if (!generated.count(c.name)) constraints.push_back(c);
  if (constraints.empty()) return;
  out << YAML::Key << "constraints" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : constraints) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key
        << "form" << YAML::Value << YAML::DoubleQuoted << c.form << YAML::Key << "multiplier"
        << YAML::Value << c.multiplier;
    if (!c.unit.empty()) out << YAML::Key << "unit" << YAML::Value << c.unit;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The holonomic constraints written in the file (the rolling contacts' are generated).
void EmitHolonomic(YAML::Emitter& out, const Scenario& s) {
  const std::set<std::string> generated = scenario::GeneratedConstraintNames(s);
  std::vector<HolonomicSpec> holonomic;
  for (const auto& h : s.holonomic)
    if (!generated.count(h.name)) holonomic.push_back(h);
  if (holonomic.empty()) return;
  out << YAML::Key << "holonomic" << YAML::Value << YAML::BeginSeq;
  for (const auto& h : holonomic) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << h.name << YAML::Key
        << "equation" << YAML::Value << YAML::DoubleQuoted << h.equation << YAML::Key
        << "multiplier" << YAML::Value << h.multiplier;
    if (!h.unit.empty()) out << YAML::Key << "unit" << YAML::Value << h.unit;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitComponents(YAML::Emitter& out, const Components& list) {
  out << YAML::Flow << YAML::BeginMap;
  for (const auto& [name, e] : list)
    out << YAML::Key << name << YAML::Value << YAML::DoubleQuoted << e;
  out << YAML::EndMap;
}

// A family-named Lie algebra: the family, the inertia and the nonzero initial values (the
// momentum given in the file is written as the fibre values it set).
void EmitLieAlgebra(YAML::Emitter& out, const AlgebroidSpec& algebroid) {
  const LieAlgebraSpec& a = algebroid.algebra;
  out << YAML::Key << "algebra" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "family" << YAML::Value << a.family << YAML::Key << "size" << YAML::Value << a.size
      << YAML::EndMap;
  if (a.inertia == "laplacian") out << YAML::Key << "inertia" << YAML::Value << "laplacian";
  if (a.inertia == "diagonal")
    out << YAML::Key << "inertia" << YAML::Value << YAML::BeginMap << YAML::Key << "diagonal"
        << YAML::Value << YAML::Flow << a.diagonal << YAML::EndMap;
  out << YAML::Key << "initial" << YAML::Value << YAML::Flow << YAML::BeginMap;
  for (const auto& y : algebroid.fibre)
    if (y.initial != 0.0) out << YAML::Key << y.name << YAML::Value << Num(y.initial);
  out << YAML::EndMap << YAML::EndMap;
}

void EmitAlgebroid(YAML::Emitter& out, const AlgebroidSpec& algebroid) {
  if (!algebroid.present) return;
  out << YAML::Key << "algebroid" << YAML::Value << YAML::BeginMap;
  if (algebroid.algebra.present) return EmitLieAlgebra(out, algebroid);
  out << YAML::Key << "fibre" << YAML::Value << YAML::BeginSeq;
  for (const auto& y : algebroid.fibre) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << y.name << YAML::Key
        << "initial" << YAML::Value << Num(y.initial);
    if (!y.unit.empty()) out << YAML::Key << "unit" << YAML::Value << y.unit;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "anchor" << YAML::Value << YAML::BeginSeq;
  for (const auto& a : algebroid.anchor) {
    out << YAML::BeginMap << YAML::Key << "section" << YAML::Value << a.section << YAML::Key
        << "components" << YAML::Value;
    EmitComponents(out, a.components);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "brackets" << YAML::Value << YAML::BeginSeq;
  for (const auto& b : algebroid.brackets) {
    out << YAML::BeginMap << YAML::Key << "pair" << YAML::Value << YAML::Flow
        << std::vector<std::string>{b.a, b.b} << YAML::Key << "value" << YAML::Value;
    EmitComponents(out, b.value);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
}

void EmitReconstruction(YAML::Emitter& out, const ReconstructionSpec& rec) {
  if (rec.group.empty()) return;
  out << YAML::Key << "reconstruction" << YAML::Value << YAML::BeginMap << YAML::Key << "group"
      << YAML::Value << rec.group << YAML::Key << "body_velocity" << YAML::Value << YAML::Flow
      << YAML::BeginSeq;
  for (const auto& e : rec.body_velocity) out << YAML::DoubleQuoted << e;
  out << YAML::EndSeq << YAML::Key << "names" << YAML::Value << YAML::Flow << rec.names;
  if (!rec.initial.empty())
    out << YAML::Key << "initial" << YAML::Value << YAML::Flow << Nums(rec.initial);
  out << YAML::EndMap;
}

void EmitSecondOrder(YAML::Emitter& out, const SecondOrderSpec& spec) {
  if (spec.accelerations.empty()) return;
  out << YAML::Key << "second_order" << YAML::Value << YAML::BeginMap << YAML::Key
      << "accelerations" << YAML::Value << YAML::Flow << spec.accelerations;
  if (!spec.initial.empty()) {
    out << YAML::Key << "initial" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [n, v] : spec.initial) out << YAML::Key << n << YAML::Value << Num(v);
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void EmitBoundaryValue(YAML::Emitter& out, const BoundaryValueSpec& spec) {
  if (!spec.present()) return;
  out << YAML::Key << "boundary_value" << YAML::Value << YAML::BeginMap << YAML::Key << "unknowns"
      << YAML::Value << YAML::Flow << spec.unknowns << YAML::Key << "targets" << YAML::Value
      << YAML::Flow << YAML::BeginMap;
  for (const auto& [n, v] : spec.targets) out << YAML::Key << n << YAML::Value << Num(v);
  out << YAML::EndMap << YAML::EndMap;
}

void EmitStability(YAML::Emitter& out, const StabilitySpec& spec) {
  if (!spec.present) return;
  out << YAML::Key << "stability" << YAML::Value << YAML::BeginMap;
  if (!spec.ignorable.empty())
    out << YAML::Key << "ignorable" << YAML::Value << YAML::Flow << spec.ignorable;
  if (!spec.speeds.empty())
    out << YAML::Key << "speeds" << YAML::Value << YAML::Flow << spec.speeds;
  if (spec.find) out << YAML::Key << "find" << YAML::Value << "true";
  if (!spec.point.empty()) {
    out << YAML::Key << "point" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [n, v] : spec.point) out << YAML::Key << n << YAML::Value << Num(v);
    out << YAML::EndMap;
  }
  out << YAML::Key << "vary" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "name"
      << YAML::Value << spec.vary << YAML::Key << "from" << YAML::Value << Num(spec.from)
      << YAML::Key << "to" << YAML::Value << Num(spec.to) << YAML::Key << "count" << YAML::Value
      << spec.count << YAML::EndMap << YAML::EndMap;
}

void EmitBoundaryConditions(YAML::Emitter& out, const std::string& key,
                            const std::vector<BoundaryCondition>& conditions) {
  if (conditions.empty()) return;
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  for (const auto& bc : conditions) {
    out << YAML::Key << bc.quantity << YAML::Value;
    if (bc.free)
      out << "free";
    else
      out << Num(bc.value);
  }
  out << YAML::EndMap;
}

// horizon: a number, or free with its bounds and guess.
void EmitHorizon(YAML::Emitter& out, const OptimalControlSpec& spec) {
  out << YAML::Key << "horizon" << YAML::Value;
  if (!spec.horizon_free) {
    out << Num(spec.horizon);
    return;
  }
  out << "free" << YAML::Key << "horizon_bounds" << YAML::Value << YAML::Flow << YAML::BeginSeq
      << Num(spec.horizon_min) << Num(spec.horizon_max) << YAML::EndSeq << YAML::Key
      << "horizon_guess" << YAML::Value << Num(spec.horizon);
}

// bounds, method and collocation settings (written only when they differ from the defaults).
void EmitBoundsAndMethod(YAML::Emitter& out, const OptimalControlSpec& spec) {
  if (!spec.bounds.empty()) {
    out << YAML::Key << "bounds" << YAML::Value << YAML::BeginMap;
    for (const auto& b : spec.bounds)
      out << YAML::Key << b.name << YAML::Value << YAML::Flow << YAML::BeginSeq << Num(b.min)
          << Num(b.max) << YAML::EndSeq;
    out << YAML::EndMap;
  }
  if (spec.method != OptimalControlMethod::kAuto)
    out << YAML::Key << "method" << YAML::Value << scenario::OptimalControlMethodName(spec.method);
  const CollocationSettings defaults;
  const CollocationSettings& c = spec.collocation;
  if (c.nodes != defaults.nodes || c.max_iterations != defaults.max_iterations ||
      c.tolerance != defaults.tolerance || c.exact_hessian != defaults.exact_hessian ||
      c.scheme != defaults.scheme || c.mesh_tolerance != defaults.mesh_tolerance ||
      c.mesh_rounds != defaults.mesh_rounds || c.max_nodes != defaults.max_nodes ||
      c.polish != defaults.polish) {
    out << YAML::Key << "collocation" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "nodes" << YAML::Value << c.nodes << YAML::Key << "max_iterations" << YAML::Value
        << c.max_iterations << YAML::Key << "tolerance" << YAML::Value << Num(c.tolerance);
    if (!c.exact_hessian) out << YAML::Key << "hessian" << YAML::Value << "limited-memory";
    if (c.scheme == CollocationScheme::kTrapezoidal)
      out << YAML::Key << "scheme" << YAML::Value << "trapezoidal";
    out << YAML::Key << "mesh_tolerance" << YAML::Value << Num(c.mesh_tolerance) << YAML::Key
        << "mesh_rounds" << YAML::Value << c.mesh_rounds << YAML::Key << "max_nodes" << YAML::Value
        << c.max_nodes;
    if (!c.polish) out << YAML::Key << "polish" << YAML::Value << "off";
    out << YAML::EndMap;
  }
}

void EmitOptimalControl(YAML::Emitter& out, const OptimalControlSpec& spec) {
  if (!spec.present) return;
  out << YAML::Key << "optimal_control" << YAML::Value << YAML::BeginMap;
  EmitHorizon(out, spec);
  out << YAML::Key << "controls" << YAML::Value << YAML::BeginSeq;
  for (const auto& u : spec.controls) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << u.name << YAML::Key
        << "acts_on" << YAML::Value << u.acts_on;
    if (!u.unit.empty()) out << YAML::Key << "unit" << YAML::Value << u.unit;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::Key << "cost" << YAML::Value << YAML::DoubleQuoted << spec.cost;
  if (!spec.terminal_cost.empty())
    out << YAML::Key << "terminal_cost" << YAML::Value << YAML::DoubleQuoted << spec.terminal_cost;
  if (!spec.path_constraints.empty()) {
    out << YAML::Key << "path_constraints" << YAML::Value << YAML::BeginSeq;
    for (const auto& c : spec.path_constraints) out << YAML::DoubleQuoted << c.text;
    out << YAML::EndSeq;
  }
  EmitBoundaryConditions(out, "initial", spec.initial);
  EmitBoundaryConditions(out, "final", spec.final);
  EmitBoundsAndMethod(out, spec);
  out << YAML::Key << "shooting" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "nodes" << YAML::Value << spec.shooting.nodes << YAML::Key << "max_iterations"
      << YAML::Value << spec.shooting.max_iterations << YAML::Key << "tolerance" << YAML::Value
      << Num(spec.shooting.tolerance) << YAML::Key << "max_steps" << YAML::Value
      << spec.shooting.max_steps << YAML::EndMap << YAML::EndMap;
}

void EmitGauge(YAML::Emitter& out, const std::vector<GaugeChoice>& gauge) {
  if (gauge.empty()) return;
  out << YAML::Key << "gauge" << YAML::Value << YAML::BeginSeq;
  for (const auto& g : gauge)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << g.name << YAML::Key
        << "value" << YAML::Value << YAML::DoubleQuoted << g.value << YAML::EndMap;
  out << YAML::EndSeq;
}

// With an optimal_control block the horizon is the one T: t_end is not written.
void EmitSimulation(YAML::Emitter& out, const SimulationSpec& sim, bool optimal_control) {
  out << YAML::Key << "simulation" << YAML::Value << YAML::BeginMap;
  if (!optimal_control) out << YAML::Key << "t_end" << YAML::Value << Num(sim.t_end);
  out << YAML::Key << "output_step" << YAML::Value << Num(sim.output_step) << YAML::Key << "rtol"
      << YAML::Value << Num(sim.rtol) << YAML::Key << "atol" << YAML::Value << Num(sim.atol)
      << YAML::Key << "stabilization" << YAML::Value << Num(sim.stabilization);
  if (sim.method != IntegrationMethod::kAuto)
    out << YAML::Key << "method" << YAML::Value << IntegrationMethodName(sim.method);
  if (sim.step != 0.0) out << YAML::Key << "step" << YAML::Value << Num(sim.step);
  if (sim.order != 2) out << YAML::Key << "order" << YAML::Value << sim.order;
  if (sim.tape != TapeMode::kAuto)
    out << YAML::Key << "tape" << YAML::Value << TapeModeName(sim.tape);
  if (sim.linear_solver != LinearSolverMode::kAuto)
    out << YAML::Key << "linear_solver" << YAML::Value << LinearSolverModeName(sim.linear_solver);
  out << YAML::EndMap;
}

bool AllScalars(const std::vector<OptionValue>& items) {
  return std::all_of(items.begin(), items.end(), [](const OptionValue& item) {
    return item.kind() == OptionValue::Kind::kScalar;
  });
}

// Scalars as their text, lists of scalars in flow style, other lists and maps as blocks.
void EmitOption(YAML::Emitter& out, const OptionValue& value) {
  switch (value.kind()) {
    case OptionValue::Kind::kScalar:
      out << value.text();
      return;
    case OptionValue::Kind::kList:
      if (AllScalars(value.items())) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const auto& item : value.items()) EmitOption(out, item);
      out << YAML::EndSeq;
      return;
    case OptionValue::Kind::kMap:
      out << YAML::BeginMap;
      for (const auto& [key, entry] : value.entries()) {
        out << YAML::Key << key << YAML::Value;
        EmitOption(out, entry);
      }
      out << YAML::EndMap;
      return;
  }
}

void EmitScene(YAML::Emitter& out, const SceneSpec& scene) {
  out << YAML::Key << "scene" << YAML::Value << YAML::BeginMap << YAML::Key << "type" << YAML::Value
      << scene.type;
  for (const auto& [key, value] : scene.options.value().entries()) {
    out << YAML::Key << key << YAML::Value;
    EmitOption(out, value);
  }
  out << YAML::EndMap;
}

void EmitPlots(YAML::Emitter& out, const std::vector<PlotSpec>& plots) {
  if (plots.empty()) return;
  out << YAML::Key << "plots" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : plots) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "title" << YAML::Value << p.title;
    if (p.is_phase_portrait()) {
      out << YAML::Key << "pairs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto& pair : p.pairs)
        out << YAML::Flow << std::vector<std::string>{pair[0], pair[1]};
      out << YAML::EndSeq;
      if (!p.section.empty())
        out << YAML::Key << "section" << YAML::Value << p.section << YAML::Key << "direction"
            << YAML::Value << p.section_direction;
    } else {
      out << YAML::Key << "series" << YAML::Value << YAML::Flow << p.series;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitView(YAML::Emitter& out, const Scenario& s) {
  out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
  EmitScene(out, s.scene);
  EmitPlots(out, s.plots);
  out << YAML::EndMap;
}

// One value to replace in the original text: where its scalar starts and how long it is.
struct TextEdit {
  std::size_t pos = 0, length = 0;
  std::string text;
};

// The scalar `node` of `text` (plain or quoted) as an edit to `value`; nullopt if the node is
// missing or its text cannot be found at its mark.
std::optional<TextEdit> EditOf(const std::string& text, const YAML::Node& node, double value) {
  if (!node || !node.IsScalar()) return std::nullopt;
  const YAML::Mark mark = node.Mark();
  if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text.size()) return std::nullopt;
  const std::size_t pos = static_cast<std::size_t>(mark.pos);
  std::size_t length = 0;
  if (text[pos] == '"' || text[pos] == '\'') {
    const std::size_t close = text.find(text[pos], pos + 1);
    if (close == std::string::npos) return std::nullopt;
    length = close + 1 - pos;
  } else {
    const std::string& scalar = node.Scalar();
    if (text.compare(pos, scalar.size(), scalar) != 0) return std::nullopt;
    length = scalar.size();
  }
  return TextEdit{pos, length, Num(value)};
}

// Collects the edits that turn `original` (parsed from `root`) into `edited`; false if some
// difference is not a number present in the text.
bool CollectEdits(const Scenario& original, const Scenario& edited, const std::string& text,
                  const YAML::Node& root, std::vector<TextEdit>& edits) {
  auto add = [&](const YAML::Node& node, double before, double after) {
    if (before == after) return true;
    const auto edit = EditOf(text, node, after);
    if (!edit) return false;
    edits.push_back(*edit);
    return true;
  };
  if (original.parameters.size() != edited.parameters.size() ||
      original.coordinates.size() != edited.coordinates.size())
    return false;
  for (std::size_t i = 0; i < edited.parameters.size(); ++i) {
    const Parameter &a = original.parameters[i], &b = edited.parameters[i];
    const YAML::Node node = root["parameters"][i];
    if (a.name != b.name || !node) return false;
    if (!b.default_expression.empty() && !b.set_by_user) {  // still its expression
      if (a.default_expression != b.default_expression) return false;
      continue;
    }
    if (!b.default_expression.empty()) return false;  // an expression replaced by a number
    if (!add(node["default"], a.value, b.value)) return false;
    // A value outside the slider range widens it (as the re-emitting writer does).
    if (b.value < a.min && !add(node["min"], a.min, b.value)) return false;
    if (b.value > a.max && !add(node["max"], a.max, b.value)) return false;
  }
  for (std::size_t i = 0; i < edited.coordinates.size(); ++i) {
    const Coordinate &a = original.coordinates[i], &b = edited.coordinates[i];
    const YAML::Node node = root["coordinates"][i];
    if (!b.initial_velocity_expression.empty() &&
        (b.initial_velocity_set || a.initial_velocity_expression != b.initial_velocity_expression))
      return false;  // the writer decides how a set or changed expression is written
    const double before = a.initial_velocity_expression.empty() ? a.initial_velocity : 0.0;
    const double after = a.initial_velocity_expression.empty() ? b.initial_velocity : 0.0;
    if (!node || !add(node["initial"], a.initial, b.initial) ||
        !add(node["initial_velocity"], before, after) ||
        !add(node["initial_momentum"], a.initial_momentum, b.initial_momentum))
      return false;
  }
  if (original.algebroid.fibre.size() != edited.algebroid.fibre.size()) return false;
  for (std::size_t i = 0; i < edited.algebroid.fibre.size(); ++i) {
    if (edited.algebroid.algebra.present) {  // generated fibre: values have no place in the text
      if (original.algebroid.fibre[i].initial != edited.algebroid.fibre[i].initial) return false;
      continue;
    }
    if (!add(root["algebroid"]["fibre"][i]["initial"], original.algebroid.fibre[i].initial,
             edited.algebroid.fibre[i].initial))
      return false;
  }
  const SimulationSpec &sa = original.simulation, &sb = edited.simulation;
  const YAML::Node sim = root["simulation"];
  if (!edited.optimal_control.present && !add(sim["t_end"], sa.t_end, sb.t_end)) return false;
  if (!add(sim["output_step"], sa.output_step, sb.output_step) ||
      !add(sim["rtol"], sa.rtol, sb.rtol) || !add(sim["atol"], sa.atol, sb.atol) ||
      !add(sim["stabilization"], sa.stabilization, sb.stabilization))
    return false;
  if (sa.step != sb.step || sa.order != sb.order) return false;  // re-emitted in full
  const OptimalControlSpec &oa = original.optimal_control, &ob = edited.optimal_control;
  if (oa.present != ob.present) return false;
  if (ob.present) {
    const YAML::Node block = root["optimal_control"];
    if (oa.horizon_free != ob.horizon_free || oa.bounds.size() != ob.bounds.size() ||
        oa.method != ob.method)
      return false;
    if (!ob.horizon_free && !add(block["horizon"], oa.horizon, ob.horizon)) return false;
    if (ob.horizon_free && (!add(block["horizon_guess"], oa.horizon, ob.horizon) ||
                            !add(block["horizon_bounds"][0], oa.horizon_min, ob.horizon_min) ||
                            !add(block["horizon_bounds"][1], oa.horizon_max, ob.horizon_max)))
      return false;
    for (std::size_t i = 0; i < ob.bounds.size(); ++i) {
      const VariableBound &a = oa.bounds[i], &b = ob.bounds[i];
      const YAML::Node node = block["bounds"][b.name];
      if (a.name != b.name || !add(node[0], a.min, b.min) || !add(node[1], a.max, b.max))
        return false;
    }
    for (const auto& [key, a_list, b_list] :
         {std::tuple<const char*, const std::vector<BoundaryCondition>*,
                     const std::vector<BoundaryCondition>*>{"initial", &oa.initial, &ob.initial},
          {"final", &oa.final, &ob.final}}) {
      if (a_list->size() != b_list->size()) return false;
      for (std::size_t i = 0; i < b_list->size(); ++i) {
        const BoundaryCondition &a = (*a_list)[i], &b = (*b_list)[i];
        if (a.quantity != b.quantity || a.free != b.free) return false;
        if (!b.free && !add(block[key][b.quantity], a.value, b.value)) return false;
      }
    }
  }
  if (original.boundary_value.targets.size() != edited.boundary_value.targets.size()) return false;
  for (std::size_t i = 0; i < edited.boundary_value.targets.size(); ++i) {
    const auto &a = original.boundary_value.targets[i], &b = edited.boundary_value.targets[i];
    if (a.first != b.first || !add(root["boundary_value"]["targets"][b.first], a.second, b.second))
      return false;
  }
  if (original.second_order.initial.size() != edited.second_order.initial.size()) return false;
  for (std::size_t i = 0; i < edited.second_order.initial.size(); ++i) {
    const auto &a = original.second_order.initial[i], &b = edited.second_order.initial[i];
    if (a.first != b.first || !add(root["second_order"]["initial"][b.first], a.second, b.second))
      return false;
  }
  if (original.reconstruction.initial.size() != edited.reconstruction.initial.size()) return false;
  for (std::size_t i = 0; i < edited.reconstruction.initial.size(); ++i) {
    if (!add(root["reconstruction"]["initial"][i], original.reconstruction.initial[i],
             edited.reconstruction.initial[i]))
      return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> PatchScenarioText(const Scenario& edited, const std::string& text,
                                             const std::string& origin) {
  Scenario original;
  YAML::Node root;
  try {
    original = ParseScenario(text, origin);
    root = YAML::Load(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::vector<TextEdit> edits;
  try {
    if (!CollectEdits(original, edited, text, root, edits)) return std::nullopt;
  } catch (const std::exception&) {  // a node of another shape than expected
    return std::nullopt;
  }
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.pos > b.pos; });
  std::string patched = text;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (i > 0 && edits[i].pos + edits[i].length > edits[i - 1].pos) return std::nullopt;
    patched.replace(edits[i].pos, edits[i].length, edits[i].text);
  }
  // Only values changed: the patched text must read back as exactly the edited scenario.
  try {
    if (SaveScenarioToString(ParseScenario(patched, origin)) != SaveScenarioToString(edited))
      return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return patched;
}

std::string SaveScenarioToString(const Scenario& s) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << s.name;
  if (!s.description.empty())
    out << YAML::Key << "description" << YAML::Value << YAML::Literal << s.description;
  EmitCoordinates(out, s.coordinates, !s.holonomic.empty());
  EmitParameters(out, s.parameters);
  scenario::EmitDefinitions(out, s);
  if (!s.lagrangian_generated)
    out << YAML::Key << "lagrangian" << YAML::Value << YAML::DoubleQuoted << s.lagrangian;
  if (!s.energy_unit.empty()) out << YAML::Key << "energy_unit" << YAML::Value << s.energy_unit;
  scenario::EmitMultibody(out, s);
  EmitConstraints(out, s);
  EmitHolonomic(out, s);
  EmitAlgebroid(out, s.algebroid);
  EmitReconstruction(out, s.reconstruction);
  EmitSecondOrder(out, s.second_order);
  EmitBoundaryValue(out, s.boundary_value);
  EmitOptimalControl(out, s.optimal_control);
  // The block implies its formulation (the only one the reader accepts with it).
  const Formulation formulation =
      s.optimal_control.present ? Formulation::kOptimalControl : s.formulation;
  out << YAML::Key << "formulation" << YAML::Value << scenario::FormulationName(formulation);
  EmitGauge(out, s.gauge);
  EmitSimulation(out, s.simulation, s.optimal_control.present);
  EmitView(out, s);
  EmitStability(out, s.stability);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void SaveScenario(const Scenario& scenario, const std::string& path) {
  // The source file's own text with the edited values (its comments and layout kept), if every
  // difference is a number written in it.
  if (!scenario.source_file.empty()) {
    std::ifstream in(scenario.source_file, std::ios::binary);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      if (const auto patched = PatchScenarioText(scenario, text.str(), scenario.source_file)) {
        io::AtomicFile file(path);
        file.Write(*patched);
        file.Commit();
        return;
      }
    }
  }
  const std::string text = SaveScenarioToString(scenario);
  io::AtomicFile file(path);
  file.Write("# Saved by Dirac Studio from " +
             (scenario.source_file.empty() ? std::string("memory") : scenario.source_file) +
             " (current parameter values as defaults)\n");
  file.Write(text);
  file.Commit();
}

}  // namespace dirac
