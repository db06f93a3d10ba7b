#pragma once
/// @file plot_panel.hpp
/// One Qt chart per scenario plot entry, each series a named trajectory column, with a vertical
/// line at the shared time cursor. The charts answer: wheel / drag / rectangle zoom and pan
/// (double-click resets), a hover readout, click-to-seek, legend toggles, columns added from a
/// context menu, PNG / SVG export, and overlays of a pinned run and of a comparison run.

#include <QList>
#include <QMargins>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/optimal_control.hpp"
#include "dirac/optimal_control_spec.hpp"
#include "dirac/trajectory.hpp"
#include "dirac/view_spec.hpp"
#include "plots/column_units.hpp"
#include "plots/curve_reduction.hpp"

class QAbstractSeries;
class QChart;
class QChartView;
class QLineSeries;
class QContextMenuEvent;
class QLabel;
class QMenu;
class QPoint;
class QVBoxLayout;
class QValueAxis;

namespace dirac::ui {

class ChartView;
class PhaseChart;

/// Charts are named "plot.<index>" and series "plot.<index>.<column>" (objectName); overlay
/// series "plot.<index>.<column>.pinned" / ".comparison". Auxiliary plots (SetAuxiliaryPlots)
/// come after the others and read their columns from a second trajectory
/// (SetAuxiliaryTrajectory), e.g. a computation beside the run on the same time grid.
///
/// Mouse: wheel zooms about the pointer (both axes; Ctrl: time only, Shift: values only), a left
/// drag pans, a Shift + left drag zooms to the rectangle, a double-click resets; a click without
/// a drag moves the time cursor there (seekRequested); hovering shows the values at the pointer's
/// time ("plotPanel.readout"); a click on a legend entry hides or shows its curve; the context
/// menu adds any trajectory column, removes one, exports PNG / SVG, resets the zoom.
///
/// Series are grouped onto axes by quantity (ColumnQuantity::Key: their unit, else their kind):
/// the first quantity on the left axis, any other on a second axis on the right, each titled
/// with its columns and unit ("x, y [m]", "theta [rad]").
class PlotPanel : public QWidget {
  Q_OBJECT

 public:
  /// Series are decimated (min/max per bucket) to two points per pixel column of the chart's
  /// plot area, so peaks survive and redrawing a chart after an edit stays cheap (Qt Charts
  /// strokes every displayed point's outline on each update): at least kMinDisplayedPoints, at
  /// most kMaxDisplayedPoints, which a zoomed chart gets.
  static constexpr int kMaxDisplayedPoints = 1200;
  static constexpr int kMinDisplayedPoints = 128;
  /// Curves are simplified (Douglas-Peucker) to within this many pixels of the decimated
  /// samples: a smooth curve keeps a few dozen points of its ~2 per pixel column, so Qt Charts
  /// strokes (for its hit shape) and draws far fewer segments; below a quarter pixel nothing on
  /// screen changes.
  static constexpr double kCurveTolerancePixels = 0.25;
  /// No chart gets smaller than this [px]: with many charts the panel grows and the dock
  /// scrolls, so tick labels never collapse.
  static constexpr int kMinChartHeight = 220;

  /// The overlays drawn dashed over the run's series.
  enum Overlay { kPinned = 0, kComparison = 1 };

  explicit PlotPanel(QWidget* parent = nullptr);
  ~PlotPanel() override;

