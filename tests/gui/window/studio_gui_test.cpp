// GUI tests of the workbench window, run under Xvfb (see CMakeLists.txt): the real MainWindow
// with the shipped Heisenberg scenario, driven through its widgets by objectName.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QSet>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "gui_test_support.hpp"
#include "panels/constraint_panel.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/particle_scene.hpp"
#include "scenes/scene_registry.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::CurveDifference;
using dirac::ui::testing::IsCoolBlue;
using dirac::ui::testing::IsWarmRed;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

// A pixel the particle's saturated orange (255, 140, 0) can shade to under lighting.
bool IsParticleOrange(QRgb c) {
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return r > 120 && g > 0.35 * r && g < 0.75 * r && b < 0.25 * r;
}

// A pixel of the comparison trajectory's magenta (235, 60, 235), possibly shaded or faded.
bool IsComparisonMagenta(QRgb c) {
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return r > 110 && b > 110 && g < 0.6 * std::min(r, b) && std::abs(r - b) < 0.3 * r;
}

struct ImageStats {
  int orange = 0;
  int magenta = 0;
  int distinct_colors = 0;
};

ImageStats Analyze(const QImage& image, const QRect& region) {
  ImageStats stats;
  QSet<QRgb> colors;
  const QRect r = region.intersected(image.rect());
  for (int y = r.top(); y <= r.bottom(); ++y) {
    for (int x = r.left(); x <= r.right(); ++x) {
      const QRgb c = image.pixel(x, y) & 0xffffff;
      if (IsParticleOrange(c)) ++stats.orange;
      if (IsComparisonMagenta(c)) ++stats.magenta;
      if (colors.size() < 5000) colors.insert(c);
    }
  }
  stats.distinct_colors = static_cast<int>(colors.size());
  return stats;
}

// Index of the plot showing `column` as its first series, -1 if none.
int PlotShowing(const MainWindow& window, const std::string& column) {
  const auto& plots = window.controller()->scenario().plots;
  for (std::size_t i = 0; i < plots.size(); ++i) {
    if (!plots[i].series.empty() && plots[i].series.front() == column) return static_cast<int>(i);
  }
  return -1;
}

void SendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
  QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &event);
}

}  // namespace

class StudioGuiTest : public QObject {
  Q_OBJECT

 private:
 private slots:
  void heisenbergRunParameterChangeExportAndScreenshot();
  void scrubPlaybackAndMouseDoNotCrash();
  void editFrameReachesTheScreen();
  void longRunStreamsSnapshotsAndRestartsOnEdit();
  void badScenarioPathShowsError();
  void malformedScenarioAndUnknownOverrideShowErrors();
  void everyShippedScenarioOpensPlaysAndRenders();
  void vakonomicComparisonDrawsNonholonomicMotion();
};

