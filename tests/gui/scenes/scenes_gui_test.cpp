// GUI tests of the rigid_body, planar_bodies and rolling_disk scene types, run under Xvfb (see
// CMakeLists.txt): the real MainWindow with the shipped rigid-body, Elroy's-beanie and rolling
// disk scenarios, driven through
// its widgets by objectName; the 3D view is checked in the rendered image.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMouseEvent>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/planar_bodies_scene.hpp"
#include "scenes/rigid_body_scene.hpp"
#include "scenes/rolling_disk_scene.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::PlanarBodiesScene;
using dirac::ui::RigidBodyScene;
using dirac::ui::RollingDiskScene;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::CurveDifference;
using dirac::ui::testing::IsOrange;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

// The rotor's blue (20, 150, 255) under lighting.
bool IsRotorBlue(QRgb c) {
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return b > 140 && r < 0.35 * b && g > 0.4 * b && g < 0.8 * b;
}

struct ImageStats {
  int orange = 0;
  int blue = 0;
  int distinct_colors = 0;
};

ImageStats Analyze(const QImage& image) {
  ImageStats stats;
  QSet<QRgb> colors;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const QRgb c = image.pixel(x, y) & 0xffffff;
      if (IsOrange(c)) ++stats.orange;
      if (IsRotorBlue(c)) ++stats.blue;
      if (colors.size() < 5000) colors.insert(c);
    }
  }
  stats.distinct_colors = static_cast<int>(colors.size());
  return stats;
}

// Every displayed series of every plot.
std::vector<QList<QPointF>> AllSeries(const MainWindow& window) {
  std::vector<QList<QPointF>> all;
  const auto& plots = window.controller()->scenario().plots;
  for (std::size_t i = 0; i < plots.size(); ++i) {
    for (std::size_t k = 0; k < plots[i].series.size(); ++k) {
      all.push_back(window.plot_panel()->SeriesPoints(static_cast<int>(i), static_cast<int>(k)));
    }
  }
  return all;
}

void SendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
  QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &event);
}

// A copy of a shipped scenario with one piece of text replaced, in `dir`.
QString EditedScenario(const QTemporaryDir& dir, const QString& file, const QByteArray& from,
                       const QByteArray& to) {
  QFile original(ScenarioPath(file));
  if (!original.open(QIODevice::ReadOnly)) return {};
  QByteArray text = original.readAll();
  if (!text.contains(from)) return {};
  text.replace(from, to);
  const QString path = dir.filePath("edited_" + file);
  QFile copy(path);
  if (!copy.open(QIODevice::WriteOnly)) return {};
  copy.write(text);
  return path;
}

}  // namespace

class ScenesGuiTest : public QObject {
  Q_OBJECT

 private:
  static bool PlayTo(MainWindow& window, double t) {
    window.clock()->SetSpeed(std::max(1.0, window.controller()->scenario().simulation.t_end / 2));
    window.PlayTo(t);
    return QTest::qWaitFor([&] { return !window.clock()->playing(); }, 20000) &&
           std::abs(window.clock()->time() - t) < 1e-9;
  }

 private slots:
  void scenarioPlaysEditsAndRenders_data();
  void scenarioPlaysEditsAndRenders();
  void planarCameraFollowsAndYieldsToTheUser();
  void obstacleMarkerAndFixedCameraFrameTheWholePath();
  void rollingDiskLeansOnItsContactPoint();
  void groundFillingTheViewIsTheClearColour();
  void badSceneSpecsShowMessages();
  void missingColumnsInSnapshotShowMessage();
};

void ScenesGuiTest::scenarioPlaysEditsAndRenders_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<bool>("planar");
  QTest::newRow("rigid_body") << "rigid_body.yaml" << false;
  QTest::newRow("suslov") << "suslov.yaml" << false;
  QTest::newRow("elroys_beanie") << "elroys_beanie.yaml" << true;
  QTest::newRow("elroys_beanie_unreduced") << "elroys_beanie_unreduced.yaml" << true;
}

