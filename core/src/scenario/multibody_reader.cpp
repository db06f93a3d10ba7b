#include "scenario/multibody_reader.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "dirac/error.hpp"
#include "dirac/scenario_text.hpp"
#include "scenario/multibody.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::scenario {

namespace {

const char* kInertiaKeys[] = {"xx", "yy", "zz", "xy", "xz", "yz"};

// The value of `e` with every symbol at `values` (missing ones at 0); NaN if not a real number.
double Evaluate(const GiNaC::ex& e, const GiNaC::exmap& values) {
  try {
    const GiNaC::ex n = GiNaC::evalf(e.subs(values, GiNaC::subs_options::no_pattern));
    if (!GiNaC::is_a<GiNaC::numeric>(n) || !GiNaC::ex_to<GiNaC::numeric>(n).is_real())
      return std::nan("");
    return GiNaC::ex_to<GiNaC::numeric>(n).to_double();
  } catch (const std::exception&) {
    return std::nan("");
  }
}

// Symbols of `symbols` at the scenario's initial values.
GiNaC::exmap InitialValues(const ScenarioSymbols& symbols, const Scenario& s) {
  GiNaC::exmap values;
  values[symbols.t()] = 0;
  for (std::size_t i = 0; i < symbols.q().size(); ++i)
    values[symbols.q()[i]] = s.coordinates[i].initial;
  for (std::size_t i = 0; i < symbols.velocities().size(); ++i)
    values[symbols.velocities()[i]] = symbols.velocity_initial()[i];
  for (std::size_t i = 0; i < symbols.parameters().size(); ++i)
    values[symbols.parameters()[i]] = s.parameters[i].value;
  return values;
}

std::vector<double> ReadAxis(const Reader& r, const YAML::Node& node, std::string& name) {
  if (node.IsScalar()) {
    name = node.Scalar();
    std::vector<double> a = NamedAxis(name);
    if (a.empty())
      r.Fail(node, name, "unnamed axis (x, y, z, -x, -y, -z, or three numbers of a unit vector)");
    return a;
  }
  name.clear();
  if (!node.IsSequence() || node.size() != 3)
    r.Fail(node, "axis", "expected x, y, z (or -x, ...) or three numbers of a unit vector");
  std::vector<double> a;
  for (const auto& e : node) a.push_back(r.Number(e, "axis"));
  const double norm = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (std::abs(norm - 1) > 1e-12)
    r.Fail(node, "axis", "the axis is not a unit vector (length " + std::to_string(norm) + ")");
  return a;
}

VectorText ReadVector(const Reader& r, const YAML::Node& node, const std::string& key) {
  if (!node.IsSequence() || node.size() != 3) r.Fail(node, key, "expected three expressions");
  VectorText v;
  for (const auto& e : node) v.push_back(r.String(e, key));
  return v;
}

std::string Name(const Reader& r, const YAML::Node& node, const std::string& section) {
  const std::string name = r.String(r.Required(node, "name"), "name");
  if (!symbolic::IsValidIdentifier(name))
    r.Fail(node["name"], name, section + " name must be an identifier (letters, digits, _)");
  return name;
}

template <typename T>
bool Has(const std::vector<T>& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(), [&](const T& x) { return x.name == name; });
}

YAML::Node List(const Reader& r, const YAML::Node& root, const char* key) {
  const YAML::Node node = root[key];
  if (node && !node.IsSequence()) r.Fail(node, key, "expected a list");
  return node;
}

