// The writer of `definitions:` and the multibody sections, in the reader's format.
#include <yaml-cpp/yaml.h>

#include "dirac/scenario.hpp"
#include "scenario/multibody_reader.hpp"

namespace dirac {
std::string ShortestNumber(double value);
}

namespace dirac::scenario {

namespace {

void EmitAxis(YAML::Emitter& out, const std::string& name, const std::vector<double>& vector) {
  if (!name.empty()) {
    out << name;
    return;
  }
  out << YAML::Flow << YAML::BeginSeq;
  for (double a : vector) out << ShortestNumber(a);
  out << YAML::EndSeq;
}

void EmitVector(YAML::Emitter& out, const VectorText& v) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const auto& e : v) out << YAML::DoubleQuoted << e;
  out << YAML::EndSeq;
}

void EmitBodies(YAML::Emitter& out, const MultibodySpec& mb) {
  out << YAML::Key << "bodies" << YAML::Value << YAML::BeginSeq;
  const char* keys[] = {"xx", "yy", "zz", "xy", "xz", "yz"};
  for (const auto& b : mb.bodies) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << b.name << YAML::Key << "mass"
        << YAML::Value << YAML::DoubleQuoted << b.mass << YAML::Key << "point" << YAML::Value
        << b.point << YAML::Key << "frame" << YAML::Value << b.frame;
    out << YAML::Key << "inertia" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (int k = 0; k < 6; ++k)
      if (b.inertia[k] != "0")
        out << YAML::Key << keys[k] << YAML::Value << YAML::DoubleQuoted << b.inertia[k];
    out << YAML::EndMap;
    if (!b.shape.empty()) {
      out << YAML::Key << "shape" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
          << "type" << YAML::Value << b.shape;
      if (!b.size.empty()) {
        out << YAML::Key << "size" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& e : b.size) out << YAML::DoubleQuoted << e;
        out << YAML::EndSeq;
      }
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

void EmitDefinitions(YAML::Emitter& out, const Scenario& s) {
  if (s.definitions.empty()) return;
  out << YAML::Key << "definitions" << YAML::Value << YAML::BeginSeq;
  for (const auto& d : s.definitions)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << d.name << YAML::Key
        << "value" << YAML::Value << YAML::DoubleQuoted << d.value << YAML::EndMap;
  out << YAML::EndSeq;
}

void EmitMultibody(YAML::Emitter& out, const Scenario& s) {
  const MultibodySpec& mb = s.multibody;
  if (!mb.present()) return;
  if (!mb.extra_lagrangian.empty())
    out << YAML::Key << "lagrangian" << YAML::Value << YAML::DoubleQuoted << mb.extra_lagrangian;
  if (!mb.frames.empty()) {
    out << YAML::Key << "frames" << YAML::Value << YAML::BeginSeq;
    for (const auto& f : mb.frames) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << f.name
          << YAML::Key << "parent" << YAML::Value << f.parent << YAML::Key << "rotations"
          << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto& r : f.rotations) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "axis" << YAML::Value;
        EmitAxis(out, r.axis, r.vector);
        out << YAML::Key << "angle" << YAML::Value << YAML::DoubleQuoted << r.angle << YAML::EndMap;
      }
      out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!mb.points.empty()) {
    out << YAML::Key << "points" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : mb.points) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name
          << YAML::Key << "parent" << YAML::Value << p.parent << YAML::Key << "frame" << YAML::Value
          << p.frame << YAML::Key << "offset" << YAML::Value;
      EmitVector(out, p.offset);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  EmitBodies(out, mb);
  if (!mb.gravity.empty()) {
    out << YAML::Key << "gravity" << YAML::Value;
    EmitVector(out, mb.gravity);
  }
  if (mb.up_given) {
    out << YAML::Key << "ground" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "up"
        << YAML::Value;
    EmitAxis(out, "", mb.up);
    out << YAML::EndMap;
  }
  if (!mb.springs.empty()) {
    out << YAML::Key << "springs" << YAML::Value << YAML::BeginSeq;
    for (const auto& k : mb.springs)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << k.name
          << YAML::Key << "a" << YAML::Value << k.a << YAML::Key << "b" << YAML::Value << k.b
          << YAML::Key << "stiffness" << YAML::Value << YAML::DoubleQuoted << k.stiffness
          << YAML::Key << "rest_length" << YAML::Value << YAML::DoubleQuoted << k.rest_length
          << YAML::EndMap;
    out << YAML::EndSeq;
  }
  if (!mb.rolling.empty()) {
    out << YAML::Key << "rolling" << YAML::Value << YAML::BeginSeq;
    for (const auto& w : mb.rolling) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << w.name
          << YAML::Key << "body" << YAML::Value << w.body << YAML::Key << "axis" << YAML::Value;
      EmitAxis(out, w.axis, w.vector);
      out << YAML::Key << "radius" << YAML::Value << YAML::DoubleQuoted << w.radius;
      if (!w.center.empty()) out << YAML::Key << "center" << YAML::Value << w.center;
      if (w.ground_directions) out << YAML::Key << "directions" << YAML::Value << "ground";
      if (!w.multipliers.empty())
        out << YAML::Key << "multipliers" << YAML::Value << YAML::Flow << w.multipliers;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!mb.velocity_constraints.empty()) {
    out << YAML::Key << "velocity_constraints" << YAML::Value << YAML::BeginSeq;
    for (const auto& c : mb.velocity_constraints) {
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name
          << YAML::Key << "point" << YAML::Value << c.point << YAML::Key << "frame" << YAML::Value
          << c.frame << YAML::Key << "direction" << YAML::Value;
      EmitVector(out, c.direction);
      if (!c.multiplier.empty()) out << YAML::Key << "multiplier" << YAML::Value << c.multiplier;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
}

}  // namespace dirac::scenario
