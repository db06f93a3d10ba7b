#include "scenario/multibody.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "dirac/error.hpp"
#include "symbolic/trig_reduce.hpp"

namespace dirac::scenario {

using GiNaC::ex;
using GiNaC::matrix;

namespace {

matrix Column(const ex& a, const ex& b, const ex& c) { return matrix(3, 1, GiNaC::lst{a, b, c}); }

ex Dot(const matrix& a, const matrix& b) {
  return a(0, 0) * b(0, 0) + a(1, 0) * b(1, 0) + a(2, 0) * b(2, 0);
}

matrix Cross(const matrix& a, const matrix& b) {
  return Column(a(1, 0) * b(2, 0) - a(2, 0) * b(1, 0), a(2, 0) * b(0, 0) - a(0, 0) * b(2, 0),
                a(0, 0) * b(1, 0) - a(1, 0) * b(0, 0));
}

matrix Scaled(const matrix& a, const ex& k) {
  return Column(k * a(0, 0), k * a(1, 0), k * a(2, 0));
}
matrix Sum(const matrix& a, const matrix& b) {
  return Column(a(0, 0) + b(0, 0), a(1, 0) + b(1, 0), a(2, 0) + b(2, 0));
}
// A double as the exact rational it is (an integer stays an integer). GiNaC would keep it as a
// floating-point number, and floats spread: every coefficient they meet becomes a float, and
// GiNaC then rounds when it combines terms or divides a sum inside a product by the coefficient
// of its first term, whose choice follows its address-dependent order. Exact coefficients make
// the generated expressions a function of the scenario's content only (same input, same bytes).
GiNaC::numeric Exact(double x) {
  if (x == 0) return 0;
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);  // x = mantissa 2^exponent, |mantissa| < 1
  const auto integer = static_cast<long long>(std::ldexp(mantissa, 53));
  return GiNaC::numeric(integer) * GiNaC::pow(GiNaC::numeric(2), GiNaC::numeric(exponent - 53));
}
matrix Numbers(const std::vector<double>& a) {
  return Column(Exact(a[0]), Exact(a[1]), Exact(a[2]));
}

// Product of a 3 x 3 and a 3 x 1, term by term (no expansion: the entries stay products).
matrix Apply(const matrix& R, const matrix& x) {
  matrix out(3, 1);
  for (unsigned i = 0; i < 3; ++i)
    out(i, 0) = R(i, 0) * x(0, 0) + R(i, 1) * x(1, 0) + R(i, 2) * x(2, 0);
  return out;
}
matrix ApplyTransposed(const matrix& R, const matrix& x) {
  matrix out(3, 1);
  for (unsigned i = 0; i < 3; ++i)
    out(i, 0) = R(0, i) * x(0, 0) + R(1, i) * x(1, 0) + R(2, i) * x(2, 0);
  return out;
}

// The elementary rotation by `angle` about the unit axis `a` (Rodrigues; for a coordinate axis
// only the four trigonometric entries are nonzero).
matrix Elementary(const std::vector<double>& a, const ex& angle) {
  const ex c = cos(angle), s = sin(angle);
  const double K[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
  matrix R(3, 3);
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 3; ++j) {
      ex e = i == j ? c : ex(0);
      if (K[i][j] != 0) e += s * Exact(K[i][j]);
      if (a[i] * a[j] != 0)
        e += (1 - c) * (Exact(a[i]) * Exact(a[j]));  // c + (1 - c) = 1 on the axis
      R(i, j) = e;
    }
  return R;
}

matrix Multiply(const matrix& A, const matrix& B) {
  matrix out(3, 3);
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 3; ++j)
      out(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return out;
}

matrix Identity() { return matrix(3, 3, GiNaC::lst{1, 0, 0, 0, 1, 0, 0, 0, 1}); }

}  // namespace

std::vector<double> NamedAxis(const std::string& name) {
  const bool negative = !name.empty() && name[0] == '-';
  const std::string base = negative ? name.substr(1) : name;
  std::vector<double> a{0, 0, 0};
  if (base == "x")
    a[0] = 1;
  else if (base == "y")
    a[1] = 1;
  else if (base == "z")
    a[2] = 1;
  else
    return {};
  if (negative)
    for (double& x : a) x = -x;
  return a;
}