void ReadFrames(const Reader& r, const YAML::Node& list, MultibodySpec& mb) {
  for (const auto& node : list) {
    r.CheckKeys(node, "frames", {"name", "parent", "rotations"});
    FrameSpec f;
    f.name = Name(r, node, "frame");
    f.line = r.Line(node);
    if (f.name == "N" || Has(mb.frames, f.name))
      r.Fail(node, f.name, "frame defined twice (N is the world)");
    f.parent = r.OptionalString(node, "parent", "N");
    if (const YAML::Node rotations = node["rotations"]) {
      if (!rotations.IsSequence())
        r.Fail(rotations, "rotations", "expected a list of {axis, angle}");
      for (const auto& item : rotations) {
        r.CheckKeys(item, "rotations", {"axis", "angle"});
        RotationSpec rot;
        rot.vector = ReadAxis(r, r.Required(item, "axis"), rot.axis);
        rot.angle = r.String(r.Required(item, "angle"), f.name + ".angle");
        f.rotations.push_back(rot);
      }
    }
    mb.frames.push_back(f);
  }
  // Parents known, no cycle.
  for (std::size_t k = 0; k < mb.frames.size(); ++k) {
    const YAML::Node node = list[k];
    std::vector<std::string> seen{mb.frames[k].name};
    std::string at = mb.frames[k].parent;
    while (at != "N") {
      if (!Has(mb.frames, at)) r.Fail(node["parent"] ? node["parent"] : node, at, "unknown frame");
      if (std::count(seen.begin(), seen.end(), at))
        r.Fail(node, mb.frames[k].name, "the frames form a cycle through " + at);
      seen.push_back(at);
      at = std::find_if(mb.frames.begin(), mb.frames.end(), [&](auto& f) {
             return f.name == at;
           })->parent;
    }
  }
}

void RequireFrame(const Reader& r, const MultibodySpec& mb, const YAML::Node& node,
                  const std::string& name) {
  if (name != "N" && !Has(mb.frames, name)) r.Fail(node, name, "unknown frame");
}
void RequirePoint(const Reader& r, const MultibodySpec& mb, const YAML::Node& node,
                  const std::string& name) {
  if (name != "O" && !Has(mb.points, name)) r.Fail(node, name, "unknown point");
}

void ReadPoints(const Reader& r, const YAML::Node& list, MultibodySpec& mb) {
  for (const auto& node : list) {
    r.CheckKeys(node, "points", {"name", "parent", "frame", "offset"});
    PointSpec p;
    p.name = Name(r, node, "point");
    p.line = r.Line(node);
    if (p.name == "O" || Has(mb.points, p.name))
      r.Fail(node, p.name, "point defined twice (O is the origin)");
    p.parent = r.OptionalString(node, "parent", "O");
    p.frame = r.OptionalString(node, "frame", "N");
    RequireFrame(r, mb, node["frame"] ? node["frame"] : node, p.frame);
    p.offset = ReadVector(r, r.Required(node, "offset"), p.name + ".offset");
    mb.points.push_back(p);
  }
  for (std::size_t k = 0; k < mb.points.size(); ++k) {
    std::vector<std::string> seen{mb.points[k].name};
    std::string at = mb.points[k].parent;
    while (at != "O") {
      const YAML::Node node = list[k];
      RequirePoint(r, mb, node["parent"] ? node["parent"] : node, at);
      if (std::count(seen.begin(), seen.end(), at))
        r.Fail(node, mb.points[k].name, "the points form a cycle through " + at);
      seen.push_back(at);
      at = std::find_if(mb.points.begin(), mb.points.end(), [&](auto& p) {
             return p.name == at;
           })->parent;
    }
  }
}

