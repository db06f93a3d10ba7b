// GUI tests of the Scenario panel of a solve (issue 23), under Xvfb: on every shipped scenario
// with an optimal_control: or boundary_value: block the panel has one field per initial
// quantity (its boundary value at t = 0, no "initial.<q>" duplicate), an edit of that field
// changes the solve and the optimum starts at the new value; the shooting's unknowns show their
// solved values; one field for T; no field of the panel leads to a "--set" message; the panel
// has no horizontal scroll bar and starts at its top for a new scenario.
#include <QApplication>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <memory>
#include <string>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::SimulationController;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForOptimum;

class SolvePanelGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void oneFieldPerInitialQuantity_data();
  void oneFieldPerInitialQuantity();
  void noFieldLeadsToSetMessage();
  void scrollStartsAtTopWithoutHorizontalBar();
};

void SolvePanelGuiTest::oneFieldPerInitialQuantity_data() {
  QTest::addColumn<QString>("file");
  for (const char* file : {"so3_spline.yaml", "elroys_beanie_ocp.yaml", "cubic_spline_bvp.yaml",
                           "heisenberg_geodesic.yaml"})
    QTest::newRow(file) << QString(file);
}

void SolvePanelGuiTest::oneFieldPerInitialQuantity() {
  QFETCH(QString, file);
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath(file)));
  QVERIFY2(WaitForOptimum(*window, 0), qPrintable(window->last_error()));
  SimulationController* controller = window->controller();
  const dirac::Scenario& scenario = controller->scenario();
  QVERIFY(dirac::ui::PosesSolve(scenario));
  auto* panel = window->parameter_panel();

  // Every initial value of the model has at most one field; a boundary quantity exactly its
  // boundary value at t = 0.
  int boundary_initials = 0;
  for (const dirac::InitialValueInfo& info : controller->model()->initial_values()) {
    const QString name = QString::fromStdString(info.name);
    auto* initial = window->findChild<QDoubleSpinBox*>("initial." + name);
    auto* boundary = window->findChild<QDoubleSpinBox*>("boundary.initial." + name);
    QVERIFY2(!(initial && boundary), qPrintable("two fields for " + name + "(0)"));
    if (dirac::ui::IsBoundaryValueName(scenario, "initial." + info.name)) {
      QVERIFY2(boundary, qPrintable("no boundary field for " + name + "(0)"));
      ++boundary_initials;
    }
  }
  QVERIFY(boundary_initials > 0);

  // One field for T.
  if (scenario.optimal_control.present) {
    QVERIFY(!window->findChild<QDoubleSpinBox*>("simulation.t_end"));
    QCOMPARE(panel->editor("t_end"), window->findChild<QDoubleSpinBox*>("boundary.horizon"));
  } else {
    QVERIFY(!window->findChild<QDoubleSpinBox*>("boundary.horizon"));
    QVERIFY(window->findChild<QDoubleSpinBox*>("simulation.t_end"));
  }

  // The shooting's unknowns show the solved values at t = 0 (to the 4 decimals shown).
  SnapshotPtr solved = controller->latest();
  for (const QString& name : panel->solver_start_names()) {
    const auto column = solved->trajectory->FindColumn(name.toStdString());
    QVERIFY2(column, qPrintable("no column " + name));
    const double value = solved->trajectory->at(0, *column);
    QVERIFY2(std::abs(panel->editor(name)->value() - value) < 1e-4,
             qPrintable(QString("%1(0) shows %2, solved %3")
                            .arg(name)
                            .arg(panel->editor(name)->value())
                            .arg(value)));
  }
  if (file == "cubic_spline_bvp.yaml") {
    // The file's guess is p_v = 10; the optimum 3 t^2 - 2 t^3 has p_v(0) = 12.
    QVERIFY(std::abs(panel->editor("p_v")->value() - 12.0) < 1e-4);
  }

  // Edit the first initial quantity that is a column: the solve changes and starts there.
  QString quantity;
  for (const dirac::ui::BoundaryValueInfo& info : dirac::ui::ListBoundaryValues(scenario))
    if (info.initial && solved->trajectory->FindColumn(info.quantity)) {
      quantity = QString::fromStdString(info.quantity);
      break;
    }
  QVERIFY(!quantity.isEmpty());
  auto* field = window->findChild<QDoubleSpinBox*>("boundary.initial." + quantity);
  QVERIFY(field && field->isEnabled());
  const double before = field->value();
  const double cost_before = solved->solve->cost;
  field->setValue(before + 0.1);
  QVERIFY2(WaitForOptimum(*window, solved->run), qPrintable(window->last_error()));
  solved = controller->latest();
  const std::size_t column = solved->trajectory->ColumnIndex(quantity.toStdString());
  QVERIFY2(std::abs(solved->trajectory->at(0, column) - (before + 0.1)) < 1e-8,
           qPrintable(QString("%1(0) = %2 after the edit to %3")
                          .arg(quantity)
                          .arg(solved->trajectory->at(0, column))
                          .arg(before + 0.1)));
  QVERIFY2(std::abs(solved->solve->cost - cost_before) > 1e-9,
           qPrintable(QString("cost %1 unchanged").arg(cost_before)));
  QCOMPARE(
      *dirac::ui::GetBoundaryValue(controller->scenario(), "initial." + quantity.toStdString()),
      before + 0.1);
}