void ScenesGuiTest::scenarioPlaysEditsAndRenders() {
  QFETCH(QString, file);
  QFETCH(bool, planar);
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, file);
  QVERIFY2(window->last_error().isEmpty(), qPrintable(window->last_error()));
  dirac::ui::DrawnScene* scene = window->scene_view()->scene();
  QVERIFY2(scene, "no 3D scene");
  auto* rigid = dynamic_cast<RigidBodyScene*>(scene);
  auto* bodies = dynamic_cast<PlanarBodiesScene*>(scene);
  QVERIFY2(planar ? bodies != nullptr : rigid != nullptr, "wrong scene type");
  const SnapshotPtr first = window->controller()->latest();
  const dirac::Trajectory& trajectory = *first->trajectory;
  const double t_end = window->controller()->scenario().simulation.t_end;

  // Play to 40% of the span: the scene shows the trajectory's state at the cursor.
  const double t = 0.4 * t_end;
  QVERIFY(PlayTo(*window, t));
  QTest::qWait(100);
  const std::size_t row = trajectory.RowAtTime(t);
  if (rigid) {
    QVERIFY(rigid->message_text().empty());
    const std::array<double, 9>& R = rigid->attitude();
    const char* names[9] = {"R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33"};
    for (int k = 0; k < 9; ++k)
      QCOMPARE(R[k], trajectory.at(row, trajectory.ColumnIndex(names[k])));
    QVERIFY2(std::abs(R[0] - 1.0) > 1e-3, "the body has not turned");
    QVERIFY(rigid->shows_momentum());  // both scenarios record the spatial momentum
    QVERIFY(QString::fromStdString(rigid->legend_text()).contains("body axes"));
  } else {
    QVERIFY(bodies->message_text().empty());
    QCOMPARE(bodies->body_count(), std::size_t{2});
    const auto main_pose = bodies->pose(0), rotor_pose = bodies->pose(1);
    const double x = trajectory.at(row, trajectory.ColumnIndex("x"));
    const double theta = trajectory.at(row, trajectory.ColumnIndex("theta"));
    const double psi = trajectory.at(row, trajectory.ColumnIndex("psi"));
    QCOMPARE(main_pose[0], x);
    QVERIFY(x > 1.0);  // drifted along x
    QCOMPARE(main_pose[2], theta);
    QVERIFY(std::abs(rotor_pose[2] - (theta + psi)) < 1e-12);
    QVERIFY2(bodies->camera_following(), "the top view is not steered by the scene");
    QVERIFY(QString::fromStdString(bodies->legend_text()).contains("rotor"));
  }

  // Change the inertia I2 through its editor: a new run, and the plots change.
  const std::vector<QList<QPointF>> before = AllSeries(*window);
  auto* editor = window->findChild<QDoubleSpinBox*>("parameter.I2");
  QVERIFY2(editor, "no editor named parameter.I2");
  const double old_value = editor->value();
  const double step = 0.25 * (editor->maximum() - editor->minimum());
  const double new_value =
      old_value + step <= editor->maximum() ? old_value + step : old_value - step;
  editor->setValue(new_value);
  QVERIFY2(WaitForRun(*window, first->run),
           qPrintable("run after the I2 change did not finish: " + window->last_error()));
  const auto& scenario = window->controller()->scenario();
  QCOMPARE(scenario.parameters[*scenario.FindParameter("I2")].value, editor->value());
  const double change = CurveDifference(before, AllSeries(*window));
  QVERIFY2(change > 1e-6, qPrintable(QString("plots unchanged by I2: max diff %1").arg(change)));
  QVERIFY(window->last_error().isEmpty());

  // Screenshots: the bodies' colours cover a good part of a non-uniform 3D view, also late in
  // the run when the beanie has drifted far from the origin.
  for (const double fraction : {0.5, 1.0}) {
    window->clock()->SetTime(fraction * t_end);
    QTest::qWait(250);
    const QString name =
        QFileInfo(file).completeBaseName() + (fraction < 1.0 ? QString("_mid") : QString("_end"));
    const QImage shot = window->GrabWindowImage();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.save(OutputPath("scenes_window_" + name + ".png")));
    const QImage image = window->scene_view()->GrabImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.save(OutputPath("scenes_view_" + name + ".png")));
    const ImageStats stats = Analyze(image);
    const double share = static_cast<double>(stats.orange) / (image.width() * image.height());
    const QString report = QString("%1: %2 orange px (%3%), %4 blue px, %5 colours")
                               .arg(name)
                               .arg(stats.orange)
                               .arg(100.0 * share, 0, 'f', 2)
                               .arg(stats.blue)
                               .arg(stats.distinct_colors);
    qInfo("%s", qPrintable(report));
    QVERIFY2(share > 0.01, qPrintable("body hardly visible: " + report));
    QVERIFY2(stats.distinct_colors > 50, qPrintable("3D view looks blank: " + report));
    if (planar) QVERIFY2(stats.blue > 300, qPrintable("rotor not visible: " + report));
  }
}