void ReadInertia(const Reader& r, const YAML::Node& node, BodySpec& b) {
  if (node.IsMap()) {
    r.CheckKeys(node, "inertia", {"xx", "yy", "zz", "xy", "xz", "yz"});
    for (int k = 0; k < 6; ++k)
      if (node[kInertiaKeys[k]])
        b.inertia[k] = r.String(node[kInertiaKeys[k]], b.name + ".inertia");
    return;
  }
  if (!node.IsSequence() || node.size() != 3)
    r.Fail(node, b.name + ".inertia", "expected {xx, yy, zz, xy, xz, yz} or three rows of three");
  std::string m[3][3];
  for (int i = 0; i < 3; ++i) {
    const YAML::Node row = node[i];
    if (!row.IsSequence() || row.size() != 3)
      r.Fail(row, b.name + ".inertia", "expected a row of three");
    for (int j = 0; j < 3; ++j) m[i][j] = r.String(row[j], b.name + ".inertia");
  }
  // The lower triangle must repeat the upper one (checked as numbers by CheckMultibody too).
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (const auto& [i, j] : pairs)
    if (m[i][j] != m[j][i])
      r.Fail(node, b.name + ".inertia",
             "the inertia tensor is not symmetric (" + m[i][j] + " vs " + m[j][i] + ")");
  b.inertia = {m[0][0], m[1][1], m[2][2], m[0][1], m[0][2], m[1][2]};
}

void ReadBodies(const Reader& r, const YAML::Node& list, MultibodySpec& mb) {
  for (const auto& node : list) {
    r.CheckKeys(node, "bodies", {"name", "mass", "point", "frame", "inertia", "shape"});
    BodySpec b;
    b.name = Name(r, node, "body");
    b.line = r.Line(node);
    if (Has(mb.bodies, b.name)) r.Fail(node, b.name, "body defined twice");
    b.mass = r.String(r.Required(node, "mass"), b.name + ".mass");
    b.point = r.String(r.Required(node, "point"), b.name + ".point");
    RequirePoint(r, mb, node["point"], b.point);
    b.frame = r.OptionalString(node, "frame", "N");
    RequireFrame(r, mb, node["frame"] ? node["frame"] : node, b.frame);
    if (const YAML::Node inertia = node["inertia"]) ReadInertia(r, inertia, b);
    if (const YAML::Node shape = node["shape"]) {
      r.CheckKeys(shape, "shape", {"type", "size"});
      b.shape = r.String(r.Required(shape, "type"), b.name + ".shape.type");
      if (b.shape != "box" && b.shape != "cylinder" && b.shape != "disc" && b.shape != "sphere")
        r.Fail(shape["type"], b.shape, "shape must be box, cylinder, disc or sphere");
      if (const YAML::Node size = shape["size"]) {
        if (!size.IsSequence()) r.Fail(size, "size", "expected a list of expressions");
        for (const auto& e : size) b.size.push_back(r.String(e, b.name + ".shape.size"));
      }
    }
    mb.bodies.push_back(b);
  }
}

const BodySpec& RequireBody(const Reader& r, const MultibodySpec& mb, const YAML::Node& node,
                            const std::string& name) {
  for (const auto& b : mb.bodies)
    if (b.name == name) return b;
  r.Fail(node, name, "unknown body");
}