  /// Rebuilds the charts for `plots` (and the auxiliary ones after them, shown under the first
  /// chart); the time axes span [0, t_end]. Specs with pairs become phase charts after the
  /// others (phase_chart()); "plot.<i>" counts the charts against time only. Clears the main
  /// trajectory; the auxiliary one and the overlays stay.
  void SetPlots(const std::vector<dirac::PlotSpec>& plots, double t_end);
  /// Units and kinds of the columns (DescribeColumns), for the axes; rebuilds the charts.
  void SetColumnQuantities(std::map<std::string, ColumnQuantity> quantities);
  /// Replaces the auxiliary plots (empty: none; also drops the auxiliary trajectory). Keeps both
  /// trajectories shown.
  void SetAuxiliaryPlots(const std::vector<dirac::PlotSpec>& plots);
  /// Shows `trajectory` in the auxiliary plots (null clears their series).
  void SetAuxiliaryTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory);
  /// Changes the time axes' span [s] (charts zoomed by the user keep their view).
  void SetTimeSpan(double t_end);
  /// Shows `trajectory` (null clears the series). Missing columns are named in the chart title.
  void SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory);
  /// Draws `trajectory` (null: none) dashed over every chart's columns it has, labelled
  /// "<column> (<label>)": a pinned earlier run, or Compare's nonholonomic motion.
  void SetOverlay(Overlay overlay, std::shared_ptr<const dirac::Trajectory> trajectory,
                  const QString& label);
  bool has_overlay(Overlay overlay) const { return overlays_[overlay].trajectory != nullptr; }
  /// Box bounds of columns (an optimal-control problem's `bounds`, in the values of the run
  /// shown) and the stretches on which the run sits on one (its solve's active arcs), drawn in
  /// every chart that shows a bounded column: dashed lines at min and max across the time axis
  /// ("plot.<i>.<column>.bound.min" / ".max"), the inadmissible side lightly shaded up to the
  /// axis' edge (".band.min" / ".max"), and each active stretch as a thick translucent line
  /// along its bound in the series' colour (".active.<k>", k = 0, 1, ... in `active`'s order).
  /// The value axes make room for a bound near the data. No legend entries.
  void SetBounds(std::vector<dirac::VariableBound> bounds, std::vector<dirac::ActiveArc> active);
  const std::vector<dirac::VariableBound>& bounds() const { return bounds_; }
  /// Moves the time cursor [s].
  void SetCursorTime(double t);
  /// Marks the run shown as diverged from time `t` [s] on (SimulationReport::diverged_at): a
  /// solid red vertical line "plot.<i>.diverged" at t in every chart (no legend entry), with
  /// the part after it shaded ("plot.<i>.diverged.band"); nullopt removes the marks.
  void SetDivergedAt(std::optional<double> t);
  std::optional<double> diverged_at() const { return diverged_at_; }
  /// Lays the charts out now for their new curves and ranges (Qt Charts would at the next turn
  /// of the event loop, after the window's repaint, and paint the charts a second time).
  void LayOutNow();
  /// Lays the widgets and the charts out and aligns their plot areas now (always, not only when
  /// an alignment is pending), a few rounds until one moves nothing (an alignment's margins
  /// change the plot areas): for a picture taken at once (`--screenshot`), so that it does not
  /// depend on what the event loop ran before.
  void SettleLayout();
  /// Whether every shown chart is laid out for its view's size (its layout activated and not
  /// invalidated since) and the plot areas are aligned: the condition a picture waits for.
  bool LaidOut() const;
  /// After a window repaint that drew every chart whole (LayOutNow, then QWidget::repaint): lets
  /// the charts' scenes take in their items' changes now without painting them again (a
  /// scene does that at the next turn of the event loop and repaints the changed regions).
  void AbsorbPaintedChanges();
  /// A note shown above the charts (QLabel "plotPanel.note", e.g. "stale: re-solving"); ""
  /// hides it.
  void SetNote(const QString& note);
  const QString& note() const { return note_; }

  int plot_count() const { return static_cast<int>(plots_.size()); }
  /// The phase portraits and Poincaré sections (PlotSpecs with pairs), after the charts against
  /// time, in the order of the specs: "phase.<i>" (phase_chart.hpp).
  int phase_plot_count() const { return static_cast<int>(phase_charts_.size()); }
  PhaseChart* phase_chart(int index) const;
  /// The charts shown (the scenario's, the defaults, or as the user changed them: added
  /// charts and columns), without the auxiliary ones; what SetPlots takes.
  const std::vector<dirac::PlotSpec>& plot_specs() const { return specs_; }
  int auxiliary_plot_count() const { return static_cast<int>(auxiliary_specs_.size()); }
  QChart* chart(int plot) const;
  /// Index of the plot titled `title` (as given, without notes), -1 if none.
  int FindPlot(const QString& title) const;
  /// The series named `object_name` ("plot.<i>.<column>", "plot.<i>.<column>.pinned", ...), or
  /// null. (A QChart is no QObject child of its view: QObject::findChild cannot see series.)
  QLineSeries* FindSeries(const QString& object_name) const;
  /// Series `series` of plot `plot` drawn from samples (t, y): decimated and simplified as the
  /// chart's last fill did (what its curve shows for that run).
  QList<QPointF> DisplayedCurve(int plot, int series, const std::vector<double>& t,
                                const std::vector<double>& y) const;
  /// Displayed points of series `series` of plot `plot` (empty if out of range).
  QList<QPointF> SeriesPoints(int plot, int series) const;
  /// Columns shown in plot `plot` (its series, in order).
  QStringList PlotColumns(int plot) const;
  /// Axes of plot `plot`: 0 the time axis, 1 the left value axis, 2 the right one (null if the
  /// chart mixes no quantities).
  QValueAxis* axis(int plot, int which) const;
  /// Whether the user zoomed or panned plot `plot` (its ranges no longer follow the data).
  bool zoomed(int plot) const;
  /// The decimation plot `plot`'s curves were last filled with (DecimateMinMax's max_points).
  int displayed_points(int plot) const;

  /// Adds trajectory column `column` as a series of plot `plot` (false if already there or out
  /// of range). The context menu's "Add column".
  bool AddColumn(int plot, const QString& column);
  /// Removes column `column` from plot `plot`.
  bool RemoveColumn(int plot, const QString& column);
  /// Appends a chart of trajectory column `column`, titled by it, after the scenario's charts
  /// (false if the column is unknown: not in the run, nor described by SetColumnQuantities).
  /// The context menu's "Add chart", also on an empty panel.
  bool AddPlot(const QString& column);
  /// Removes chart `plot` of the scenario's or the user's charts (false for an auxiliary chart,
  /// e.g. the gauge's, or out of range); emits chartsEdited (Edit > Undo puts it back). The
  /// context menu's "Remove chart".
  bool RemovePlot(int plot);
  /// The context menu of plot `plot` (Add column, Add chart, Remove column, Remove chart, zoom,
  /// export, pin), or of the panel without charts for `plot` = -1 (Add chart only; empty, and
  /// not shown, while there are no columns: no scenario). What a right click opens.
  std::unique_ptr<QMenu> ContextMenu(int plot);
  /// What the panel says while it has no charts; "" restores "No charts. Right-click here to
  /// add one." (e.g. "Deriving the model: the charts follow." while there is no model yet).
  void SetEmptyHint(const QString& hint);
  /// Zooms plot `plot` by `factor` (< 1 zooms in) about the value point `center` (t, y of the
  /// left axis); what the wheel does.
  void Zoom(int plot, double factor, QPointF center, bool time = true, bool values = true);
  /// Shows time range [t0, t1] and left-axis range [y0, y1] of plot `plot` (the rectangle zoom).
  void ZoomTo(int plot, double t0, double t1, double y0, double y1);
  /// Back to the data's ranges (double-click).
  void ResetZoom(int plot);
  /// Hides or shows one curve (a legend click).
  void SetSeriesVisible(int plot, const QString& column, bool visible);
  bool SeriesVisible(int plot, const QString& column) const;
  /// The hover readout's text at time `t`: "t = …" and "<column> = <value> <unit>" of each shown
  /// curve at the nearest sample (from the full trajectory, not the decimated curve).
  QString Readout(int plot, double t) const;
  /// Writes chart `plot` as it is shown: PNG (or any raster format Qt knows) by suffix, or SVG
  /// for ".svg" (QSvgGenerator). Returns "" on success, else the error.
  QString ExportChart(int plot, const QString& path) const;
  /// Where the export dialog starts: ExportFolder() of chart_export.hpp, the one folder the
  /// CSV, screenshot, chart and animation dialogs share.
  QString ExportFolder() const;
  /// The data chart `plot` shows, as CSV text: "t" and its visible curves' columns (named by
  /// the header), the rows of the run within the time axis' shown range, numbers as the CSV
  /// files write them (chart_clipboard.hpp); "" without a run.
  QString VisibleCsv(int plot) const;
  /// Copy (Ctrl+C on a chart, the context menu's Copy): the chart's image and VisibleCsv on
  /// the clipboard.
  void CopyChart(int plot);

 signals:
  /// The user's charts changed (AddPlot, AddColumn, RemoveColumn, RemovePlot: the context menu);
  /// `before` is plot_specs() before the change (Edit > Undo puts it back with SetPlots).
  void chartsEdited(const std::vector<dirac::PlotSpec>& before);
  /// A click on a chart (without dragging) asks to move the time cursor to `t` [s].
  void seekRequested(double t);
  /// The context menu asked to pin the current run / to clear the pinned run.
  void pinRequested();
  void unpinRequested();
  /// Something went wrong the user should see (export failed).
  void errorOccurred(const QString& message);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  /// A right click outside the charts (an empty panel): ContextMenu(-1).
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  struct Plot;
  friend class ChartView;
  struct OverlayData {
    std::shared_ptr<const dirac::Trajectory> trajectory;
    QString label;
  };

  void PlaceNote();
  void Rebuild();
  /// Rebuild, with the charts the user zoomed kept at their view.
  void RebuildKeepingZoom();
  // The bounds in a chart (bound_bands.cpp): its items built (before its curves, so that they
  // are drawn under them), placed for the axes' current ranges, the active stretches redrawn.
  void AddBoundItems(Plot& plot, const QString& chart_id);
  void PlaceBoundItems(Plot& plot);
  void DrawActiveStretches(Plot& plot);
  static bool IsBoundItem(const Plot& plot, const QAbstractSeries* series);
  /// Widens [y_min, y_max] of value axis `axis` of `plot` to the bounds of its series that lie
  /// within three data spans of it (so their lines and bands show); true if any did.
  static bool IncludeBounds(const Plot& plot, int axis, double& y_min, double& y_max);
  std::unique_ptr<Plot> BuildPlot(std::size_t index, const dirac::PlotSpec& spec, bool auxiliary,
                                  bool last);
  void ReplacePlot(int index);
  /// The index of the chart shown at the bottom (it carries the time axis' title).
  std::size_t ShownLast() const;
  void Fill(Plot& plot);
  /// Points per curve for the chart's current width and zoom (see kMaxDisplayedPoints).
  int DisplayedPoints(const Plot& plot) const;
  /// Refills the chart's curves when its width changed enough to change DisplayedPoints.
  void RefillIfResolutionChanged(const QChartView* view);
  /// The decimated curves of a chart: [0] its series, [1 + o] overlay o's (nullopt: none).
  using CurveSet = std::array<std::vector<std::optional<QList<QPointF>>>, 3>;
  /// Fits the value axes to `curves` (nice numbers) and the time axis to [0, t_end]; with
  /// `apply` false only says whether anything would change.
  bool FitRanges(Plot& plot, const CurveSet& curves, bool apply);
  void UpdateCursor(Plot& plot);
  // The divergence marks of a chart (divergence_marks.cpp): made, placed for the axes' current
  // ranges, or removed, as diverged_at_ says.
  void PlaceDivergenceMarks(Plot& plot);
  void UpdateTitle(Plot& plot);
  static void FitAxisTitles(Plot& plot);
  /// The legend above the plot where its entries fit one row, else at its right.
  static void FitLegend(Plot& plot);
  // What the columns measure in words (their ColumnQuantity::words, distinct, joined).
  QString WordsOf(const QStringList& columns) const;
  void MarkZoomed(const QChartView* view);
  // Stacked charts share their plot areas' left and right edges (plot_alignment.cpp): the
  // margins of each chart make up for what its axes take less than the widest; scheduled once
  // per turn of the event loop whenever a plot area changes.
  void ScheduleAlignment();
  /// Runs the alignment now; whether it changed a chart's margins.
  bool AlignPlotAreas();
  /// The margins the alignment would give the charts whose margins differ from them.
  std::vector<std::pair<QChart*, QMargins>> AlignmentMargins() const;
  const dirac::Trajectory* TrajectoryOf(const Plot& plot) const;
  void ShowContextMenu(int plot, const QPoint& global);
  /// Every column a chart may show: the run's, else the described ones (sorted), without t.
  QStringList AvailableColumns() const;
  void ExportDialog(int plot, const QString& suffix);
  int IndexOf(const QChartView* view) const;
  /// The time cursor series of plot `index` (its values map the mouse), null if none.
  QAbstractSeries* CursorSeriesOf(int index) const;

  QVBoxLayout* layout_ = nullptr;
  std::vector<std::unique_ptr<Plot>> plots_;
  std::vector<dirac::PlotSpec> specs_;
  std::vector<dirac::PlotSpec> auxiliary_specs_;
  std::vector<dirac::PlotSpec> phase_specs_;
  std::vector<PhaseChart*> phase_charts_;  // owned by the layout's widget tree
  std::map<std::string, ColumnQuantity> quantities_;
  std::shared_ptr<const dirac::Trajectory> trajectory_;
  std::shared_ptr<const dirac::Trajectory> auxiliary_trajectory_;
  std::array<OverlayData, 2> overlays_;
  std::vector<dirac::VariableBound> bounds_;
  std::vector<dirac::ActiveArc> active_;
  double t_end_ = 1.0;
  double cursor_ = 0.0;
  std::optional<double> diverged_at_;
  QString note_;
  QLabel* note_label_ = nullptr;
  QLabel* empty_label_ = nullptr;  // "No charts: right-click to add one"
  bool align_pending_ = false;
};

}  // namespace dirac::ui