// The rolling disk in 3D: the disk stands on the contact point of the trajectory, its centre R
// away along the leaning normal (height R cos(alpha), offset R sin(alpha) across the heading),
// its axle perpendicular to the heading and to the contact-centre line; an edit of R redraws it
// with the new radius; the disk is visible in the rendered view.
void ScenesGuiTest::rollingDiskLeansOnItsContactPoint() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rolling_disk.yaml");
  auto* disk = dynamic_cast<RollingDiskScene*>(window->scene_view()->scene());
  QVERIFY2(disk, "rolling_disk.yaml is not drawn by the rolling_disk scene");
  QVERIFY(QString::fromStdString(disk->legend_text()).contains("contact point"));
  const double t_end = window->controller()->scenario().simulation.t_end;
  double alpha = 0.0;  // at the last check_pose
  auto check_pose = [&](double R) {
    const SnapshotPtr latest = window->controller()->latest();
    const dirac::Trajectory& trajectory = *latest->trajectory;
    const std::size_t row = trajectory.RowAtTime(window->clock()->time());
    const char* names[5] = {"x", "y", "theta", "alpha", "phi"};
    const std::array<double, 5> pose = disk->pose();
    for (int k = 0; k < 5; ++k)
      QCOMPARE(pose[k], trajectory.at(row, trajectory.ColumnIndex(names[k])));
    const auto [x, y, theta, tilt, phi] = pose;
    alpha = tilt;
    const dirac::ui::Vec3 c = disk->centre(), a = disk->axle();
    QVERIFY(std::abs(disk->radius() - R) < 1e-15);
    QVERIFY(std::abs(c[2] - R * std::cos(alpha)) < 1e-12);
    // Offset across the heading, to the right of the direction of rolling when alpha > 0.
    QVERIFY(std::abs((c[0] - x) - R * std::sin(alpha) * std::sin(theta)) < 1e-12);
    QVERIFY(std::abs((c[1] - y) + R * std::sin(alpha) * std::cos(theta)) < 1e-12);
    QVERIFY(std::abs(a[0] * std::cos(theta) + a[1] * std::sin(theta)) < 1e-12);
    QVERIFY(std::abs(a[0] * (c[0] - x) + a[1] * (c[1] - y) + a[2] * c[2]) < 1e-12);
    QVERIFY(std::abs(std::hypot(a[0], a[1], a[2]) - 1.0) < 1e-12);
  };
  QVERIFY(PlayTo(*window, 0.3 * t_end));
  check_pose(0.3);
  if (QTest::currentTestFailed()) return;
  const double alpha1 = alpha;
  QVERIFY(alpha1 > 0.2 && alpha1 < 0.31);  // leaning (the scenario: 0.23 .. 0.30 rad)
  QVERIFY(PlayTo(*window, 0.31 * t_end));
  check_pose(0.3);
  if (QTest::currentTestFailed()) return;
  QVERIFY2(std::abs(alpha - alpha1) > 1e-4, "the tilt does not wobble");

  // The screenshot: the orange disk in a non-uniform view.
  QTest::qWait(250);
  const QImage image = window->scene_view()->GrabImage();
  QVERIFY(!image.isNull());
  QVERIFY(image.save(OutputPath("scenes_view_rolling_disk.png")));
  const ImageStats stats = Analyze(image);
  const double share = static_cast<double>(stats.orange) / (image.width() * image.height());
  const QString report = QString("rolling disk: %1 orange px (%2%), %3 colours")
                             .arg(stats.orange)
                             .arg(100.0 * share, 0, 'f', 2)
                             .arg(stats.distinct_colors);
  qInfo("%s", qPrintable(report));
  QVERIFY2(share > 0.002, qPrintable("disk hardly visible: " + report));
  QVERIFY2(stats.distinct_colors > 50, qPrintable("3D view looks blank: " + report));

  // An edit of the radius R: the scene follows the parameter, the new run is drawn with it.
  const SnapshotPtr first = window->controller()->latest();
  auto* editor = window->findChild<QDoubleSpinBox*>("parameter.R");
  QVERIFY2(editor, "no editor named parameter.R");
  editor->setValue(0.4);
  QVERIFY2(WaitForRun(*window, first->run), qPrintable(window->last_error()));
  QTest::qWait(50);
  window->clock()->SetTime(0.3 * t_end);
  check_pose(0.4);
}