void ReadConstraintsOfPoints(const Reader& r, const YAML::Node& root, MultibodySpec& mb) {
  if (const YAML::Node list = List(r, root, "rolling"))
    for (const auto& node : list) {
      r.CheckKeys(node, "rolling",
                  {"name", "body", "axis", "radius", "center", "directions", "multipliers"});
      RollingSpec w;
      w.name = Name(r, node, "rolling");
      w.line = r.Line(node);
      w.body = r.String(r.Required(node, "body"), w.name + ".body");
      RequireBody(r, mb, node["body"], w.body);
      w.vector = ReadAxis(r, r.Required(node, "axis"), w.axis);
      w.radius = r.String(r.Required(node, "radius"), w.name + ".radius");
      w.center = r.OptionalString(node, "center", "");
      if (!w.center.empty()) RequirePoint(r, mb, node["center"], w.center);
      const std::string directions = r.OptionalString(node, "directions", "wheel");
      if (directions != "wheel" && directions != "ground")
        r.Fail(node["directions"], directions, "directions must be wheel or ground");
      w.ground_directions = directions == "ground";
      if (const YAML::Node names = node["multipliers"]) {
        if (!names.IsSequence() || names.size() < 2 || names.size() > 3)
          r.Fail(names, "multipliers", "expected two or three names (the forms', the contact's)");
        for (const auto& e : names) w.multipliers.push_back(r.String(e, "multipliers"));
      }
      if (Has(mb.rolling, w.name)) r.Fail(node, w.name, "rolling wheel defined twice");
      mb.rolling.push_back(w);
    }
  if (const YAML::Node list = List(r, root, "knife_edges"))
    for (const auto& node : list) {
      r.CheckKeys(node, "knife_edges", {"name", "point", "body", "axis", "multiplier"});
      PointVelocitySpec c;
      c.name = Name(r, node, "knife edge");
      c.line = r.Line(node);
      c.point = r.String(r.Required(node, "point"), c.name + ".point");
      RequirePoint(r, mb, node["point"], c.point);
      c.multiplier = r.OptionalString(node, "multiplier", "");
      c.frame = RequireBody(r, mb, r.Required(node, "body"), node["body"].Scalar()).frame;
      std::string axis;
      for (double a : ReadAxis(r, r.Required(node, "axis"), axis)) {
        c.direction.push_back(ShortestNumber(a));  // all digits: std::to_string kept six
      }
      mb.velocity_constraints.push_back(c);
    }
  if (const YAML::Node list = List(r, root, "velocity_constraints"))
    for (const auto& node : list) {
      r.CheckKeys(node, "velocity_constraints",
                  {"name", "point", "frame", "direction", "multiplier"});
      PointVelocitySpec c;
      c.name = Name(r, node, "velocity constraint");
      c.line = r.Line(node);
      c.point = r.String(r.Required(node, "point"), c.name + ".point");
      RequirePoint(r, mb, node["point"], c.point);
      c.multiplier = r.OptionalString(node, "multiplier", "");
      c.frame = r.OptionalString(node, "frame", "N");
      RequireFrame(r, mb, node["frame"] ? node["frame"] : node, c.frame);
      c.direction = ReadVector(r, r.Required(node, "direction"), c.name + ".direction");
      mb.velocity_constraints.push_back(c);
    }
}

}  // namespace

const std::vector<std::string>& MultibodyKeys() {
  static const std::vector<std::string> keys{
      "definitions", "frames",  "points",  "bodies",      "gravity",
      "ground",      "springs", "rolling", "knife_edges", "velocity_constraints"};
  return keys;
}

void ReadDefinitions(const Reader& r, const YAML::Node& node, SymbolRegistry& symbols,
                     Scenario& s) {
  if (!node.IsSequence()) r.Fail(node, "definitions", "expected a list of {name, value}");
  for (const auto& item : node) {
    r.CheckKeys(item, "definitions", {"name", "value"});
    Definition d;
    d.name = r.String(r.Required(item, "name"), "name");
    d.value = r.String(r.Required(item, "value"), d.name + ".value");
    d.where.line = r.Line(item);
    symbols.Add(d.name, item, "definition");
    s.definitions.push_back(d);
  }
}

double EvaluateParameterDefault(const Reader& r, const YAML::Node& node, const std::string& name,
                                const std::string& text, const std::vector<Parameter>& earlier) {
  std::vector<std::string> names;
  for (const auto& p : earlier) names.push_back(p.name);
  std::vector<GiNaC::symbol> symbols;
  GiNaC::symtab table = TableOfNames(names, &symbols);
  table.erase("t");
  GiNaC::ex e;
  try {
    e = symbolic::ParseExpression(text, table, {r.file(), r.Line(node), name + ".default"});
  } catch (const ScenarioError& error) {
    r.Fail(node, name + ".default",
           "expected a number, or an expression of constants and earlier parameters (" +
               std::string(error.what()) + ")");
  }
  GiNaC::exmap values;
  for (std::size_t k = 0; k < symbols.size(); ++k) values[symbols[k]] = earlier[k].value;
  const double value = Evaluate(e, values);
  if (!std::isfinite(value))
    r.Fail(node, name,
           "the default \"" + text + "\" is not a finite number of the earlier parameters");
  return value;
}