void StudioGuiTest::heisenbergRunParameterChangeExportAndScreenshot() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  QVERIFY(window->controller()->model());

  // Plots: one chart per scenario plot entry, filled from the trajectory.
  const int mu_plot = PlotShowing(*window, "mu");
  QVERIFY2(mu_plot >= 0, "the scenario has no plot of mu");
  QCOMPARE(window->plot_panel()->plot_count(),
           static_cast<int>(window->controller()->scenario().plots.size()));
  const SnapshotPtr first = window->controller()->latest();
  const QList<QPointF> mu_before = window->plot_panel()->SeriesPoints(mu_plot, 0);
  QVERIFY(mu_before.size() > 10);
  const std::size_t rows = first->trajectory->num_rows();
  // Decimated to two points per pixel column of the plot area (between the panel's bounds), min
  // and max of each bucket.
  const int decimation = window->plot_panel()->displayed_points(mu_plot);
  QVERIFY2(decimation >= dirac::ui::PlotPanel::kMinDisplayedPoints &&
               decimation <= dirac::ui::PlotPanel::kMaxDisplayedPoints,
           qPrintable(QString::number(decimation)));
  QVERIFY(static_cast<std::size_t>(mu_before.size()) <= rows);
  QVERIFY(mu_before.size() <= decimation + 1);
  // Then simplified to within a quarter pixel: the curve drawn is the run's.
  QCOMPARE(mu_before,
           window->plot_panel()->DisplayedCurve(mu_plot, 0, first->trajectory->Column("t"),
                                                first->trajectory->Column("mu")));

  // Play a little: the cursor follows the clock and stops at the requested time.
  window->PlayTo(0.5);
  QTRY_VERIFY_WITH_TIMEOUT(!window->clock()->playing(), 10000);
  QCOMPARE(window->clock()->time(), 0.5);

  // Change ky through its editor in the parameter panel.
  auto* ky = window->findChild<QDoubleSpinBox*>("parameter.ky");
  QVERIFY2(ky, "no editor named parameter.ky");
  QVERIFY(window->findChild<QSlider*>("parameter.ky.slider"));
  const double old_ky = ky->value();
  const double new_ky = old_ky + 0.25 * (ky->maximum() - ky->minimum()) <= ky->maximum()
                            ? old_ky + 0.25 * (ky->maximum() - ky->minimum())
                            : ky->minimum() + 0.1 * (ky->maximum() - ky->minimum());
  ky->setValue(new_ky);
  QVERIFY2(WaitForRun(*window, first->run),
           qPrintable("run after the ky change did not finish: " + window->last_error()));
  const auto& scenario = window->controller()->scenario();
  QCOMPARE(scenario.parameters[*scenario.FindParameter("ky")].value, ky->value());

  const QList<QPointF> mu_after = window->plot_panel()->SeriesPoints(mu_plot, 0);
  const double plot_change = CurveDifference(mu_before, mu_after);
  QVERIFY2(plot_change > 1e-6,
           qPrintable(QString("mu plot unchanged by ky: max diff %1").arg(plot_change)));

  // Export through the menu action's code path and read the file back.
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString csv = dir.filePath("heisenberg.csv");
  QVERIFY2(window->csv_export().Export(csv), qPrintable(window->last_error()));
  const dirac::Trajectory read = dirac::ReadCsv(csv.toStdString());
  const SnapshotPtr second = window->controller()->latest();
  QVERIFY(read.columns() == window->controller()->model()->TrajectoryColumns());
  QCOMPARE(read.columns().front(), std::string("t"));
  for (const char* column : {"x", "y", "z", "vx", "vy", "vz", "mu", "E", "residual_heisenberg"}) {
    QVERIFY2(read.FindColumn(column), column);
  }
  QCOMPARE(read.num_rows(), second->trajectory->num_rows());
  const double t_end = window->controller()->scenario().simulation.t_end;
  QVERIFY(std::abs(read.at(read.num_rows() - 1, 0) - t_end) < 1e-9);
  const std::vector<double> mu_first = first->trajectory->Column("mu");
  const std::vector<double> mu_csv = read.Column("mu");
  double csv_change = 0.0;
  for (std::size_t i = 0; i < std::min(mu_first.size(), mu_csv.size()); ++i) {
    csv_change = std::max(csv_change, std::abs(mu_first[i] - mu_csv[i]));
  }
  QVERIFY2(csv_change > 1e-6, "exported mu does not show the ky change");
  QVERIFY(std::abs(read.at(read.num_rows() / 2, read.ColumnIndex("mu")) -
                   second->trajectory->at(read.num_rows() / 2, read.ColumnIndex("mu"))) == 0.0);

  // Save the tweaked scenario and reopen it: the ky edit is kept.
  const QString saved = dir.filePath("heisenberg_tweaked.yaml");
  QVERIFY2(window->scenario_saver().SaveAs(saved), qPrintable(window->last_error()));
  const dirac::Scenario reloaded = dirac::LoadScenario(saved.toStdString());
  QCOMPARE(reloaded.parameters[*reloaded.FindParameter("ky")].value, ky->value());

  // Screenshot: the 3D view shows the orange particle over a non-uniform scene.
  window->clock()->SetTime(0.5 * t_end);
  QTest::qWait(300);
  const QImage shot = window->GrabWindowImage();
  const QString shot_path = OutputPath("gui_test_window.png");
  QVERIFY2(shot.save(shot_path), qPrintable("cannot save " + shot_path));
  QVERIFY(!shot.isNull());
  dirac::ui::SceneView* view = window->scene_view();
  const QRect view_rect(view->mapTo(window.get(), QPoint(0, 0)), view->size());
  const ImageStats in_window = Analyze(shot, view_rect);
  const QImage scene = view->GrabImage();
  scene.save(OutputPath("gui_test_scene.png"));
  const ImageStats in_scene = Analyze(scene, scene.rect());
  const QString report = QString(
                             "window %1: %2 orange px, %3 colours in the 3D view; scene "
                             "image: %4 orange px, %5 colours")
                             .arg(shot_path)
                             .arg(in_window.orange)
                             .arg(in_window.distinct_colors)
                             .arg(in_scene.orange)
                             .arg(in_scene.distinct_colors);
  qInfo("%s", qPrintable(report));
  QVERIFY2(in_scene.orange >= 100, qPrintable("particle not visible in the 3D view: " + report));
  QVERIFY2(in_scene.distinct_colors > 20, qPrintable("3D view looks blank: " + report));
  QVERIFY2(in_window.orange >= 100, qPrintable("particle missing from the window grab: " + report));
  QVERIFY2(in_window.distinct_colors > 20, qPrintable("window grab looks blank: " + report));
  QVERIFY(window->last_error().isEmpty());
}

