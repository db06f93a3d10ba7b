#pragma once
/// @file plot_parts.hpp
/// The parts of one chart of the PlotPanel (private to plots/: plot_panel.cpp fills them,
/// chart_builder.cpp builds them).

#include <QAreaSeries>
#include <QChartView>
#include <QFont>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMargins>
#include <QString>
#include <QValueAxis>

#include <array>
#include <limits>
#include <vector>

#include "dirac/view_spec.hpp"
#include "plots/plot_panel.hpp"

namespace dirac::ui {

/// Leaves `series` out of its chart's legend (bands and marks that explain themselves).
inline void HideFromLegend(QChart* chart, QAbstractSeries* series) {
  for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

/// A chart's own margins; AlignPlotAreas adds to the left and right ones.
inline const QMargins kChartMargins(4, 4, 8, 4);

/// A bounded series' items in its chart (bound_bands.cpp): the dashed lines at min and max, the
/// inadmissible side of each shaded, and the stretches where the run sits on a bound.
struct BoundItems {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::array<QLineSeries*, 2> line{};  // at min, at max (null: that side open)
  std::array<QAreaSeries*, 2> band{};  // below min, above max (null: open)
  std::vector<QLineSeries*> active;    // one thick line along the bound per active stretch
};

struct PlotPanel::Plot {
  dirac::PlotSpec spec;
  bool auxiliary = false;  // reads auxiliary_trajectory_
  QChartView* view = nullptr;
  QChart* chart = nullptr;
  QValueAxis* x_axis = nullptr;
  std::array<QValueAxis*, 2> y_axis{};  // left, right (null if one quantity)
  // Per value axis: its title ("w1, w2: angular velocity [rad/s]"), shorter ones ("angular
  // velocity [rad/s]", "[m]", "residual"), the words over the unit on two lines and the words
  // broken too ("" if none), the units alone.
  std::array<QString, 2> title_full, title_short, title_stacked, title_broken, title_units;
  std::array<QFont, 2> title_font;
  std::vector<QLineSeries*> series;                  // one per spec.series
  std::vector<int> series_axis;                      // 0 left, 1 right
  std::array<std::vector<QLineSeries*>, 2> overlay;  // per overlay, per spec.series (may be null)
  std::vector<BoundItems> bounds;                    // per spec.series (all null: no bound)
  QLineSeries* cursor = nullptr;
  QLineSeries* diverged = nullptr;       // the line at diverged_at_ (null: none)
  QAreaSeries* diverged_band = nullptr;  // the part after it, shaded (null: none)
  std::array<double, 2> y_min{-1.0, -1.0}, y_max{1.0, 1.0};
  bool zoomed = false;
  int displayed_points = 0;  // the decimation the curves were filled with (DisplayedPoints)
  // Pixels per unit of the time, left and right axes the curves were simplified with (0: not
  // simplified, e.g. zoomed or not laid out).
  std::array<double, 3> pixels_per_unit{};
  QString missing;  // columns the trajectory lacks
};

}  // namespace dirac::ui
