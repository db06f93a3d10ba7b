#pragma once
/// @file plot_panel.hpp
/// One Qt chart per scenario plot entry, each series a named trajectory column, with a vertical
/// line at the shared time cursor.

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

#include "dirac/scenario.hpp"
#include "dirac/trajectory.hpp"

class QChart;
class QLabel;
class QVBoxLayout;

namespace dirac::ui {

/// Charts are named "plot.<index>" and series "plot.<index>.<column>" (objectName). Auxiliary
/// plots (SetAuxiliaryPlots) come after the others and read their columns from a second
/// trajectory (SetAuxiliaryTrajectory), e.g. a computation beside the run on the same time grid.
class PlotPanel : public QWidget {
  Q_OBJECT

 public:
  /// Series with more samples than this are decimated (min/max per bucket) before display:
  /// about two points per pixel column of a wide chart, so peaks survive and redrawing a chart
  /// after an edit stays cheap.
  static constexpr int kMaxDisplayedPoints = 1200;

  explicit PlotPanel(QWidget* parent = nullptr);
  ~PlotPanel() override;

  /// Rebuilds the charts for `plots` (and the auxiliary ones after them); the time axes span
  /// [0, t_end]. Clears the main trajectory; the auxiliary one stays.
  void SetPlots(const std::vector<dirac::PlotSpec>& plots, double t_end);
  /// Replaces the auxiliary plots (empty: none; also drops the auxiliary trajectory). Keeps both
  /// trajectories shown.
  void SetAuxiliaryPlots(const std::vector<dirac::PlotSpec>& plots);
  /// Shows `trajectory` in the auxiliary plots (null clears their series).
  void SetAuxiliaryTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory);
  /// Changes the time axes' span [s].
  void SetTimeSpan(double t_end);
  /// Shows `trajectory` (null clears the series). Missing columns are named in the chart title.
  void SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory);
  /// Moves the time cursor [s].
  void SetCursorTime(double t);
  /// A note shown above the charts (QLabel "plotPanel.note", e.g. "stale: re-solving"); ""
  /// hides it.
  void SetNote(const QString& note);
  const QString& note() const { return note_; }

  int plot_count() const { return static_cast<int>(plots_.size()); }
  int auxiliary_plot_count() const { return static_cast<int>(auxiliary_specs_.size()); }
  QChart* chart(int plot) const;
  /// Index of the plot titled `title` (as given, without notes), -1 if none.
  int FindPlot(const QString& title) const;
  /// Displayed points of series `series` of plot `plot` (empty if out of range).
  QList<QPointF> SeriesPoints(int plot, int series) const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Plot;
  void PlaceNote();
  void Rebuild();
  void Fill(Plot& plot, const dirac::Trajectory* trajectory);
  void UpdateCursor(Plot& plot);
  void UpdateTitle(Plot& plot);

  QVBoxLayout* layout_ = nullptr;
  std::vector<std::unique_ptr<Plot>> plots_;
  std::vector<dirac::PlotSpec> specs_;
  std::vector<dirac::PlotSpec> auxiliary_specs_;
  std::shared_ptr<const dirac::Trajectory> trajectory_;
  std::shared_ptr<const dirac::Trajectory> auxiliary_trajectory_;
  double t_end_ = 1.0;
  double cursor_ = 0.0;
  QString note_;
  QLabel* note_label_ = nullptr;
};

/// Reduces (x[i], y[i]) to at most ~max_points points, keeping each bucket's minimum and
/// maximum in time order so peaks survive. Returns all points when there are few enough.
QList<QPointF> DecimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                              int max_points);

}  // namespace dirac::ui
