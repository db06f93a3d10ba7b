#include "dirac/scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "dirac/error.hpp"
#include "dirac/simulation_types.hpp"
#include "io/atomic_file.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {
namespace {

bool ParseFormulation(const std::string& f, Formulation* out) {
  if (f == "auto")
    *out = Formulation::kAuto;
  else if (f == "lagrange_dirac")
    *out = Formulation::kLagrangeDirac;
  else if (f == "constraint_algorithm")
    *out = Formulation::kConstraintAlgorithm;
  else if (f == "vakonomic")
    *out = Formulation::kVakonomic;
  else if (f == "second_order")
    *out = Formulation::kSecondOrder;
  else
    return false;
  return true;
}

// Reads YAML nodes while remembering the file, so every error says FILE:LINE: 'key': message.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  std::size_t Line(const YAML::Node& node) const {
    return node.Mark().line >= 0 ? static_cast<std::size_t>(node.Mark().line) + 1 : 0;
  }

  [[noreturn]] void Fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const {
    throw ScenarioError(file_, Line(node), key, message);
  }

  YAML::Node Required(const YAML::Node& map, const std::string& key) const {
    YAML::Node value = map[key];
    if (!value) Fail(map, key, "missing required key");
    return value;
  }

  std::string String(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) Fail(node, key, "expected a text value");
    return node.Scalar();
  }

  std::string OptionalString(const YAML::Node& map, const std::string& key,
                             const std::string& fallback) const {
    YAML::Node value = map[key];
    return value ? String(value, key) : fallback;
  }

  double Number(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) Fail(node, key, "expected a number");
    const std::string& text = node.Scalar();
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
      Fail(node, key, "expected a finite number, found \"" + text + "\"");
    return value;
  }

  double OptionalNumber(const YAML::Node& map, const std::string& key, double fallback) const {
    YAML::Node value = map[key];
    return value ? Number(value, key) : fallback;
  }

  void CheckKeys(const YAML::Node& map, const std::string& where,
                 const std::set<std::string>& allowed) const {
    if (!map.IsMap()) Fail(map, where, "expected a mapping");
    for (const auto& item : map) {
      const std::string key = item.first.Scalar();
      if (!allowed.count(key)) Fail(item.first, key, "unknown key in " + where);
    }
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// Checks that symbol names are identifiers, unique and not reserved.
class SymbolRegistry {
 public:
  SymbolRegistry(const Reader& reader) : reader_(reader) {}
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

Scenario ParseDocument(const YAML::Node& root, const std::string& origin) {
  Reader r(origin);
  if (!root || !root.IsMap()) throw ScenarioError(origin, 1, "", "a scenario is a YAML mapping");
  r.CheckKeys(root, "scenario",
              {"name", "description", "coordinates", "parameters", "lagrangian", "constraints",
               "formulation", "gauge", "algebroid", "reconstruction", "second_order",
               "boundary_value", "simulation", "view"});
  Scenario s;
  s.source_file = origin;
  s.name = r.String(r.Required(root, "name"), "name");
  s.description = r.OptionalString(root, "description", "");
  SymbolRegistry symbols(r);
  if (const YAML::Node formulation = root["formulation"]) {
    const std::string f = r.String(formulation, "formulation");
    if (!ParseFormulation(f, &s.formulation))
      r.Fail(formulation, f,
             "unknown formulation (auto, lagrange_dirac, constraint_algorithm, vakonomic, "
             "second_order)");
  }
  // Momentum symbols are always declared so a scenario can switch formulation (--formulation).
  constexpr bool vakonomic = true;

  const YAML::Node algebroid = root["algebroid"];
  s.algebroid.present = static_cast<bool>(algebroid);
  const YAML::Node coordinates = s.algebroid.present && !root["coordinates"]
                                     ? YAML::Node(YAML::NodeType::Sequence)
                                     : r.Required(root, "coordinates");
  if (!coordinates.IsSequence() || (coordinates.size() == 0 && !s.algebroid.present))
    r.Fail(coordinates, "coordinates", "expected a non-empty list of coordinates");
  for (const auto& node : coordinates) {
    r.CheckKeys(node, "coordinates",
                {"name", "velocity", "initial", "initial_velocity", "unit", "momentum",
                 "initial_momentum"});
    Coordinate c;
    c.name = r.String(r.Required(node, "name"), "name");
    c.velocity = r.OptionalString(node, "velocity", "v" + c.name);
    c.initial = r.OptionalNumber(node, "initial", 0.0);
    c.initial_velocity = r.OptionalNumber(node, "initial_velocity", 0.0);
    c.unit = r.OptionalString(node, "unit", "");
    c.momentum = r.OptionalString(node, "momentum", "p_" + c.name);
    c.initial_momentum = r.OptionalNumber(node, "initial_momentum", 0.0);
    c.where.line = r.Line(node);
    symbols.Add(c.name, node, "coordinate");
    if (!s.algebroid.present) symbols.Add(c.velocity, node, "velocity");
    if (vakonomic && !s.algebroid.present) symbols.Add(c.momentum, node, "momentum");
    s.coordinates.push_back(c);
  }
  if (s.algebroid.present) {
    r.CheckKeys(algebroid, "algebroid", {"fibre", "anchor", "brackets"});
    s.algebroid.where.line = r.Line(algebroid);
    const YAML::Node fibre = r.Required(algebroid, "fibre");
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
      s.algebroid.fibre.push_back(y);
    }
    auto section_known = [&](const std::string& name) {
      for (const auto& y : s.algebroid.fibre)
        if (y.name == name) return true;
      return false;
    };
    auto read_components = [&](const YAML::Node& map, const std::string& key, bool sections) {
      if (!map.IsMap()) r.Fail(map, key, "expected a mapping {name: expression}");
      Components out;
      for (const auto& item : map) {
        const std::string name = item.first.Scalar();
        bool known = sections ? section_known(name) : false;
        if (!sections)
          for (const auto& c : s.coordinates) known |= c.name == name;
        if (!known)
          r.Fail(item.first, name,
                 sections ? "names no fibre coordinate (section)" : "names no base coordinate");
        out.emplace_back(name, r.String(item.second, name));
      }
      return out;
    };
    if (const YAML::Node anchor = algebroid["anchor"]) {
      if (!anchor.IsSequence())
        r.Fail(anchor, "anchor", "expected a list of {section, components}");
      for (const auto& node : anchor) {
        r.CheckKeys(node, "algebroid.anchor", {"section", "components"});
        AnchorSpec a;
        a.section = r.String(r.Required(node, "section"), "section");
        if (!section_known(a.section)) r.Fail(node, a.section, "names no fibre coordinate");
        a.components = read_components(r.Required(node, "components"), a.section, false);
        a.where.line = r.Line(node);
        s.algebroid.anchor.push_back(a);
      }
    }
    if (const YAML::Node brackets = algebroid["brackets"]) {
      if (!brackets.IsSequence()) r.Fail(brackets, "brackets", "expected a list of {pair, value}");
      for (const auto& node : brackets) {
        r.CheckKeys(node, "algebroid.brackets", {"pair", "value"});
        BracketSpec b;
        const YAML::Node pair = r.Required(node, "pair");
        if (!pair.IsSequence() || pair.size() != 2)
          r.Fail(node, "pair", "expected [X_a, X_b] as two fibre names");
        b.a = r.String(pair[0], "pair");
        b.b = r.String(pair[1], "pair");
        for (const auto& name : {b.a, b.b})
          if (!section_known(name)) r.Fail(pair, name, "names no fibre coordinate (section)");
        if (b.a == b.b) r.Fail(pair, b.a, "[X, X] = 0 by antisymmetry; do not list it");
        b.value = read_components(r.Required(node, "value"), "[" + b.a + ", " + b.b + "]", true);
        b.where.line = r.Line(node);
        for (const auto& other : s.algebroid.brackets)
          if ((other.a == b.a && other.b == b.b) || (other.a == b.b && other.b == b.a))
            r.Fail(node, "[" + b.a + ", " + b.b + "]",
                   "bracket given twice (the other order follows by antisymmetry)");
        s.algebroid.brackets.push_back(b);
      }
    }
  }

  if (const YAML::Node parameters = root["parameters"]) {
    if (!parameters.IsSequence()) r.Fail(parameters, "parameters", "expected a list");
    for (const auto& node : parameters) {
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
      symbols.Add(p.name, node, "parameter");
      s.parameters.push_back(p);
    }
  }

  const YAML::Node lagrangian = r.Required(root, "lagrangian");
  s.lagrangian = r.String(lagrangian, "lagrangian");
  s.lagrangian_where.line = r.Line(lagrangian);

  std::set<std::string> multiplier_names;
  if (const YAML::Node constraints = root["constraints"]) {
    if (!constraints.IsSequence()) r.Fail(constraints, "constraints", "expected a list");
    const bool single = constraints.size() == 1;
    std::size_t index = 0;
    for (const auto& node : constraints) {
      ++index;
      r.CheckKeys(node, "constraints", {"name", "form", "multiplier"});
      ConstraintSpec c;
      c.name = r.OptionalString(node, "name", "c" + std::to_string(index));
      c.form = r.String(r.Required(node, "form"), c.name + ".form");
      c.multiplier =
          r.OptionalString(node, "multiplier", single ? "mu" : "mu" + std::to_string(index));
      c.where.line = r.Line(node);
      if (!symbolic::IsValidIdentifier(c.name))
        r.Fail(node, c.name, "constraint name must be an identifier");
      symbols.Add(c.multiplier, node, "multiplier");
      for (const auto& other : s.constraints)
        if (other.name == c.name) r.Fail(node, c.name, "constraint defined twice");
      s.constraints.push_back(c);
    }
  }

  if (const YAML::Node sim = root["simulation"]) {
    r.CheckKeys(sim, "simulation", {"t_end", "output_step", "rtol", "atol", "stabilization"});
    auto& spec = s.simulation;
    spec.t_end = r.OptionalNumber(sim, "t_end", spec.t_end);
    spec.output_step = r.OptionalNumber(sim, "output_step", spec.output_step);
    spec.rtol = r.OptionalNumber(sim, "rtol", spec.rtol);
    spec.atol = r.OptionalNumber(sim, "atol", spec.atol);
    spec.stabilization = r.OptionalNumber(sim, "stabilization", spec.stabilization);
    if (!(spec.t_end > 0)) r.Fail(sim, "t_end", "must be > 0");
    if (!(spec.output_step > 0)) r.Fail(sim, "output_step", "must be > 0");
    if (!(spec.rtol > 0) || !(spec.atol > 0)) r.Fail(sim, "rtol", "tolerances must be > 0");
    if (spec.stabilization < 0) r.Fail(sim, "stabilization", "must be >= 0");
    if (spec.t_end / spec.output_step > kMaxSamples)
      r.Fail(sim, "output_step",
             "t_end / output_step asks for more than " +
                 std::to_string(static_cast<long>(kMaxSamples)) + " samples");
  }

  if (const YAML::Node gauge = root["gauge"]) {
    if (!gauge.IsSequence()) r.Fail(gauge, "gauge", "expected a list of {name, value}");
    for (const auto& node : gauge) {
      r.CheckKeys(node, "gauge", {"name", "value"});
      GaugeChoice g;
      g.name = r.String(r.Required(node, "name"), "name");
      g.value = r.String(r.Required(node, "value"), g.name + ".value");
      g.where.line = r.Line(node);
      if (!symbolic::IsValidIdentifier(g.name))
        r.Fail(node, g.name, "gauge name must be an identifier");
      s.gauge.push_back(g);
    }
  }

  if (const YAML::Node second = root["second_order"]) {
    r.CheckKeys(second, "second_order", {"accelerations", "initial"});
    auto& spec = s.second_order;
    spec.where.line = r.Line(second);
    std::vector<std::string> fibre;
    if (s.algebroid.present) {
      for (const auto& y : s.algebroid.fibre) fibre.push_back(y.name);
    } else {
      for (const auto& c : s.coordinates) fibre.push_back(c.velocity);
    }
    if (const YAML::Node acc = second["accelerations"]) {
      for (const auto& e : acc) spec.accelerations.push_back(r.String(e, "accelerations"));
      if (spec.accelerations.size() != fibre.size())
        r.Fail(acc, "accelerations", "expected one acceleration per velocity");
    } else {
      for (const auto& y : fibre) spec.accelerations.push_back("a" + y);
    }
    std::set<std::string> known;
    for (std::size_t a = 0; a < fibre.size(); ++a) {
      symbols.Add(spec.accelerations[a], second, "acceleration");
      symbols.Add("p_" + fibre[a], second, "costate");
      symbols.Add("pbar_" + fibre[a], second, "costate");
      known.insert({spec.accelerations[a], "p_" + fibre[a], "pbar_" + fibre[a]});
    }
    if (const YAML::Node initial = second["initial"]) {
      if (!initial.IsMap()) r.Fail(initial, "initial", "expected {name: value}");
      for (const auto& item : initial) {
        const std::string name = item.first.Scalar();
        if (!known.count(name))
          r.Fail(item.first, name, "names no acceleration or costate (p_<v>, pbar_<v>)");
        spec.initial.emplace_back(name, r.Number(item.second, name));
      }
    }
  }

  if (const YAML::Node rec = root["reconstruction"]) {
    r.CheckKeys(rec, "reconstruction", {"group", "body_velocity", "names", "initial"});
    auto& spec = s.reconstruction;
    spec.where.line = r.Line(rec);
    spec.group = r.String(r.Required(rec, "group"), "group");
    if (spec.group != "SO3" && spec.group != "SE2")
      r.Fail(rec["group"], spec.group, "reconstruction group must be SO3 or SE2");
    const YAML::Node xi = r.Required(rec, "body_velocity");
    if (!xi.IsSequence() || xi.size() != 3)
      r.Fail(xi, "body_velocity", "expected three expressions");
    for (const auto& e : xi) spec.body_velocity.push_back(r.String(e, "body_velocity"));
    if (const YAML::Node names = rec["names"]) {
      for (const auto& e : names) spec.names.push_back(r.String(e, "names"));
    }
    if (spec.names.empty())
      spec.names = spec.group == "SE2" ? std::vector<std::string>{"gx", "gy", "gtheta"}
                                       : std::vector<std::string>{"R"};
    const std::size_t expected_names = spec.group == "SE2" ? 3 : 1;
    if (spec.names.size() != expected_names)
      r.Fail(rec, "names",
             spec.group == "SE2" ? "SE2 needs three names [x, y, theta]"
                                 : "SO3 needs one name (a prefix, e.g. R)");
    for (const auto& n : spec.names) symbols.Add(n, rec, "reconstruction column");
    if (const YAML::Node initial = rec["initial"]) {
      for (const auto& e : initial) spec.initial.push_back(r.Number(e, "initial"));
      const std::size_t expected = spec.group == "SE2" ? 3 : 9;
      if (spec.initial.size() != expected)
        r.Fail(initial, "initial", "expected " + std::to_string(expected) + " numbers");
    }
  }

  // Every expression must parse with the declared symbols only.
  GiNaC::symtab table;
  for (const auto& name : symbols.names()) table[name] = GiNaC::symbol(name);
  table["t"] = GiNaC::symbol("t");
  for (const auto& c : s.constraints) table.erase(c.multiplier);
  symbolic::ParseExpression(s.lagrangian, table, {origin, s.lagrangian_where.line, "lagrangian"});
  for (const auto& c : s.constraints)
    symbolic::ParseExpression(c.form, table, {origin, c.where.line, c.name + ".form"});
  for (const auto& g : s.gauge)
    symbolic::ParseExpression(g.value, table, {origin, g.where.line, g.name + ".value"});
  for (const auto& a : s.algebroid.anchor)
    for (const auto& [name, e] : a.components)
      symbolic::ParseExpression(e, table, {origin, a.where.line, "anchor[" + a.section + "]"});
  for (const auto& b : s.algebroid.brackets)
    for (const auto& [name, e] : b.value)
      symbolic::ParseExpression(e, table,
                                {origin, b.where.line, "[" + b.a + ", " + b.b + "]." + name});
  for (const auto& e : s.reconstruction.body_velocity)
    symbolic::ParseExpression(e, table, {origin, s.reconstruction.where.line, "body_velocity"});

  std::set<std::string> columns;
  for (const auto& c : s.coordinates) {
    columns.insert({c.name, c.velocity, c.name + "_dot", c.velocity + "_dot"});
    if (vakonomic) columns.insert({c.momentum, c.momentum + "_dot"});
  }
  columns.insert("residual_dynamics");
  for (const auto& y : s.algebroid.fibre) columns.insert({y.name, y.name + "_dot"});
  for (const auto& c : s.coordinates) columns.insert(c.name + "_dot");
  {
    std::vector<std::string> fibre;
    for (const auto& y : s.algebroid.fibre) fibre.push_back(y.name);
    if (!s.algebroid.present)
      for (const auto& c : s.coordinates) fibre.push_back(c.velocity);
    for (std::size_t a = 0; a < s.second_order.accelerations.size(); ++a)
      for (const std::string& name :
           {s.second_order.accelerations[a], "p_" + fibre[a], "pbar_" + fibre[a]})
        columns.insert({name, name + "_dot"});
  }
  if (s.reconstruction.group == "SE2")
    for (const auto& n : s.reconstruction.names) columns.insert(n);
  if (s.reconstruction.group == "SO3") {
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j)
        columns.insert(s.reconstruction.names[0] + std::to_string(i) + std::to_string(j));
    columns.insert(
        {"orthogonality_error", "spatial_momentum_x", "spatial_momentum_y", "spatial_momentum_z"});
  }
  for (std::size_t k = 1; k <= 32; ++k) columns.insert("residual_hidden" + std::to_string(k));
  for (const auto& c : s.constraints) columns.insert({c.multiplier, "residual_" + c.name});
  columns.insert({"t", "E"});

  if (const YAML::Node bvp = root["boundary_value"]) {
    r.CheckKeys(bvp, "boundary_value", {"unknowns", "targets"});
    auto& spec = s.boundary_value;
    spec.where.line = r.Line(bvp);
    const YAML::Node unknowns = r.Required(bvp, "unknowns");
    const YAML::Node targets = r.Required(bvp, "targets");
    if (!unknowns.IsSequence()) r.Fail(unknowns, "unknowns", "expected a list of initial values");
    for (const auto& e : unknowns) spec.unknowns.push_back(r.String(e, "unknowns"));
    if (!targets.IsMap()) r.Fail(targets, "targets", "expected {column: value at t_end}");
    for (const auto& item : targets) {
      const std::string name = item.first.Scalar();
      if (!columns.count(name)) r.Fail(item.first, name, "target names no trajectory column");
      spec.targets.emplace_back(name, r.Number(item.second, name));
    }
    if (spec.unknowns.size() != spec.targets.size() || spec.unknowns.empty())
      r.Fail(bvp, "boundary_value", "needs as many unknowns as targets (and at least one)");
  }

  if (const YAML::Node view = root["view"]) {
    r.CheckKeys(view, "view", {"scene", "plots"});
    if (const YAML::Node scene = view["scene"]) {
      r.CheckKeys(
          scene, "view.scene",
          {"type", "position", "trail", "constraint_plane", "scale", "attitude", "box", "bodies"});
      auto column = [&](const YAML::Node& node, const std::string& key) {
        const std::string name = r.String(node, key);
        if (!columns.count(name)) r.Fail(node, name, "names no trajectory column");
        return name;
      };
      if (const YAML::Node attitude = scene["attitude"]) {
        s.scene.attitude = r.String(attitude, "attitude");
        if (!columns.count(s.scene.attitude + "11"))
          r.Fail(attitude, s.scene.attitude,
                 "attitude names no SO3 reconstruction (columns <prefix>11..<prefix>33)");
      }
      if (const YAML::Node box = scene["box"]) {
        for (const auto& e : box) s.scene.box.push_back(r.Number(e, "box"));
        if (s.scene.box.size() != 3) r.Fail(box, "box", "expected three side lengths");
      }
      if (const YAML::Node bodies = scene["bodies"]) {
        if (!bodies.IsSequence()) r.Fail(bodies, "bodies", "expected a list of planar bodies");
        for (const auto& node : bodies) {
          r.CheckKeys(node, "view.scene.bodies", {"x", "y", "angle", "length", "width", "label"});
          PlanarBodySpec b;
          b.x = column(r.Required(node, "x"), "x");
          b.y = column(r.Required(node, "y"), "y");
          const YAML::Node angle = r.Required(node, "angle");
          if (angle.IsSequence()) {
            for (const auto& e : angle) b.angle.push_back(column(e, "angle"));
          } else {
            b.angle.push_back(column(angle, "angle"));
          }
          b.length = r.OptionalNumber(node, "length", b.length);
          b.width = r.OptionalNumber(node, "width", b.width);
          b.label = r.OptionalString(node, "label", "");
          s.scene.bodies.push_back(b);
        }
      }
      s.scene.type = r.OptionalString(scene, "type", "particle");
      if (const YAML::Node position = scene["position"]) {
        if (!position.IsSequence() || position.size() != 3)
          r.Fail(position, "position", "expected a list of three coordinate names");
        for (const auto& p : position) {
          const std::string name = r.String(p, "position");
          if (!columns.count(name)) r.Fail(p, name, "scene position names no trajectory column");
          s.scene.position.push_back(name);
        }
      }
      s.scene.trail = static_cast<int>(r.OptionalNumber(scene, "trail", s.scene.trail));
      s.scene.scale = r.OptionalNumber(scene, "scale", s.scene.scale);
      s.scene.constraint_plane = r.OptionalString(scene, "constraint_plane", "");
      if (!s.scene.constraint_plane.empty()) {
        bool known = false;
        for (const auto& c : s.constraints) known |= c.name == s.scene.constraint_plane;
        if (!known)
          r.Fail(scene["constraint_plane"], s.scene.constraint_plane,
                 "constraint_plane names an unknown constraint");
      }
    }
    if (const YAML::Node plots = view["plots"]) {
      if (!plots.IsSequence()) r.Fail(plots, "plots", "expected a list");
      for (const auto& node : plots) {
        r.CheckKeys(node, "view.plots", {"title", "series"});
        PlotSpec plot;
        plot.title = r.OptionalString(node, "title", "");
        plot.where.line = r.Line(node);
        const YAML::Node series = r.Required(node, "series");
        if (!series.IsSequence() || series.size() == 0)
          r.Fail(series, "series", "expected a non-empty list of column names");
        for (const auto& item : series) {
          const std::string name = r.String(item, "series");
          if (!columns.count(name))
            r.Fail(item, name,
                   "plot series names no trajectory column (t, coordinates, "
                   "velocities, multipliers, E, residual_<constraint>)");
          plot.series.push_back(name);
        }
        s.plots.push_back(plot);
      }
    }
  }
  if (s.scene.position.empty() && s.coordinates.size() >= 3) {
    for (std::size_t i = 0; i < 3 && i < s.coordinates.size(); ++i)
      s.scene.position.push_back(s.coordinates[i].name);
  }
  return s;
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

Scenario ParseScenario(const std::string& yaml_text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                        "invalid YAML: " + e.msg);
  }
  try {
    return ParseDocument(root, origin);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg);
  }
}