// hovercraft_obstacle.yaml: the path constraint's circle drawn as a marker disc at the
// parameters' centre and radius (moved by an edit of xo), the fixed camera showing the whole
// path and the disc at every time, and the collocation solve filling the costate and
// Hamiltonian charts (no "no column" title).
void ScenesGuiTest::obstacleMarkerAndFixedCameraFrameTheWholePath() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "hovercraft_obstacle.yaml");
  auto* scene = dynamic_cast<PlanarBodiesScene*>(window->scene_view()->scene());
  QVERIFY(scene);
  QVERIFY(scene->fixed_camera());
  QCOMPARE(scene->markers().markers().size(), std::size_t{1});
  const auto& disc = scene->markers().markers()[0];
  QCOMPARE(disc.x, 2.0);
  QCOMPARE(disc.y, -0.2);
  QCOMPARE(disc.radius, 0.8);
  QVERIFY(QString::fromStdString(scene->legend_text()).contains("obstacle"));
  for (int i = 0; i < window->plot_panel()->plot_count(); ++i) {
    const QString title = window->plot_panel()->chart(i)->title();
    QVERIFY2(!title.contains("no column"), qPrintable(title));
  }
  QVERIFY(window->plot_panel()->FindPlot("Pontryagin Hamiltonian") >= 0);

  // The same view at t = 1 and t = 4, with the start, the end and the disc's far side in it.
  const dirac::Trajectory& run = *window->controller()->latest()->trajectory;
  std::vector<std::array<double, 2>> seen;
  for (const double t : {1.0, 4.0}) {
    window->clock()->SetTime(t);
    QTest::qWait(100);
    const QImage image = window->scene_view()->GrabImage();
    QVERIFY(image.save(
        OutputPath(t < 2 ? "scenes_view_hovercraft_1.png" : "scenes_view_hovercraft_4.png")));
    int red = 0;  // the disc's rim (235, 80, 80) and its dark red fill
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QRgb c = image.pixel(x, y);
        if (qRed(c) > 90 && qRed(c) > 2 * qGreen(c) && qRed(c) > 2 * qBlue(c)) ++red;
      }
    QVERIFY2(red > 2000, qPrintable(QString("the obstacle is hardly visible: %1 red px").arg(red)));
    const std::size_t last = run.num_rows() - 1;
    for (const auto& [x, y] :
         {std::pair{run.at(0, run.ColumnIndex("x")), run.at(0, run.ColumnIndex("y"))},
          std::pair{run.at(last, run.ColumnIndex("x")), run.at(last, run.ColumnIndex("y"))},
          std::pair{disc.x, disc.y - disc.radius}}) {
      const auto p = scene->DisplayPoint(x, y, 0.0);
      QVERIFY(p);
      QVERIFY2((*p)[0] > 0 && (*p)[0] < image.width() && (*p)[1] > 0 && (*p)[1] < image.height(),
               qPrintable(QString("(%1, %2) is out of view at t = %3").arg(x).arg(y).arg(t)));
      seen.push_back(*p);
    }
  }
  for (std::size_t k = 0; k < 3; ++k) {
    QVERIFY(std::abs(seen[k][0] - seen[k + 3][0]) < 1e-6);
    QVERIFY(std::abs(seen[k][1] - seen[k + 3][1]) < 1e-6);
  }

  // An edit of xo moves the disc (before the re-solve arrives) and the solve goes round it.
  const SnapshotPtr first = window->controller()->latest();
  auto* editor = window->findChild<QDoubleSpinBox*>("parameter.xo");
  QVERIFY2(editor, "no editor named parameter.xo");
  editor->setValue(2.5);
  QVERIFY(QTest::qWaitFor([&] { return scene->markers().markers()[0].x == 2.5; }, 2000));
  QVERIFY2(WaitForRun(*window, first->run), qPrintable(window->last_error()));
}

