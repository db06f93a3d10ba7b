// The `stability:` section: ignorable coordinates, independent speeds, the operating point's
// --set values and the swept name with its range (docs/scenario-format.md).
#include "scenario/stability_reader.hpp"

#include <algorithm>

namespace dirac::scenario {

namespace {

std::vector<std::string> NameList(const Reader& r, const YAML::Node& map, const std::string& key) {
  std::vector<std::string> names;
  const YAML::Node list = map[key];
  if (!list) return names;
  if (!list.IsSequence()) r.Fail(list, key, "expected a list of names");
  for (const auto& item : list) names.push_back(r.String(item, key));
  return names;
}

bool IsVelocity(const Scenario& s, const std::string& name) {
  for (const auto& c : s.coordinates)
    if (c.velocity == name) return !s.algebroid.present;
  for (const auto& f : s.algebroid.fibre)
    if (f.name == name) return true;
  return false;
}

}  // namespace

void ReadStability(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.CheckKeys(node, "stability", {"ignorable", "speeds", "find", "point", "vary"});
  StabilitySpec& spec = s.stability;
  spec.present = true;
  spec.where.line = r.Line(node);
  spec.ignorable = NameList(r, node, "ignorable");
  for (std::size_t i = 0; i < spec.ignorable.size(); ++i) {
    const std::string& name = spec.ignorable[i];
    if (std::none_of(s.coordinates.begin(), s.coordinates.end(),
                     [&](const Coordinate& c) { return c.name == name; }))
      r.Fail(node["ignorable"][i], name, "stability.ignorable names no coordinate");
  }
  spec.speeds = NameList(r, node, "speeds");
  for (std::size_t i = 0; i < spec.speeds.size(); ++i)
    if (!IsVelocity(s, spec.speeds[i]))
      r.Fail(node["speeds"][i], spec.speeds[i],
             "stability.speeds names no velocity (fibre coordinate)");
  if (const YAML::Node find = node["find"]) {
    if (!find.IsScalar() || (find.Scalar() != "true" && find.Scalar() != "false"))
      r.Fail(find, "find", "expected true or false");
    spec.find = find.Scalar() == "true";
  }
  if (const YAML::Node point = node["point"]) {
    if (!point.IsMap()) r.Fail(point, "point", "expected {name: value} (--set values)");
    for (const auto& item : point) {
      const std::string name = r.String(item.first, "point");
      if (!CurrentValue(s, name))
        r.Fail(item.first, name, "stability.point names no parameter or initial value");
      spec.point.emplace_back(name, r.Number(item.second, name));
    }
  }
  const YAML::Node vary = r.Required(node, "vary");
  r.CheckKeys(vary, "stability.vary", {"name", "from", "to", "count"});
  const YAML::Node name = r.Required(vary, "name");
  spec.vary = r.String(name, "name");
  if (!CurrentValue(s, spec.vary))
    r.Fail(name, spec.vary, "stability.vary names no parameter or initial value");
  spec.from = r.Number(r.Required(vary, "from"), "from");
  spec.to = r.Number(r.Required(vary, "to"), "to");
  if (!(spec.from != spec.to)) r.Fail(vary, "to", "the sweep needs from != to");
  if (const YAML::Node count = vary["count"]) {
    const double c = r.Number(count, "count");
    if (c < 2 || c > 100000 || c != static_cast<double>(static_cast<std::size_t>(c)))
      r.Fail(count, "count", "expected a whole number from 2 to 100000");
    spec.count = static_cast<std::size_t>(c);
  }
}

}  // namespace dirac::scenario
