// The Simulation group's method combo (issue 39): it offers the registry's methods that apply to
// the open model and no other; choosing `variational` on the Heisenberg particle reruns with it
// (the run report names the method and its step, the constraint residual stays <= 1e-10), as the
// edits `--set step=... method=...` (the overrides and undo keep working).
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "dirac/integrators.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "window/main_window.hpp"
#include "window/menu_builders.hpp"
#include "window/studio_application.hpp"
#include "window/workbench_state.hpp"

using dirac::ui::MainWindow;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

QStringList Offered(const QComboBox* combo) {
  QStringList names;
  for (int i = 0; i < combo->count(); ++i) names << combo->itemText(i);
  return names;
}

std::uint64_t LatestRun(MainWindow& window) {
  const SnapshotPtr s = window.controller()->latest();
  return s ? s->run : 0;
}

// Waits for a settled, complete run newer than `after` whose report names `method`.
bool WaitForMethod(MainWindow& window, std::uint64_t after, const QString& method) {
  auto* c = window.controller();
  return QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = c->latest();
        return !c->busy() && s && s->complete && s->run > after &&
               QString::fromStdString(s->report.method).contains(method);
      },
      kRunTimeoutMs);
}

}  // namespace

class MethodChoiceGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void heisenbergRunsVariationalFromTheCombo() {
    auto window = OpenWindow();
    QVERIFY(window);
    QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
    QVERIFY(WaitForRun(*window));
    auto* combo = window->findChild<QComboBox*>("simulation.method");
    QVERIFY2(combo, "no combo named simulation.method");
    QVERIFY(combo == window->parameter_panel()->method_choice());
    QTRY_VERIFY(combo->isEnabled());  // the model said which methods apply
    // Exactly the methods that apply to a Lagrangian on TQ with a nonholonomic constraint.
    QCOMPARE(Offered(combo), QStringList({"adams", "auto", "bdf", "idas", "variational"}));
    QCOMPARE(combo->currentText(), QString("auto"));
    auto* step = window->findChild<QDoubleSpinBox*>("simulation.step");
    QVERIFY(step);
    QVERIFY(!step->isEnabled());  // auto has no fixed step

    // The user picks variational: the step follows (output_step = 0.01), then the method.
    std::uint64_t run = LatestRun(*window);
    const int index = combo->findText("variational");
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    QVERIFY2(WaitForMethod(*window, run, "variational"), qPrintable(window->last_error()));
    const SnapshotPtr s = window->controller()->latest();
    const QString report = QString::fromStdString(s->report.method);
    QVERIFY2(report.contains("step 0.01"), qPrintable(report));
    QVERIFY2(report.contains("Lagrange-d'Alembert"), qPrintable(report));
    QVERIFY(step->isEnabled());
    QCOMPARE(step->value(), 0.01);
    QCOMPARE(s->run_scenario->simulation.method, dirac::IntegrationMethod::kVariational);
    double worst = 0.0;
    for (double r : s->trajectory->Column("residual_heisenberg"))
      worst = std::max(worst, std::abs(r));
    qInfo("variational from the combo: %s; max |residual_heisenberg| = %.3e over %zu samples",
          qPrintable(report), worst, s->trajectory->num_rows());
    QVERIFY2(worst <= 1e-10, qPrintable(QString::number(worst)));
    QCOMPARE(s->last_time(), 5.0);
    // The same edits as --set: the overrides a session saves and reopens.
    const QStringList overrides = window->state().overrides();
    QVERIFY2(overrides.contains("step=0.01"), qPrintable(overrides.join(' ')));
    QVERIFY2(overrides.contains("method=4"), qPrintable(overrides.join(' ')));
    dirac::Scenario reopened = *s->run_scenario;
    dirac::ApplyOverride(reopened, "method=auto");
    dirac::ApplyOverride(reopened, "method=4");  // a session's text reads back
    QCOMPARE(reopened.simulation.method, dirac::IntegrationMethod::kVariational);

    // Undo: the method before (auto, CVODES), the combo follows.
    QVERIFY(window->actions().undo->isEnabled());
    run = LatestRun(*window);
    window->actions().undo->trigger();
    QVERIFY(WaitForMethod(*window, run, "CVODES"));
    QCOMPARE(combo->currentText(), QString("auto"));
    QVERIFY(!step->isEnabled());
  }

  // A method that does not apply is not offered: the rigid body gets lie_variational, not
  // variational or isospectral.
  void rigidBodyOffersOnlyWhatApplies() {
    auto window = OpenWindow();
    QVERIFY(window);
    DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
    auto* combo = window->parameter_panel()->method_choice();
    QVERIFY(combo);
    QTRY_VERIFY(combo->isEnabled());
    const QStringList offered = Offered(combo);
    QVERIFY2(offered.contains("lie_variational"), qPrintable(offered.join(", ")));
    QVERIFY2(!offered.contains("variational"), qPrintable(offered.join(", ")));
    QVERIFY2(!offered.contains("isospectral"), qPrintable(offered.join(", ")));
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  MethodChoiceGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "method_choice_gui_test.moc"