void ScenesGuiTest::planarCameraFollowsAndYieldsToTheUser() {
  auto window = OpenWindow();
  QVERIFY(window);
  // The top view (elroys_beanie.yaml is drawn in 3D).
  QVERIFY(window->OpenScenario(ScenarioPath("elroys_beanie_unreduced.yaml")));
  QVERIFY(WaitForRun(*window));
  auto* scene = dynamic_cast<PlanarBodiesScene*>(window->scene_view()->scene());
  QVERIFY(scene);
  QVERIFY(!scene->three_d());
  window->clock()->SetTime(2.0);
  QTest::qWait(150);
  window->scene_view()->GrabImage();
  QVERIFY(scene->camera_following());
  const int early = Analyze(window->scene_view()->GrabImage()).orange;

  // A drag rotates the camera: the scene stops steering it.
  QWidget* view = window->scene_view();
  const QPointF c(view->width() / 2.0, view->height() / 2.0);
  SendMouse(view, QEvent::MouseButtonPress, c, Qt::LeftButton, Qt::LeftButton);
  for (int i = 1; i <= 10; ++i) {
    SendMouse(view, QEvent::MouseMove, c + QPointF(8.0 * i, 5.0 * i), Qt::NoButton, Qt::LeftButton);
  }
  SendMouse(view, QEvent::MouseButtonRelease, c + QPointF(80, 50), Qt::LeftButton, Qt::NoButton);
  window->scene_view()->GrabImage();
  QVERIFY2(!scene->camera_following(), "the scene kept steering a camera the user moved");

  // Reset camera: the scene takes over again and the drifted body is in view at the end.
  auto* reset = window->findChild<QAction*>("action.resetCamera");
  QVERIFY(reset);
  reset->trigger();
  window->clock()->SetTime(window->controller()->scenario().simulation.t_end);
  QTest::qWait(150);
  const int late = Analyze(window->scene_view()->GrabImage()).orange;
  QVERIFY(scene->camera_following());
  QVERIFY2(late > 0.5 * early && early > 1000,
           qPrintable(QString("orange px early %1, late %2").arg(early).arg(late)));
}

