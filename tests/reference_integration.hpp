#pragma once
// Independent references for the accuracy tests: a fixed-step classical Runge–Kutta integrator
// (no SUNDIALS, no engine code) with compensated summation, and the comparison of an engine
// trajectory against named reference columns sampled at the trajectory's own times.

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/trajectory.hpp"

namespace dirac::testing {

/// Fixed-step RK4 for y' = f(t, y) with N unknowns. The state update is summed with Kahan
/// compensation so that 10^5–10^6 steps add no visible rounding to large angles.
template <std::size_t N>
class Rk4Reference {
 public:
  using State = std::array<double, N>;
  using Rate = std::function<State(double, const State&)>;

  /// `step`: the fixed step h [s].
  Rk4Reference(Rate rate, State initial, double step)
      : rate_(std::move(rate)), state_(initial), step_(step) {
    compensation_.fill(0.0);
  }

  const State& state() const { return state_; }
  double time() const { return t_; }

  /// Integrates from time() to t, which must lie on the step grid (a multiple of h).
  void Advance(double t) {
    const long target = std::lround(t / step_);
    while (count_ < target) Step(step_);
    t_ = count_ * step_;
  }

 private:
  void Step(double h) {
    auto axpy = [](const State& a, double c, const State& b) {
      State r;
      for (std::size_t i = 0; i < N; ++i) r[i] = a[i] + c * b[i];
      return r;
    };
    const State k1 = rate_(t_, state_);
    const State k2 = rate_(t_ + h / 2, axpy(state_, h / 2, k1));
    const State k3 = rate_(t_ + h / 2, axpy(state_, h / 2, k2));
    const State k4 = rate_(t_ + h, axpy(state_, h, k3));
    for (std::size_t i = 0; i < N; ++i) {
      const double increment = h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) - compensation_[i];
      const double sum = state_[i] + increment;
      compensation_[i] = (sum - state_[i]) - increment;
      state_[i] = sum;
    }
    ++count_;
    t_ = count_ * step_;  // no drift of the time itself
  }

  Rate rate_;
  State state_, compensation_;
  double step_, t_ = 0.0;
  long count_ = 0;
};

/// Reference values of named trajectory columns at time t (called with increasing t).
using ReferenceColumns = std::function<std::vector<std::pair<std::string, double>>(double t)>;

/// The largest deviation of a trajectory from a reference over all rows and named columns, each
/// column's error divided by its scale max(1, max_t |reference|) (absolute below 1, relative to
/// the column's size above: angles that wind up to 100 rad are compared to 1e-9 relative).
struct ReferenceDeviation {
  double max_error = 0.0;
  std::string column;
  double time = 0.0;
  std::size_t rows = 0;
};

inline ReferenceDeviation CompareWithReference(const Trajectory& tr, const ReferenceColumns& ref) {
  std::vector<std::vector<std::pair<std::string, double>>> expected;
  expected.reserve(tr.num_rows());
  for (std::size_t r = 0; r < tr.num_rows(); ++r) expected.push_back(ref(tr.at(r, 0)));
  std::vector<double> scale(expected.front().size(), 1.0);
  std::vector<std::size_t> index;
  for (const auto& [name, value] : expected.front()) index.push_back(tr.ColumnIndex(name));
  for (const auto& row : expected)
    for (std::size_t c = 0; c < row.size(); ++c)
      scale[c] = std::max(scale[c], std::abs(row[c].second));
  ReferenceDeviation out;
  out.rows = tr.num_rows();
  for (std::size_t r = 0; r < tr.num_rows(); ++r)
    for (std::size_t c = 0; c < expected[r].size(); ++c) {
      const double e = std::abs(tr.at(r, index[c]) - expected[r][c].second) / scale[c];
      if (!(e <= out.max_error)) {  // also catches NaN
        out.max_error = e;
        out.column = expected[r][c].first;
        out.time = tr.at(r, 0);
      }
    }
  return out;
}

/// The same comparison between two references (the self-check of a fixed-step reference: the
/// one at step h against the one at h/2) at the sample times t_k = k dt, k = 0..rows-1.
inline double CompareReferences(const ReferenceColumns& a, const ReferenceColumns& b,
                                std::size_t rows, double dt) {
  std::vector<std::vector<std::pair<std::string, double>>> va, vb;
  for (std::size_t r = 0; r < rows; ++r) {
    va.push_back(a(r * dt));
    vb.push_back(b(r * dt));
  }
  std::vector<double> scale(va.front().size(), 1.0);
  for (const auto& row : va)
    for (std::size_t c = 0; c < row.size(); ++c)
      scale[c] = std::max(scale[c], std::abs(row[c].second));
  double worst = 0.0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < va[r].size(); ++c)
      worst = std::max(worst, std::abs(va[r][c].second - vb[r][c].second) / scale[c]);
  return worst;
}

/// max_t |E(t) - E(0)| / max(|E(0)|, floor): the relative energy drift (absolute when E(0) is
/// below `floor`, e.g. a system whose energy vanishes on its final constraint manifold).
inline double RelativeEnergyDrift(const Trajectory& tr, double floor = 1e-3) {
  const std::vector<double> e = tr.Column("E");
  double worst = 0.0;
  for (double v : e) worst = std::max(worst, std::abs(v - e.front()));
  return worst / std::max(std::abs(e.front()), floor);
}

}  // namespace dirac::testing
