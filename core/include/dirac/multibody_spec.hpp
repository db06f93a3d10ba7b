#pragma once
/// @file multibody_spec.hpp
/// A multibody model as the scenario file writes it (`frames:`, `points:`, `bodies:`,
/// `gravity:`, `springs:`, `rolling:`, `knife_edges:`, `velocity_constraints:`), before any
/// derivation: plain data, every expression as text. The engine turns it into generated
/// definitions, the Lagrangian L = T - V and constraint entries (docs/scenario-format.md,
/// "Bodies"). Lengths in the scenario's units (m), angles in rad.

#include <cstddef>
#include <string>
#include <vector>

namespace dirac {

/// Three expressions: the components of a vector in some frame.
using VectorText = std::vector<std::string>;

/// One elementary rotation of a frame chain: by `angle` about `axis` of the frame reached so
/// far (the parent's axes for the first). The axis is named (x, y, z, -x, -y, -z) or written as
/// three numbers of a unit vector.
struct RotationSpec {
  std::string axis;            ///< the axis name as written, "" for a numeric vector
  std::vector<double> vector;  ///< the unit axis as numbers (always filled)
  std::string angle;           ///< expression in t, q, parameters, definitions (rad)
};

/// A frame: the parent frame rotated by the chain of elementary rotations, in order.
/// The world frame is named "N" (fixed, implicit).
struct FrameSpec {
  std::string name;
  std::string parent;  ///< "N" or an earlier-listed or later-listed frame (no cycles)
  std::vector<RotationSpec> rotations;
  std::size_t line = 0;  ///< line in the scenario file
};

/// A point: the parent point plus an offset whose components are expressed in `frame`.
/// The origin of the world frame is named "O" (fixed, implicit).
struct PointSpec {
  std::string name;
  std::string parent;  ///< "O" or another point
  std::string frame;   ///< frame the offset is expressed in ("N" by default)
  VectorText offset;   ///< three expressions
  std::size_t line = 0;
};

/// A rigid body: mass, centre of mass (a point), orientation (a frame), inertia tensor about the
/// centre of mass in the body frame (kg m^2). `shape` is free scene data ("box", "cylinder",
/// "disc" with `size` numbers / expressions) the engine keeps for the window.
struct BodySpec {
  std::string name;
  std::string mass;   ///< expression (kg)
  std::string point;  ///< centre of mass
  std::string frame;
  /// Ixx, Iyy, Izz, Ixy, Ixz, Iyz (expressions; absent products are "0").
  std::vector<std::string> inertia{"0", "0", "0", "0", "0", "0"};
  std::string shape;              ///< "" (from the inertia), "box", "cylinder", "disc", "sphere"
  std::vector<std::string> size;  ///< shape dimensions as written (expressions)
  std::size_t line = 0;
};

/// A linear spring between two points: V = k/2 (|b - a| - rest)^2.
struct SpringSpec {
  std::string name;
  std::string a, b;       ///< point names
  std::string stiffness;  ///< k (N/m)
  std::string rest_length = "0";
  std::size_t line = 0;
};

/// A disc of radius `radius` about the body-fixed `axis` of `body`, centred at `center`
/// (default: the body's centre of mass), rolling without slipping on the ground plane.
/// Generates the no-slip forms `<name>_long`, `<name>_lat` (along the wheel's rolling direction
/// and across it) or, with `directions: ground`, `<name>_x`, `<name>_y` (along the ground
/// frame's axes), and, unless it holds identically, the holonomic contact height
/// `<name>_contact`. Multipliers are mu_<form> unless named.
struct RollingSpec {
  std::string name;
  std::string body;
  std::string center;                    ///< point; "" = the body's centre of mass
  std::string axis;                      ///< the axis name as written, "" for a numeric vector
  std::vector<double> vector;            ///< the unit axis as numbers (body frame)
  std::string radius;                    ///< expression (m)
  bool ground_directions = false;        ///< `directions: ground` (else `wheel`)
  std::vector<std::string> multipliers;  ///< the forms' (2) and the contact's (3rd) names
  std::size_t line = 0;
};

/// A velocity constraint of a point: its velocity has no component along `direction`
/// (expressed in `frame`). A knife edge is one with a body axis as the direction.
struct PointVelocitySpec {
  std::string name;
  std::string point;
  std::string frame;
  VectorText direction;    ///< three expressions (need not be unit; the form is v . d)
  std::string multiplier;  ///< "" = mu_<name>
  std::size_t line = 0;
};

/// The multibody sections of a scenario. Empty (no bodies) for a hand-written Lagrangian.
struct MultibodySpec {
  std::vector<FrameSpec> frames;
  std::vector<PointSpec> points;
  std::vector<BodySpec> bodies;
  VectorText gravity;  ///< in N, e.g. ["0", "0", "g"] for z down; empty = none
  std::size_t gravity_line = 0;
  /// The ground's up direction (unit, in N): given as `ground: {up: [...]}`, else minus the
  /// gravity direction at the initial parameters, else +z.
  std::vector<double> up{0.0, 0.0, 1.0};
  bool up_given = false;
  std::vector<SpringSpec> springs;
  std::vector<RollingSpec> rolling;
  std::vector<PointVelocitySpec> velocity_constraints;  ///< `knife_edges:` included
  /// An extra Lagrangian term written beside the bodies (`lagrangian:`), "" if none.
  std::string extra_lagrangian;
  bool present() const { return !bodies.empty() || !frames.empty() || !points.empty(); }
};

}  // namespace dirac