// An edit's 3D frame renders on the view's render thread while the charts fill
// (SceneView::StartFastFrame / FinishFrame): once editDrawn is emitted, the window on screen shows
// that frame (the grab of the view's rectangle equals the frame read back from VTK), and the
// frame shows the edited run (it differs from the previous edit's frame: ky bends the trail).
void StudioGuiTest::editFrameReachesTheScreen() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=10"}));
  QVERIFY(WaitForRun(*window));
  window->clock()->SetTime(5.0);
  QTest::qWait(400);  // the smooth frame after the pause
  dirac::ui::SceneView* view = window->scene_view();
  auto* ky = window->parameter_panel()->editor("ky");
  QVERIFY(ky);
  QImage before;  // the previous edit's frame
  for (int edit = 0; edit < 5; ++edit) {
    bool drawn = false;
    const auto connection =
        connect(window.get(), &MainWindow::editDrawn, window.get(), [&](double) { drawn = true; });
    ky->setValue(ky->value() + 0.25);
    QVERIFY(QTest::qWaitFor([&] { return drawn; }, kRunTimeoutMs));
    disconnect(connection);
    // No event processed since the frame was painted: what is on screen is the edit's frame.
    const QImage frame = view->frame().convertToFormat(QImage::Format_RGB888);
    const QImage shot = window->GrabWindowImage().convertToFormat(QImage::Format_RGB888);
    const QRect rect(view->mapTo(window.get(), QPoint(0, 0)), view->size());
    QCOMPARE(frame.size(), rect.size());  // device pixel ratio 1 under Xvfb
    double screen_vs_frame = 0.0, frame_vs_before = 0.0;
    for (int y = 0; y < frame.height(); y += 3) {
      for (int x = 0; x < frame.width(); x += 3) {
        const QRgb a = frame.pixel(x, y), b = shot.pixel(rect.x() + x, rect.y() + y);
        screen_vs_frame += std::abs(qGray(a) - qGray(b));
        if (!before.isNull()) frame_vs_before += std::abs(qGray(a) - qGray(before.pixel(x, y)));
      }
    }
    const double samples = std::ceil(frame.width() / 3.0) * std::ceil(frame.height() / 3.0);
    screen_vs_frame /= samples;
    frame_vs_before /= samples;
    const QString report = QString(
                               "edit %1: mean |grey difference| screen vs frame %2, frame vs "
                               "the previous edit's %3")
                               .arg(edit)
                               .arg(screen_vs_frame)
                               .arg(frame_vs_before);
    qInfo("%s", qPrintable(report));
    QVERIFY2(screen_vs_frame < 0.3, qPrintable(report));
    if (!before.isNull()) QVERIFY2(frame_vs_before > 0.5, qPrintable(report));
    before = frame;
  }
}