void ReadMultibody(const Reader& r, const YAML::Node& root, SymbolRegistry& symbols, Scenario& s) {
  MultibodySpec& mb = s.multibody;
  if (const YAML::Node list = List(r, root, "frames")) ReadFrames(r, list, mb);
  if (const YAML::Node list = List(r, root, "points")) ReadPoints(r, list, mb);
  if (const YAML::Node list = List(r, root, "bodies")) ReadBodies(r, list, mb);
  const bool any = mb.present() || root["rolling"] || root["knife_edges"] || root["springs"] ||
                   root["velocity_constraints"] || root["gravity"];
  if (!any) return;
  if (mb.bodies.empty())
    r.Fail(root, "bodies", "frames, points, gravity and rolling need `bodies:`");
  if (s.algebroid.present)
    r.Fail(root["bodies"], "bodies", "bodies are written on TQ, not with an algebroid");
  if (const YAML::Node g = root["gravity"]) {
    mb.gravity = ReadVector(r, g, "gravity");
    mb.gravity_line = r.Line(g);
  }
  if (const YAML::Node ground = root["ground"]) {
    r.CheckKeys(ground, "ground", {"up"});
    std::string name;
    mb.up = ReadAxis(r, r.Required(ground, "up"), name);
    mb.up_given = true;
  }
  if (const YAML::Node list = List(r, root, "springs"))
    for (const auto& node : list) {
      r.CheckKeys(node, "springs", {"name", "a", "b", "stiffness", "rest_length"});
      SpringSpec k;
      k.name = Name(r, node, "spring");
      k.line = r.Line(node);
      k.a = r.String(r.Required(node, "a"), k.name + ".a");
      k.b = r.String(r.Required(node, "b"), k.name + ".b");
      RequirePoint(r, mb, node["a"], k.a);
      RequirePoint(r, mb, node["b"], k.b);
      k.stiffness = r.String(r.Required(node, "stiffness"), k.name + ".stiffness");
      k.rest_length = r.OptionalString(node, "rest_length", "0");
      mb.springs.push_back(k);
    }
  ReadConstraintsOfPoints(r, root, mb);
  for (const auto& name : GeneratedNames(mb)) symbols.Add(name, root["bodies"], "generated");
  // L = sum T - sum V (+ the file's own term).
  if (const YAML::Node extra = root["lagrangian"])
    mb.extra_lagrangian = r.String(extra, "lagrangian");
  std::string L, V;
  for (const auto& b : mb.bodies) {
    L += (L.empty() ? "" : " + ") + ("T_" + b.name);
    if (!mb.gravity.empty()) V += (V.empty() ? "" : " + ") + ("V_" + b.name);
  }
  for (const auto& k : mb.springs) V += (V.empty() ? "" : " + ") + ("V_" + k.name);
  if (!V.empty()) L += " - (" + V + ")";
  if (!mb.extra_lagrangian.empty()) L += " + (" + mb.extra_lagrangian + ")";
  s.lagrangian = L;
  s.lagrangian_generated = true;
  s.lagrangian_where.line = r.Line(root["bodies"]);
  auto multiplier = [](const std::vector<std::string>& given, std::size_t k,
                       const std::string& name) {
    return k < given.size() && !given[k].empty() ? given[k] : "mu_" + name;
  };
  auto add_form = [&](const std::string& name, const std::string& mu, std::size_t line) {
    // The multiplier of a contact point's velocity constraint is the contact force along it.
    ConstraintSpec c{name, name, mu, {line}, "N"};
    symbols.Add(c.multiplier, root["bodies"], "multiplier");
    s.constraints.push_back(c);
  };
  for (const auto& w : mb.rolling) {
    const auto names = RollingNames(w);
    add_form(names[0], multiplier(w.multipliers, 0, names[0]), w.line);
    add_form(names[1], multiplier(w.multipliers, 1, names[1]), w.line);
    const std::string mu = multiplier(w.multipliers, 2, names[2]);
    symbols.Add(mu, root["bodies"], "multiplier");
    s.holonomic.push_back({names[2], names[2], mu, {w.line}, "N"});
  }
  for (const auto& c : mb.velocity_constraints)
    add_form(c.name, multiplier({c.multiplier}, 0, c.name), c.line);
}

