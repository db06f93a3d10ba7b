// The chart maps of the sparse attitude formulation: Exp and Log of SO(3) and SE(2) written once
// for any scalar (double for values; a second-order forward-mode number for the exact Jacobian
// and Hessian), with series at the identity so that every map is smooth there.
#include "control/collocation_chart.hpp"

#include <array>
#include <cmath>
#include <type_traits>

namespace dirac::control {
namespace {

using geometry::MatrixGroup;

// A forward-mode number in n variables: value, gradient and (second: true) Hessian.
template <int n, bool second>
struct Jet {
  static constexpr int kH = second ? n : 0;
  double v = 0.0;
  Eigen::Matrix<double, n, 1> g = Eigen::Matrix<double, n, 1>::Zero();
  Eigen::Matrix<double, kH, kH> h = Eigen::Matrix<double, kH, kH>::Zero();
  Jet() = default;
  Jet(double c) : v(c) {}  // NOLINT: constants mix with jets as with doubles
  static Jet Variable(double value, int i) {
    Jet x(value);
    x.g[i] = 1.0;
    return x;
  }
};

template <int n, bool o>
Jet<n, o> operator+(const Jet<n, o>& a, const Jet<n, o>& b) {
  Jet<n, o> r;
  r.v = a.v + b.v;
  r.g = a.g + b.g;
  if constexpr (o) r.h = a.h + b.h;
  return r;
}
template <int n, bool o>
Jet<n, o> operator-(const Jet<n, o>& a, const Jet<n, o>& b) {
  Jet<n, o> r;
  r.v = a.v - b.v;
  r.g = a.g - b.g;
  if constexpr (o) r.h = a.h - b.h;
  return r;
}
template <int n, bool o>
Jet<n, o> operator-(const Jet<n, o>& a) {
  return Jet<n, o>(0.0) - a;
}
template <int n, bool o>
Jet<n, o> operator*(const Jet<n, o>& a, const Jet<n, o>& b) {
  Jet<n, o> r;
  r.v = a.v * b.v;
  r.g = a.v * b.g + b.v * a.g;
  if constexpr (o) r.h = a.v * b.h + b.v * a.h + a.g * b.g.transpose() + b.g * a.g.transpose();
  return r;
}
template <int n, bool o>
Jet<n, o> operator*(double c, const Jet<n, o>& a) {
  Jet<n, o> r;
  r.v = c * a.v;
  r.g = c * a.g;
  if constexpr (o) r.h = c * a.h;
  return r;
}
template <int n, bool o>
Jet<n, o> operator*(const Jet<n, o>& a, double c) {
  return c * a;
}
template <int n, bool o>
Jet<n, o> operator+(const Jet<n, o>& a, double c) {
  Jet<n, o> r = a;
  r.v += c;
  return r;
}
template <int n, bool o>
Jet<n, o> operator+(double c, const Jet<n, o>& a) {
  return a + c;
}
template <int n, bool o>
Jet<n, o> operator-(const Jet<n, o>& a, double c) {
  return a + (-c);
}
template <int n, bool o>
Jet<n, o> operator-(double c, const Jet<n, o>& a) {
  return (-1.0) * a + c;
}
// f(a) given f, f' and f'' at a's value.
template <int n, bool o>
Jet<n, o> Chain(const Jet<n, o>& a, double f, double f1, double f2) {
  Jet<n, o> r;
  r.v = f;
  r.g = f1 * a.g;
  if constexpr (o) r.h = f1 * a.h + f2 * a.g * a.g.transpose();
  return r;
}
template <int n, bool o>
Jet<n, o> operator/(const Jet<n, o>& a, const Jet<n, o>& b) {
  const double inv = 1.0 / b.v;
  return a * Chain(b, inv, -inv * inv, 2 * inv * inv * inv);
}
template <int n, bool o>
Jet<n, o> operator/(const Jet<n, o>& a, double c) {
  return (1.0 / c) * a;
}
template <int n, bool o>
Jet<n, o> operator/(double c, const Jet<n, o>& a) {
  return Jet<n, o>(c) / a;
}
template <int n, bool o>
Jet<n, o> sin(const Jet<n, o>& a) {
  return Chain(a, std::sin(a.v), std::cos(a.v), -std::sin(a.v));
}
template <int n, bool o>
Jet<n, o> cos(const Jet<n, o>& a) {
  return Chain(a, std::cos(a.v), -std::sin(a.v), -std::cos(a.v));
}
template <int n, bool o>
Jet<n, o> sqrt(const Jet<n, o>& a) {
  const double s = std::sqrt(a.v);
  return Chain(a, s, 0.5 / s, -0.25 / (s * a.v));
}
template <int n, bool o>
Jet<n, o> acos(const Jet<n, o>& a) {
  const double q = 1 - a.v * a.v, d = -1 / std::sqrt(q);
  return Chain(a, std::acos(a.v), d, d * a.v / q);
}

double Value(double x) { return x; }
template <int n, bool o>
double Value(const Jet<n, o>& x) {
  return x.v;
}

template <class S>
using Mat = std::array<S, 9>;  // row-major 3 x 3
template <class S>
using Vec = std::array<S, 3>;

template <class S>
Mat<S> Mul(const Mat<S>& A, const Mat<S>& B) {
  Mat<S> C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  return C;
}

template <class S>
Mat<S> Mul(const Eigen::Matrix3d& A, const Mat<S>& B) {
  Mat<S> C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A(i, 0) * B[j] + A(i, 1) * B[3 + j] + A(i, 2) * B[6 + j];
  return C;
}

// sin(x)/x and (1 - cos x)/x^2 as functions of t = x^2 (series below 1e-4: exact to rounding,
// and smooth at 0 where the square root is not).
template <class S>
void SinCosRatios(const S& t, S& a, S& b) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (Value(t) < 1e-4) {
    a = 1.0 + t * (-1.0 / 6 + t * (1.0 / 120 - t * (1.0 / 5040)));
    b = 0.5 + t * (-1.0 / 24 + t * (1.0 / 720 - t * (1.0 / 40320)));
    return;
  }
  const S x = sqrt(t), s = sin(0.5 * x);
  a = sin(x) / x;
  b = 2.0 * s * s / t;
}

// Exp of the algebra element x (SO(3): the rotation vector; SE(2): (v_x, v_y, omega)).
template <class S>
Mat<S> Exp(MatrixGroup group, const Vec<S>& x) {
  using std::cos;
  using std::sin;
  Mat<S> R;
  if (group == MatrixGroup::kSO3) {
    const S t = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    S a, b;
    SinCosRatios(t, a, b);
    const S diagonal = 1.0 - b * t;
    const Mat<S> K{0.0, -x[2], x[1], x[2], 0.0, -x[0], -x[1], x[0], 0.0};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        R[3 * i + j] = a * K[3 * i + j] + b * x[i] * x[j] + (i == j ? diagonal : S(0.0));
    return R;
  }
  const S w = x[2];
  S a, b;
  SinCosRatios(w * w, a, b);
  const S c = w * b, cw = cos(w), sw = sin(w);  // c = (1 - cos w) / w
  return {cw, -sw, a * x[0] - c * x[1], sw, cw, c * x[0] + a * x[1], 0.0, 0.0, 1.0};
}

// Log of an SO(3) element M: g(x) vee((M - M^T)/2) with x = 1 - cos(theta) = (3 - tr M)/2 and
// g = theta / sin(theta) = acos(1 - x) / sqrt(x (2 - x)), analytic at x = 0: there
// (1 + x/12 + 3x^2/160 + 5x^3/896 + 35x^4/18432) / sqrt(1 - x/2).
template <class S>
Vec<S> LogSO3(const Mat<S>& M) {
  using std::acos;
  using std::sqrt;
  const S x = 0.5 * (3.0 - M[0] - M[4] - M[8]);
  S g;
  if (Value(x) < 1e-4)
    g = (1.0 + x * (1.0 / 12 + x * (3.0 / 160 + x * (5.0 / 896 + x * (35.0 / 18432))))) /
        sqrt(1.0 - 0.5 * x);
  else
    g = acos(1.0 - x) / sqrt(x * (2.0 - x));
  return {0.5 * g * (M[7] - M[5]), 0.5 * g * (M[2] - M[6]), 0.5 * g * (M[3] - M[1])};
}

// Log of an SE(2) element with rotation angle w (given: it is linear in the chart) and
// translation p: (V(w)^-1 p, w), V^-1 = [[a, w/2], [-w/2, a]], a = (w/2) cot(w/2)
// (series 1 - y/3 - y^2/45 - 2y^3/945 - y^4/4725 in y = w^2/4 below 1e-4).
template <class S>
Vec<S> LogSE2(const S& w, const S& p0, const S& p1) {
  using std::cos;
  using std::sin;
  const S half = 0.5 * w, y = half * half;
  S a;
  if (Value(y) < 1e-4)
    a = 1.0 - y * (1.0 / 3 + y * (1.0 / 45 + y * (2.0 / 945 + y * (1.0 / 4725))));
  else
    a = half * cos(half) / sin(half);
  return {a * p0 + half * p1, a * p1 - half * p0, w};
}

double Angle(const Eigen::Matrix3d& g) { return std::atan2(g(1, 0), g(0, 0)); }

// F(a, b) = Log(Exp(-a) C Exp(b)); SE(2) with C's angle `angle`.
template <class S>
Vec<S> Relative(MatrixGroup group, const Eigen::Matrix3d& C, double angle, const Vec<S>& a,
                const Vec<S>& b) {
  const Vec<S> minus_a{-a[0], -a[1], -a[2]};
  const Mat<S> M = Mul(Exp(group, minus_a), Mul(C, Exp(group, b)));
  if (group == MatrixGroup::kSO3) return LogSO3(M);
  return LogSE2(angle + b[2] - a[2], M[2], M[5]);
}

template <int n, bool o>
ChartDerivatives<n> Collect(const Vec<Jet<n, o>>& F, int rows, const double* lambda) {
  ChartDerivatives<n> out;
  for (int r = 0; r < rows; ++r) {
    out.value[r] = F[r].v;
    out.jacobian.row(r) = F[r].g.transpose();
    if constexpr (o) out.hessian += lambda[r] * F[r].h;
  }
  return out;
}

// The derivatives of `f` (a functor of Vec<Jet> arguments) at x: first order when lambda is
// null, else with the weighted Hessian.
template <int n, class F>
ChartDerivatives<n> Differentiate(const Eigen::Matrix<double, n, 1>& x, int rows,
                                  const double* lambda, F f) {
  if (!lambda) {
    using J = Jet<n, false>;
    std::array<J, n> vars;
    for (int i = 0; i < n; ++i) vars[i] = J::Variable(x[i], i);
    return Collect<n, false>(f(vars), rows, nullptr);
  }
  using J = Jet<n, true>;
  std::array<J, n> vars;
  for (int i = 0; i < n; ++i) vars[i] = J::Variable(x[i], i);
  return Collect<n, true>(f(vars), rows, lambda);
}

}  // namespace

