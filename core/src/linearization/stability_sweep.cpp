// The stability sweep: eigenvalues along a parameter, matched point to point into continuous
// branches, and every zero crossing of a branch's real part refined by Brent's method on the
// branch continued from the bracket.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "dirac/error.hpp"
#include "linearization/reduced_point.hpp"

namespace dirac::linearization {
namespace {

using Complex = std::complex<double>;

// Matches `now` to the predicted values (greedy on the sorted pair distances): result[j] is the
// eigenvalue of `now` that continues branch j.
std::vector<Complex> Match(const std::vector<Complex>& predicted, const std::vector<Complex>& now) {
  const std::size_t n = predicted.size();
  struct Pair {
    double distance;
    std::size_t branch, value;
  };
  std::vector<Pair> pairs;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) pairs.push_back({std::abs(predicted[j] - now[i]), j, i});
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& a, const Pair& b) { return a.distance < b.distance; });
  std::vector<Complex> out(n);
  std::vector<bool> branch_done(n, false), value_used(n, false);
  for (const Pair& p : pairs) {
    if (branch_done[p.branch] || value_used[p.value]) continue;
    out[p.branch] = now[p.value];
    branch_done[p.branch] = value_used[p.value] = true;
  }
  return out;
}

// The eigenvalue at `value` nearest to `guess`.
Complex Nearest(const std::vector<Complex>& values, Complex guess) {
  Complex best = values.front();
  for (const Complex& v : values)
    if (std::abs(v - guess) < std::abs(best - guess)) best = v;
  return best;
}