void StudioGuiTest::scrubPlaybackAndMouseDoNotCrash() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=3"}));
  QVERIFY(WaitForRun(*window));
  QCOMPARE(window->clock()->span(), 3.0);

  auto* slider = window->findChild<QSlider*>("playback.slider");
  QVERIFY(slider);
  slider->setValue(slider->maximum() / 2);
  QVERIFY(std::abs(window->clock()->time() - 1.5) < 1e-3);
  auto* label = window->findChild<QLabel*>("playback.time");
  QVERIFY(label && label->text().contains("1.500"));

  window->clock()->Reset();
  window->clock()->Step();
  QVERIFY(window->clock()->time() > 0.0);

  // Rotate, pan, zoom: forwarded to VTK's trackball style.
  QWidget* view = window->scene_view();
  const QPointF c(view->width() / 2.0, view->height() / 2.0);
  for (Qt::MouseButton button : {Qt::LeftButton, Qt::MiddleButton, Qt::RightButton}) {
    SendMouse(view, QEvent::MouseButtonPress, c, button, button);
    for (int i = 1; i <= 5; ++i) {
      SendMouse(view, QEvent::MouseMove, c + QPointF(12.0 * i, 7.0 * i), Qt::NoButton, button);
    }
    SendMouse(view, QEvent::MouseButtonRelease, c + QPointF(60, 35), button, Qt::NoButton);
  }
  QWheelEvent wheel(c, view->mapToGlobal(c), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(view, &wheel);
  window->scene_view()->ResetCamera();
  QTest::qWait(100);

  // A parameter drag: many edits in a row start one run after the hand rests, none crash.
  auto* kx_slider = window->findChild<QSlider*>("parameter.kx.slider");
  QVERIFY(kx_slider);
  const std::uint64_t before = window->controller()->latest()->run;
  for (int i = 0; i < 20; ++i) {
    kx_slider->setValue(kx_slider->maximum() * (i + 5) / 40);
    QTest::qWait(5);
  }
  QVERIFY(WaitForRun(*window, before));
  QVERIFY(window->last_error().isEmpty());
}

void StudioGuiTest::longRunStreamsSnapshotsAndRestartsOnEdit() {
  auto window = OpenWindow();
  QVERIFY(window);
  dirac::ui::SimulationController* controller = window->controller();
  int partial = 0;
  connect(controller, &dirac::ui::SimulationController::snapshotReady, this,
          [&partial](const SnapshotPtr& s) { partial += s->complete ? 0 : 1; });
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=3000"}));
  window->clock()->Play();
  QVERIFY2(QTest::qWaitFor([&] { return partial > 0; }, kRunTimeoutMs), "no partial snapshot");
  const SnapshotPtr running = controller->latest();
  QVERIFY(running && !running->complete && controller->busy());
  // Playback follows the computation: never past the newest sample.
  QVERIFY(window->clock()->available() < window->clock()->span());
  QVERIFY(window->clock()->time() <= running->last_time() + 1e-12);
  QVERIFY(window->plot_panel()->SeriesPoints(0, 0).size() > 0);

  // Editing a parameter mid-run cancels that run; the next one uses the new value.
  auto* ky = window->findChild<QDoubleSpinBox*>("parameter.ky");
  QVERIFY(ky);
  ky->setValue(ky->minimum() + 0.3 * (ky->maximum() - ky->minimum()));
  const std::size_t ky_index = *controller->scenario().FindParameter("ky");
  QVERIFY(QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = controller->latest();
        return s && s->run > running->run && !s->complete;
      },
      kRunTimeoutMs));
  const SnapshotPtr restarted = controller->latest();
  QCOMPARE(restarted->parameters[ky_index], ky->value());

  // Cancel stops the run and keeps the partial result.
  controller->Cancel();
  QVERIFY(!controller->busy());
  QTest::qWait(300);
  QVERIFY(!controller->latest()->complete);
  QVERIFY(window->csv_export().Export(OutputPath("partial_run.csv")));

  window->clock()->Pause();
  controller->Restart();
  QVERIFY(WaitForRun(*window, restarted->run));
  QCOMPARE(controller->latest()->parameters[ky_index], ky->value());
  QVERIFY(std::abs(controller->latest()->last_time() - 3000.0) < 1e-6);
  QCOMPARE(window->clock()->available(), 3000.0);
}

