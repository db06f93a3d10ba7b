// The window composes by signals (issue 40): a behaviour is one class that subscribes to the
// window's state (WorkbenchState) and one line that makes it; nothing in MainWindow::Load
// names it. Here a test-only reaction, made from `window.state()` alone after the window was
// built, sees the moments of a load in their documented order with their payloads:
// scenarioLoading (the scenario read, the controller still on the previous one) ->
// scenarioLoaded (the controller holds it, the shown result reset) -> modelReady (its model)
// -> runFinished (a complete run of its values), for an open and for a reload after a change
// on disk (the edit kept). Waits for conditions (a run finished), never for a wall time.
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/scenario_reload.hpp"
#include "window/shown_result.hpp"
#include "window/workbench_state.hpp"

using dirac::ui::MainWindow;
using dirac::ui::ScenarioLoad;
using dirac::ui::SnapshotPtr;
using dirac::ui::WorkbenchState;

namespace {

// ky in `scenario` (NaN if it has none).
double Ky(const dirac::Scenario& scenario) {
  return dirac::CurrentValue(scenario, "ky").value_or(NAN);
}

// What the reaction saw at one moment: which, and the values it could read then.
struct Moment {
  QString what;                // "loading", "loaded", "model", "run"
  QString path;                // the load's file (loading, loaded)
  bool reloaded = false;       // the load's flag (loading, loaded)
  QStringList overrides;       // the load's applied --set assignments (loading, loaded)
  double given_ky = NAN;       // loading: ky of the scenario handed over; run: of the run
  double controller_ky = NAN;  // ky of the scenario the controller held at that moment
  bool had_model = false;      // the controller had a model
  bool had_last_good = false;  // the window's shown result had a last good run
  bool complete = false;       // run: the snapshot was complete
};

// The test-only behaviour: one class, subscribed to the state's moments in its constructor.
class MomentRecorder : public QObject {
 public:
  MomentRecorder(WorkbenchState& state, MainWindow& window) : QObject(&state), window_(window) {
    connect(&state, &WorkbenchState::scenarioLoading, this,
            [this](const dirac::Scenario& scenario, const ScenarioLoad& load) {
              Moment m = Now("loading", &load);
              m.given_ky = Ky(scenario);
              moments.push_back(m);
            });
    connect(&state, &WorkbenchState::scenarioLoaded, this,
            [this](const ScenarioLoad& load) { moments.push_back(Now("loaded", &load)); });
    connect(&state, &WorkbenchState::modelReady, this,
            [this] { moments.push_back(Now("model", nullptr)); });
    connect(&state, &WorkbenchState::runFinished, this, [this](const SnapshotPtr& snapshot) {
      Moment m = Now("run", nullptr);
      m.complete = snapshot->complete;
      if (snapshot->run_scenario) m.given_ky = Ky(*snapshot->run_scenario);
      moments.push_back(m);
    });
  }

  // The moments up to and including the first run finished ("" names until then).
  QStringList NamesUntilRun() const {
    QStringList names;
    for (const Moment& m : moments) {
      names << m.what;
      if (m.what == "run") break;
    }
    return names;
  }
  bool SawRun() const {
    for (const Moment& m : moments)
      if (m.what == "run") return true;
    return false;
  }

  std::vector<Moment> moments;

 private:
  Moment Now(const char* what, const ScenarioLoad* load) const {
    Moment m;
    m.what = what;
    if (load) {
      m.path = load->path;
      m.reloaded = load->reloaded;
      m.overrides = load->overrides;
    }
    const auto* controller = window_.controller();
    if (controller->has_scenario()) m.controller_ky = Ky(controller->scenario());
    m.had_model = controller->model() != nullptr;
    m.had_last_good = window_.shown_result().last_good() != nullptr;
    return m;
  }

  MainWindow& window_;
};

bool Copy(const QString& from, const QString& to) {
  QFile::remove(to);
  return QFile::copy(from, to) && QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
}

}  // namespace

class WorkbenchSignalsGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void aReactionSeesOpenThenReloadInOrder();
};

