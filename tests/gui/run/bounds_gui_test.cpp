// GUI test of an optimal-control problem with bounds and a free horizon in the window (issue
// 24), under Xvfb (see CMakeLists.txt): scenarios/reorientation_min_time.yaml opens solved by
// direct collocation; the status bar names the method, its mesh and the final time found; the
// torque and rate charts draw their bounds (dashed lines at +-50 N m and +-0.5 rad/s across the
// time axis, the inadmissible side shaded to the axis' edge) and the solve's active arcs as
// stretches whose ends are node times of the solution, the control on its bound at every node
// between them and off it just outside; the Bounds group shows every bound with its unit; a
// refused bound edit puts the editor back; an edit of u1's upper bound (50 -> 45 N m) re-solves,
// moves its line and its stretches, and lengthens t_f.
#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "dirac/optimal_control.hpp"
#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"

using namespace dirac::ui;           // PlotPanel, SimulationController, SnapshotPtr
using namespace dirac::ui::testing;  // OpenWindow, WaitForOptimum, ScenarioPath, OutputPath

namespace {

// As the engine decides a bound is active (core/src/control/collocation.cpp).
double OnBoundTolerance(double bound) { return 1e-6 * std::max(1.0, std::abs(bound)); }

QAbstractSeries* FindItem(const PlotPanel& plots, int plot, const QString& name) {
  for (QAbstractSeries* series : plots.chart(plot)->series())
    if (series->objectName() == name) return series;
  return nullptr;
}

// "" if the bound line and band of `column` at `bound` (side "min" / "max") in chart `plot` are
// drawn where they belong, else what is wrong.
QString CheckBoundItems(const PlotPanel& plots, int plot, const QString& column, const char* side,
                        double bound) {
  const QString id = QStringLiteral("plot.%1.%2.").arg(plot).arg(column);
  auto* line = qobject_cast<QLineSeries*>(FindItem(plots, plot, id + "bound." + side));
  auto* band = qobject_cast<QAreaSeries*>(FindItem(plots, plot, id + "band." + side));
  if (!line || !band) return "no bound line or band " + id + side;
  const QValueAxis* t = plots.axis(plot, 0);
  const QValueAxis* y = plots.axis(plot, 1);
  const QList<QPointF> points = line->points();
  if (points.size() != 2 || points[0].y() != bound || points[1].y() != bound ||
      points[0].x() != t->min() || points[1].x() != t->max())
    return QStringLiteral("%1 line not at %2 across [%3, %4]")
        .arg(id + side)
        .arg(bound)
        .arg(t->min())
        .arg(t->max());
  // The shaded side: from the bound to the axis' edge, which leaves room beyond the bound.
  const bool upper = QString(side) == "max";
  const double edge = upper ? y->max() : y->min();
  const QList<QPointF> inner = (upper ? band->lowerSeries() : band->upperSeries())->points();
  const QList<QPointF> outer = (upper ? band->upperSeries() : band->lowerSeries())->points();
  if (inner.size() != 2 || outer.size() != 2 || inner[0].y() != bound || outer[0].y() != edge)
    return id + side + " band not between the bound and the axis' edge";
  if (!(upper ? edge > bound : edge < bound)) return id + side + ": the axis ends at the bound";
  return {};
}

// "" if the active stretches drawn for `column` in chart `plot` are the report's arcs of it at
// their bounds, each from a node time to a node time with the column on its bound at every
// sample between and off it just outside, and every sample on a bound is in a stretch.
QString CheckStretches(const PlotPanel& plots, int plot, const std::string& column,
                       const dirac::SolveReport& report, const dirac::Trajectory& run, double min,
                       double max, int* count) {
  const std::vector<double> t = run.Column("t");
  const std::vector<double> u = run.Column(column);
  std::vector<bool> covered(t.size(), false);
  int k = 0;
  for (const dirac::ActiveArc& arc : report.active_arcs) {
    if (arc.name != column) continue;
    const double bound = arc.upper ? max : min;
    const QString name = QStringLiteral("plot.%1.%2.active.%3")
                             .arg(plot)
                             .arg(QString::fromStdString(column))
                             .arg(k++);
    auto* stretch = qobject_cast<QLineSeries*>(FindItem(plots, plot, name));
    if (!stretch) return "no " + name;
    const QList<QPointF> p = stretch->points();
    if (p.size() != 2 || p[0] != QPointF(arc.t_begin, bound) || p[1] != QPointF(arc.t_end, bound))
      return name + " is not the arc";
    const auto first = std::find(t.begin(), t.end(), arc.t_begin);
    const auto last = std::find(t.begin(), t.end(), arc.t_end);
    if (first == t.end() || last == t.end()) return name + ": its ends are no node times";
    const auto b = static_cast<std::size_t>(first - t.begin());
    const auto e = static_cast<std::size_t>(last - t.begin());
    for (std::size_t i = b; i <= e; ++i) {
      if (std::abs(u[i] - bound) > OnBoundTolerance(bound))
        return QStringLiteral("%1: %2(%3) = %4 off its bound")
            .arg(name)
            .arg(column.c_str())
            .arg(t[i])
            .arg(u[i]);
      covered[i] = true;
    }
    if ((b > 0 && std::abs(u[b - 1] - bound) <= OnBoundTolerance(bound)) ||
        (e + 1 < t.size() && std::abs(u[e + 1] - bound) <= OnBoundTolerance(bound)))
      return name + ": the stretch stops before the control leaves its bound";
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool on = std::abs(u[i] - min) <= OnBoundTolerance(min) ||
                    std::abs(u[i] - max) <= OnBoundTolerance(max);
    if (on && !covered[i])
      return QStringLiteral("%1 on a bound at t = %2 outside every stretch")
          .arg(column.c_str())
          .arg(t[i]);
  }
  if (FindItem(plots, plot,
               QStringLiteral("plot.%1.%2.active.%3").arg(plot).arg(column.c_str()).arg(k)))
    return "more stretches than arcs of " + QString::fromStdString(column);
  *count = k;
  return {};
}

}  // namespace

class BoundsGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void boundsDrawnActiveArcsMarkedAndEditedLive();
};

void BoundsGuiTest::boundsDrawnActiveArcsMarkedAndEditedLive() {
  const std::unique_ptr<MainWindow> window = OpenWindow();
  QVERIFY2(window, "the window never appeared");
  QVERIFY2(window->OpenScenario(ScenarioPath("reorientation_min_time.yaml")),
           qPrintable(window->last_error()));
  SimulationController* controller = window->controller();
  QVERIFY2(WaitForOptimum(*window, 0), qPrintable(window->last_error()));
  SnapshotPtr solved = controller->latest();
  const dirac::SolveReport report = solved->solve->report;
  QCOMPARE(QString::fromStdString(report.method), QStringLiteral("collocation"));
  // Hermite-Simpson on a fixed mesh of 50 intervals: PSOPT's 28.63041 s to 1e-3 relative
  // (measured 28.63121 s, 2.8e-5).
  QVERIFY2(std::abs(report.final_time - 28.63041) < 1e-3 * 28.63041,
           qPrintable(QString::number(report.final_time)));
  // The run, the time axes and the clock end at the T found, not at the guess (30 s).
  QCOMPARE(solved->t_end, report.final_time);
  QCOMPARE(solved->last_time(), report.final_time);

  // The status bar says what the solve was.
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY(diagnostics);
  const QString method = QStringLiteral("collocation, %1 intervals, t_f = %2 s")
                             .arg(report.nodes)
                             .arg(report.final_time, 0, 'f', 2);
  QVERIFY2(diagnostics->text().contains(method), qPrintable(diagnostics->text()));
  QVERIFY2(!diagnostics->text().contains("shooting"), qPrintable(diagnostics->text()));
  QVERIFY2(diagnostics->text().contains("28.63 s"), qPrintable(diagnostics->text()));

  // The scenario's two charts and no other: the run has no hidden-constraint residual columns.
  PlotPanel& plots = *window->plot_panel();
  QCOMPARE(plots.plot_count(), 2);
  const int torques = plots.FindPlot("Torques");
  const int rates = plots.FindPlot("Body angular velocity");
  QVERIFY(torques >= 0 && rates >= 0);
  for (const char* side : {"min", "max"}) {
    const double sign = QString(side) == "max" ? 1.0 : -1.0;
    QString problem = CheckBoundItems(plots, torques, "u1", side, 50.0 * sign);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = CheckBoundItems(plots, rates, "w1", side, 0.5 * sign);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // u2, u3 share u1's bounds: one line and one band (stacked bands would darken).
    QVERIFY(FindItem(plots, torques, QStringLiteral("plot.%1.u1.band.%2").arg(torques).arg(side))
                ->isVisible());
    QVERIFY(!FindItem(plots, torques, QStringLiteral("plot.%1.u2.band.%2").arg(torques).arg(side))
                 ->isVisible());
  }
  // The axes end a step beyond the bounds (data in [-50, 50]: [-60, 60], not [-100, 100]).
  QCOMPARE(plots.axis(torques, 1)->max(), 60.0);
  QCOMPARE(plots.axis(torques, 1)->min(), -60.0);
  QCOMPARE(plots.axis(rates, 1)->max(), 0.6);

  // The controls are bang-bang: each sits on a bound on stretches that cover most of the time;
  // the rate bounds are not reached (no stretch).
  const dirac::Trajectory& run = *solved->trajectory;
  for (const char* u : {"u1", "u2", "u3"}) {
    int count = 0;
    const QString problem = CheckStretches(plots, torques, u, report, run, -50.0, 50.0, &count);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(count >= 2, u);
  }
  QVERIFY(!FindItem(plots, rates, QStringLiteral("plot.%1.w1.active.0").arg(rates)));

  // The Bounds group: every bound with its unit, the horizon free showing the T found.
  auto* panel = window->findChild<QWidget*>("parameterPanel.bounds");
  QVERIFY2(panel, "no Bounds group");
  auto spin = [&](const QString& name) { return window->findChild<QDoubleSpinBox*>(name); };
  QVERIFY(spin("bounds.u1.max") && spin("bounds.w3.min") && spin("horizon_bounds.max"));
  QCOMPARE(spin("bounds.u1.max")->value(), 50.0);
  auto unit = [&](const QString& name) {
    return window->findChild<QLabel*>(name + ".unit")->text();
  };
  QCOMPARE(unit("bounds.u1"), QStringLiteral("N m"));
  QCOMPARE(spin("bounds.w3.min")->value(), -0.5);
  QCOMPARE(unit("bounds.w3"), QStringLiteral("rad/s"));
  QCOMPARE(unit("horizon_bounds"), QStringLiteral("s"));
  QCOMPARE(spin("horizon_bounds.min")->value(), 5.0);
  QVERIFY(spin("horizon_bounds.min")->isEnabled());
  QVERIFY(!window->findChild<QCheckBox*>("boundary.horizon.fixed")->isChecked());
  QVERIFY(!spin("boundary.horizon")->isEnabled());
  QVERIFY2(std::abs(spin("boundary.horizon")->value() - report.final_time) < 1e-4,
           qPrintable(spin("boundary.horizon")->text()));
  // No shooting unknowns to show: collocation has none.
  QVERIFY(!window->findChild<QWidget*>("parameterPanel.initial")->isVisible());
  panel->grab().save(OutputPath("bounds_group.png"));

  // A bound no motion can meet is refused, and the editor goes back.
  {
    QSignalSpy failed(controller, &SimulationController::failed);
    spin("bounds.u1.min")->setValue(60.0);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(spin("bounds.u1.min")->value(), -50.0);
    QVERIFY(!controller->busy());
  }

  // u1 <= 45: re-solved, its line and stretches move, the manoeuvre takes longer.
  spin("bounds.u1.max")->setValue(45.0);
  QVERIFY2(WaitForOptimum(*window, solved->run), qPrintable(window->last_error()));
  solved = controller->latest();
  const dirac::SolveReport& edited = solved->solve->report;
  QVERIFY2(edited.final_time > report.final_time + 0.1,
           qPrintable(QString("t_f %1 -> %2").arg(report.final_time).arg(edited.final_time)));
  QString problem = CheckBoundItems(plots, torques, "u1", "max", 45.0);
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
  problem = CheckBoundItems(plots, torques, "u1", "min", -50.0);
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
  // u2 keeps +50, now a line of its own.
  QVERIFY(
      FindItem(plots, torques, QStringLiteral("plot.%1.u2.bound.max").arg(torques))->isVisible());
  int count = 0;
  problem = CheckStretches(plots, torques, "u1", edited, *solved->trajectory, -50.0, 45.0, &count);
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
  const std::vector<double> u1 = solved->trajectory->Column("u1");
  QVERIFY(*std::max_element(u1.begin(), u1.end()) <= 45.0 + 1e-6);
  QVERIFY2(
      diagnostics->text().contains(QStringLiteral("t_f = %1 s").arg(edited.final_time, 0, 'f', 2)),
      qPrintable(diagnostics->text()));
  // From the previous optimum (the tapes and IPOPT's primal-dual point): no derivation, fewer
  // interior-point iterations than the cold solve. (On ocp-warm alone this edit took 34 warm
  // against 105 cold, under a third; merged with ocp-hs (its control ripple in the guess, the
  // same trapezoidal fixed mesh) 88 against 179, and with Hermite-Simpson and refinement 53 + 13
  // after a refinement against 83: not a third, so asserted against the cold count.)
  QVERIFY(edited.warm_started);
  QVERIFY2(edited.iterations < report.iterations, qPrintable(QString("%1 (warm %2) vs %3")
                                                                 .arg(edited.iterations)
                                                                 .arg(edited.warm_iterations)
                                                                 .arg(report.iterations)));
  qInfo(
      "t_f %.6f s -> %.6f s with u1 <= 45; %d arcs of u1; warm re-solve %d iterations (%d from the "
      "warm start, %d intervals after %d refinements; cold %d), %.1f ms",
      report.final_time, edited.final_time, count, edited.iterations, edited.warm_iterations,
      edited.nodes, edited.mesh_rounds, report.iterations, edited.seconds * 1e3);
}

QTEST_MAIN(BoundsGuiTest)
#include "bounds_gui_test.moc"