void StudioGuiTest::badScenarioPathShowsError() {
  QVERIFY2(!QApplication::windowIcon().isNull(), "application icon not in the resources");
  auto window = OpenWindow();
  QVERIFY(window);
  window->set_error_dialogs(true);
  const QString missing = OutputPath("does-not-exist.yaml");
  QVERIFY(!window->OpenScenario(missing));
  QVERIFY2(window->last_error().contains("does-not-exist.yaml"), qPrintable(window->last_error()));
  auto* status = window->findChild<QLabel*>("status.error");
  QVERIFY(status && status->text().contains("does-not-exist.yaml"));
  auto* dialog = window->findChild<QMessageBox*>("errorDialog");
  QVERIFY2(dialog, "no error dialog");
  QVERIFY(dialog->text().contains("does-not-exist.yaml"));
  dialog->close();

  // The window is still usable: a good scenario loads afterwards and clears the error.
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=1"}));
  QVERIFY(window->last_error().isEmpty());
  QVERIFY(WaitForRun(*window));
  // Exporting to an unwritable place is an error message, not a crash.
  window->set_error_dialogs(false);
  QVERIFY(!window->csv_export().Export("/nonexistent-folder/out.csv"));
  QVERIFY(!window->scenario_saver().SaveAs("/nonexistent-folder/x.yaml"));
  QVERIFY(!window->last_error().isEmpty());
}

void StudioGuiTest::malformedScenarioAndUnknownOverrideShowErrors() {
  auto window = OpenWindow();
  QVERIFY(window);
  QTemporaryDir dir;
  const QString bad = dir.filePath("broken.yaml");
  QFile file(bad);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("name: broken\ncoordinates: [ {name: x\nlagrangian: : :\n");
  file.close();
  QVERIFY(!window->OpenScenario(bad));
  QVERIFY2(window->last_error().contains("broken.yaml"), qPrintable(window->last_error()));

  QVERIFY(!window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"no_such_symbol=1"}));
  QVERIFY2(window->last_error().contains("no_such_symbol"), qPrintable(window->last_error()));
  QVERIFY(!window->csv_export().Export(dir.filePath("nothing.csv")));  // nothing computed: an error

  // An unknown scene type: the 3D view explains itself, the rest of the window works.
  QFile original(ScenarioPath("heisenberg.yaml"));
  QVERIFY(original.open(QIODevice::ReadOnly));
  QByteArray text = original.readAll();
  QVERIFY(text.contains("type: particle"));
  text.replace("type: particle", "type: no_such_scene");
  const QString unknown_scene = dir.filePath("unknown_scene.yaml");
  QFile copy(unknown_scene);
  QVERIFY(copy.open(QIODevice::WriteOnly));
  copy.write(text);
  copy.close();
  QVERIFY(window->OpenScenario(unknown_scene, {"t_end=1"}));
  QVERIFY(WaitForRun(*window));
  QVERIFY2(window->last_error().contains("no_such_scene"), qPrintable(window->last_error()));
  QVERIFY(window->plot_panel()->SeriesPoints(0, 0).size() > 10);
  QVERIFY(window->csv_export().Export(dir.filePath("unknown_scene.csv")));
}