std::vector<std::string> RollingNames(const RollingSpec& w) {
  if (w.ground_directions) return {w.name + "_x", w.name + "_y", w.name + "_contact"};
  return {w.name + "_long", w.name + "_lat", w.name + "_contact"};
}

std::vector<std::string> GeneratedNames(const MultibodySpec& spec) {
  std::vector<std::string> names;
  for (const auto& b : spec.bodies) {
    names.push_back("T_" + b.name);
    if (!spec.gravity.empty()) names.push_back("V_" + b.name);
  }
  for (const auto& k : spec.springs) names.push_back("V_" + k.name);
  for (const auto& w : spec.rolling)
    for (const auto& name : RollingNames(w)) names.push_back(name);
  for (const auto& c : spec.velocity_constraints) names.push_back(c.name);
  return names;
}

MultibodyModel::MultibodyModel(const Scenario& scenario, ParseFunction parse,
                               std::vector<GiNaC::symbol> q, std::vector<GiNaC::symbol> v,
                               GiNaC::symbol t)
    : s_(scenario), parse_(std::move(parse)), q_(std::move(q)), v_(std::move(v)), t_(std::move(t)) {
  if (!v_.empty()) {
    auto dependence = std::make_shared<symbolic::SymbolDependence>();
    dq_ = symbolic::MakeDifferentiators(q_, dependence);
    dt_ = std::make_unique<symbolic::Differentiator>(t_, dependence);
  }
}

ex MultibodyModel::TimeDerivative(const ex& e) {
  ex out = (*dt_)(e);
  for (std::size_t i = 0; i < q_.size(); ++i) {
    const ex d = dq_[i](e);
    if (!d.is_zero()) out += d * v_[i];
  }
  return out;
}

matrix MultibodyModel::Vector(const VectorText& text, std::size_t line, const std::string& key) {
  return Column(parse_(text[0], line, key + "[0]"), parse_(text[1], line, key + "[1]"),
                parse_(text[2], line, key + "[2]"));
}

const matrix& MultibodyModel::Rotation(const std::string& name) {
  if (auto it = rotation_.find(name); it != rotation_.end()) return it->second;
  if (name == "N") return rotation_.emplace(name, Identity()).first->second;
  const auto& frames = s_.multibody.frames;
  const auto f =
      std::find_if(frames.begin(), frames.end(), [&](auto& x) { return x.name == name; });
  if (f == frames.end()) throw ModelError("unknown frame " + name);
  if (std::count(visiting_.begin(), visiting_.end(), name))
    throw ScenarioError(s_.source_file, f->line, name, "the frames form a cycle");
  visiting_.push_back(name);
  matrix R = Rotation(f->parent);
  visiting_.pop_back();
  for (std::size_t i = 0; i < f->rotations.size(); ++i) {
    const auto& r = f->rotations[i];
    R = Multiply(
        R, Elementary(r.vector, parse_(r.angle, f->line,
                                       name + ".rotations[" + std::to_string(i) + "].angle")));
  }
  return rotation_.emplace(name, R).first->second;
}

const matrix& MultibodyModel::BodyRate(const std::string& name) {
  if (auto it = rate_.find(name); it != rate_.end()) return it->second;
  if (name == "N") return rate_.emplace(name, Column(0, 0, 0)).first->second;
  const auto& frames = s_.multibody.frames;
  const auto f =
      std::find_if(frames.begin(), frames.end(), [&](auto& x) { return x.name == name; });
  if (f == frames.end()) throw ModelError("unknown frame " + name);
  matrix w = BodyRate(f->parent);
  for (std::size_t i = 0; i < f->rotations.size(); ++i) {
    const auto& r = f->rotations[i];
    const ex angle = parse_(r.angle, f->line, name + ".rotations[" + std::to_string(i) + "].angle");
    w = Sum(ApplyTransposed(Elementary(r.vector, angle), w),
            Scaled(Numbers(r.vector), TimeDerivative(angle)));
  }
  return rate_.emplace(name, w).first->second;
}

