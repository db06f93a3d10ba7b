#include "plots/axis_format.hpp"

#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "scenes/scene_kit.hpp"

namespace dirac::ui {

QString TickFormat(double max_abs, double interval) {
  if (!(interval > 0.0)) return QStringLiteral("%.6g");
  const int interval_exponent = static_cast<int>(std::floor(std::log10(interval)));
  if (max_abs >= 1e5 || (max_abs > 0.0 && max_abs < 1e-3)) {
    const int value_exponent = static_cast<int>(std::floor(std::log10(max_abs)));
    return QStringLiteral("%.%1e").arg(std::clamp(value_exponent - interval_exponent, 1, 12));
  }
  return QStringLiteral("%.%1f").arg(std::clamp(-interval_exponent, 0, 12));
}

std::vector<double> FixedTickValues(double min, double max, int ticks) {
  std::vector<double> values;
  if (!(max > min) || ticks < 2) return values;
  for (int i = 0; i < ticks; i++) values.push_back(min + (i * (max - min) / (ticks - 1)));
  return values;
}

std::vector<double> DynamicTickValues(double min, double max, double interval, double anchor) {
  std::vector<double> values;
  if (!(max > min) || !(interval > 0.0)) return values;
  const double ticks_from_anchor = (anchor - min) / interval;
  double value = anchor - std::floor(ticks_from_anchor) * interval;
  while (value <= max && values.size() < 10000) {
    values.push_back(value);
    value += interval;
  }
  return values;
}

namespace {

bool HasExactZero(const std::vector<double>& values) {
  return std::find(values.begin(), values.end(), 0.0) != values.end();
}

// `x` moved by `n` units in the last place (n may be negative).
double Ulps(double x, int n) {
  const double toward =
      n < 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  for (int k = 0; k < std::abs(n); ++k) x = std::nextafter(x, toward);
  return x;
}

constexpr int kUlpSearch = 24;  // how far (in ulps) the ends or the anchor may move for an exact 0

}  // namespace

void ExactZeroFixedTicks(double& lo, double& hi, int ticks) {
  if (!(lo <= 0.0 && hi >= 0.0) || ticks < 2) return;  // 0 inside, or an end (data <= 0)
  // Is 0 one of the ticks (up to rounding)?
  const double step = (hi - lo) / (ticks - 1);
  const double k = std::round(-lo / step);
  if (std::abs(lo + k * step) > 1e-6 * step) return;
  if (HasExactZero(FixedTickValues(lo, hi, ticks))) return;
  for (int n = 1; n <= kUlpSearch; ++n)
    for (int a = -n; a <= n; ++a)
      for (int b = -n; b <= n; ++b) {
        if (std::max(std::abs(a), std::abs(b)) != n) continue;         // the ring at distance n
        if ((lo == 0.0 && a != 0) || (hi == 0.0 && b != 0)) continue;  // an end at 0 stays
        const double l = Ulps(lo, a), h = Ulps(hi, b);
        if (HasExactZero(FixedTickValues(l, h, ticks))) {
          lo = l;
          hi = h;
          return;
        }
      }
}

DynamicTicks ExactZeroDynamicTicks(double min, double max, double interval) {
  const DynamicTicks nominal{std::floor(min / interval) * interval, interval};
  if (!(min <= 0.0 && max >= 0.0) || !(interval > 0.0) || !std::isfinite(nominal.anchor))
    return nominal;
  if (HasExactZero(DynamicTickValues(min, max, interval, nominal.anchor))) return nominal;
  // The first tick itself as the anchor, it and the interval moved by ulps until the sums land
  // on 0 (the anchor alone failed for about one range in eight; both never, in 25 000 tried).
  const double first = std::ceil(min / interval) * interval;
  for (int n = 0; n <= 32; ++n)
    for (const int sign : {-1, 1}) {
      const double anchor = Ulps(first, sign * n);
      for (int m = 0; m <= 8; ++m)
        for (const int step_sign : {-1, 1}) {
          const double step = Ulps(interval, step_sign * m);
          if (HasExactZero(DynamicTickValues(min, max, step, anchor))) return {anchor, step};
        }
    }
  return nominal;
}

int TimeDivisionsFor(double width) {
  constexpr double kPerDivision = 45.0;  // [px] a label of up to four characters and a gap
  if (!(width > 0.0)) return 5;
  return std::clamp(static_cast<int>(width / kPerDivision), 2, 5);
}

void NiceTicks(QValueAxis* axis, int divisions) {
  const double span = axis->max() - axis->min();
  if (!(span > 0.0) || !std::isfinite(span)) return;
  const double step = NiceStep(span / std::max(1, divisions));
  const DynamicTicks ticks = ExactZeroDynamicTicks(axis->min(), axis->max(), step);
  // Interval before type: a dynamic axis lays out its ticks at once.
  axis->setTickInterval(ticks.interval);
  axis->setTickAnchor(ticks.anchor);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setLabelFormat(TickFormat(std::max(std::abs(axis->min()), std::abs(axis->max())), step));
}

void SetAxisRange(QValueAxis* axis, double lo, double hi) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return;
  if (axis->tickType() != QValueAxis::TicksDynamic) {
    axis->setRange(lo, hi);
    return;
  }
  const double step = NiceStep((hi - lo) / 5.0);
  const DynamicTicks ticks = ExactZeroDynamicTicks(lo, hi, step);
  if (step >= axis->tickInterval()) {
    axis->setTickInterval(ticks.interval);
    axis->setTickAnchor(ticks.anchor);
    axis->setRange(lo, hi);
  } else {
    axis->setRange(lo, hi);
    axis->setTickInterval(ticks.interval);
    axis->setTickAnchor(ticks.anchor);
  }
}