void StudioGuiTest::everyShippedScenarioOpensPlaysAndRenders() {
  const QStringList files = QDir(DIRAC_SCENARIO_DIR).entryList({"*.yaml"}, QDir::Files);
  QVERIFY2(files.size() >= 6, qPrintable("shipped scenarios: " + files.join(", ")));
  auto window = OpenWindow();
  QVERIFY(window);
  for (const QString& file : files) {
    QVERIFY2(window->OpenScenario(QStringLiteral(DIRAC_SCENARIO_DIR "/") + file),
             qPrintable(file + ": " + window->last_error()));
    QVERIFY2(WaitForRun(*window), qPrintable(file + ": run failed: " + window->last_error()));
    const auto model = window->controller()->model();
    QVERIFY(model);
    const std::string& type = window->controller()->scenario().scene.type;
    const auto types = dirac::ui::SceneRegistry::WithBuiltinScenes().types();
    const bool drawable = std::find(types.begin(), types.end(), type) != types.end();
    if (drawable) {
      QVERIFY2(window->last_error().isEmpty(), qPrintable(file + ": " + window->last_error()));
      QVERIFY2(window->scene_view()->scene(), qPrintable(file + ": no 3D scene"));
    } else {
      // A scene type without a builder yet: the run and the plots work, the view says why.
      qWarning("%s: no scene builder for scene.type '%s' yet", qPrintable(file), type.c_str());
      QVERIFY2(window->last_error().contains(QString::fromStdString(type)),
               qPrintable(file + ": " + window->last_error()));
    }

    // Plots: the scenario's, plus the hidden-constraint residuals if the algorithm found any
    // and the run shown carries them (a solve by collocation shows its mesh nodes' states,
    // controls and cost).
    const auto shown = window->controller()->latest();
    QVERIFY(shown && shown->trajectory);
    const auto columns = shown->trajectory->columns();
    const bool hidden = std::any_of(columns.begin(), columns.end(), [](const std::string& c) {
      return c.rfind("residual_hidden", 0) == 0;
    });
    // Charts against time; the phase portraits and sections (plots with pairs) come after them.
    const auto& plots = window->controller()->scenario().plots;
    const int phase_plots = static_cast<int>(std::count_if(
        plots.begin(), plots.end(), [](const auto& p) { return p.is_phase_portrait(); }));
    const int scenario_plots = static_cast<int>(plots.size()) - phase_plots;
    QCOMPARE(window->plot_panel()->plot_count(), scenario_plots + (hidden ? 1 : 0));
    QCOMPARE(window->plot_panel()->phase_plot_count(), phase_plots);
    if (hidden) {
      QCOMPARE(window->plot_panel()->chart(scenario_plots)->title(),
               QStringLiteral("Hidden-constraint residuals"));
      const QList<QPointF> residual = window->plot_panel()->SeriesPoints(scenario_plots, 0);
      QVERIFY(residual.size() >= 2);  // a flat residual is one segment
      double worst = 0.0;
      for (const QPointF& p : residual) worst = std::max(worst, std::abs(p.y()));
      QVERIFY2(worst < 1e-8, qPrintable(QString("%1: hidden residual %2").arg(file).arg(worst)));
    }

    if (!drawable) continue;

    // Play (fast) to 40% of the span; the 3D view shows the orange particle.
    const double t_end = window->controller()->scenario().simulation.t_end;
    window->clock()->SetSpeed(std::max(1.0, t_end / 2.0));
    window->PlayTo(0.4 * t_end);
    QTRY_VERIFY_WITH_TIMEOUT(!window->clock()->playing(), 20000);
    QVERIFY(std::abs(window->clock()->time() - 0.4 * t_end) < 1e-9);
    QTest::qWait(150);
    const QImage scene = window->scene_view()->GrabImage();
    const QString name = QFileInfo(file).completeBaseName();
    scene.save(OutputPath("scene_") + name + ".png");
    const ImageStats stats = Analyze(scene, scene.rect());
    const QString report = QString("%1: %2 orange px, %3 colours")
                               .arg(file)
                               .arg(stats.orange)
                               .arg(stats.distinct_colors);
    qInfo("%s", qPrintable(report));
    if (type == "vorticity_torus") {  // a field, not a body: both ends of the cool-warm map
      int warm = 0, cool = 0;
      for (int y = 0; y < scene.height(); ++y)
        for (int x = 0; x < scene.width(); ++x) {
          warm += IsWarmRed(scene.pixel(x, y));
          cool += IsCoolBlue(scene.pixel(x, y));
        }
      QVERIFY2(warm >= 400 && cool >= 400,
               qPrintable(
                   QString("vorticity map not visible: %1 warm, %2 cool px").arg(warm).arg(cool)));
    } else {
      QVERIFY2(stats.orange >= 40, qPrintable("particle not visible: " + report));
    }
    QVERIFY2(stats.distinct_colors > 20, qPrintable("3D view looks blank: " + report));
  }
}