const matrix& MultibodyModel::Position(const std::string& name) {
  if (auto it = position_.find(name); it != position_.end()) return it->second;
  if (name == "O") return position_.emplace(name, Column(0, 0, 0)).first->second;
  const auto& points = s_.multibody.points;
  const auto p =
      std::find_if(points.begin(), points.end(), [&](auto& x) { return x.name == name; });
  if (p == points.end()) throw ModelError("unknown point " + name);
  if (std::count(visiting_.begin(), visiting_.end(), "point " + name))
    throw ScenarioError(s_.source_file, p->line, name, "the points form a cycle");
  visiting_.push_back("point " + name);
  const matrix base = Position(p->parent);
  visiting_.pop_back();
  const matrix offset = Vector(p->offset, p->line, name + ".offset");
  return position_.emplace(name, Sum(base, Apply(Rotation(p->frame), offset))).first->second;
}

const matrix& MultibodyModel::Velocity(const std::string& name) {
  if (auto it = velocity_.find(name); it != velocity_.end()) return it->second;
  const matrix& p = Position(name);
  return velocity_
      .emplace(name,
               Column(TimeDerivative(p(0, 0)), TimeDerivative(p(1, 0)), TimeDerivative(p(2, 0))))
      .first->second;
}

namespace {
const BodySpec& BodyOf(const Scenario& s, const std::string& name) {
  for (const auto& b : s.multibody.bodies)
    if (b.name == name) return b;
  throw ModelError("unknown body " + name);
}
std::string CenterOf(const Scenario& s, const RollingSpec& w) {
  return w.center.empty() ? BodyOf(s, w.body).point : w.center;
}
}  // namespace

// P = c - r w / |w|, w = u - (u . n) n: the point of the rim nearest the ground.
matrix MultibodyModel::ContactPoint(const RollingSpec& wheel) {
  const BodySpec& body = BodyOf(s_, wheel.body);
  const matrix n = Apply(Rotation(body.frame), Numbers(wheel.vector));
  const matrix u = Numbers(s_.multibody.up);
  const matrix w = Sum(u, Scaled(n, -Dot(u, n)));
  const ex r = parse_(wheel.radius, wheel.line, wheel.name + ".radius");
  return Sum(Position(CenterOf(s_, wheel)), Scaled(w, -r / sqrt(Dot(w, w))));
}

ex MultibodyModel::ContactHeight(const RollingSpec& wheel) {
  return Dot(Numbers(s_.multibody.up), ContactPoint(wheel));
}

// The velocity of the body's material point at the contact, c' + omega x (P - c), along the
// rolling direction (n x u) / |n x u| or across it, u x (that).
ex MultibodyModel::RollingForm(const RollingSpec& wheel, bool longitudinal) {
  const BodySpec& body = BodyOf(s_, wheel.body);
  const matrix& R = Rotation(body.frame);
  const matrix n = Apply(R, Numbers(wheel.vector));
  const matrix u = Numbers(s_.multibody.up);
  const matrix w = Sum(u, Scaled(n, -Dot(u, n)));
  const ex norm = sqrt(Dot(w, w));
  const ex r = parse_(wheel.radius, wheel.line, wheel.name + ".radius");
  const matrix omega = Apply(R, BodyRate(body.frame));
  const matrix slip = Sum(Velocity(CenterOf(s_, wheel)), Cross(omega, Scaled(w, -r / norm)));
  if (wheel.ground_directions) {
    // The ground's axes: world x (world y if up is near x) projected on the plane, and up x it.
    const std::vector<double>& up = s_.multibody.up;
    const int axis = std::abs(up[0]) < 0.9 ? 0 : 1;
    std::vector<double> e1{-up[axis] * up[0], -up[axis] * up[1], -up[axis] * up[2]};
    e1[axis] += 1;
    const double length = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (double& x : e1) x /= length;
    const matrix d1 = Numbers(e1);
    return Dot(slip, longitudinal ? d1 : Cross(u, d1));
  }
  const matrix along = Scaled(Cross(n, u), 1 / norm);
  return Dot(slip, longitudinal ? along : Cross(u, along));
}