void SolvePanelGuiTest::noFieldLeadsToSetMessage() {
  auto window = OpenWindow();
  QVERIFY(window);
  for (const char* file : {"so3_spline.yaml", "cubic_spline_bvp.yaml"}) {
    QVERIFY(window->OpenScenario(ScenarioPath(file)));
    QVERIFY2(WaitForOptimum(*window, 0), qPrintable(window->last_error()));
    SimulationController* controller = window->controller();
    QSignalSpy failed(controller, &SimulationController::failed);
    int edited = 0;
    for (QDoubleSpinBox* spin : window->parameter_panel()->findChildren<QDoubleSpinBox*>()) {
      if (!spin->isEnabled()) continue;
      const double value = spin->value();
      spin->setValue(value + spin->singleStep() > spin->maximum() ? value - spin->singleStep()
                                                                  : value + spin->singleStep());
      ++edited;
      for (const QList<QVariant>& message : failed)
        QVERIFY2(!message.at(0).toString().contains("--set"),
                 qPrintable(spin->objectName() + ": " + message.at(0).toString()));
      QVERIFY2(failed.isEmpty(), qPrintable(spin->objectName() + " was refused"));
    }
    QVERIFY(edited >= 4);
    QVERIFY(
        QTest::qWaitFor([&] { return !controller->busy(); }, dirac::ui::testing::kRunTimeoutMs));
    QVERIFY2(!window->last_error().contains("--set"), qPrintable(window->last_error()));
  }
}

void SolvePanelGuiTest::scrollStartsAtTopWithoutHorizontalBar() {
  auto window = OpenWindow();
  QVERIFY(window);
  window->resize(1280, 720);
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* scroll = window->findChild<QScrollArea*>("parameterScroll");
  QVERIFY(scroll);
  // so3's panel is taller than 720 px: once laid out, the vertical bar has a range.
  QTRY_VERIFY_WITH_TIMEOUT(scroll->verticalScrollBar()->maximum() > 0, 10000);
  QVERIFY(!scroll->horizontalScrollBar()->isVisible());
  // Every field fits the panel's width (nothing cut off on the right).
  for (QDoubleSpinBox* spin : window->parameter_panel()->findChildren<QDoubleSpinBox*>()) {
    if (!spin->isVisible()) continue;
    const QPoint right = spin->mapTo(scroll->viewport(), QPoint(spin->width(), 0));
    QVERIFY2(right.x() <= scroll->viewport()->width(),
             qPrintable(QString("%1 ends at %2 > %3")
                            .arg(spin->objectName())
                            .arg(right.x())
                            .arg(scroll->viewport()->width())));
  }
  scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
  QVERIFY(window->OpenScenario(ScenarioPath("elroys_beanie_ocp.yaml")));
  QCOMPARE(scroll->verticalScrollBar()->value(), 0);
  QVERIFY(WaitForOptimum(*window, 0));
  QCOMPARE(scroll->verticalScrollBar()->value(), 0);
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  SolvePanelGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "solve_panel_gui_test.moc"
