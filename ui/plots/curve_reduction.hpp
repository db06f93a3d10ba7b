#pragma once
/// @file curve_reduction.hpp
/// What a chart draws of a curve: min/max decimation to a few points per pixel column, then
/// Douglas-Peucker simplification to within a fraction of a pixel, and clipping to a rectangle.

#include <QList>
#include <QPointF>
#include <QRectF>

#include <vector>

namespace dirac::ui {

/// Reduces (x[i], y[i]) to at most ~max_points points, keeping each bucket's minimum and
/// maximum in time order so peaks survive, and the first and last samples (the curve spans the
/// run). Returns all points when there are few enough.
QList<QPointF> DecimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                              int max_points);

/// `points` without the points within `tolerance` pixels of the polyline through the others
/// (Douglas-Peucker; x and y scaled by x_scale, y_scale pixels per unit). Keeps the first and last
/// point; returns `points` unchanged if a scale is not positive or a point is not finite.
QList<QPointF> SimplifyPolyline(const QList<QPointF>& points, double x_scale, double y_scale,
                                double tolerance);

/// The parts of the polyline `points` inside `box` (Liang–Barsky on each segment), each a
/// polyline of at least two points.
QList<QList<QPointF>> ClipPolyline(const QList<QPointF>& points, const QRectF& box);

}  // namespace dirac::ui
