// The window's state (issue 40): reload on save, undo / redo, sessions. Each test drives the
// real window under Xvfb and waits for conditions (a run finished, a reload done), never for a
// wall time.
#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/rigid_body_scene.hpp"
#include "scenes/scene_view.hpp"
#include "window/csv_export.hpp"
#include "window/edit_history.hpp"
#include "window/error_reporter.hpp"
#include "window/main_window.hpp"
#include "window/scenario_reload.hpp"
#include "window/session_file.hpp"
#include "window/session_reaction.hpp"
#include "window/shown_result.hpp"
#include "window/studio_application.hpp"
#include "window/workbench_state.hpp"

using dirac::ui::MainWindow;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForOptimum;
using dirac::ui::testing::WaitForRun;

namespace {

QByteArray ReadBytes(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool WriteBytes(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return file.write(bytes) == bytes.size();
}

// The shown run as the CSV File > Export CSV writes (with the parameters in the header).
QByteArray CsvOf(MainWindow& window, const QString& path) {
  if (!window.csv_export().Export(path, dirac::ui::CsvParameters::kHeaderComment)) return {};
  return ReadBytes(path);
}

std::uint64_t LatestRun(MainWindow& window) {
  const SnapshotPtr s = window.controller()->latest();
  return s ? s->run : 0;
}

double Value(MainWindow& window, const char* name) {
  return dirac::CurrentValue(window.controller()->scenario(), name).value_or(NAN);
}

// Waits until the controller is idle with a complete run newer than `after` (a restored result
// from the history counts: it is published as a new run).
bool WaitSettled(MainWindow& window, std::uint64_t after) { return WaitForRun(window, after); }

void SendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
  QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &event);
}

}  // namespace

class WorkbenchStateGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
  }

  void reloadOnSave();
  void undoRedoValue();
  void undoRedoSliderDrag();
  void undoRedoGhostDrag();
  void undoViewToggle();
  void sessionRoundTrip();
  void badSessionIsNamed();
  void sessionArgumentBeforeQt();
  void lastSessionSavedOnClose();
  void editMenuAndHistoryPictures();

 private:
  QTemporaryDir dir_;
};

