// The View action "Gauge two-form": the controller also computes dirac::ComputeGaugeTwoForm on
// its worker, the plot panel shows B_t and the identity's residual, edits recompute it, and the
// action is only offered for regular Lagrangians on TQ with constraints.
#include <QAbstractSeries>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDoubleSpinBox>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::GaugeResultPtr;
using dirac::ui::MainWindow;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

const QString kGaugeTitle = QStringLiteral("Gauge two-form B_t");
const QString kResidualTitle = QStringLiteral("Identity residual |phi_t* Omega - Omega - B_t|");

double MaxAbs(const QList<QPointF>& points) {
  double m = 0.0;
  for (const QPointF& p : points) m = std::max(m, std::abs(p.y()));
  return m;
}

// Waits for a gauge result of a run newer than `after_run` (and the run to be idle).
GaugeResultPtr WaitForGauge(MainWindow& window, std::uint64_t after_run) {
  auto* c = window.controller();
  QTest::qWaitFor(
      [&] {
        const GaugeResultPtr g = c->latest_gauge();
        return !c->busy() && g && g->run > after_run;
      },
      kRunTimeoutMs);
  const GaugeResultPtr g = c->latest_gauge();
  return g && g->run > after_run ? g : nullptr;
}

}  // namespace

class GaugeGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void gaugeTwoFormPlotsRecomputesAndIsOfferedOnlyWhereItApplies();
};

void GaugeGuiTest::gaugeTwoFormPlotsRecomputesAndIsOfferedOnlyWhereItApplies() {
  MainWindow window;
  window.set_error_dialogs(false);
  window.resize(1600, 1000);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  auto* gauge = window.findChild<QAction*>("action.gaugeTwoForm");
  QVERIFY2(gauge, "no action named action.gaugeTwoForm");
  QVERIFY(gauge == window.gauge_action());
  QVERIFY(gauge->isCheckable() && !gauge->isChecked());

  DIRAC_VERIFY_OPEN_AND_RUN(window, "heisenberg.yaml");
  QVERIFY(gauge->isEnabled());
  dirac::ui::PlotPanel* plots = window.plot_panel();
  const int base_plots = plots->plot_count();
  QCOMPARE(plots->FindPlot(kGaugeTitle), -1);
  const std::uint64_t before = window.controller()->latest()->run;

  gauge->trigger();
  QVERIFY(gauge->isChecked());
  QCOMPARE(plots->plot_count(), base_plots + 2);
  const GaugeResultPtr first = WaitForGauge(window, before);
  QVERIFY2(first, qPrintable("no gauge result: " + window.last_error()));
  QVERIFY2(first->error.empty(), first->error.c_str());
  QVERIFY(first->trajectory && first->trajectory->num_rows() > 100);
  QVERIFY(window.controller()->latest()->complete);  // the main run is unaffected

  const int b_plot = plots->FindPlot(kGaugeTitle);
  const int r_plot = plots->FindPlot(kResidualTitle);
  QVERIFY(b_plot >= base_plots && r_plot == b_plot + 1);
  auto series_names = [&](int plot) {
    QStringList names;
    for (QAbstractSeries* series : plots->chart(plot)->series()) names << series->objectName();
    return names;
  };
  QVERIFY(series_names(b_plot).contains(QStringLiteral("plot.%1.B_norm").arg(b_plot)));
  QVERIFY(series_names(b_plot).contains(QStringLiteral("plot.%1.omega_change").arg(b_plot)));
  QVERIFY(series_names(r_plot).contains(QStringLiteral("plot.%1.identity_residual").arg(r_plot)));
  QVERIFY(series_names(r_plot).contains(QStringLiteral("plot.%1.cursor").arg(r_plot)));
  const double b_max = MaxAbs(plots->SeriesPoints(b_plot, 0));
  const double residual_max = MaxAbs(plots->SeriesPoints(r_plot, 0));
  qInfo("kx != ky: max B_norm %.3e, max identity residual %.3e (%.2f s)", b_max, residual_max,
        first->wall_seconds);
  QVERIFY2(b_max > 1e-2, qPrintable(QString("max B_norm %1").arg(b_max)));
  QVERIFY2(residual_max < 1e-6, qPrintable(QString("max identity residual %1").arg(residual_max)));
  QVERIFY(!plots->SeriesPoints(b_plot, 1).isEmpty());  // omega_change

  // The time cursor is shared with the gauge charts; a screenshot with them on.
  window.clock()->SetTime(10.0);
  QTest::qWait(400);
  QVERIFY(window.GrabWindowImage().save(OutputPath("gauge_two_form.png"), "PNG"));

  // kx = ky: the multiplier vanishes, and with it B_t.
  auto* ky = window.findChild<QDoubleSpinBox*>("parameter.ky");
  QVERIFY(ky);
  ky->setValue(1.0);
  const GaugeResultPtr isotropic = WaitForGauge(window, first->run);
  QVERIFY2(isotropic, qPrintable("no gauge rerun: " + window.last_error()));
  QVERIFY2(isotropic->error.empty(), isotropic->error.c_str());
  const double b_iso = MaxAbs(plots->SeriesPoints(plots->FindPlot(kGaugeTitle), 0));
  qInfo("kx = ky: max B_norm %.3e", b_iso);
  QVERIFY2(b_iso < 1e-9, qPrintable(QString("max B_norm %1 for kx = ky").arg(b_iso)));

  // Unchecked: the charts go away.
  gauge->trigger();
  QVERIFY(!gauge->isChecked());
  QCOMPARE(plots->plot_count(), base_plots);
  QCOMPARE(plots->FindPlot(kGaugeTitle), -1);
  QVERIFY(WaitForRun(window, isotropic->run));
  QVERIFY(!window.controller()->latest_gauge());

  // Not offered for a degenerate Lagrangian (constraint algorithm), even when checked before.
  gauge->trigger();
  DIRAC_VERIFY_OPEN_AND_RUN(window, "degenerate.yaml");
  QVERIFY(!gauge->isEnabled());
  QCOMPARE(plots->FindPlot(kGaugeTitle), -1);
  QVERIFY(!window.controller()->latest_gauge());
  QVERIFY2(window.last_error().isEmpty(), qPrintable(window.last_error()));
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  GaugeGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "gauge_gui_test.moc"