ex MultibodyModel::Kinetic(const BodySpec& b) {
  const std::string at = b.name + ".";
  const ex m = parse_(b.mass, b.line, at + "mass");
  const matrix& vel = Velocity(b.point);
  const matrix& w = BodyRate(b.frame);
  std::vector<ex> I;
  const char* keys[] = {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"};
  for (int k = 0; k < 6; ++k) I.push_back(parse_(b.inertia[k], b.line, at + "inertia." + keys[k]));
  const ex x = w(0, 0), y = w(1, 0), z = w(2, 0);
  const ex rotational =
      I[0] * x * x + I[1] * y * y + I[2] * z * z + 2 * (I[3] * x * y + I[4] * x * z + I[5] * y * z);
  return m * Dot(vel, vel) / 2 + rotational / 2;
}

// The sign of f at zero coordinates, 0 when f depends on anything else (parameters, velocities,
// time: their values change without a new derivation) or vanishes there. A wheel's contact is
// the rim point nearest the ground, c - r w / |w|, and |w| = sqrt(f^2) for the disk (f =
// cos(alpha)); f keeps its sign along every motion, which cannot pass through f = 0 (the wheel
// lying flat, where the contact is undefined), and zero angles are the wheel standing.
int MultibodyModel::SignAtZero(const ex& f) const {
  GiNaC::exmap zero;
  for (const auto& q : q_) zero[q] = 0;
  const ex value = f.subs(zero, GiNaC::subs_options::no_pattern).evalf();
  if (!GiNaC::is_a<GiNaC::numeric>(value) || !GiNaC::ex_to<GiNaC::numeric>(value).is_real())
    return 0;
  const double x = GiNaC::ex_to<GiNaC::numeric>(value).to_double();
  return x > 1e-12 ? 1 : x < -1e-12 ? -1 : 0;
}

std::vector<NamedExpression> MultibodyModel::Generated() {
  const MultibodySpec& mb = s_.multibody;
  const bool rates = !v_.empty();
  std::vector<NamedExpression> out;
  matrix g;
  if (!mb.gravity.empty()) g = Vector(mb.gravity, mb.gravity_line, "gravity");
  for (const auto& b : mb.bodies) {
    if (rates) out.emplace_back("T_" + b.name, Kinetic(b));
    if (rates && !mb.gravity.empty())
      out.emplace_back("V_" + b.name,
                       -parse_(b.mass, b.line, b.name + ".mass") * Dot(g, Position(b.point)));
  }
  for (const auto& k : mb.springs) {
    if (!rates) continue;
    const matrix d = Sum(Position(k.b), Scaled(Position(k.a), -1));
    const ex stiffness = parse_(k.stiffness, k.line, k.name + ".stiffness");
    const ex rest = parse_(k.rest_length, k.line, k.name + ".rest_length");
    out.emplace_back("V_" + k.name, rest.is_zero()
                                        ? stiffness * Dot(d, d) / 2
                                        : stiffness * pow(sqrt(Dot(d, d)) - rest, 2) / 2);
  }
  for (const auto& w : mb.rolling) {
    const auto names = RollingNames(w);
    if (rates) {
      out.emplace_back(names[0], RollingForm(w, true));
      out.emplace_back(names[1], RollingForm(w, false));
    }
    out.emplace_back(names[2], ContactHeight(w));
  }
  for (const auto& c : mb.velocity_constraints) {
    if (!rates) continue;
    const matrix d = Apply(Rotation(c.frame), Vector(c.direction, c.line, c.name + ".direction"));
    out.emplace_back(c.name, Dot(Velocity(c.point), d));
  }
  // cos^2 + sin^2 = 1 and sqrt(f^2) = f where f > 0 at zero coordinates: the energies and forms
  // the chains leave unsimplified (a disk's spin angle in its energy, the square root of its
  // contact's cos(alpha)^2) come out as a hand-written model has them.
  symbolic::PythagoreanOptions reduction;
  reduction.sign = [this](const ex& f) { return SignAtZero(f); };
  for (auto& named : out) named.second = symbolic::ReducePythagorean(named.second, reduction);
  return out;
}

}  // namespace dirac::scenario