void WorkbenchStateGuiTest::reloadOnSave() {
  const QString path = dir_.filePath("reloaded.yaml");
  const QByteArray original = ReadBytes(ScenarioPath("heisenberg.yaml"));
  QVERIFY(WriteBytes(path, original));
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(path, {"t_end=5"}));
  QVERIFY(WaitForRun(*window));
  QVERIFY(window->reload().watched().contains(QFileInfo(path).absoluteFilePath()));
  auto* kx = window->findChild<QDoubleSpinBox*>("parameter.kx");
  QVERIFY(kx);
  std::uint64_t run = LatestRun(*window);
  kx->setValue(1.5);
  QVERIFY(WaitForRun(*window, run));
  QCOMPARE(window->state().overrides(), QStringList({"t_end=5", "kx=1.5"}));
  const SnapshotPtr before = window->controller()->latest();

  // The Lagrangian edited in an editor (written in place): the new model runs, the edit stays.
  const QByteArray old_potential = "- (kx*x^2 + ky*y^2)/2\"";
  QVERIFY(original.contains(old_potential));
  QByteArray edited = original;
  edited.replace(old_potential, "- (kx*x^2 + ky*y^2)/2 - 0.1*z^2/2\"");
  run = LatestRun(*window);
  QVERIFY(WriteBytes(path, edited));
  auto runs_lagrangian = [&](const char* term) {
    const SnapshotPtr s = window->controller()->latest();
    return !window->controller()->busy() && s && s->complete && s->run_scenario &&
           s->run_scenario->lagrangian.find(term) != std::string::npos;
  };
  QVERIFY(QTest::qWaitFor([&] { return runs_lagrangian("0.1*z^2"); },
                          dirac::ui::testing::kRunTimeoutMs));
  QCOMPARE(window->reload().reloads(), 1);
  QCOMPARE(Value(*window, "kx"), 1.5);
  QCOMPARE(Value(*window, "t_end"), 5.0);
  // The panel is rebuilt for the file read again: its kx editor shows the kept edit.
  kx = window->findChild<QDoubleSpinBox*>("parameter.kx");
  QVERIFY(kx);
  QCOMPARE(kx->value(), 1.5);
  QVERIFY(window->statusBar()->currentMessage().contains("edits kept: t_end=5, kx=1.5"));
  // The new model's motion differs from the old one's (z feels the new potential).
  {
    const auto z_old = before->trajectory->Column("z");
    const auto z_new = window->controller()->latest()->trajectory->Column("z");
    QCOMPARE(z_new.size(), z_old.size());
    double d = 0.0;
    for (std::size_t i = 0; i < z_old.size(); ++i) d = std::max(d, std::abs(z_new[i] - z_old[i]));
    qInfo("max |z_new - z_old| = %.3g", d);
    QVERIFY(d > 1e-3);
  }

  // Saved by rename (a new file moved over the old one, as vim and many IDEs do): still seen.
  QByteArray renamed = original;
  renamed.replace(old_potential, "- (kx*x^2 + ky*y^2)/2 - 0.2*z^2/2\"");
  QVERIFY(WriteBytes(path + ".new", renamed));
  QVERIFY(std::rename(QFile::encodeName(path + ".new").constData(),
                      QFile::encodeName(path).constData()) == 0);
  QVERIFY(QTest::qWaitFor([&] { return runs_lagrangian("0.2*z^2"); },
                          dirac::ui::testing::kRunTimeoutMs));
  QCOMPARE(window->reload().reloads(), 2);
  QVERIFY(window->reload().watched().contains(QFileInfo(path).absoluteFilePath()));

  // A bad save: the error names the file and line, the last good result stays.
  const SnapshotPtr good = window->shown_result().last_good();
  QByteArray broken = renamed;
  broken.replace("lagrangian: \"", "lagrangian: \"(");
  QVERIFY(WriteBytes(path, broken));
  QVERIFY(QTest::qWaitFor([&] { return window->reload().reloads() == 3; },
                          dirac::ui::testing::kRunTimeoutMs));
  qInfo("bad file: %s", qPrintable(window->last_error()));
  QVERIFY(window->last_error().contains("reloaded.yaml"));
  QVERIFY(window->last_error().contains("reloaded.yaml:16"));
  QCOMPARE(window->shown_result().last_good(), good);
  QVERIFY(window->controller()->scenario().lagrangian.find("0.2*z^2") != std::string::npos);

  // Fixed in the editor and Rerun pressed at once (before the watcher's turn): Rerun reads
  // the file as it is now and runs the new model.
  QByteArray fixed = original;
  fixed.replace(old_potential, "- (kx*x^2 + ky*y^2)/2 - 0.3*z^2/2\"");
  QVERIFY(WriteBytes(path, fixed));
  window->actions().rerun->trigger();
  QVERIFY(window->controller()->scenario().lagrangian.find("0.3*z^2") != std::string::npos);
  QVERIFY(QTest::qWaitFor([&] { return runs_lagrangian("0.3*z^2"); },
                          dirac::ui::testing::kRunTimeoutMs));
  QCOMPARE(Value(*window, "kx"), 1.5);
  // Rerun without a change on disk reruns the same model (no reload).
  const int reloads = window->reload().reloads();
  run = LatestRun(*window);
  window->actions().rerun->trigger();
  QVERIFY(WaitForRun(*window, run));
  QCOMPARE(window->reload().reloads(), reloads);

  // An edit the file no longer takes (kx renamed) is dropped and said; the others stay.
  QByteArray renamed_parameter = fixed;
  renamed_parameter.replace("kx", "k1");
  QVERIFY(WriteBytes(path, renamed_parameter));
  QVERIFY(QTest::qWaitFor(
      [&] {
        return window->controller()->scenario().lagrangian.find("k1*x^2") != std::string::npos &&
               !window->controller()->busy();
      },
      dirac::ui::testing::kRunTimeoutMs));
  qInfo("%s", qPrintable(window->statusBar()->currentMessage()));
  QVERIFY(window->statusBar()->currentMessage().contains("no longer applicable: kx=1.5"));
  QCOMPARE(Value(*window, "t_end"), 5.0);
  QCOMPARE(window->state().overrides(), QStringList({"t_end=5"}));

  // Touched (the same bytes, a new modification time): read again too.
  const int before_touch = window->reload().reloads();
  {
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(5),
                             QFileDevice::FileModificationTime));
  }
  QVERIFY(QTest::qWaitFor([&] { return window->reload().reloads() == before_touch + 1; },
                          dirac::ui::testing::kRunTimeoutMs));
  QVERIFY(WaitForRun(*window, 0));
  QVERIFY(window->statusBar()->currentMessage().startsWith("Reloaded reloaded.yaml"));
}