// Brent's method (zeroin) for h(a) h(b) < 0, to |interval| <= 4 eps |x| + tol.
template <typename F>
double Brent(F&& h, double a, double b, double fa, double fb, double tol) {
  double c = a, fc = fa, d = b - a, e = d;
  for (int it = 0; it < 200; ++it) {
    if ((fb > 0) == (fc > 0)) {
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const double t = 2 * std::numeric_limits<double>::epsilon() * std::abs(b) + 0.5 * tol;
    const double m = 0.5 * (c - b);
    if (std::abs(m) <= t || fb == 0.0) return b;
    if (std::abs(e) >= t && std::abs(fa) > std::abs(fb)) {
      double p, q, r;
      const double s = fb / fa;
      if (a == c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        q = fa / fc;
        r = fb / fc;
        p = s * (2 * m * q * (q - r) - (b - a) * (r - 1));
        q = (q - 1) * (r - 1) * (s - 1);
      }
      if (p > 0)
        q = -q;
      else
        p = -p;
      if (2 * p < std::min(3 * m * q - std::abs(t * q), std::abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = d;
      }
    } else {
      d = m;
      e = d;
    }
    a = b;
    fa = fb;
    b += std::abs(d) > t ? d : (m > 0 ? t : -t);
    fb = h(b);
  }
  return b;
}

}  // namespace

void CheckSweepValues(const std::string& name, const std::vector<double>& values) {
  const std::size_t count = values.size();
  if (count < 2) throw ModelError("a stability sweep needs at least 2 values of " + name);
  for (std::size_t i = 0; i < count; ++i) {
    const bool finite = std::isfinite(values[i]);
    const bool monotone = i < 2 || (values[i] - values[i - 1] > 0) == (values[1] - values[0] > 0);
    if (!finite || (i > 0 && !(values[i] != values[i - 1])) || !monotone)
      throw ModelError("the values of " + name +
                       " in a stability sweep must be finite and strictly monotone (value " +
                       std::to_string(i + 1) + " is not)");
  }
}

StabilitySweep RunStabilitySweep(const std::function<Linearization(double)>& linearize_at,
                                 const std::string& name, const std::vector<double>& values,
                                 const std::atomic<bool>* cancel) {
  CheckSweepValues(name, values);
  const std::size_t count = values.size();
  // Every linearization (points and refinements) first looks at the cancel flag.
  auto at = [&](double value) {
    if (cancel && cancel->load()) throw SweepCancelled();
    return linearize_at(value);
  };
  StabilitySweep sweep;
  sweep.parameter = name;
  std::vector<std::vector<Complex>> branches;
  for (std::size_t i = 0; i < count; ++i) {
    const double value = values[i];
    Linearization lin;
    try {
      lin = at(value);
    } catch (const SweepCancelled&) {
      throw;
    } catch (const Error& e) {
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", value);
      throw ModelError("at " + name + " = " + text + ": " + e.what());
    }
    if (i == 0) sweep.states = lin.states;
    if (lin.eigenvalues.size() != sweep.states.size())
      throw ModelError("the reduced state changes along the sweep of " + name);
    std::vector<Complex> row = lin.eigenvalues;
    if (i > 0) {
      std::vector<Complex> predicted = branches.back();
      if (i > 1)
        for (std::size_t j = 0; j < predicted.size(); ++j)
          predicted[j] = 2.0 * branches[i - 1][j] - branches[i - 2][j];
      row = Match(predicted, row);
    }
    sweep.values.push_back(value);
    branches.push_back(row);
  }
  const std::size_t nb = sweep.states.size();
  sweep.eigenvalues.resize(static_cast<Eigen::Index>(count), static_cast<Eigen::Index>(nb));
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = 0; j < nb; ++j)
      sweep.eigenvalues(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          branches[i][j];

  // Crossings: strict sign changes of a branch's real part beyond the spectrum's rounding size.
  auto zero_size = [&](std::size_t i) {
    double size = 1.0;
    for (const Complex& v : branches[i]) size = std::max(size, std::abs(v));
    return 1e-9 * size;
  };
  std::vector<std::pair<std::size_t, double>> crossing_at;  // (interval i, value)
  for (std::size_t j = 0; j < nb; ++j) {
    for (std::size_t i = 0; i + 1 < count; ++i) {
      const Complex la = branches[i][j], lb = branches[i + 1][j];
      if (!(std::abs(la.real()) > zero_size(i) && std::abs(lb.real()) > zero_size(i + 1))) continue;
      if ((la.real() > 0) == (lb.real() > 0)) continue;
      if (la.imag() < -zero_size(i)) continue;  // the conjugate branch reports the pair
      const double va = sweep.values[i], vb = sweep.values[i + 1];
      Complex found = la;
      auto h = [&](double v) {
        const double s = (v - va) / (vb - va);
        found = Nearest(at(v).eigenvalues, la + (lb - la) * s);
        return found.real();
      };
      const double critical = Brent(h, va, vb, la.real(), lb.real(), 1e-14);
      h(critical);
      StabilitySweep::Critical c;
      c.value = critical;
      c.branch = j;
      c.eigenvalue = found;
      c.oscillatory = std::abs(la.imag()) > zero_size(i) || std::abs(lb.imag()) > zero_size(i + 1);
      c.stabilizing = (la.real() > 0) == (vb > va);
      sweep.critical.push_back(c);
      crossing_at.emplace_back(i, critical);
    }
  }
  // Stable runs of points, their ends moved to the critical values inside the bracket.
  auto stable_spectrum = [](const std::vector<Complex>& values) {
    double size = 1.0;
    for (const Complex& v : values) size = std::max(size, std::abs(v));
    for (const Complex& v : values)
      if (v.real() > 1e-9 * size) return false;
    return true;
  };
  auto stable = [&](std::size_t i) { return stable_spectrum(branches[i]); };
  // A change of the verdict without a transversal crossing (eigenvalues meeting on the
  // imaginary axis): bisection on the verdict.
  for (std::size_t i = 0; i + 1 < count; ++i) {
    if (stable(i) == stable(i + 1)) continue;
    bool crossed = false;
    for (const auto& [interval, value] : crossing_at) crossed |= interval == i;
    if (crossed) continue;
    double a = sweep.values[i], b = sweep.values[i + 1];
    const bool stable_a = stable(i);
    for (int it = 0; it < 200 && std::abs(b - a) > 1e-15 * std::max(1.0, std::abs(a)); ++it) {
      const double mid = 0.5 * (a + b);
      if (mid == a || mid == b) break;
      (stable_spectrum(at(mid).eigenvalues) == stable_a ? a : b) = mid;
    }
    StabilitySweep::Critical c;
    c.value = 0.5 * (a + b);
    c.collision = true;
    c.stabilizing = !stable_a == (sweep.values[i + 1] > sweep.values[i]);
    const std::vector<Complex>& unstable = stable_a ? branches[i + 1] : branches[i];
    for (std::size_t j = 0; j < nb; ++j)
      if (unstable[j].real() > unstable[c.branch].real()) c.branch = j;
    const std::vector<Complex> there = at(c.value).eigenvalues;
    c.eigenvalue = Nearest(there, unstable[c.branch]);
    sweep.critical.push_back(c);
    crossing_at.emplace_back(i, c.value);
  }
  std::sort(sweep.critical.begin(), sweep.critical.end(),
            [](const auto& a, const auto& b) { return a.value < b.value; });

  auto crossing_in = [&](std::size_t i, double fallback) {
    for (const auto& [interval, value] : crossing_at)
      if (interval == i) return value;
    return fallback;
  };
  for (std::size_t i = 0; i < count;) {
    if (!stable(i)) {
      ++i;
      continue;
    }
    std::size_t last = i;
    while (last + 1 < count && stable(last + 1)) ++last;
    const double from = i > 0 ? crossing_in(i - 1, sweep.values[i]) : sweep.values[i];
    const double to = last + 1 < count ? crossing_in(last, sweep.values[last]) : sweep.values[last];
    sweep.stable_intervals.emplace_back(from, to);
    i = last + 1;
  }
  return sweep;
}

}  // namespace dirac::linearization

namespace dirac {

std::vector<double> Linearizer::SweepValues(double start, double stop, std::size_t count) {
  std::vector<double> values;
  for (std::size_t i = 0; i < count; ++i)
    values.push_back(i + 1 == count ? stop
                                    : start + (stop - start) * static_cast<double>(i) /
                                                  static_cast<double>(count - 1));
  return values;
}

}  // namespace dirac