void ScenesGuiTest::badSceneSpecsShowMessages() {
  auto window = OpenWindow();
  QVERIFY(window);
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  struct Case {
    const char* file;
    QByteArray from, to;
    const char* expected;
  };
  const Case cases[] = {
      {"rigid_body.yaml", "attitude: R,", "attitude: Q,", "attitude"},
      {"rigid_body.yaml", "box: [1.6, 1.1, 0.6]", "box: [1.6, 1.1]", "box"},
      {"elroys_beanie.yaml", "angle: [theta, psi]", "angle: [theta, no_such_column]",
       "no_such_column"},
      {"heisenberg.yaml", "type: particle", "type: rigid_body", "R11"},
      {"heisenberg.yaml", "type: particle", "type: planar_bodies", "bodies"},
      {"elroys_beanie.yaml", "length: 1.0, width: 0.12", "length: 1.0, width: -0.12", "width"},
  };
  for (const Case& c : cases) {
    const QString path = EditedScenario(dir, c.file, c.from, c.to);
    QVERIFY2(!path.isEmpty(), c.file);
    qInfo("%s: %s -> %s", c.file, c.from.constData(), c.to.constData());
    if (!window->OpenScenario(path, {"t_end=1"})) {  // the loader may reject it already
      QVERIFY2(window->last_error().contains(c.expected), qPrintable(window->last_error()));
      continue;
    }
    QVERIFY(WaitForRun(*window));
    // The 3D view explains itself; the rest of the window works.
    qInfo("  shown: %s", qPrintable(window->last_error()));
    QVERIFY2(window->last_error().contains(c.expected), qPrintable(window->last_error()));
    QVERIFY(!window->scene_view()->scene());
    QVERIFY(window->plot_panel()->SeriesPoints(0, 0).size() > 10);
    QVERIFY(!window->scene_view()->GrabImage().isNull());
  }
}

// A ground plane that fills the view is drawn as the clear colour (SceneView, DrawnScene::Ground):
// the picture is the one the ground quad gives; once the horizon is in view, the quad is drawn.
void ScenesGuiTest::groundFillingTheViewIsTheClearColour() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  QVERIFY(PlayTo(*window, 3.0));
  dirac::ui::SceneView* view = window->scene_view();
  const QImage substituted = view->GrabImage();
  QVERIFY2(view->ground_substituted(), "the oblique follow view should be filled by the ground");
  view->set_ground_substitution(false);
  const QImage drawn = view->GrabImage();
  QVERIFY(!view->ground_substituted());
  view->set_ground_substitution(true);
  QVERIFY(substituted.save(OutputPath("scenes_ground_substituted.png")));
  QVERIFY(drawn.save(OutputPath("scenes_ground_drawn.png")));
  QCOMPARE(substituted.size(), drawn.size());
  int differing = 0, max_delta = 0;
  for (int y = 0; y < drawn.height(); ++y) {
    for (int x = 0; x < drawn.width(); ++x) {
      const QRgb a = substituted.pixel(x, y), b = drawn.pixel(x, y);
      const int delta = std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                                  std::abs(qBlue(a) - qBlue(b))});
      max_delta = std::max(max_delta, delta);
      if (delta > 2) ++differing;
    }
  }
  const QString report = QString(
                             "ground as clear colour vs drawn: %1 of %2 px differ by > 2, max "
                             "channel difference %3")
                             .arg(differing)
                             .arg(drawn.width() * drawn.height())
                             .arg(max_delta);
  qInfo("%s", qPrintable(report));
  // Only along the distant grid lines (0.5 % of the pixels here): 0.002 above the ground quad,
  // they lose pixels to it through the depth buffer's precision far away; over the clear colour
  // they are whole. Everything else is the same picture.
  QVERIFY2(differing < drawn.width() * drawn.height() / 100, qPrintable(report));
  const ImageStats a = Analyze(substituted), b = Analyze(drawn);
  // The bodies: the same pixels but for a few on their silhouettes.
  QVERIFY2(b.orange > 1000 && std::abs(a.orange - b.orange) <= b.orange / 1000,
           qPrintable(QString("orange px: %1 vs %2").arg(a.orange).arg(b.orange)));
  QVERIFY2(b.blue > 100 && std::abs(a.blue - b.blue) <= std::max(b.blue / 1000, 2),
           qPrintable(QString("rotor px: %1 vs %2").arg(a.blue).arg(b.blue)));

  // Zoomed far out: the horizon and the sky are in view, the ground is drawn as a quad.
  const QPointF c(view->width() / 2.0, view->height() / 2.0);
  for (int i = 0; i < 6; ++i) {
    QWheelEvent wheel(c, view->mapToGlobal(c), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
  }
  const QImage far = view->GrabImage();
  QVERIFY(far.save(OutputPath("scenes_ground_far.png")));
  QVERIFY2(!view->ground_substituted(), "the ground no longer fills the view; it must be drawn");
  const auto rgb = [](const dirac::ui::Color& c) {
    return qRgb(static_cast<int>(std::lround(255 * c[0])),
                static_cast<int>(std::lround(255 * c[1])),
                static_cast<int>(std::lround(255 * c[2])));
  };
  int sky = 0, ground = 0;
  for (int y = 0; y < far.height(); ++y) {
    for (int x = 0; x < far.width(); ++x) {
      const QRgb p = far.pixel(x, y) & 0xffffff;
      if (p == (rgb(dirac::ui::kBackground) & 0xffffff)) ++sky;
      if (p == (rgb(dirac::ui::kGroundColor) & 0xffffff)) ++ground;
    }
  }
  qInfo("zoomed out: %d background px, %d ground px", sky, ground);
  QVERIFY2(sky > 1000 && ground > 1000, "expected both the background and the ground in view");
}

