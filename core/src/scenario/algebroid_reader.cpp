// The algebroid section: one function per key, called by ReadAlgebroid.
#include "scenario/algebroid_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "families/lie_algebra_family.hpp"

namespace dirac::scenario {
namespace {

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

// {name: number} over the generated basis.
std::vector<std::pair<std::string, double>> ReadInitialMap(const Reader& r, const YAML::Node& map,
                                                           const std::string& key,
                                                           const Scenario& s) {
  if (!map.IsMap()) r.Fail(map, key, "expected a mapping {basis element: number}");
  std::vector<std::pair<std::string, double>> out;
  for (const auto& item : map) {
    const std::string name = item.first.Scalar();
    if (!SectionKnown(s.algebroid, name))
      r.Fail(item.first, name,
             "names no element of the basis of " + s.algebroid.algebra.family + "(" +
                 std::to_string(s.algebroid.algebra.size) + ")");
    out.emplace_back(name, r.Number(item.second, key + "." + name));
  }
  return out;
}

// `algebra: {family, size}` with `inertia` and the initial values by basis name; the fibre
// coordinates are the generated basis.
void ReadAlgebra(const Reader& r, const YAML::Node& algebroid, SymbolRegistry& symbols,
                 Scenario& s) {
  const YAML::Node node = algebroid["algebra"];
  for (const char* key : {"fibre", "anchor", "brackets"})
    if (algebroid[key])
      r.Fail(algebroid[key], key,
             "a Lie algebra named by `algebra` generates its basis and brackets; remove `" +
                 std::string(key) + "`");
  if (!s.coordinates.empty())
    r.Fail(node, "algebra", "a Lie algebra from a family has no base coordinates");
  r.CheckKeys(node, "algebroid.algebra", {"family", "size"});
  LieAlgebraSpec& a = s.algebroid.algebra;
  a.present = true;
  a.where.line = r.Line(node);
  a.family = r.String(r.Required(node, "family"), "family");
  const double size = r.Number(r.Required(node, "size"), "size");
  if (size != std::floor(size) || size < 0 || size > 1000)
    r.Fail(node["size"], "size", "expected a whole number");
  a.size = static_cast<int>(size);
  families::LieAlgebraBasis basis;
  try {
    basis = families::LieAlgebraBasisOf(a.family, a.size);
  } catch (const FamilyError& e) {
    r.Fail(node, a.family, e.what());
  }
  for (const std::string& name : basis.names) {
    FibreCoordinate y;
    y.name = name;
    y.where.line = a.where.line;
    symbols.Add(name, node, "basis element");
    s.algebroid.fibre.push_back(y);
  }
  if (const YAML::Node inertia = algebroid["inertia"]) {
    if (inertia.IsScalar()) {
      a.inertia = inertia.Scalar();
      if (a.inertia != "laplacian")
        r.Fail(inertia, a.inertia, "expected `laplacian` or {diagonal: [...]}");
      if (basis.laplacian.empty())
        r.Fail(inertia, "laplacian", "the Laplacian is defined for zeitlin_torus only");
    } else {
      r.CheckKeys(inertia, "algebroid.inertia", {"diagonal"});
      const YAML::Node diagonal = r.Required(inertia, "diagonal");
      if (!diagonal.IsSequence() || diagonal.size() != basis.dimension())
        r.Fail(diagonal, "diagonal",
               "expected a list of " + std::to_string(basis.dimension()) +
                   " entries (numbers or parameter names), one per basis element");
      a.inertia = "diagonal";
      for (const auto& entry : diagonal) a.diagonal.push_back(r.String(entry, "diagonal"));
    }
  }
  if (const YAML::Node initial = algebroid["initial"])
    a.initial = ReadInitialMap(r, initial, "initial", s);
  if (const YAML::Node momentum = algebroid["initial_momentum"]) {
    if (a.inertia.empty())
      r.Fail(momentum, "initial_momentum", "needs `inertia` (p = I y is solved for y)");
    a.initial_momentum = ReadInitialMap(r, momentum, "initial_momentum", s);
  }
  for (const auto& [name, value] : a.initial)
    for (auto& y : s.algebroid.fibre)
      if (y.name == name) y.initial = value;
}

}  // namespace

void ReadAlgebroid(const Reader& r, const YAML::Node& algebroid, SymbolRegistry& symbols,
                   Scenario& s) {
  r.CheckKeys(algebroid, "algebroid",
              {"fibre", "anchor", "brackets", "algebra", "inertia", "initial", "initial_momentum"});
  s.algebroid.where.line = r.Line(algebroid);
  if (algebroid["algebra"]) return ReadAlgebra(r, algebroid, symbols, s);
  for (const char* key : {"inertia", "initial", "initial_momentum"})
    if (algebroid[key])
      r.Fail(algebroid[key], key, "belongs to a Lie algebra named by `algebra: {family, size}`");
  ReadFibre(r, r.Required(algebroid, "fibre"), symbols, s.algebroid);
  if (const YAML::Node anchor = algebroid["anchor"]) ReadAnchor(r, anchor, s);
  if (const YAML::Node brackets = algebroid["brackets"]) ReadBrackets(r, brackets, s);
}

void GenerateAlgebraLagrangian(const Reader& r, const YAML::Node& root, Scenario& s) {
  const LieAlgebraSpec& a = s.algebroid.algebra;
  const YAML::Node given = root["lagrangian"];
  if (a.inertia.empty()) return;
  if (given)
    r.Fail(given, "lagrangian",
           "give either the lagrangian or algebroid.inertia (which generates L = <y, I y>/2)");
  const families::LieAlgebraBasis basis = families::LieAlgebraBasisOf(a.family, a.size);
  std::vector<std::string> entries = a.diagonal;
  if (a.inertia == "laplacian")
    for (double value : basis.laplacian) entries.push_back(std::to_string(std::lround(value)));
  // Numeric value of each entry (a number, or a parameter's default) for initial_momentum.
  std::vector<double> values;
  for (const std::string& entry : entries) {
    char* end = nullptr;
    double value = std::strtod(entry.c_str(), &end);
    if (entry.empty() || *end != '\0') {
      const auto found = std::find_if(s.parameters.begin(), s.parameters.end(),
                                      [&](const Parameter& p) { return p.name == entry; });
      if (found == s.parameters.end())
        throw ScenarioError(s.source_file, a.where.line, entry,
                            "an inertia entry is a number or a parameter's name");
      value = found->value;
    }
    if (!(value > 0.0) || !std::isfinite(value))
      throw ScenarioError(s.source_file, a.where.line, entry,
                          "an inertia entry must be positive (L = <y, I y>/2 regular)");
    values.push_back(value);
  }
  std::string text = "(";
  for (std::size_t i = 0; i < entries.size(); ++i)
    text += (i ? " + " : "") + entries[i] + "*" + basis.names[i] + "^2";
  s.lagrangian = text + ")/2";
  s.lagrangian_generated = true;
  s.lagrangian_where.line = a.where.line;
  for (const auto& [name, p] : a.initial_momentum)
    for (std::size_t i = 0; i < basis.names.size(); ++i)
      if (basis.names[i] == name) s.algebroid.fibre[i].initial = p / values[i];
}

}  // namespace dirac::scenario
