#pragma once
/// @file body_poses.hpp
/// Where the bodies of a scenario written with `bodies:` are, for a scene to draw them: each
/// body's centre of mass and rotation, and each rolling wheel's contact point, at a state
/// (time, coordinates, parameters). Lengths in the scenario's units (m). Layer: scenario.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "dirac/scenario_spec.hpp"

namespace dirac {

class CompiledFunction;  // the compiled tape (core/src/symbolic/compiled_function.hpp)

/// One body at one state.
struct BodyPose {
  std::string name;
  std::array<double, 3> position{};  ///< centre of mass in the world frame N
  /// Rotation of the body frame, row-major: column j is the body's j-th axis in N, so a vector
  /// with body components b has world components R b.
  std::array<double, 9> rotation{};
  std::string shape;         ///< "box", "cylinder", "disc", "sphere" or "" (from the inertia)
  std::vector<double> size;  ///< the shape's dimensions at these parameters (as `shape.size`)
  /// Principal moments of the inertia about the centre (kg m^2), for sizing a shape-less body.
  std::array<double, 3> inertia{};
  /// The principal axes of the inertia in the body frame, row-major: column j is the axis of
  /// `inertia[j]` (a right-handed orthonormal frame).
  std::array<double, 9> principal_axes{1, 0, 0, 0, 1, 0, 0, 0, 1};
  double mass = 0.0;
};

/// One rolling wheel's contact point.
struct ContactPose {
  std::string name;               ///< the wheel's `rolling` name
  std::string body;               ///< its body
  std::array<double, 3> point{};  ///< in N
  double radius = 0.0;
};

/// The poses of every body and contact at one state.
struct BodyPoses {
  std::vector<BodyPose> bodies;       ///< in file order
  std::vector<ContactPose> contacts;  ///< in file order
};

/// Evaluates body poses fast (compiled once; a few microseconds a state): build it once per
/// loaded scenario, on the thread that derives (it uses GiNaC), then call Evaluate from any one
/// thread at a time.
class BodyPoseEvaluator {
 public:
  /// Compiles the poses of `scenario`'s bodies. A scenario without bodies gives an evaluator
  /// whose Evaluate returns no bodies. Throws ScenarioError (file, line, key) for an expression
  /// that cannot be read.
  explicit BodyPoseEvaluator(const Scenario& scenario);

  /// True if the scenario has bodies.
  bool has_bodies() const { return num_bodies_ > 0; }

  /// The poses at time t, coordinates `q` (scenario order, one per coordinate) and parameter
  /// values `parameters` (scenario order). Throws std::invalid_argument on wrong sizes.
  BodyPoses Evaluate(double t, const std::vector<double>& q,
                     const std::vector<double>& parameters) const;

 private:
  std::size_t num_q_ = 0, num_parameters_ = 0, num_bodies_ = 0;
  BodyPoses names_;  ///< the names, shapes and radii' order, filled by Evaluate
  std::vector<std::size_t> size_counts_;
  std::shared_ptr<const CompiledFunction> function_;
};

/// One-off convenience: BodyPoseEvaluator(scenario).Evaluate(0, initial q, current parameters).
BodyPoses InitialBodyPoses(const Scenario& scenario);

}  // namespace dirac