void ScenesGuiTest::missingColumnsInSnapshotShowMessage() {
  // A snapshot whose trajectory lacks the scene's columns (or is empty) is drawn as a notice.
  auto window = OpenWindow();
  QVERIFY(window);
  for (const char* file : {"rigid_body.yaml", "elroys_beanie.yaml"}) {
    QVERIFY(window->OpenScenario(ScenarioPath(file), {"t_end=1"}));
    QVERIFY(WaitForRun(*window));
    const dirac::ui::SceneContext context{window->controller()->scenario(),
                                          window->controller()->model()};
    std::unique_ptr<dirac::ui::DrawnScene> scene;
    if (QString(file).startsWith("rigid")) {
      scene = std::make_unique<RigidBodyScene>(context);
    } else {
      scene = std::make_unique<PlanarBodiesScene>(context);
    }
    auto message = [&scene]() {
      if (auto* r = dynamic_cast<RigidBodyScene*>(scene.get())) return r->message_text();
      return dynamic_cast<PlanarBodiesScene*>(scene.get())->message_text();
    };
    std::array<double, 6> bounds{};
    scene->SetSnapshot(nullptr);
    scene->SetTime(0.5);
    QVERIFY(message().empty());

    auto partial = std::make_shared<dirac::Trajectory>(std::vector<std::string>{"t", "x"});
    for (int i = 0; i < 5; ++i) {
      const double row[2] = {0.1 * i, 1.0 * i};
      partial->AppendRow(row);
    }
    auto snapshot = std::make_shared<dirac::ui::SimulationSnapshot>();
    snapshot->trajectory = partial;
    scene->SetSnapshot(snapshot);
    scene->SetTime(0.25);
    scene->Bounds(bounds);
    const QString text = QString::fromStdString(message());
    QVERIFY2(text.contains("no column") && (text.contains("R11") || text.contains("theta")),
             qPrintable(file + QString(": ") + text));

    // A good snapshot afterwards draws again.
    scene->SetSnapshot(window->controller()->latest());
    scene->SetTime(0.5);
    QVERIFY(message().empty());
    QVERIFY(scene->Bounds(bounds));
    for (double b : bounds) QVERIFY(std::isfinite(b));
  }
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  ScenesGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "scenes_gui_test.moc"