RelativeIncrement::RelativeIncrement(MatrixGroup group, const Eigen::Matrix3d& C)
    : group_(group), C_(C), angle_(group == MatrixGroup::kSE2 ? Angle(C) : 0.0) {}

Eigen::Vector3d RelativeIncrement::Value(const Eigen::Vector3d& a, const Eigen::Vector3d& b) const {
  const Vec<double> F =
      Relative<double>(group_, C_, angle_, {a[0], a[1], a[2]}, {b[0], b[1], b[2]});
  return {F[0], F[1], F[2]};
}

ChartDerivatives<6> RelativeIncrement::Derivatives(const Eigen::Vector3d& a,
                                                   const Eigen::Vector3d& b,
                                                   const double* lambda) const {
  Eigen::Matrix<double, 6, 1> x;
  x << a, b;
  return Differentiate<6>(x, 3, lambda, [&](const auto& v) {
    using J = std::decay_t<decltype(v[0])>;
    return Relative<J>(group_, C_, angle_, {v[0], v[1], v[2]}, {v[3], v[4], v[5]});
  });
}

FinalChartRows::FinalChartRows(MatrixGroup group, const Eigen::Matrix3d& reference,
                               const Eigen::Matrix3d& target, bool fix_translation, bool fix_angle)
    : group_(group),
      reference_(reference),
      target_(target),
      translation_(fix_translation),
      angle_(fix_angle) {
  if (group == MatrixGroup::kSE2)
    angle_offset_ = geometry::WrapAngle(Angle(reference) - Angle(target));
}

