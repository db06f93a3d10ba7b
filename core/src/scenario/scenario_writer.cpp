// The scenario writer: one function per top-level YAML section, in the reader's format.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dirac/scenario.hpp"
#include "dirac/scene_options.hpp"
#include "io/atomic_file.hpp"
#include "scenario/yaml_reader.hpp"

namespace dirac {
namespace {

void EmitCoordinates(YAML::Emitter& out, const std::vector<Coordinate>& coordinates) {
  out << YAML::Key << "coordinates" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const auto& c : coordinates) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key
        << "velocity" << YAML::Value << c.velocity << YAML::Key << "initial" << YAML::Value
        << c.initial << YAML::Key << "initial_velocity" << YAML::Value << c.initial_velocity;
    if (!c.unit.empty()) out << YAML::Key << "unit" << YAML::Value << c.unit;
    if (c.initial_momentum != 0.0 || c.momentum != "p_" + c.name)
      out << YAML::Key << "momentum" << YAML::Value << c.momentum << YAML::Key << "initial_momentum"
          << YAML::Value << c.initial_momentum;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// Current values become the defaults; a --set value outside the slider range widens it.
void EmitParameters(YAML::Emitter& out, const std::vector<Parameter>& parameters) {
  if (parameters.empty()) return;
  out << YAML::Key << "parameters" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : parameters) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name << YAML::Key
        << "default" << YAML::Value << p.value << YAML::Key << "min" << YAML::Value
        << std::min(p.min, p.value) << YAML::Key << "max" << YAML::Value
        << std::max(p.max, p.value);
    if (!p.unit.empty()) out << YAML::Key << "unit" << YAML::Value << p.unit;
    if (!p.description.empty()) out << YAML::Key << "description" << YAML::Value << p.description;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitConstraints(YAML::Emitter& out, const std::vector<ConstraintSpec>& constraints) {
  if (constraints.empty()) return;
  out << YAML::Key << "constraints" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : constraints)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key
        << "form" << YAML::Value << YAML::DoubleQuoted << c.form << YAML::Key << "multiplier"
        << YAML::Value << c.multiplier << YAML::EndMap;
  out << YAML::EndSeq;
}

void EmitComponents(YAML::Emitter& out, const Components& list) {
  out << YAML::Flow << YAML::BeginMap;
  for (const auto& [name, e] : list)
    out << YAML::Key << name << YAML::Value << YAML::DoubleQuoted << e;
  out << YAML::EndMap;
}

void EmitAlgebroid(YAML::Emitter& out, const AlgebroidSpec& algebroid) {
  if (!algebroid.present) return;
  out << YAML::Key << "algebroid" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "fibre" << YAML::Value << YAML::BeginSeq;
  for (const auto& y : algebroid.fibre) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << y.name << YAML::Key
        << "initial" << YAML::Value << y.initial;
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
    out << YAML::Key << "initial" << YAML::Value << YAML::Flow << rec.initial;
  out << YAML::EndMap;
}

void EmitSecondOrder(YAML::Emitter& out, const SecondOrderSpec& spec) {
  if (spec.accelerations.empty()) return;
  out << YAML::Key << "second_order" << YAML::Value << YAML::BeginMap << YAML::Key
      << "accelerations" << YAML::Value << YAML::Flow << spec.accelerations;
  if (!spec.initial.empty()) {
    out << YAML::Key << "initial" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [n, v] : spec.initial) out << YAML::Key << n << YAML::Value << v;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void EmitBoundaryValue(YAML::Emitter& out, const BoundaryValueSpec& spec) {
  if (!spec.present()) return;
  out << YAML::Key << "boundary_value" << YAML::Value << YAML::BeginMap << YAML::Key << "unknowns"
      << YAML::Value << YAML::Flow << spec.unknowns << YAML::Key << "targets" << YAML::Value
      << YAML::Flow << YAML::BeginMap;
  for (const auto& [n, v] : spec.targets) out << YAML::Key << n << YAML::Value << v;
  out << YAML::EndMap << YAML::EndMap;
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
      out << bc.value;
  }
  out << YAML::EndMap;
}

void EmitOptimalControl(YAML::Emitter& out, const OptimalControlSpec& spec) {
  if (!spec.present) return;
  out << YAML::Key << "optimal_control" << YAML::Value << YAML::BeginMap << YAML::Key << "horizon"
      << YAML::Value << spec.horizon << YAML::Key << "controls" << YAML::Value << YAML::BeginSeq;
  for (const auto& u : spec.controls)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << u.name << YAML::Key
        << "acts_on" << YAML::Value << u.acts_on << YAML::EndMap;
  out << YAML::EndSeq << YAML::Key << "cost" << YAML::Value << YAML::DoubleQuoted << spec.cost;
  EmitBoundaryConditions(out, "initial", spec.initial);
  EmitBoundaryConditions(out, "final", spec.final);
  out << YAML::Key << "shooting" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "nodes" << YAML::Value << spec.shooting.nodes << YAML::Key << "max_iterations"
      << YAML::Value << spec.shooting.max_iterations << YAML::Key << "tolerance" << YAML::Value
      << spec.shooting.tolerance << YAML::EndMap << YAML::EndMap;
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
  if (!optimal_control) out << YAML::Key << "t_end" << YAML::Value << sim.t_end;
  out << YAML::Key << "output_step" << YAML::Value << sim.output_step << YAML::Key << "rtol"
      << YAML::Value << sim.rtol << YAML::Key << "atol" << YAML::Value << sim.atol << YAML::Key
      << "stabilization" << YAML::Value << sim.stabilization << YAML::EndMap;
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
  for (const auto& p : plots)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "title" << YAML::Value << p.title
        << YAML::Key << "series" << YAML::Value << YAML::Flow << p.series << YAML::EndMap;
  out << YAML::EndSeq;
}

void EmitView(YAML::Emitter& out, const Scenario& s) {
  out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
  EmitScene(out, s.scene);
  EmitPlots(out, s.plots);
  out << YAML::EndMap;
}

}  // namespace

std::string SaveScenarioToString(const Scenario& s) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << s.name;
  if (!s.description.empty())
    out << YAML::Key << "description" << YAML::Value << YAML::Literal << s.description;
  EmitCoordinates(out, s.coordinates);
  EmitParameters(out, s.parameters);
  out << YAML::Key << "lagrangian" << YAML::Value << YAML::DoubleQuoted << s.lagrangian;
  EmitConstraints(out, s.constraints);
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
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void SaveScenario(const Scenario& scenario, const std::string& path) {
  const std::string text = SaveScenarioToString(scenario);
  io::AtomicFile file(path);
  file.Write("# Saved by Dirac Studio from " +
             (scenario.source_file.empty() ? std::string("memory") : scenario.source_file) +
             " (current parameter values as defaults)\n");
  file.Write(text);
  file.Commit();
}

}  // namespace dirac