void WorkbenchStateGuiTest::undoRedoValue() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
  QVERIFY(WaitForRun(*window));
  const QString csv = dir_.filePath("value.csv");
  const QByteArray csv0 = CsvOf(*window, csv);
  QVERIFY(!csv0.isEmpty());
  QVERIFY(!window->actions().undo->isEnabled());
  auto* kx = window->findChild<QDoubleSpinBox*>("parameter.kx");
  QVERIFY(kx);
  std::uint64_t run = LatestRun(*window);
  kx->setValue(1.5);
  QVERIFY(WaitForRun(*window, run));
  const QByteArray csv1 = CsvOf(*window, csv);
  QVERIFY(csv1 != csv0);
  QCOMPARE(window->history().stack()->count(), 1);
  QVERIFY(window->actions().undo->isEnabled());
  QCOMPARE(window->actions().undo->text(), QString("&Undo kx = 1.5"));

  // Ctrl+Z: the previous values and exactly the previous result.
  window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window.get()));
  run = LatestRun(*window);
  QTest::keyClick(window.get(), Qt::Key_Z, Qt::ControlModifier);
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "kx"), 1.0);
  QCOMPARE(kx->value(), 1.0);
  QCOMPARE(CsvOf(*window, csv), csv0);
  QCOMPARE(window->state().overrides(), QStringList({"t_end=5"}));
  // The values really are the old ones: a rerun gives the same bytes.
  run = LatestRun(*window);
  window->actions().rerun->trigger();
  QVERIFY(WaitForRun(*window, run));
  QCOMPARE(CsvOf(*window, csv), csv0);

  // Ctrl+Shift+Z: the edit again, and its result.
  run = LatestRun(*window);
  QTest::keyClick(window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "kx"), 1.5);
  QCOMPARE(kx->value(), 1.5);
  QCOMPARE(CsvOf(*window, csv), csv1);

  // With a spin box focused the keys still undo (the window's shortcut, not the field's).
  kx->setFocus();
  QTRY_VERIFY(kx->hasFocus());
  run = LatestRun(*window);
  QTest::keyClick(kx, Qt::Key_Z, Qt::ControlModifier);
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "kx"), 1.0);
  QCOMPARE(CsvOf(*window, csv), csv0);
}

void WorkbenchStateGuiTest::undoRedoSliderDrag() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
  QVERIFY(WaitForRun(*window));
  const QString csv = dir_.filePath("slider.csv");
  const QByteArray csv0 = CsvOf(*window, csv);
  auto* slider = window->findChild<QSlider*>("parameter.ky.slider");
  QVERIFY(slider);
  const int start = slider->value();
  // A drag: the handle pressed, moved through several positions (each an edit and a run), let
  // go. One step in the history.
  slider->setSliderDown(true);
  for (int i = 1; i <= 6; ++i) {
    slider->setValue(start + 40 * i);
    QCoreApplication::processEvents();
  }
  slider->setSliderDown(false);
  QVERIFY(WaitForRun(*window, 0));
  QVERIFY(QTest::qWaitFor([&] { return !window->controller()->busy(); }, 60000));
  const double ky_dragged = Value(*window, "ky");
  QVERIFY(ky_dragged > 2.0 + 1.0);
  QCOMPARE(window->history().stack()->count(), 1);
  const QByteArray csv1 = CsvOf(*window, csv);
  QVERIFY(csv1 != csv0);

  std::uint64_t run = LatestRun(*window);
  window->actions().undo->trigger();
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "ky"), 2.0);
  QCOMPARE(slider->value(), start);
  QCOMPARE(CsvOf(*window, csv), csv0);
  run = LatestRun(*window);
  window->actions().redo->trigger();
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "ky"), ky_dragged);
  QCOMPARE(CsvOf(*window, csv), csv1);

  // Two drags are two steps.
  slider->setSliderDown(true);
  slider->setValue(start - 100);
  slider->setSliderDown(false);
  QVERIFY(QTest::qWaitFor([&] { return !window->controller()->busy(); }, 60000));
  QCOMPARE(window->history().stack()->count(), 2);
}

