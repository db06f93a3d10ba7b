#pragma once
/// @file axis_format.hpp
/// Numbers and names on the charts' axes: tick formats that tell neighbours apart, nice tick
/// steps and ranges, and compact axis titles from column names.

#include <QString>
#include <QStringList>

#include <vector>

class QValueAxis;

namespace dirac::ui {

/// A printf format that tells ticks `interval` apart for values up to `max_abs`: fixed-point for
/// moderate magnitudes, scientific for very large or very small ones.
QString TickFormat(double max_abs, double interval);

/// The tick values Qt Charts labels (ChartAxisElement::createValueLabels), computed as it does:
/// fixed ticks min + i (max - min) / (ticks - 1); dynamic ones from the anchor's first tick at or
/// above min by repeated addition of the interval (so a tick meant to be 0 may be 1e-17, and
/// printed "-0.0" or "2.0e-28").
std::vector<double> FixedTickValues(double min, double max, int ticks);
std::vector<double> DynamicTickValues(double min, double max, double interval, double anchor);

/// Moves lo and hi by a few units in the last place (invisible) so that the fixed tick meant to
/// be 0 is computed as exactly 0 and labelled "0.0", not "-0.0" or "2.0e-28" (unchanged when 0
/// is no tick or no such move exists).
void ExactZeroFixedTicks(double& lo, double& hi, int ticks);

/// Dynamic ticks at multiples of `interval` on [min, max]: the anchor and interval Qt is given,
/// moved by a few ulps from floor(min / interval) * interval and `interval` so that the tick at
/// 0, if in range, is computed as exactly 0 (as they are when it is not in range).
struct DynamicTicks {
  double anchor = 0.0;
  double interval = 1.0;
};
DynamicTicks ExactZeroDynamicTicks(double min, double max, double interval);

/// About `divisions` (default five) ticks on the axis' [min, max] at a nice step (the scene
/// kit's NiceStep), labelled so neighbours differ.
void NiceTicks(QValueAxis* axis, int divisions = 5);
/// How many divisions a time axis `width` px long has room for: five, fewer in a narrow chart
/// (seven labels "0 2 4 … 12" in 120 px were elided to "…"), at least two.
int TimeDivisionsFor(double width);

/// Sets [lo, hi] without ever asking the axis for a huge number of ticks: Qt lays the ticks out
/// at once, with the interval it has, so a larger span gets its larger interval first (a span
/// of 1e9 s at the old 10 s interval would be 1e8 tick items), a smaller one after.
void SetAxisRange(QValueAxis* axis, double lo, double hi);

/// A value axis' fixed ticks for data in [y_min, y_max]: QValueAxis::applyNiceNumbers'
/// rounding of a range 10 % wider (a constant signal gets a small relative band, not noise
/// zoom), its tick count and a label format. `fine`: the step from a quarter of that range
/// itself, not of its rounding up (data in [-50, 50] on [-60, 60] in steps of 20, not on
/// [-100, 100] in steps of 50): for axes framed by bounds, whose bands would take half the
/// chart.
struct NiceRange {
  double lo = 0.0, hi = 1.0;
  int ticks = 2;
  QString format;
};
NiceRange NiceValueRange(double y_min, double y_max, bool fine = false);

/// `words` on two lines, broken at the space nearest their middle ("hidden-constraint<br>
/// residual"; rich text); one word as it is.
QString BrokenInTwo(const QString& words);

/// The common prefix of `names` up to and including its last '_' ("" if none or one name).
QString UnderscorePrefix(const QStringList& names);

/// "a, b, c", or "prefix_{a,b,c}" when the names share a prefix ending in '_' (axis titles).
QString CompactNames(const QStringList& names);

}  // namespace dirac::ui
