#pragma once
/// @file phase_chart.hpp
/// A phase portrait: one trajectory column against another (several pairs per chart), or the
/// Poincaré section of those pairs (the states where an expression of the columns crosses zero
/// in a direction, interpolated by core's dirac::ComputePoincareSection) drawn as points. The
/// state at the time cursor is marked on each pair.

#include <QChartView>
#include <QFont>
#include <QList>
#include <QPointF>
#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dirac/poincare_section.hpp"
#include "dirac/trajectory.hpp"
#include "dirac/view_spec.hpp"
#include "plots/column_units.hpp"

class QChart;
class QKeyEvent;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace dirac::ui {

/// The chart of one phase-portrait PlotSpec (spec.is_phase_portrait()), named "phase.<i>"
/// (its chart "phase.<i>.chart"); pair k's curve "phase.<i>.<k>" (a QLineSeries, or with a
/// section a QScatterSeries of the section's points) and its cursor mark "phase.<i>.<k>.cursor".
/// A curve keeps at most kMaxPoints samples (every n-th, the last one kept), which for the
/// shipped output steps is all of them or a stride below a pixel. Rubber-band zoom (drag a
/// rectangle; right click zooms out) comes with QChartView; Ctrl+C copies image and data.
class PhaseChart : public QChartView {
  Q_OBJECT

 public:
  static constexpr int kMaxPoints = 4000;

  PhaseChart(int index, dirac::PlotSpec spec, QWidget* parent = nullptr);
  ~PhaseChart() override;

  /// Units of the columns, for the axis titles ("x [m]").
  void SetColumnQuantities(const std::map<std::string, ColumnQuantity>& quantities);
  /// Draws `trajectory` (null clears). The section's function is compiled when the columns
  /// change, under the SymbolicGuard (GiNaC). Missing columns and a section that cannot be
  /// compiled are said in the chart title.
  void SetTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory);
  /// Marks the state at time `t` [s] (the nearest earlier sample) on every pair.
  void SetCursorTime(double t);

  const dirac::PlotSpec& spec() const { return spec_; }
  QChart* chart_item() const { return chart_; }
  /// The chart's title as one line (the chart shows it on two where it does not fit).
  const QString& title() const { return full_title_; }
  /// The points drawn for pair `pair` (curve or section points).
  QList<QPointF> Points(int pair) const;
  /// The cursor mark of pair `pair` (empty before a trajectory).
  QList<QPointF> CursorPoint(int pair) const;
  /// The section of the last trajectory (rows of the crossings; empty without a section).
  const dirac::Trajectory& section() const { return section_; }
  /// The error of the last fill ("" if none): a missing column, a section that failed.
  const QString& problem() const { return problem_; }
  /// The data drawn, as CSV text: "t" and the pairs' columns (each once), one line per sample
  /// of the run (of the section's crossings with a section); numbers as the CSV files write
  /// them. "" without a run.
  QString VisibleCsv() const;
  /// Copy (Ctrl+C on the focused chart): its image and VisibleCsv on the clipboard.
  void Copy();

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void Fill();
  void FitAxes();
  void UpdateTitle();
  // The title and the value axis' title fitted to the chart's size (on two lines, smaller).
  void FitTitles();

  dirac::PlotSpec spec_;
  QChart* chart_ = nullptr;
  QValueAxis* x_axis_ = nullptr;
  QValueAxis* y_axis_ = nullptr;
  std::vector<QLineSeries*> curves_;     // without a section
  std::vector<QScatterSeries*> points_;  // with a section
  std::vector<QScatterSeries*> cursors_;
  QString full_title_;    // the title before FitTitles
  QString y_title_full_;  // the value axis' title before FitTitles
  QFont y_title_font_;
  std::map<std::string, ColumnQuantity> quantities_;
  std::shared_ptr<const dirac::Trajectory> trajectory_;
  std::unique_ptr<dirac::SectionFunction> section_function_;
  std::vector<std::string> section_columns_;  // the columns section_function_ was built for
  dirac::Trajectory section_;
  QString problem_;
  double cursor_ = 0.0;
};

}  // namespace dirac::ui