void WorkbenchStateGuiTest::undoRedoGhostDrag() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* scene = dynamic_cast<dirac::ui::RigidBodyScene*>(window->scene_view()->scene());
  QVERIFY2(scene, "no rigid-body scene");
  const QString csv = dir_.filePath("ghost.csv");
  const QByteArray csv0 = CsvOf(*window, csv);
  const double rz0 = Value(*window, "final.R.z");

  // Drag the target ghost (at the view's centre) with the mouse: many edits, one step.
  std::uint64_t run = LatestRun(*window);
  QWidget* view = window->scene_view();
  const QPointF c(view->width() / 2.0, view->height() / 2.0);
  SendMouse(view, QEvent::MouseButtonPress, c, Qt::LeftButton, Qt::LeftButton);
  QVERIFY2(scene->dragging_target(), "the press on the ghost did not grab the target");
  for (int i = 1; i <= 6; ++i) {
    SendMouse(view, QEvent::MouseMove, c + QPointF(7.0 * i, 0.0), Qt::NoButton, Qt::LeftButton);
    QCoreApplication::processEvents();
  }
  SendMouse(view, QEvent::MouseButtonRelease, c + QPointF(42, 0), Qt::LeftButton, Qt::NoButton);
  QVERIFY(WaitForOptimum(*window, run));
  QCOMPARE(window->history().stack()->count(), 1);
  qInfo("ghost step: %s", qPrintable(window->history().stack()->undoText()));
  QVERIFY(window->history().stack()->undoText().startsWith("drag final.R."));
  const double rz1 = Value(*window, "final.R.z");
  QVERIFY(std::abs(rz1 - rz0) > 1e-3);
  const QByteArray csv1 = CsvOf(*window, csv);
  QVERIFY(csv1 != csv0);

  // Undo: the target and the optimum come back exactly (the kept result, not a re-solve that
  // would land within the solver's tolerance); redo: the dragged optimum.
  run = LatestRun(*window);
  window->actions().undo->trigger();
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "final.R.z"), rz0);
  QCOMPARE(CsvOf(*window, csv), csv0);
  run = LatestRun(*window);
  window->actions().redo->trigger();
  QVERIFY(WaitSettled(*window, run));
  QCOMPARE(Value(*window, "final.R.z"), rz1);
  QCOMPARE(CsvOf(*window, csv), csv1);
  QVERIFY(window->controller()->latest()->solve &&
          window->controller()->latest()->solve->converged);
}

void WorkbenchStateGuiTest::undoViewToggle() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
  QVERIFY(WaitForRun(*window));
  QAction* gauge = window->gauge_action();
  QTRY_VERIFY(gauge->isEnabled());
  QVERIFY(!gauge->isChecked());
  gauge->trigger();  // as a click in the View menu
  QVERIFY(gauge->isChecked());
  QVERIFY(window->controller()->gauge_two_form());
  auto* plots_dock = window->findChild<QDockWidget*>("dock.plots");
  plots_dock->toggleViewAction()->trigger();
  QVERIFY(!plots_dock->isVisible());
  QCOMPARE(window->history().stack()->count(), 2);
  window->actions().undo->trigger();
  QVERIFY(plots_dock->isVisible());
  window->actions().undo->trigger();
  QVERIFY(!gauge->isChecked());
  QVERIFY(!window->controller()->gauge_two_form());
  window->actions().redo->trigger();
  QVERIFY(gauge->isChecked());
  QVERIFY(window->controller()->gauge_two_form());
  QCOMPARE(window->history().stack()->count(), 2);
  // A chart added and a column removed (the charts' context menu), undone and redone.
  auto* plots = window->plot_panel();
  const auto specs0 = plots->plot_specs();
  QVERIFY(plots->AddPlot("x"));
  QVERIFY(plots->AddColumn(3, "y"));
  QVERIFY(plots->RemoveColumn(0, "mu"));
  // The dock's toggle, undone and not redone, made way for the three chart steps.
  QCOMPARE(window->history().stack()->count(), 4);
  QCOMPARE(plots->plot_specs()[3].series, (std::vector<std::string>{"x", "y"}));
  window->actions().undo->trigger();  // mu back in chart 0
  QCOMPARE(plots->plot_specs()[0].series, std::vector<std::string>{"mu"});
  window->actions().undo->trigger();
  window->actions().undo->trigger();  // no chart x
  QCOMPARE(plots->plot_specs().size(), specs0.size());
  QCOMPARE(plots->plot_count() - plots->auxiliary_plot_count(), static_cast<int>(specs0.size()));
  window->actions().redo->trigger();
  QCOMPARE(plots->plot_specs().size(), specs0.size() + 1);
  QCOMPARE(plots->plot_specs().back().series, std::vector<std::string>{"x"});
  QCOMPARE(plots->plot_count() - plots->auxiliary_plot_count(),
           static_cast<int>(specs0.size()) + 1);
  // A newly opened scenario starts a new history.
  QVERIFY(window->OpenScenario(ScenarioPath("lc_circuit.yaml")));
  QCOMPARE(window->history().stack()->count(), 0);
}