NiceRange NiceValueRange(double y_min, double y_max, bool fine) {
  const double magnitude = std::max(std::abs(y_min), std::abs(y_max));
  const double span = std::max({y_max - y_min, 1e-6 * magnitude, 1e-12});
  const double mid = 0.5 * (y_min + y_max);
  auto nice = [](double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    if (ceiling) return (q <= 1.0 ? 1.0 : q <= 2.0 ? 2.0 : q <= 5.0 ? 5.0 : 10.0) * z;
    return (q < 1.5 ? 1.0 : q < 3.0 ? 2.0 : q < 7.0 ? 5.0 : 10.0) * z;
  };
  const double low = mid - 0.55 * span, high = mid + 0.55 * span;
  const double step = nice(fine ? (high - low) / 4.0 : nice(high - low, true) / 4.0, false);
  const double nice_low = std::floor(low / step), nice_high = std::ceil(high / step);
  NiceRange r;
  r.ticks = static_cast<int>(nice_high - nice_low) + 1;
  r.lo = nice_low * step;
  r.hi = nice_high * step;
  ExactZeroFixedTicks(r.lo, r.hi, r.ticks);
  const double interval = (r.hi - r.lo) / std::max(1, r.ticks - 1);
  r.format = TickFormat(std::max(std::abs(r.lo), std::abs(r.hi)), interval);
  return r;
}

QString BrokenInTwo(const QString& words) {
  qsizetype best = -1;
  for (qsizetype i = words.indexOf(' '); i >= 0; i = words.indexOf(' ', i + 1))
    if (best < 0 || std::abs(words.size() - 2 * i) < std::abs(words.size() - 2 * best)) best = i;
  return best < 0 ? words : words.left(best) + "<br>" + words.mid(best + 1);
}

QString UnderscorePrefix(const QStringList& names) {
  if (names.size() < 2) return {};
  QString prefix = names.front();
  for (const QString& n : names) {
    qsizetype k = 0;
    while (k < prefix.size() && k < n.size() && prefix[k] == n[k]) ++k;
    prefix.truncate(k);
  }
  const qsizetype cut = prefix.lastIndexOf('_');
  if (cut < 0) return {};
  prefix.truncate(cut + 1);
  for (const QString& n : names) {
    if (n.size() <= prefix.size()) return {};
  }
  return prefix;
}

QString CompactNames(const QStringList& names) {
  const QString prefix = UnderscorePrefix(names);
  if (prefix.isEmpty()) {
    // A shared suffix from a '_' on: "q1_dot, q2_dot" -> "{q1,q2}_dot".
    QStringList reversed;
    for (QString n : names) {
      std::reverse(n.begin(), n.end());
      reversed << n;
    }
    QString common = reversed.size() > 1 ? reversed.front() : QString();
    for (const QString& r : reversed) {
      qsizetype k = 0;
      while (k < common.size() && k < r.size() && common[k] == r[k]) ++k;
      common.truncate(k);
    }
    const qsizetype cut = common.lastIndexOf('_');
    if (cut < 0) return names.join(QStringLiteral(", "));
    const qsizetype length = cut + 1;
    QStringList rest;
    for (const QString& n : names) {
      if (n.size() <= length) return names.join(QStringLiteral(", "));
      rest << n.left(n.size() - length);
    }
    return "{" + rest.join(',') + "}" + names.front().right(length);
  }
  QStringList rest;
  for (const QString& n : names) rest << n.mid(prefix.size());
  return prefix + "{" + rest.join(',') + "}";
}

}  // namespace dirac::ui