Scenario LoadScenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ScenarioError(path, 0, "", "cannot open scenario file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseScenario(buffer.str(), path);
}

std::string SaveScenarioToString(const Scenario& s) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << s.name;
  if (!s.description.empty())
    out << YAML::Key << "description" << YAML::Value << YAML::Literal << s.description;
  out << YAML::Key << "coordinates" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const auto& c : s.coordinates) {
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
  if (!s.parameters.empty()) {
    out << YAML::Key << "parameters" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : s.parameters) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name
          << YAML::Key << "default" << YAML::Value << p.value << YAML::Key << "min" << YAML::Value
          << std::min(p.min, p.value) << YAML::Key << "max" << YAML::Value
          << std::max(p.max, p.value);  // a --set value outside the slider range widens it
      if (!p.unit.empty()) out << YAML::Key << "unit" << YAML::Value << p.unit;
      if (!p.description.empty()) out << YAML::Key << "description" << YAML::Value << p.description;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::Key << "lagrangian" << YAML::Value << YAML::DoubleQuoted << s.lagrangian;
  if (!s.constraints.empty()) {
    out << YAML::Key << "constraints" << YAML::Value << YAML::BeginSeq;
    for (const auto& c : s.constraints)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name
          << YAML::Key << "form" << YAML::Value << YAML::DoubleQuoted << c.form << YAML::Key
          << "multiplier" << YAML::Value << c.multiplier << YAML::EndMap;
    out << YAML::EndSeq;
  }
  if (s.algebroid.present) {
    out << YAML::Key << "algebroid" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "fibre" << YAML::Value << YAML::BeginSeq;
    for (const auto& y : s.algebroid.fibre) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << y.name
          << YAML::Key << "initial" << YAML::Value << y.initial;
      if (!y.unit.empty()) out << YAML::Key << "unit" << YAML::Value << y.unit;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    auto components = [&](const Components& list) {
      out << YAML::Flow << YAML::BeginMap;
      for (const auto& [name, e] : list)
        out << YAML::Key << name << YAML::Value << YAML::DoubleQuoted << e;
      out << YAML::EndMap;
    };
    out << YAML::Key << "anchor" << YAML::Value << YAML::BeginSeq;
    for (const auto& a : s.algebroid.anchor) {
      out << YAML::BeginMap << YAML::Key << "section" << YAML::Value << a.section << YAML::Key
          << "components" << YAML::Value;
      components(a.components);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "brackets" << YAML::Value << YAML::BeginSeq;
    for (const auto& b : s.algebroid.brackets) {
      out << YAML::BeginMap << YAML::Key << "pair" << YAML::Value << YAML::Flow
          << std::vector<std::string>{b.a, b.b} << YAML::Key << "value" << YAML::Value;
      components(b.value);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  if (!s.reconstruction.group.empty()) {
    const auto& rec = s.reconstruction;
    out << YAML::Key << "reconstruction" << YAML::Value << YAML::BeginMap << YAML::Key << "group"
        << YAML::Value << rec.group << YAML::Key << "body_velocity" << YAML::Value << YAML::Flow
        << YAML::BeginSeq;
    for (const auto& e : rec.body_velocity) out << YAML::DoubleQuoted << e;
    out << YAML::EndSeq << YAML::Key << "names" << YAML::Value << YAML::Flow << rec.names;
    if (!rec.initial.empty())
      out << YAML::Key << "initial" << YAML::Value << YAML::Flow << rec.initial;
    out << YAML::EndMap;
  }
  if (!s.second_order.accelerations.empty()) {
    out << YAML::Key << "second_order" << YAML::Value << YAML::BeginMap << YAML::Key
        << "accelerations" << YAML::Value << YAML::Flow << s.second_order.accelerations;
    if (!s.second_order.initial.empty()) {
      out << YAML::Key << "initial" << YAML::Value << YAML::Flow << YAML::BeginMap;
      for (const auto& [n, v] : s.second_order.initial) out << YAML::Key << n << YAML::Value << v;
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  if (s.boundary_value.present()) {
    out << YAML::Key << "boundary_value" << YAML::Value << YAML::BeginMap << YAML::Key << "unknowns"
        << YAML::Value << YAML::Flow << s.boundary_value.unknowns << YAML::Key << "targets"
        << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [n, v] : s.boundary_value.targets) out << YAML::Key << n << YAML::Value << v;
    out << YAML::EndMap << YAML::EndMap;
  }
  static const char* kFormulations[] = {"auto", "lagrange_dirac", "constraint_algorithm",
                                        "vakonomic", "second_order"};
  out << YAML::Key << "formulation" << YAML::Value
      << kFormulations[static_cast<int>(s.formulation)];
  if (!s.gauge.empty()) {
    out << YAML::Key << "gauge" << YAML::Value << YAML::BeginSeq;
    for (const auto& g : s.gauge)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << g.name
          << YAML::Key << "value" << YAML::Value << YAML::DoubleQuoted << g.value << YAML::EndMap;
    out << YAML::EndSeq;
  }
  const auto& sim = s.simulation;
  out << YAML::Key << "simulation" << YAML::Value << YAML::BeginMap << YAML::Key << "t_end"
      << YAML::Value << sim.t_end << YAML::Key << "output_step" << YAML::Value << sim.output_step
      << YAML::Key << "rtol" << YAML::Value << sim.rtol << YAML::Key << "atol" << YAML::Value
      << sim.atol << YAML::Key << "stabilization" << YAML::Value << sim.stabilization
      << YAML::EndMap;
  out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "scene" << YAML::Value << YAML::BeginMap << YAML::Key << "type" << YAML::Value
      << s.scene.type << YAML::Key << "trail" << YAML::Value << s.scene.trail << YAML::Key
      << "scale" << YAML::Value << s.scene.scale;
  if (!s.scene.position.empty())
    out << YAML::Key << "position" << YAML::Value << YAML::Flow << s.scene.position;
  if (!s.scene.attitude.empty()) out << YAML::Key << "attitude" << YAML::Value << s.scene.attitude;
  if (!s.scene.box.empty()) out << YAML::Key << "box" << YAML::Value << YAML::Flow << s.scene.box;
  if (!s.scene.bodies.empty()) {
    out << YAML::Key << "bodies" << YAML::Value << YAML::BeginSeq;
    for (const auto& b : s.scene.bodies)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "x" << YAML::Value << b.x << YAML::Key
          << "y" << YAML::Value << b.y << YAML::Key << "angle" << YAML::Value << YAML::Flow
          << b.angle << YAML::Key << "length" << YAML::Value << b.length << YAML::Key << "width"
          << YAML::Value << b.width << YAML::Key << "label" << YAML::Value << b.label
          << YAML::EndMap;
    out << YAML::EndSeq;
  }
  if (!s.scene.constraint_plane.empty())
    out << YAML::Key << "constraint_plane" << YAML::Value << s.scene.constraint_plane;
  out << YAML::EndMap;
  if (!s.plots.empty()) {
    out << YAML::Key << "plots" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : s.plots)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "title" << YAML::Value << p.title
          << YAML::Key << "series" << YAML::Value << YAML::Flow << p.series << YAML::EndMap;
    out << YAML::EndSeq;
  }
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void ApplyOverride(Scenario& s, const std::string& name, double value) {
  if (!std::isfinite(value)) throw ScenarioError(s.source_file, 0, name, "value is not finite");
  if (auto index = s.FindParameter(name)) {
    s.parameters[*index].value = value;
    return;
  }
  for (auto& c : s.coordinates) {
    if (c.name == name) {
      c.initial = value;
      return;
    }
    if (c.velocity == name) {
      c.initial_velocity = value;
      return;
    }
    if (c.momentum == name) {
      c.initial_momentum = value;
      return;
    }
  }
  for (auto& y : s.algebroid.fibre) {
    if (y.name == name) {
      y.initial = value;
      return;
    }
  }
  {
    // Accelerations and costates of a second-order problem.
    auto& spec = s.second_order;
    bool known = std::find(spec.accelerations.begin(), spec.accelerations.end(), name) !=
                 spec.accelerations.end();
    for (const auto& c : s.coordinates)
      known |= !spec.accelerations.empty() &&
               (name == "p_" + c.velocity || name == "pbar_" + c.velocity);
    for (const auto& y : s.algebroid.fibre)
      known |= !spec.accelerations.empty() && (name == "p_" + y.name || name == "pbar_" + y.name);
    if (known) {
      for (auto& [n, v] : spec.initial)
        if (n == name) {
          v = value;
          return;
        }
      spec.initial.emplace_back(name, value);
      return;
    }
  }
  auto& sim = s.simulation;
  auto positive = [&](double& field) {
    if (!(value > 0)) throw ScenarioError(s.source_file, 0, name, "must be > 0");
    field = value;
  };
  auto within_bound = [&](double t_end, double step) {
    if (t_end / step > kMaxSamples)
      throw ScenarioError(s.source_file, 0, name,
                          "t_end / output_step would ask for more than " +
                              std::to_string(static_cast<long>(kMaxSamples)) + " samples");
  };
  if (name == "t_end") {
    within_bound(value, sim.output_step);
    return positive(sim.t_end);
  }
  if (name == "output_step") {
    within_bound(sim.t_end, value);
    return positive(sim.output_step);
  }
  if (name == "rtol") return positive(sim.rtol);
  if (name == "atol") return positive(sim.atol);
  if (name == "stabilization") {
    if (value < 0) throw ScenarioError(s.source_file, 0, name, "must be >= 0");
    sim.stabilization = value;
    return;
  }
  throw ScenarioError(s.source_file, 0, name,
                      "--set names no parameter, coordinate, velocity or simulation setting");
}

void SaveScenario(const Scenario& scenario, const std::string& path) {
  io::AtomicFile file(path);
  file.stream() << "# Saved by Dirac Studio from "
                << (scenario.source_file.empty() ? "memory" : scenario.source_file)
                << " (current parameter values as defaults)\n"
                << SaveScenarioToString(scenario);
  file.Commit();
}

void SetFormulation(Scenario& s, const std::string& name) {
  if (!ParseFormulation(name, &s.formulation))
    throw ScenarioError(s.source_file, 0, name,
                        "unknown formulation (auto, lagrange_dirac, constraint_algorithm, "
                        "vakonomic)");
}

void ApplyOverride(Scenario& s, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ScenarioError(s.source_file, 0, assignment, "expected NAME=VALUE");
  const std::string name = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    throw ScenarioError(s.source_file, 0, name, "value \"" + text + "\" is not a number");
  ApplyOverride(s, name, value);
}

}  // namespace dirac