void WorkbenchStateGuiTest::sessionRoundTrip() {
  const QString session_path = dir_.filePath("work.session.json");
  dirac::ui::SceneView::CameraPose pose;
  std::vector<dirac::PlotSpec> charts;
  std::shared_ptr<const dirac::Trajectory> pinned;
  {
    auto window = OpenWindow();
    QVERIFY(window);
    QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
    QVERIFY(WaitForRun(*window));
    QVERIFY(window->pins().Pin());  // the run at ky = 2
    pinned = window->pins().pinned();
    auto* ky = window->findChild<QDoubleSpinBox*>("parameter.ky");
    std::uint64_t run = LatestRun(*window);
    ky->setValue(2.75);
    QVERIFY(WaitForRun(*window, run));
    QVERIFY(window->plot_panel()->AddPlot("x"));
    charts = window->plot_panel()->plot_specs();
    QCOMPARE(charts.size(), std::size_t{4});
    pose = window->scene_view()->camera_pose();
    pose.position = {pose.position[0] + 1.25, pose.position[1] - 0.5, pose.position[2] + 0.75};
    pose.view_angle = 25.0;
    window->scene_view()->SetCameraPose(pose);
    window->actions().loop->setChecked(true);
    window->clock()->SetTime(2.5);
    QVERIFY(window->session().Save(session_path));
  }
  QVERIFY(QFileInfo::exists(session_path));
  QVERIFY(QFileInfo::exists(dirac::ui::PinnedCsvPath(session_path)));
  qInfo("%s", ReadBytes(session_path).constData());

  auto window = OpenWindow();
  QVERIFY(window);
  QSignalSpy restored(&window->session(), &dirac::ui::SessionReaction::restored);
  QVERIFY(window->session().Open(session_path));
  QVERIFY(restored.wait(dirac::ui::testing::kRunTimeoutMs) || restored.count() == 1);
  QCOMPARE(QFileInfo(window->scenario_path()).fileName(), QString("heisenberg.yaml"));
  QCOMPARE(Value(*window, "ky"), 2.75);
  QCOMPARE(Value(*window, "t_end"), 5.0);
  QCOMPARE(window->state().overrides(), QStringList({"t_end=5", "ky=2.75"}));
  const auto now = window->scene_view()->camera_pose();
  for (int k = 0; k < 3; ++k) {
    QCOMPARE(now.position[k], pose.position[k]);
    QCOMPARE(now.focal_point[k], pose.focal_point[k]);
    QCOMPARE(now.view_up[k], pose.view_up[k]);
  }
  QCOMPARE(now.view_angle, 25.0);
  const auto& shown = window->plot_panel()->plot_specs();
  QCOMPARE(shown.size(), charts.size());
  for (std::size_t i = 0; i < charts.size(); ++i) {
    QCOMPARE(shown[i].title, charts[i].title);
    QCOMPARE(shown[i].series, charts[i].series);
  }
  QVERIFY(window->plot_panel()->has_overlay(dirac::ui::PlotPanel::kPinned));
  const auto& back = window->pins().pinned();
  QVERIFY(back);
  QCOMPARE(back->num_rows(), pinned->num_rows());
  QCOMPARE(back->columns(), pinned->columns());
  for (const char* column : {"t", "x", "y", "z", "mu"}) {
    const auto a = pinned->Column(column), b = back->Column(column);
    for (std::size_t i = 0; i < a.size(); ++i) QCOMPARE(b[i], a[i]);  // 17 digits read back
  }
  QVERIFY(window->pins().pinned_label().contains("ky = 2"));
  QVERIFY(window->actions().loop->isChecked());
  QCOMPARE(window->clock()->time(), 2.5);
}

void WorkbenchStateGuiTest::badSessionIsNamed() {
  const QString path = dir_.filePath("bad.session.json");
  QVERIFY(WriteBytes(path, R"({"format": "dirac-studio-session", "version": 1, "overrides": []})"));
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(!window->session().Open(path));
  qInfo("%s", qPrintable(window->last_error()));
  QVERIFY(window->last_error().contains("bad.session.json"));
  QVERIFY(window->last_error().contains("scenario"));
  QVERIFY(WriteBytes(path, "{\"format\": "));
  QVERIFY(!window->session().Open(path));
  QVERIFY(window->last_error().contains("invalid JSON"));
}

