#include "ocp_reference.hpp"

#include <algorithm>
#include <cmath>

namespace dirac::testing::ocp {
namespace {

using Vector = Eigen::VectorXd;

template <class State, class Rate>
State Rk4Step(const State& y, double h, const Rate& rate) {
  const State k1 = rate(y);
  const State k2 = rate(State(y + 0.5 * h * k1));
  const State k3 = rate(State(y + 0.5 * h * k2));
  const State k4 = rate(State(y + h * k3));
  return y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

// Newton's method with a central-difference Jacobian and backtracking on max |F|.
struct NewtonResult {
  Vector z;
  double residual = 0.0;
  int iterations = 0;
  bool converged = false;
};

NewtonResult SolveNewton(const std::function<Vector(const Vector&)>& residual, Vector z,
                         double tolerance, int max_iterations, double delta = 1e-7) {
  NewtonResult out;
  Vector F = residual(z);
  double norm = F.lpNorm<Eigen::Infinity>();
  for (int it = 0; it < max_iterations && norm > tolerance; ++it) {
    Eigen::MatrixXd J(F.size(), z.size());
    for (Eigen::Index k = 0; k < z.size(); ++k) {
      const double h = delta * std::max(1.0, std::abs(z(k)));
      Vector zp = z, zm = z;
      zp(k) += h;
      zm(k) -= h;
      J.col(k) = (residual(zp) - residual(zm)) / (2 * h);
    }
    const Vector step = J.fullPivLu().solve(-F);
    if (!step.allFinite()) break;
    double alpha = 1.0;
    bool accepted = false;
    for (int k = 0; k < 30; ++k, alpha *= 0.5) {
      const Vector trial = z + alpha * step;
      const Vector Ft = residual(trial);
      const double nt = Ft.lpNorm<Eigen::Infinity>();
      if (Ft.allFinite() && nt < (1 - 1e-4 * alpha) * norm) {
        z = trial;
        F = Ft;
        norm = nt;
        accepted = true;
        break;
      }
    }
    ++out.iterations;
    if (!accepted) break;  // at the rounding floor
  }
  out.z = z;
  out.residual = norm;
  out.converged = norm <= tolerance;
  return out;
}

// The controlled rigid body with a constant torque: y = [R (9, column-major), w].
using BodyState = Eigen::Matrix<double, 12, 1>;

BodyState BodyRate(const BodyState& y, const Vec3& I, const Vec3& u) {
  BodyState d;
  const Eigen::Map<const Mat3> R(y.data());
  const Vec3 w = y.segment<3>(9);
  Eigen::Map<Mat3>(d.data()) = R * Hat(w);
  d.segment<3>(9) = (I.cwiseProduct(w).cross(w) + u).cwiseQuotient(I);
  return d;
}

}  // namespace

Mat3 Hat(const Vec3& w) {
  Mat3 m;
  m << 0, -w(2), w(1), w(2), 0, -w(0), -w(1), w(0), 0;
  return m;
}

Mat3 ExpSO3(const Vec3& v) {
  const double th = v.norm();
  const Mat3 K = Hat(v);
  const double a = th < 1e-8 ? 1.0 - th * th / 6 : std::sin(th) / th;
  const double b = th < 1e-6 ? 0.5 - th * th / 24 : (1 - std::cos(th)) / (th * th);
  return Mat3::Identity() + a * K + b * K * K;
}

Vec3 LogSO3(const Mat3& R) {
  const Vec3 v(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));  // 2 sin(th) n
  const double c = std::clamp((R.trace() - 1) / 2, -1.0, 1.0);
  const double s = v.norm() / 2;
  const double th = std::atan2(s, c);
  if (th < 1e-5) return (0.5 + th * th / 12) * v;
  if (M_PI - th > 1e-4) return th / (2 * s) * v;
  // Near pi: the axis from the symmetric part R + R^T = 2 cos(th) I + 2 (1 - cos(th)) n n^T.
  const Mat3 B = (R + R.transpose() - 2 * c * Mat3::Identity()) / (2 * (1 - c));
  Eigen::Index i = 0;
  B.diagonal().maxCoeff(&i);
  Vec3 n = B.col(i) / std::sqrt(B(i, i));
  if (n.dot(v) < 0) n = -n;
  return th * n;
}

// ---- rigid body ---------------------------------------------------------------------------

RigidBodyPmp::State RigidBodyPmp::Rate(const State& y) const {
  const Vec3& I = inertia;
  const Eigen::Map<const Mat3> R(y.data());
  const Vec3 w = y.segment<3>(9), mu = y.segment<3>(12), lambda = y.segment<3>(15);
  const Vec3 nu = lambda.cwiseQuotient(I), u = -nu, Iw = I.cwiseProduct(w);
  State d;
  Eigen::Map<Mat3>(d.data()) = R * Hat(w);
  d.segment<3>(9) = (Iw.cross(w) + u).cwiseQuotient(I);
  d.segment<3>(12) = mu.cross(w);
  d.segment<3>(15) = -mu + Iw.cross(nu) - I.cwiseProduct(w.cross(nu));
  d(18) = 0.5 * u.squaredNorm();
  return d;
}

double RigidBodyPmp::Hamiltonian(const State& y) const {
  const Vec3 w = y.segment<3>(9), mu = y.segment<3>(12), lambda = y.segment<3>(15);
  const Vec3 u = Control(y);
  const Vec3 f = (inertia.cwiseProduct(w).cross(w) + u).cwiseQuotient(inertia);
  return 0.5 * u.squaredNorm() + mu.dot(w) + lambda.dot(f);
}

RigidBodyPmp::State RigidBodyPmp::Pack(const Mat3& R, const Vec3& w, const Vec3& mu,
                                       const Vec3& lambda) {
  State y;
  Eigen::Map<Mat3>(y.data()) = R;
  y.segment<3>(9) = w;
  y.segment<3>(12) = mu;
  y.segment<3>(15) = lambda;
  y(18) = 0.0;
  return y;
}

Mat3 RigidBodyPmp::Attitude(const State& y) { return Eigen::Map<const Mat3>(y.data()); }

RigidBodyPmp::State RigidBodyPmp::Integrate(
    State y, double T, int steps, const std::function<void(int, const State&)>& observe) const {
  const double h = T / steps;
  const auto rate = [this](const State& s) { return Rate(s); };
  if (observe) observe(0, y);
  for (int k = 1; k <= steps; ++k) {
    y = Rk4Step(y, h, rate);
    if (observe) observe(k, y);
  }
  return y;
}

namespace {

// min sum |u_k|^2 h / 2 over piecewise-constant torques u_k on N intervals (RK4, 4 steps per
// interval) subject to the terminal constraints, by the min-norm Gauss-Newton iteration
//   U+ = argmin |U+|^2 subject to c(U) + C (U+ - U) = 0,
// whose fixed points are the KKT points (U = C^T kappa, c(U) = 0). Returns false if it fails.
bool DirectTranscription(const RigidBodyProblem& P, int N, Vector& U, int& iterations) {
  const Vec3& I = P.inertia;
  const double h = P.horizon / N;
  const int sub = 4;
  auto shoot = [&](const Vector& V) {
    BodyState y;
    Eigen::Map<Mat3>(y.data()) = P.R0;
    y.segment<3>(9) = P.w0;
    for (int k = 0; k < N; ++k) {
      const Vec3 u = V.segment<3>(3 * k);
      const auto rate = [&](const BodyState& s) { return BodyRate(s, I, u); };
      for (int j = 0; j < sub; ++j) y = Rk4Step(y, h / sub, rate);
    }
    Vector c(6);
    c.head<3>() = LogSO3(P.RT.transpose() * Eigen::Map<const Mat3>(y.data()));
    c.tail<3>() = y.segment<3>(9) - P.wT;
    return c;
  };
  const Vector start = U;
  for (double alpha : {1.0, 0.5, 0.25}) {
    U = start;
    for (int it = 0; it < 100; ++it) {
      const Vector c = shoot(U);
      Eigen::MatrixXd C(6, 3 * N);
      for (int k = 0; k < 3 * N; ++k) {
        Vector Up = U, Um = U;
        Up(k) += 1e-6;
        Um(k) -= 1e-6;
        C.col(k) = (shoot(Up) - shoot(Um)) / 2e-6;
      }
      const Vector dU = C.transpose() * (C * C.transpose()).ldlt().solve(C * U - c) - U;
      U += alpha * dU;
      iterations = it + 1;
      if (!U.allFinite()) break;
      // The Jacobian by differences limits |dU| to ~1e-8 (enough for the cost to 1e-13).
      if (dU.lpNorm<Eigen::Infinity>() < 1e-6 && c.lpNorm<Eigen::Infinity>() < 1e-12) return true;
    }
  }
  return false;
}

}  // namespace

RigidBodyReference SolveRigidBody(const RigidBodyProblem& P, int N, int steps) {
  RigidBodyReference out;
  out.direct_intervals = N;
  const Vec3& I = P.inertia;
  const double T = P.horizon, h = T / N;
  auto terminal = [&](const Mat3& R, const Vec3& w) {
    Vector c(6);
    c.head<3>() = LogSO3(P.RT.transpose() * R);
    c.tail<3>() = w - P.wT;
    return c;
  };
  Vector U = Vector::Zero(3 * N);
  if (!DirectTranscription(P, N, U, out.direct_iterations)) {
    out.message = "direct transcription did not converge";
    return out;
  }
  out.direct_cost = 0.5 * h * U.squaredNorm();
  {
    // The same on 2N intervals (from the N solution), Richardson-extrapolated in h^2.
    Vector U2(6 * N);
    for (int k = 0; k < N; ++k)
      U2.segment<3>(6 * k) = U2.segment<3>(6 * k + 3) = U.segment<3>(3 * k);
    int it2 = 0;
    if (DirectTranscription(P, 2 * N, U2, it2)) {
      out.direct_cost_fine = 0.25 * h * U2.squaredNorm();
      out.direct_extrapolated = (4 * out.direct_cost_fine - out.direct_cost) / 3;
    }
  }
  // Costates at t = 0 from the direct controls (values at the interval midpoints, quadratic
  // through the first three): lambda = -I u, mu = -lambda' + (I w) x nu - I (w x nu).
  const Vec3 U0 = U.segment<3>(0), U1 = U.segment<3>(3), U2 = U.segment<3>(6);
  const Vec3 u0 = (15 * U0 - 10 * U1 + 3 * U2) / 8, du0 = (-2 * U0 + 3 * U1 - U2) / h;
  const Vec3 lambda0 = -I.cwiseProduct(u0), nu0 = -u0;
  const Vec3 mu0 =
      I.cwiseProduct(du0) + I.cwiseProduct(P.w0).cross(nu0) - I.cwiseProduct(P.w0.cross(nu0));
  // The maximum principle by shooting.
  const RigidBodyPmp pmp{I};
  auto shoot_pmp = [&](int n) {
    return [&, n](const Vector& z) {
      const auto y = pmp.Integrate(RigidBodyPmp::Pack(P.R0, P.w0, z.head<3>(), z.tail<3>()), T, n);
      return terminal(RigidBodyPmp::Attitude(y), y.segment<3>(9));
    };
  };
  Vector z(6);
  z << mu0, lambda0;
  double cost[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    const int n = steps << pass;
    const NewtonResult r = SolveNewton(shoot_pmp(n), z, 1e-12, 60);
    out.newton_iterations += r.iterations;
    if (!r.converged) {
      out.message = "shooting on the maximum principle did not converge (residual " +
                    std::to_string(r.residual) + ")";
      return out;
    }
    z = r.z;
    out.residual = r.residual;
    cost[pass] = pmp.Integrate(RigidBodyPmp::Pack(P.R0, P.w0, z.head<3>(), z.tail<3>()), T, n)(18);
  }
  out.steps = steps;
  out.cost = cost[1] + (cost[1] - cost[0]) / 15;  // RK4: error ~ h^4
  out.cost_error = std::abs(cost[1] - cost[0]);
  out.mu0 = z.head<3>();
  out.lambda0 = z.tail<3>();
  out.converged = true;
  return out;
}

// ---- Elroy's shape ------------------------------------------------------------------------

ShapeReference SolveShape(const ShapeProblem& P, int steps) {
  using State = Eigen::Matrix<double, 5, 1>;  // psi, v1, l1, l2, cost
  ShapeReference out;
  const double a = P.a, T = P.horizon, D = P.psiT - P.psi0;
  auto integrate = [&](const Vector& z, double k, int n) {
    State y;
    y << P.psi0, 0.0, z(0), z(1), 0.0;
    const auto rate = [&](const State& s) {
      const double u = -s(3);
      State d;
      d << a * s(1), u - a * k * std::sin(s(0)), a * k * s(3) * std::cos(s(0)), -a * s(2),
          0.5 * u * u;
      return d;
    };
    for (int j = 0; j < n; ++j) y = Rk4Step(y, T / n, rate);
    return y;
  };
  // k = 0: psi = psi0 + D (3 s^2 - 2 s^3), u = psi'' / a, l2 = -u, l1 = -l2' / a.
  Vector z(2);
  z << -12 * D / (a * a * T * T * T), -6 * D / (a * T * T);
  const int stages = P.k == 0.0 ? 1 : 4;
  for (int j = 1; j <= stages; ++j) {
    const double k = P.k * j / stages;
    const NewtonResult r = SolveNewton(
        [&](const Vector& x) {
          const State y = integrate(x, k, steps);
          return Vector(Eigen::Vector2d(y(0) - P.psiT, y(1)));
        },
        z, 1e-13, 40);
    if (!r.converged) return out;
    z = r.z;
    out.residual = r.residual;
  }
  const double c1 = integrate(z, P.k, steps)(4);
  const NewtonResult fine = SolveNewton(
      [&](const Vector& x) {
        const State y = integrate(x, P.k, 2 * steps);
        return Vector(Eigen::Vector2d(y(0) - P.psiT, y(1)));
      },
      z, 1e-13, 40);
  if (!fine.converged) return out;
  const double c2 = integrate(fine.z, P.k, 2 * steps)(4);
  out.cost = c2 + (c2 - c1) / 15;
  out.cost_error = std::abs(c2 - c1);
  out.l1 = fine.z(0);
  out.l2 = fine.z(1);
  out.converged = true;
  return out;
}

// ---- perturbations ------------------------------------------------------------------------

Eigen::VectorXd SampledControl::Midpoint(std::size_t k) const {
  const std::size_t N = u.size() - 1;
  if (k == 0) return (5 * u[0] + 15 * u[1] - 5 * u[2] + u[3]) / 16;
  if (k + 1 == N) return (u[N - 3] - 5 * u[N - 2] + 15 * u[N - 1] + 5 * u[N]) / 16;
  return (-u[k - 1] + 9 * u[k] + 9 * u[k + 1] - u[k + 2]) / 16;
}

Projection ProjectedCost(const ControlledSystem& system, const SampledControl& nominal,
                         const ControlFunction& phi, double eps,
                         const std::vector<ControlFunction>& corrections) {
  const std::size_t N = nominal.u.size() - 1;
  const double h = nominal.h;
  // The control at t with the correction coefficients c (nominal part given).
  auto control = [&](const Vector& base, double t, const Vector& c) {
    Vector u = base + eps * phi(t);
    for (std::size_t j = 0; j < corrections.size(); ++j)
      u += c(static_cast<Eigen::Index>(j)) * corrections[j](t);
    return u;
  };
  std::vector<Vector> mid(N);
  for (std::size_t k = 0; k < N; ++k) mid[k] = nominal.Midpoint(k);
  auto run = [&](const Vector& c, double* cost) {
    Vector x = system.x0;
    double J = 0.0;
    for (std::size_t k = 0; k < N; ++k) {
      const double t = k * h;
      const Vector u1 = control(nominal.u[k], t, c), um = control(mid[k], t + h / 2, c),
                   u4 = control(nominal.u[k + 1], t + h, c);
      const Vector k1 = system.rate(x, u1), k2 = system.rate(x + h / 2 * k1, um),
                   k3 = system.rate(x + h / 2 * k2, um), k4 = system.rate(x + h * k3, u4);
      x += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      J += h / 6 * 0.5 * (u1.squaredNorm() + 4 * um.squaredNorm() + u4.squaredNorm());
    }
    if (cost) *cost = J;
    return system.terminal(x);
  };
  Projection out;
  const NewtonResult r =
      SolveNewton([&](const Vector& c) { return run(c, nullptr); },
                  Vector::Zero(static_cast<Eigen::Index>(corrections.size())), 1e-13, 20);
  out.iterations = r.iterations;
  out.residual = r.residual;
  out.ok = r.residual < 1e-11;
  run(r.z, &out.cost);
  return out;
}

}  // namespace dirac::testing::ocp
