#include "plots/curve_reduction.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace dirac::ui {

QList<QPointF> DecimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                              int max_points) {
  const std::size_t n = std::min(x.size(), y.size());
  QList<QPointF> points;
  if (n <= static_cast<std::size_t>(std::max(max_points, 2))) {
    points.reserve(static_cast<qsizetype>(n));
    for (std::size_t i = 0; i < n; ++i) points.append(QPointF(x[i], y[i]));
    return points;
  }
  const std::size_t buckets = static_cast<std::size_t>(max_points / 2);
  points.reserve(static_cast<qsizetype>(2 * buckets + 1));
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = b * n / buckets;
    const std::size_t end = (b + 1) * n / buckets;
    std::size_t lo = begin, hi = begin;
    for (std::size_t i = begin; i < end; ++i) {
      if (y[i] < y[lo]) lo = i;
      if (y[i] > y[hi]) hi = i;
    }
    const std::size_t first = std::min(lo, hi), second = std::max(lo, hi);
    points.append(QPointF(x[first], y[first]));
    if (second != first) points.append(QPointF(x[second], y[second]));
  }
  // The curve spans the whole run: the first and last samples are kept even where they are not
  // their bucket's extremes (a near-constant energy started at t = 0.01 when the first
  // bucket's extremes came later; gui_default_view saw it at one chart width).
  if (points.first().x() != x[0]) points.prepend(QPointF(x[0], y[0]));
  if (points.last().x() != x[n - 1]) points.append(QPointF(x[n - 1], y[n - 1]));
  return points;
}

QList<QPointF> SimplifyPolyline(const QList<QPointF>& points, double x_scale, double y_scale,
                                double tolerance) {
  const qsizetype n = points.size();
  if (n < 3 || !(x_scale > 0.0) || !(y_scale > 0.0) || !std::isfinite(x_scale) ||
      !std::isfinite(y_scale))
    return points;
  for (const QPointF& p : points)
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return points;
  // Douglas-Peucker in pixels: keep the point farthest from the chord of each piece while it is
  // farther than the tolerance.
  auto px = [&](qsizetype i) { return QPointF(points[i].x() * x_scale, points[i].y() * y_scale); };
  std::vector<char> keep(static_cast<std::size_t>(n), 0);
  keep.front() = keep.back() = 1;
  std::vector<std::pair<qsizetype, qsizetype>> pieces{{0, n - 1}};
  const double tolerance2 = tolerance * tolerance;
  while (!pieces.empty()) {
    const auto [first, last] = pieces.back();
    pieces.pop_back();
    if (last - first < 2) continue;
    const QPointF a = px(first), d = px(last) - a;
    const double length2 = QPointF::dotProduct(d, d);
    double farthest = -1.0;
    qsizetype at = first;
    for (qsizetype i = first + 1; i < last; ++i) {
      const QPointF v = px(i) - a;
      const double along =
          length2 > 0.0 ? std::clamp(QPointF::dotProduct(v, d) / length2, 0.0, 1.0) : 0.0;
      const QPointF off = v - along * d;
      const double distance2 = QPointF::dotProduct(off, off);
      if (distance2 > farthest) {
        farthest = distance2;
        at = i;
      }
    }
    if (farthest <= tolerance2) continue;
    keep[static_cast<std::size_t>(at)] = 1;
    pieces.push_back({first, at});
    pieces.push_back({at, last});
  }
  QList<QPointF> kept;
  kept.reserve(static_cast<qsizetype>(std::count(keep.begin(), keep.end(), 1)));
  for (qsizetype i = 0; i < n; ++i)
    if (keep[static_cast<std::size_t>(i)]) kept.append(points[i]);
  return kept;
}

QList<QList<QPointF>> ClipPolyline(const QList<QPointF>& points, const QRectF& box) {
  QList<QList<QPointF>> pieces;
  QList<QPointF> piece;
  auto flush = [&] {
    if (piece.size() >= 2) pieces.append(piece);
    piece.clear();
  };
  for (qsizetype i = 0; i + 1 < points.size(); ++i) {
    const QPointF a = points[i], b = points[i + 1];
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    double t0 = 0.0, t1 = 1.0;
    bool inside = true;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - box.left(), box.right() - a.x(), a.y() - box.top(),
                         box.bottom() - a.y()};
    for (int k = 0; k < 4 && inside; ++k) {
      if (p[k] == 0.0) {
        if (q[k] < 0.0) inside = false;
        continue;
      }
      const double r = q[k] / p[k];
      if (p[k] < 0.0) {
        if (r > t1) inside = false;
        t0 = std::max(t0, r);
      } else {
        if (r < t0) inside = false;
        t1 = std::min(t1, r);
      }
    }
    if (!inside || !std::isfinite(dx) || !std::isfinite(dy)) {
      flush();
      continue;
    }
    const QPointF start = a + t0 * (b - a), end = a + t1 * (b - a);
    if (piece.isEmpty() || t0 > 0.0) {
      flush();
      piece.append(start);
    }
    piece.append(end);
    if (t1 < 1.0) flush();
  }
  flush();
  return pieces;
}

}  // namespace dirac::ui