void WorkbenchStateGuiTest::sessionArgumentBeforeQt() {
  // Qt takes "--session" for its X11 session id: the app takes it out of argv first.
  QByteArray a0("dirac-studio"), a1("--session"), a2("work.json"), a3("--play-to"), a4("2");
  char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), nullptr};
  int argc = 5;
  QCOMPARE(dirac::ui::TakeSessionArguments(argc, argv), QStringList({"--session", "work.json"}));
  QCOMPARE(argc, 3);
  QCOMPARE(QByteArray(argv[1]), QByteArray("--play-to"));
  QCOMPARE(argv[3], nullptr);
  QString error;
  int code = 0;
  const auto options = dirac::ui::ParseStudioOptions(
      {"dirac-studio", "--play-to", "2", "--session", "work.json"}, &error, &code);
  QVERIFY(options);
  QCOMPARE(options->session, QString("work.json"));
  QVERIFY(!dirac::ui::ParseStudioOptions({"dirac-studio", "x.yaml", "--session", "work.json"},
                                         &error, &code));
  QCOMPARE(code, 2);
  QVERIFY(error.contains("--session"));
}

void WorkbenchStateGuiTest::lastSessionSavedOnClose() {
  // "Reopen last session on start": the window saves its state when it closes (interactive
  // runs, whose settings were restored); dirac-studio opens that file on the next start.
  QFile::remove(dirac::ui::SessionReaction::LastSessionPath());
  auto window = OpenWindow();
  QVERIFY(window);
  window->RestoreSettings();
  window->findChild<QAction*>("action.reopenLastSession")->setChecked(true);
  QVERIFY(dirac::ui::SessionReaction::ReopenLastOnStart());
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=4"}));
  QVERIFY(WaitForRun(*window));
  const std::uint64_t run = LatestRun(*window);
  window->findChild<QDoubleSpinBox*>("parameter.kx")->setValue(2.5);
  QVERIFY(WaitForRun(*window, run));
  window->close();
  const dirac::ui::Session last =
      dirac::ui::ReadSession(dirac::ui::SessionReaction::LastSessionPath());
  QCOMPARE(QFileInfo(last.scenario).fileName(), QString("heisenberg.yaml"));
  QCOMPARE(last.overrides, QStringList({"t_end=4", "kx=2.5"}));
  dirac::ui::SessionReaction::SetReopenLastOnStart(false);
}

void WorkbenchStateGuiTest::editMenuAndHistoryPictures() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=5"}));
  QVERIFY(WaitForRun(*window));
  for (const auto& [name, value] :
       {std::pair{"parameter.kx", 1.5}, {"parameter.ky", 3.0}, {"parameter.kx", 0.75}}) {
    const std::uint64_t run = LatestRun(*window);
    window->findChild<QDoubleSpinBox*>(name)->setValue(value);
    QVERIFY(WaitForRun(*window, run));
  }
  window->actions().undo->trigger();
  QVERIFY(QTest::qWaitFor([&] { return !window->controller()->busy(); }, 60000));
  window->findChild<QAction*>("action.show.history")->trigger();
  auto* dock = window->findChild<QDockWidget*>("dock.history");
  QTRY_VERIFY(dock->isVisible());
  QCOMPARE(window->history().stack()->count(), 3);
  QCOMPARE(window->history().stack()->index(), 2);
  QTest::qWait(50);  // let the dock paint before the grab
  QVERIFY(window->GrabWindowImage().save(OutputPath("history_dock.png")));
  auto* edit = window->menuBar()->findChild<QMenu*>("menu.edit");
  QVERIFY(edit);
  edit->popup(window->mapToGlobal(QPoint(60, 30)));
  QTRY_VERIFY(edit->isVisible());
  QTest::qWait(50);
  QVERIFY(edit->grab().save(OutputPath("edit_menu.png")));
  QCOMPARE(window->actions().undo->text(), QString("&Undo ky = 3"));
  QCOMPARE(window->actions().redo->text(), QString("&Redo kx = 0.75"));
  edit->close();
}

QTEST_MAIN(WorkbenchStateGuiTest)
#include "workbench_state_gui_test.moc"
