#pragma once
// Independent reference methods for the optimal-control tests
// (tests/core/control/test_optimal_control.cpp): everything here is derived by hand in the tests
// and uses none of the engine's derivation, geometry or shooting (only Eigen).
//
// Rigid body on SO(3), first-order controlled system (seed L Example 27):
//   R' = R w^,   I w' = I w x w + u,   cost C = |u|^2 / 2.
// Maximum principle in the minimum form (normal case), with the attitude costate left
// trivialised (mu . v = <lambda_R, R v^>) and lambda the costate of w:
//   H = |u|^2/2 + mu . w + lambda . f(w, u),   f = I^-1 (I w x w + u),
//   dH/du = 0:  u = -I^-1 lambda,
//   mu'     = mu x w                                   (from lambda_R' = -dH/dR = lambda_R w^),
//   lambda' = -dH/dw = -mu + (I w) x nu - I (w x nu),  nu = I^-1 lambda = -u.
// (d/dw (I w x w) = (I w)^ - w^ I, whose transpose maps nu to -(I w) x nu + I (w x nu).)
// For I = identity: w' = u = -lambda, w'' = -lambda' = mu, w''' = mu' = mu x w = w'' x w, i.e.
//   w''' = -w x w''   (the Riemannian cubic; the spatial vector R w'' = R mu is constant).
//
// Elroy's beanie with v2 = v3 = v4 = 0 (an invariant set of the controlled equations: their
// rates are bilinear in (v2, v3) or contain v3) reduces to the shape (psi, v1):
//   psi' = a v1,   v1' = u - a k sin psi,   a = sqrt((I1 + I2)/(I1 I2)),   cost u^2/2,
// i.e. psi'' = a u - a^2 k sin psi. Maximum principle (minimum form):
//   H = u^2/2 + l1 a v1 + l2 (u - a k sin psi),  u = -l2,  l1' = a k l2 cos psi,  l2' = -a l1.

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

namespace dirac::testing::ocp {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// w^ with w^ v = w x v.
Mat3 Hat(const Vec3& w);
/// Rodrigues' formula.
Mat3 ExpSO3(const Vec3& v);
/// Principal logarithm (rotation vector with angle in [0, pi]).
Vec3 LogSO3(const Mat3& R);

/// The rigid body's maximum principle above; state y = [R (9, column-major), w, mu, lambda,
/// cost].
struct RigidBodyPmp {
  using State = Eigen::Matrix<double, 19, 1>;
  Vec3 inertia = Vec3::Ones();

  State Rate(const State& y) const;
  Vec3 Control(const State& y) const { return -y.segment<3>(15).cwiseQuotient(inertia); }
  /// H = C + mu . w + lambda . f at the optimal control.
  double Hamiltonian(const State& y) const;
  static State Pack(const Mat3& R, const Vec3& w, const Vec3& mu, const Vec3& lambda);
  static Mat3 Attitude(const State& y);
  /// Classical RK4 with `steps` equal steps over [0, T]; `observe(k, y)` after every step k
  /// (and k = 0 before the first) if given.
  State Integrate(State y, double T, int steps,
                  const std::function<void(int, const State&)>& observe = {}) const;
};

/// min (1/2) int |u|^2 dt, R(0) = R0, w(0) = w0, R(T) = RT, w(T) = wT.
struct RigidBodyProblem {
  Vec3 inertia = Vec3(1, 2, 3);
  double horizon = 2.0;
  Mat3 R0 = Mat3::Identity();
  Vec3 w0 = Vec3::Zero();
  Mat3 RT = Mat3::Identity();
  Vec3 wT = Vec3::Zero();
};

struct RigidBodyReference {
  bool converged = false;
  std::string message;
  // Direct transcription (piecewise-constant u on `direct_intervals`, RK4, min-norm
  // Gauss-Newton on the terminal constraints, started from u = 0).
  int direct_intervals = 0;
  int direct_iterations = 0;
  double direct_cost = 0.0;
  double direct_cost_fine = 0.0;     ///< on 2 * direct_intervals
  double direct_extrapolated = 0.0;  ///< Richardson in h^2 from the two
  // The maximum principle by shooting on (mu(0), lambda(0)), started from the costates the
  // direct solution gives; cost at `steps` and 2 * `steps` RK4 steps.
  int newton_iterations = 0;
  int steps = 0;
  double residual = 0.0;
  double cost = 0.0;        ///< Richardson-extrapolated from the two step sizes
  double cost_error = 0.0;  ///< |J(h) - J(h/2)|: an upper bound of the discretisation error
  Vec3 mu0 = Vec3::Zero(), lambda0 = Vec3::Zero();
};

RigidBodyReference SolveRigidBody(const RigidBodyProblem& problem, int direct_intervals = 24,
                                  int steps = 1000);

/// Elroy's shape problem above: psi(0) = psi0, v1(0) = 0, psi(T) = psiT, v1(T) = 0.
struct ShapeProblem {
  double a = 1.0, k = 0.0, horizon = 3.0, psi0 = 0.0, psiT = 1.2;
};

struct ShapeReference {
  bool converged = false;
  double cost = 0.0, cost_error = 0.0, residual = 0.0;
  double l1 = 0.0, l2 = 0.0;  ///< costates at t = 0
};

/// Shooting on (l1(0), l2(0)) from the k = 0 cubic's costates, continued in k.
ShapeReference SolveShape(const ShapeProblem& problem, int steps = 3000);

/// A controlled system x' = f(x, u), x(0) = x0, whose terminal values are fixed by
/// `terminal(x(T)) = 0`; cost (1/2) int |u|^2 dt. For perturbation tests.
struct ControlledSystem {
  Eigen::VectorXd x0;
  std::function<Eigen::VectorXd(const Eigen::VectorXd& x, const Eigen::VectorXd& u)> rate;
  std::function<Eigen::VectorXd(const Eigen::VectorXd& xT)> terminal;
};

/// A control sampled at t_k = k h, k = 0..N (rows of a trajectory).
struct SampledControl {
  double h = 0.0;
  std::vector<Eigen::VectorXd> u;
  /// u at t_k + h/2 by the cubic through four neighbouring samples.
  Eigen::VectorXd Midpoint(std::size_t k) const;
};

using ControlFunction = std::function<Eigen::VectorXd(double t)>;

struct Projection {
  bool ok = false;
  double cost = 0.0;
  double residual = 0.0;  ///< max |terminal| after the projection
  int iterations = 0;
};

/// The cost of u = nominal + eps phi + sum_j c_j corrections_j with c found by Newton so that
/// the terminal values are those of the problem (RK4 with the samples' step).
Projection ProjectedCost(const ControlledSystem& system, const SampledControl& nominal,
                         const ControlFunction& phi, double eps,
                         const std::vector<ControlFunction>& corrections);

}  // namespace dirac::testing::ocp
