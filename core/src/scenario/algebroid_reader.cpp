// The algebroid section: one function per key, called by ReadAlgebroid.
#include "scenario/algebroid_reader.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "dirac/error.hpp"

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

}  // namespace

void ReadAlgebroid(const Reader& r, const YAML::Node& algebroid, SymbolRegistry& symbols,
                   Scenario& s) {
  r.CheckKeys(algebroid, "algebroid", {"fibre", "anchor", "brackets"});
  s.algebroid.where.line = r.Line(algebroid);
  ReadFibre(r, r.Required(algebroid, "fibre"), symbols, s.algebroid);
  if (const YAML::Node anchor = algebroid["anchor"]) ReadAnchor(r, anchor, s);
  if (const YAML::Node brackets = algebroid["brackets"]) ReadBrackets(r, brackets, s);
}

}  // namespace dirac::scenario
