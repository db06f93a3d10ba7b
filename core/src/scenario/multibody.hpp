#pragma once
// Internal: the kinematics of a scenario's frames, points and bodies as GiNaC expressions, and
// what they generate: kinetic and potential energies, rolling and knife-edge constraint forms,
// contact heights (docs/scenario-format.md, "Bodies"; MATH.md "Multibody models").
//
// Rotations are composed as matrices of unexpanded products (positions need them); angular
// velocities are accumulated along each chain, w <- R_i^T w + a_i dtheta_i (R_i^T a_i = a_i), so
// the body rate never goes through a product of matrices; point velocities are the total time
// derivative d/dt = d/dt + sum_i v^i d/dq^i of the positions, with one memoised differentiator
// per coordinate shared by every point.

#include <ginac/ginac.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dirac/scenario.hpp"
#include "symbolic/differentiate.hpp"

namespace dirac::scenario {

/// Parses an expression of the scenario (text, line, key) in the caller's symbols.
using ParseFunction = std::function<GiNaC::ex(const std::string&, std::size_t, const std::string&)>;

/// A name and its generated expression.
using NamedExpression = std::pair<std::string, GiNaC::ex>;

/// The names the multibody sections generate, in the order MultibodyModel::Generated gives
/// them: T_<body>, V_<body> (with gravity), V_<spring>, <wheel>_long, <wheel>_lat,
/// <wheel>_contact, <velocity constraint>.
std::vector<std::string> GeneratedNames(const MultibodySpec& spec);

/// The names of a wheel's two no-slip forms and its contact height.
std::vector<std::string> RollingNames(const RollingSpec& wheel);

/// The kinematics of one scenario's multibody sections in one set of symbols.
class MultibodyModel {
 public:
  /// `q`, `v` the coordinates and their velocities (v empty: positions only), `t` time.
  MultibodyModel(const Scenario& scenario, ParseFunction parse, std::vector<GiNaC::symbol> q,
                 std::vector<GiNaC::symbol> v, GiNaC::symbol t);

  /// Rotation matrix of `frame` (world components of its unit vectors as columns).
  const GiNaC::matrix& Rotation(const std::string& frame);
  /// Angular velocity of `frame` in its own axes (needs velocities).
  const GiNaC::matrix& BodyRate(const std::string& frame);
  /// Position of `point` in the world frame (3 x 1).
  const GiNaC::matrix& Position(const std::string& point);
  /// Velocity of `point` in the world frame (needs velocities).
  const GiNaC::matrix& Velocity(const std::string& point);
  /// The contact point of a rolling wheel (world) and its height above the ground.
  GiNaC::matrix ContactPoint(const RollingSpec& wheel);
  GiNaC::ex ContactHeight(const RollingSpec& wheel);

  /// Everything generated, in GeneratedNames order: with velocities the energies and forms
  /// and the contact heights; without, only the contact heights.
  std::vector<NamedExpression> Generated();

  /// d/dt of a position-level expression (needs velocities).
  GiNaC::ex TimeDerivative(const GiNaC::ex& e);

 private:
  GiNaC::matrix Vector(const VectorText& text, std::size_t line, const std::string& key);
  GiNaC::ex Kinetic(const BodySpec& body);
  GiNaC::ex RollingForm(const RollingSpec& wheel, bool longitudinal);
  int SignAtZero(const GiNaC::ex& f) const;

  const Scenario& s_;
  ParseFunction parse_;
  std::vector<GiNaC::symbol> q_, v_;
  GiNaC::symbol t_;
  std::vector<symbolic::Differentiator> dq_;
  std::unique_ptr<symbolic::Differentiator> dt_;
  std::map<std::string, GiNaC::matrix> rotation_, rate_, position_, velocity_;
  std::vector<std::string> visiting_;
};

/// The unit vector of an axis name (x, y, z, -x, -y, -z), or an empty vector.
std::vector<double> NamedAxis(const std::string& name);

}  // namespace dirac::scenario