void CheckMultibody(const Reader& r, const YAML::Node& root, Scenario& s) {
  MultibodySpec& mb = s.multibody;
  if (!mb.present()) return;
  const ScenarioSymbols symbols(s, {Velocities::kTangent});
  const GiNaC::exmap at = InitialValues(symbols, s);
  const YAML::Node bodies = root["bodies"];
  for (std::size_t k = 0; k < mb.bodies.size(); ++k) {
    const BodySpec& b = mb.bodies[k];
    const YAML::Node node = bodies[k];
    const double m = Evaluate(symbols.Parse(b.mass, b.line, b.name + ".mass"), at);
    if (!(m >= 0))
      r.Fail(node["mass"], b.name + ".mass",
             "the mass is negative (" + std::to_string(m) + ") at the initial state");
    double I[6];
    for (int i = 0; i < 6; ++i)
      I[i] = Evaluate(symbols.Parse(b.inertia[i], b.line, b.name + ".inertia"), at);
    Eigen::Matrix3d J;
    J << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
    if (!J.allFinite())
      r.Fail(node, b.name + ".inertia", "the inertia is not finite at the initial state");
    const Eigen::Vector3d eig = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(J).eigenvalues();
    if (eig.minCoeff() < -1e-12 * std::max(1.0, eig.cwiseAbs().maxCoeff()))
      r.Fail(node["inertia"] ? node["inertia"] : node, b.name + ".inertia",
             "the inertia is not positive semidefinite at the initial state (smallest eigenvalue " +
                 std::to_string(eig.minCoeff()) + ")");
  }
  if (!mb.up_given && !mb.gravity.empty()) {
    double g[3], norm = 0;
    for (int i = 0; i < 3; ++i) {
      g[i] = Evaluate(symbols.Parse(mb.gravity[i], mb.gravity_line, "gravity"), at);
      norm += g[i] * g[i];
    }
    norm = std::sqrt(norm);
    if (std::isfinite(norm) && norm > 0) mb.up = {-g[0] / norm, -g[1] / norm, -g[2] / norm};
  }
  // A contact height that vanishes at random states holds by construction (a wheel whose centre
  // is placed from its contact point): it is no constraint.
  if (mb.rolling.empty()) return;
  const ScenarioSymbols positions(s, {Velocities::kNone});
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<HolonomicSpec> kept;
  for (const auto& h : s.holonomic) {
    const auto it = std::find_if(mb.rolling.begin(), mb.rolling.end(),
                                 [&](auto& w) { return RollingNames(w)[2] == h.name; });
    if (it == mb.rolling.end()) {
      kept.push_back(h);
      continue;
    }
    const GiNaC::ex height = positions.Parse(h.equation, h.where.line, h.name);
    bool identically_zero = true;
    for (int trial = 0; trial < 3 && identically_zero; ++trial) {
      GiNaC::exmap point = InitialValues(positions, s);
      for (const auto& q : positions.q()) point[q] = uniform(random);
      const double value = Evaluate(height, point);
      identically_zero = std::isfinite(value) && std::abs(value) < 1e-12;
    }
    if (!identically_zero) kept.push_back(h);
  }
  s.holonomic = kept;
}

std::set<std::string> GeneratedConstraintNames(const Scenario& s) {
  std::set<std::string> names;
  for (const auto& w : s.multibody.rolling)
    for (const auto& name : RollingNames(w)) names.insert(name);
  for (const auto& c : s.multibody.velocity_constraints) names.insert(c.name);
  return names;
}

}  // namespace dirac::scenario