namespace {

// The rows of FinalChartRows for any scalar: SO(3) Log(Exp(-eta) Gref^T R*); SE(2) the
// position of Gref Exp(eta) minus the target's, then the angle wrap(theta_ref - theta*) + omega
// (wrapped again by a constant multiple of 2 pi).
template <class S>
Vec<S> FinalRows(MatrixGroup group, const Eigen::Matrix3d& reference, const Eigen::Matrix3d& target,
                 bool translation, bool angle, double offset, const Vec<S>& eta) {
  if (group == MatrixGroup::kSO3) {
    const Vec<S> zero{0.0, 0.0, 0.0};
    return Relative(group, Eigen::Matrix3d(reference.transpose() * target), 0.0, eta, zero);
  }
  Vec<S> r{0.0, 0.0, 0.0};
  int row = 0;
  if (translation) {
    const Mat<S> G = Mul(reference, Exp(group, eta));
    r[row++] = G[2] - target(0, 2);
    r[row++] = G[5] - target(1, 2);
  }
  if (angle) {
    const double value = offset + Value(eta[2]);
    r[row] = eta[2] + (offset + (geometry::WrapAngle(value) - value));
  }
  return r;
}

}  // namespace

Eigen::Vector3d FinalChartRows::Value(const Eigen::Vector3d& eta) const {
  const Vec<double> r = FinalRows<double>(group_, reference_, target_, translation_, angle_,
                                          angle_offset_, {eta[0], eta[1], eta[2]});
  return {r[0], r[1], r[2]};
}

ChartDerivatives<3> FinalChartRows::Derivatives(const Eigen::Vector3d& eta,
                                                const double* lambda) const {
  const int rows = group_ == MatrixGroup::kSO3 ? 3 : 2 * translation_ + angle_;
  return Differentiate<3>(eta, rows, lambda, [&](const auto& v) {
    using J = std::decay_t<decltype(v[0])>;
    return FinalRows<J>(group_, reference_, target_, translation_, angle_, angle_offset_,
                        {v[0], v[1], v[2]});
  });
}

}  // namespace dirac::control