void WorkbenchSignalsGuiTest::aReactionSeesOpenThenReloadInOrder() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = dir.filePath("heisenberg.yaml");
  QVERIFY(Copy(dirac::ui::testing::ScenarioPath("heisenberg.yaml"), path));
  auto window = dirac::ui::testing::OpenWindow();
  QVERIFY(window);
  window->set_remember_recent(false);
  // The reaction is added from outside: MainWindow knows nothing of it.
  auto* recorder = new MomentRecorder(window->state(), *window);

  // An open: ky = 2 in the file, kx set on opening.
  QVERIFY2(window->OpenScenario(path, {"kx=1.5"}), qPrintable(window->last_error()));
  QVERIFY(QTest::qWaitFor([&] { return recorder->SawRun(); }, dirac::ui::testing::kRunTimeoutMs));
  QCOMPARE(recorder->NamesUntilRun(), (QStringList{"loading", "loaded", "model", "run"}));
  {
    const Moment& loading = recorder->moments[0];
    QCOMPARE(loading.path, path);
    QVERIFY(!loading.reloaded);
    QCOMPARE(loading.overrides, QStringList{"kx=1.5"});
    QCOMPARE(loading.given_ky, 2.0);
    QVERIFY(std::isnan(loading.controller_ky));  // nothing open before: no scenario yet
    const Moment& loaded = recorder->moments[1];
    QCOMPARE(loaded.path, path);
    QVERIFY(!loaded.reloaded);
    QCOMPARE(loaded.controller_ky, 2.0);  // the controller holds it
    QVERIFY(!loaded.had_model);           // derived later, from the event loop
    QVERIFY(!loaded.had_last_good);
    const Moment& model = recorder->moments[2];
    QVERIFY(model.had_model);
    QCOMPARE(model.controller_ky, 2.0);
    const Moment& run = recorder->moments[3];
    QVERIFY(run.complete);
    QCOMPARE(run.given_ky, 2.0);
  }
  QCOMPARE(dirac::CurrentValue(window->controller()->scenario(), "kx").value_or(NAN), 1.5);
  QVERIFY(dirac::ui::testing::WaitForRun(*window));

  // A reload: ky changed on disk; the kx edit is kept.
  recorder->moments.clear();
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QByteArray text = file.readAll();
  file.close();
  const QByteArray from = "{name: ky, default: 2.0,";
  QVERIFY(text.contains(from));
  text.replace(from, "{name: ky, default: 2.5,");
  QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
  QCOMPARE(file.write(text), text.size());
  file.close();
  QVERIFY(window->reload().ReloadIfChanged());
  QVERIFY(QTest::qWaitFor([&] { return recorder->SawRun(); }, dirac::ui::testing::kRunTimeoutMs));
  QCOMPARE(recorder->NamesUntilRun(), (QStringList{"loading", "loaded", "model", "run"}));
  {
    const Moment& loading = recorder->moments[0];
    QCOMPARE(loading.path, path);
    QVERIFY(loading.reloaded);
    QCOMPARE(loading.overrides, QStringList{"kx=1.5"});
    QCOMPARE(loading.given_ky, 2.5);       // the file as it is now
    QCOMPARE(loading.controller_ky, 2.0);  // the controller is still on the previous reading
    const Moment& loaded = recorder->moments[1];
    QVERIFY(loaded.reloaded);
    QCOMPARE(loaded.controller_ky, 2.5);
    QVERIFY(!loaded.had_model);
    QVERIFY(!loaded.had_last_good);  // reset while loading: nothing of the old reading is "good"
    const Moment& model = recorder->moments[2];
    QVERIFY(model.had_model);
    QCOMPARE(model.controller_ky, 2.5);
    const Moment& run = recorder->moments[3];
    QVERIFY(run.complete);
    QCOMPARE(run.given_ky, 2.5);
  }
  QCOMPARE(dirac::CurrentValue(window->controller()->scenario(), "kx").value_or(NAN), 1.5);
}

QTEST_MAIN(WorkbenchSignalsGuiTest)
#include "workbench_signals_gui_test.moc"
