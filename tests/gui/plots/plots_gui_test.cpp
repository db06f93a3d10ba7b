// Tests of the plots room without a window: the curve decimation and simplification that keep
// the charts at two points per pixel column and within a quarter pixel (ui/plots/README.md),
// and charts added from the context menu, also to an empty panel.
#include <QAction>
#include <QLabel>
#include <QList>
#include <QMenu>
#include <QPointF>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "dirac/trajectory.hpp"
#include "plots/curve_reduction.hpp"
#include "plots/plot_panel.hpp"

namespace {

// The action `text` of submenu `submenu` of `menu`, null if there is none.
QAction* MenuAction(QMenu& menu, const QString& submenu, const QString& text) {
  for (QAction* entry : menu.actions()) {
    if (!entry->menu() || entry->text() != submenu) continue;
    for (QAction* action : entry->menu()->actions())
      if (action->text() == text) return action;
  }
  return nullptr;
}

}  // namespace

class PlotsGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void decimationKeepsExtremes();
  void simplificationStaysWithinTolerance();
  void chartsAreAddedFromTheContextMenu();
};

void PlotsGuiTest::decimationKeepsExtremes() {
  std::vector<double> t(100000), y(100000);
  for (std::size_t i = 0; i < t.size(); ++i) {
    t[i] = 1e-3 * static_cast<double>(i);
    y[i] = std::sin(t[i]);
  }
  y[54321] = 7.0;  // a spike must survive decimation
  const QList<QPointF> points = dirac::ui::DecimateMinMax(t, y, 4000);
  QVERIFY(points.size() <= 4001);
  QCOMPARE(points.front().x(), t.front());
  QCOMPARE(points.back().x(), t.back());
  double y_max = -1e9;
  for (qsizetype i = 0; i < points.size(); ++i) {
    y_max = std::max(y_max, points[i].y());
    if (i > 0) QVERIFY(points[i].x() >= points[i - 1].x());
  }
  QCOMPARE(y_max, 7.0);
  // A curve whose first bucket has its extremes after its first sample (rising, then a dip):
  // the decimated curve still starts at the first sample.
  std::vector<double> rising(t.size());
  for (std::size_t i = 0; i < t.size(); ++i)
    rising[i] = (i == 0 ? 0.5 : 0.0) + 1e-3 * std::sin(t[i]);
  rising[1] = 1.0;
  rising[2] = -1.0;
  const QList<QPointF> started = dirac::ui::DecimateMinMax(t, rising, 400);
  QCOMPARE(started.front().x(), t.front());
  QCOMPARE(started.back().x(), t.back());
}

void PlotsGuiTest::simplificationStaysWithinTolerance() {
  // A decimated sine on a 400 x 200 pixel chart, with a spike.
  QList<QPointF> points;
  for (int i = 0; i <= 800; ++i) {
    const double t = 20.0 * i / 800.0;
    points.append(QPointF(t, std::sin(t) + (i == 377 ? 0.5 : 0.0)));
  }
  const double sx = 400.0 / 20.0, sy = 200.0 / 3.0, tolerance = 0.25;
  const QList<QPointF> kept = dirac::ui::SimplifyPolyline(points, sx, sy, tolerance);
  QVERIFY2(kept.size() < points.size() / 4, qPrintable(QString::number(kept.size())));
  QCOMPARE(kept.front(), points.front());
  QCOMPARE(kept.back(), points.back());
  QVERIFY(kept.contains(points[377]));  // the spike
  // Every dropped point lies within the tolerance (in pixels) of the kept polyline's segment
  // over its time.
  qsizetype k = 0;
  for (const QPointF& p : points) {
    while (kept[k + 1].x() < p.x()) ++k;
    const QPointF a(kept[k].x() * sx, kept[k].y() * sy),
        b(kept[k + 1].x() * sx, kept[k + 1].y() * sy);
    const QPointF v(p.x() * sx - a.x(), p.y() * sy - a.y()), d = b - a;
    const double along =
        std::clamp(QPointF::dotProduct(v, d) / QPointF::dotProduct(d, d), 0.0, 1.0);
    const QPointF off = v - along * d;
    QVERIFY2(std::sqrt(QPointF::dotProduct(off, off)) <= tolerance + 1e-9,
             qPrintable(QString("t = %1").arg(p.x())));
  }
  // Not simplified: no scale, or a point that is not finite.
  QCOMPARE(dirac::ui::SimplifyPolyline(points, 0.0, sy, tolerance), points);
  QList<QPointF> gap = points;
  gap[10].setY(std::numeric_limits<double>::quiet_NaN());
  QCOMPARE(dirac::ui::SimplifyPolyline(gap, sx, sy, tolerance).size(), gap.size());
}

// An empty panel says how to add a chart; its context menu offers every column but t, and each
// chart's menu offers the same "Add chart" beside "Add column".
void PlotsGuiTest::chartsAreAddedFromTheContextMenu() {
  dirac::ui::PlotPanel panel;
  panel.resize(600, 500);
  panel.show();
  panel.SetPlots({}, 1.0);
  auto trajectory = std::make_shared<dirac::Trajectory>(std::vector<std::string>{"t", "x", "E"});
  for (int i = 0; i <= 100; ++i) {
    const double t = 0.01 * i, row[] = {t, std::sin(t), 0.5};
    trajectory->AppendRow(row);
  }
  panel.SetTrajectory(trajectory);
  QCOMPARE(panel.plot_count(), 0);
  auto* hint = panel.findChild<QLabel*>("plotPanel.empty");
  QVERIFY(hint && hint->isVisible());

  std::unique_ptr<QMenu> menu = panel.ContextMenu(-1);
  QVERIFY(!MenuAction(*menu, "Add chart", "t"));
  QAction* add_x = MenuAction(*menu, "Add chart", "x");
  QVERIFY(add_x && MenuAction(*menu, "Add chart", "E"));
  add_x->trigger();
  QCOMPARE(panel.plot_count(), 1);
  QCOMPARE(panel.PlotColumns(0), QStringList{"x"});
  QCOMPARE(panel.SeriesPoints(0, 0).size() > 10, true);
  QVERIFY(!hint->isVisible());

  menu = panel.ContextMenu(0);
  QVERIFY(MenuAction(*menu, "Add column", "E"));
  MenuAction(*menu, "Add chart", "E")->trigger();
  QCOMPARE(panel.plot_count(), 2);
  QCOMPARE(panel.PlotColumns(1), QStringList{"E"});
  QVERIFY(!panel.AddPlot("no_such_column"));
  QCOMPARE(panel.plot_count(), 2);
}

QTEST_MAIN(PlotsGuiTest)
#include "plots_gui_test.moc"