void StudioGuiTest::vakonomicComparisonDrawsNonholonomicMotion() {
  auto window = OpenWindow();
  QVERIFY(window);
  auto* compare = window->findChild<QAction*>("compare.nonholonomic");
  QVERIFY2(compare, "no action named compare.nonholonomic");
  QVERIFY(compare == window->compare_action());

  // Not offered for a scenario that is not vakonomic.
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=1"}));
  QVERIFY(!compare->isEnabled());

  QVERIFY(window->OpenScenario(ScenarioPath("vakonomic_heisenberg.yaml")));
  QVERIFY(compare->isEnabled() && compare->isCheckable());
  QVERIFY(WaitForRun(*window));
  QVERIFY(!window->controller()->latest()->comparison);
  const std::uint64_t before = window->controller()->latest()->run;
  compare->trigger();
  QVERIFY(compare->isChecked());
  QVERIFY(WaitForRun(*window, before));
  const SnapshotPtr snapshot = window->controller()->latest();
  QVERIFY2(snapshot->comparison, snapshot->comparison_error.c_str());
  QVERIFY(snapshot->comparison_error.empty());
  QVERIFY(QString::fromStdString(snapshot->comparison_label).contains("nonholonomic"));

  // Vakonomic: the xy-path is the circle of radius 1 around (0, -1). Nonholonomic from the same
  // point and velocity: the straight line y = 0, far from that circle.
  const dirac::Trajectory& vakonomic = *snapshot->trajectory;
  const dirac::Trajectory& nonholonomic = *snapshot->comparison;
  QVERIFY(vakonomic.num_rows() > 100 && nonholonomic.num_rows() > 100);
  QCOMPARE(vakonomic.num_rows(), nonholonomic.num_rows());
  auto circle_distance = [](const dirac::Trajectory& tr, std::size_t r) {
    const double x = tr.at(r, tr.ColumnIndex("x")), y = tr.at(r, tr.ColumnIndex("y"));
    return std::abs(std::hypot(x, y + 1.0) - 1.0);
  };
  double on_circle = 0.0, off_circle = 0.0, off_line = 0.0;
  for (std::size_t r = 0; r < vakonomic.num_rows(); ++r) {
    on_circle = std::max(on_circle, circle_distance(vakonomic, r));
    off_circle = std::max(off_circle, circle_distance(nonholonomic, r));
    off_line = std::max(off_line, std::abs(nonholonomic.at(r, nonholonomic.ColumnIndex("y"))));
  }
  QVERIFY2(on_circle < 1e-6, qPrintable(QString("vakonomic off the circle by %1").arg(on_circle)));
  QVERIFY2(off_line < 1e-9, qPrintable(QString("nonholonomic off y = 0 by %1").arg(off_line)));
  QVERIFY2(off_circle > 1.0, qPrintable(QString("nonholonomic too close: %1").arg(off_circle)));
  const std::size_t last = nonholonomic.num_rows() - 1;
  QVERIFY(std::abs(nonholonomic.at(last, nonholonomic.ColumnIndex("x")) -
                   nonholonomic.at(last, 0)) < 1e-6);  // x = t: unit speed along x

  // Drawn in the same 3D view in magenta, with a legend line.
  auto* scene = dynamic_cast<dirac::ui::ParticleScene*>(window->scene_view()->scene());
  QVERIFY(scene);
  QCOMPARE(scene->comparison_path_points(), nonholonomic.num_rows());
  QVERIFY2(QString::fromStdString(scene->legend_text()).contains("magenta: nonholonomic"),
           scene->legend_text().c_str());
  window->clock()->SetTime(8.0);
  QTest::qWait(200);
  const QImage image = window->scene_view()->GrabImage();
  image.save(OutputPath("scene_vakonomic_compare.png"));
  const ImageStats stats = Analyze(image, image.rect());
  qInfo("comparison view: %d orange px, %d magenta px", stats.orange, stats.magenta);
  QVERIFY2(stats.magenta >= 40, "the comparison trajectory is not visible");
  QVERIFY(stats.orange >= 40);

  // Off again: the next run has no comparison and the scene drops it.
  const std::uint64_t with = snapshot->run;
  compare->trigger();
  QVERIFY(WaitForRun(*window, with));
  QVERIFY(!window->controller()->latest()->comparison);
  QCOMPARE(scene->comparison_path_points(), std::size_t{0});
  QVERIFY(!QString::fromStdString(scene->legend_text()).contains("magenta"));
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  StudioGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "studio_gui_test.moc"
