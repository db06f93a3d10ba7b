// GUI tests of the panels room in the real window under Xvfb: the Constraints panel shows the
// constraint chain and the parameter panel greys the initial values the chain fixes; the
// scenario browser groups the files and its search narrows them (issue 23).
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QTest>
#include <QTextBrowser>

#include <cmath>
#include <vector>

#include "gui_test_support.hpp"
#include "panels/constraint_panel.hpp"
#include "panels/parameter_panel.hpp"
#include "panels/scenario_browser.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::SnapshotPtr;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

class PanelsGuiTest : public QObject {
  Q_OBJECT

 private slots:
  // File > Browse scenarios: grouped, searchable (issue 23).
  void browserGroupsAndSearches();
  // The chains of degenerate.yaml and lc_circuit.yaml in the panel, the initial values they fix
  // greyed; a regular Lagrangian gets a short note and no dock.
  void constraintsPanelShowsTheChain() {
    auto window = OpenWindow();
    QVERIFY(window);
    struct Expectation {
      const char* file;
      QStringList texts;
      QStringList fixed;  // initial-condition editors the chain fixes
    };
    const Expectation expectations[] = {
        {"degenerate.yaml",
         {"v3 = 0", "q3 = 0", "lambda1", "moves the configuration"},
         {"q3", "v3"}},
        {"lc_circuit.yaml", {"q4", "C4", "symplectic modulo the gauge", "fibre only"}, {"q4"}},
    };
    for (const Expectation& e : expectations) {
      DIRAC_VERIFY_OPEN_AND_RUN(*window, e.file);
      auto* panel = window->findChild<QTextBrowser*>("constraints.panel");
      QVERIFY2(panel, "no widget named constraints.panel");
      QVERIFY(window->constraint_panel() == panel);
      QVERIFY2(window->constraint_dock()->isVisible(), e.file);
      QVERIFY(window->constraint_panel()->has_chain());
      const QString text = panel->toPlainText();
      for (const QString& expected : e.texts) {
        QVERIFY2(text.contains(expected),
                 qPrintable(QString("%1: panel lacks '%2':\n%3").arg(e.file, expected, text)));
      }
      QVERIFY2(text.contains("stabilised"), qPrintable(text));
      QVERIFY2(text.contains("Dynamics on M"), qPrintable(text));
      QVERIFY2(text.contains("ranks agree"), qPrintable(text));
      for (const QString& name : e.fixed) {
        QDoubleSpinBox* editor = window->parameter_panel()->editor(name);
        QVERIFY2(editor, qPrintable(name));
        QVERIFY2(!editor->isEnabled(), qPrintable(name + " should be fixed by the chain"));
      }
      QVERIFY(window->parameter_panel()->editor("q1")->isEnabled());
    }

    // The residual of every hidden constraint is recorded and ~0 (lc: the KVL constraint).
    const SnapshotPtr lc = window->controller()->latest();
    const std::vector<double> kvl = lc->trajectory->Column("residual_hidden1");
    QVERIFY(!kvl.empty());
    for (double r : kvl) QVERIFY(std::abs(r) < 1e-9);

    // A regular Lagrangian: no chain, a short note, the dock hidden.
    QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=1"}));
    QVERIFY(WaitForRun(*window));
    QVERIFY(!window->constraint_panel()->has_chain());
    QVERIFY(!window->constraint_dock()->isVisible());
    QVERIFY2(window->constraint_panel()->toPlainText().contains("Regular Lagrangian"),
             qPrintable(window->constraint_panel()->toPlainText()));
  }
};

void PanelsGuiTest::browserGroupsAndSearches() {
  dirac::ui::ScenarioBrowser browser(DIRAC_SCENARIO_DIR);
  browser.show();
  QVERIFY(QTest::qWaitForWindowExposed(&browser));
  auto base = [](const QStringList& paths) {
    QStringList names;
    for (const QString& path : paths) names << QFileInfo(path).fileName();
    return names;
  };
  // Every file once, in three groups: simulation, constraint algorithm, optimal control.
  const QStringList all = base(browser.paths());
  QCOMPARE(all.size(), QDir(DIRAC_SCENARIO_DIR).entryList({"*.yaml", "*.yml"}).size());
  QCOMPARE(browser.shown_headings(),
           QStringList({"Simulation", "Constraint algorithm", "Optimal control"}));
  const auto at = [&](const char* file) { return all.indexOf(file); };
  QVERIFY(at("heisenberg.yaml") >= 0 && at("rigid_body.yaml") >= 0);
  // Each group's files together: the simulations before the constraint algorithm's before the
  // optimal controls.
  QVERIFY(at("rigid_body.yaml") < at("degenerate.yaml"));
  QVERIFY(at("lc_circuit.yaml") < at("cubic_spline_bvp.yaml"));
  QVERIFY(at("heisenberg.yaml") < at("lc_circuit.yaml"));
  for (const char* ocp : {"so3_spline.yaml", "cubic_spline_bvp.yaml", "heisenberg_geodesic.yaml",
                          "elroys_beanie_ocp.yaml"})
    QVERIFY2(at(ocp) > at("degenerate.yaml") && at(ocp) > at("vakonomic_heisenberg.yaml") &&
                 at(ocp) > at("suslov.yaml"),
             ocp);
  // The search: every word, any case, in the name, file name or description.
  auto* search = browser.findChild<QLineEdit*>("scenarioBrowser.search");
  QVERIFY(search && search->isVisible());
  QTest::keyClicks(search, "SPLINE");
  QCOMPARE(base(browser.shown_paths()),
           QStringList({"rigid_body_spline.yaml", "cubic_spline_bvp.yaml", "so3_spline.yaml"}));
  QCOMPARE(browser.shown_headings(), QStringList({"Constraint algorithm", "Optimal control"}));
  search->clear();
  QTest::keyClicks(search, "heisenberg geodesic");
  QCOMPARE(base(browser.shown_paths()), QStringList({"heisenberg_geodesic.yaml"}));
  // Enter opens the one left.
  QString chosen;
  connect(&browser, &dirac::ui::ScenarioBrowser::scenarioChosen,
          [&](const QString& path) { chosen = path; });
  QTest::keyClick(search, Qt::Key_Return);
  QCOMPARE(QFileInfo(chosen).fileName(), QString("heisenberg_geodesic.yaml"));
  search->clear();
  QCOMPARE(browser.shown_paths().size(), all.size());
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  PanelsGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "panels_gui_test.moc"
