// GUI test of the bodies scene type, run under Xvfb (see CMakeLists.txt): the real MainWindow
// with scenarios/whipple_bicycle.yaml, which gives no view.scene, so the bodies scene draws it.
// The drawn poses are the engine's poses at the time cursor's sample; each wheel stands on the
// ground (its centre at height r sqrt(1 - (n.up)^2) for its axle n, the contact point on the
// ground); the rendered view shows the rear frame (orange) and the wheels; bad options are
// refused with the key.
#include <QApplication>
#include <QTest>

#include <cmath>
#include <memory>

#include "dirac/body_poses.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "gui_test_support.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/bodies_scene.hpp"
#include "scenes/scene_registry.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::BodiesScene;
namespace ui_testing = dirac::ui::testing;

namespace {

bool IsTyre(QRgb c) {  // the wheels' light grey, lit: bright grey with little colour
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return std::abs(r - g) < 20 && std::abs(g - b) < 30 && r > 105;
}

}  // namespace

class BodiesSceneGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void bicycleIsDrawnByItsBodies();
  void badOptionsAreRefused();
};

void BodiesSceneGuiTest::bicycleIsDrawnByItsBodies() {
  auto window = ui_testing::OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "whipple_bicycle.yaml");
  auto* scene = dynamic_cast<BodiesScene*>(window->scene_view()->scene());
  QVERIFY2(scene, "whipple_bicycle.yaml is not drawn by the bodies scene");
  const std::vector<std::string> names = scene->body_names();
  QCOMPARE(names.size(), std::size_t{4});
  QCOMPARE(QString::fromStdString(names[0]), QString("rear_wheel"));
  QCOMPARE(QString::fromStdString(names[3]), QString("front_wheel"));
  // z points down in this scenario: the camera keeps -z up.
  QCOMPARE(scene->up()[2], -1.0);

  const dirac::Scenario& scenario = window->controller()->scenario();
  const dirac::BodyPoseEvaluator evaluator(scenario);
  const double rR = scenario.parameters[*scenario.FindParameter("rR")].value;
  const double rF = scenario.parameters[*scenario.FindParameter("rF")].value;
  const double t_end = scenario.simulation.t_end;
  for (double fraction : {0.0, 0.37, 0.9}) {
    window->clock()->SetTime(fraction * t_end);
    const dirac::ui::SnapshotPtr snapshot = window->controller()->latest();
    const dirac::Trajectory& trajectory = *snapshot->trajectory;
    const std::size_t row = trajectory.RowAtTime(window->clock()->time());
    std::vector<double> q;
    for (const dirac::Coordinate& c : scenario.coordinates)
      q.push_back(trajectory.at(row, trajectory.ColumnIndex(c.name)));
    const dirac::BodyPoses expected =
        evaluator.Evaluate(trajectory.at(row, 0), q, snapshot->parameters);
    const dirac::BodyPoses& drawn = scene->drawn_poses();
    QCOMPARE(drawn.bodies.size(), expected.bodies.size());
    for (std::size_t b = 0; b < drawn.bodies.size(); ++b)
      for (int k = 0; k < 3; ++k)
        QVERIFY(std::abs(drawn.bodies[b].position[k] - expected.bodies[b].position[k]) < 1e-12);
    // Each wheel stands on the ground: centre height r sqrt(1 - n_z^2) for its axle n (the
    // body's y axis, column 1 of its rotation), the contact on z = 0.
    const struct {
      std::size_t body;
      double r;
    } wheels[] = {{0, rR}, {3, rF}};
    for (const auto& wheel : wheels) {
      const dirac::BodyPose& pose = drawn.bodies[wheel.body];
      const double n_z = pose.rotation[7];
      const double height = -pose.position[2];
      QVERIFY2(std::abs(height - wheel.r * std::sqrt(1 - n_z * n_z)) < 1e-9,
               qPrintable(QString("%1: centre height %2").arg(names[wheel.body].c_str()).arg(height)));
    }
    QCOMPARE(drawn.contacts.size(), std::size_t{2});
    for (const dirac::ContactPose& contact : drawn.contacts)
      QVERIFY2(std::abs(contact.point[2]) < 1e-9, qPrintable(QString::fromStdString(contact.name)));
  }

  // The picture: the rear frame in the scene orange and the tyres.
  window->clock()->SetTime(0.5 * t_end);
  const QImage image = window->scene_view()->GrabImage();
  QVERIFY(!image.isNull());
  QVERIFY(image.save(ui_testing::OutputPath("scenes_view_bodies_bicycle.png")));
  // The camera frames the bodies at the time cursor: count in the middle half of the view
  // (the texts, also light grey, sit at its edges).
  int orange = 0, tyre = 0;
  for (int y = image.height() / 4; y < 3 * image.height() / 4; ++y)
    for (int x = image.width() / 4; x < 3 * image.width() / 4; ++x) {
      const QRgb c = image.pixel(x, y) & 0xffffff;
      orange += ui_testing::IsOrange(c);
      tyre += IsTyre(c);
    }
  qInfo("bodies scene: %d orange px, %d tyre px of %d", orange, tyre,
        image.width() * image.height());
  QVERIFY2(orange > 2000, "the rear frame is hardly visible");
  QVERIFY2(tyre > 2000, "the wheels are hardly visible");
  QVERIFY(QString::fromStdString(scene->legend_text()).contains("front_wheel"));

  // The camera follows the bodies: later in the run the bicycle is still in the middle.
  window->clock()->SetTime(0.95 * t_end);
  const QImage late = window->scene_view()->GrabImage();
  QVERIFY(late.save(ui_testing::OutputPath("scenes_view_bodies_bicycle_late.png")));
  int late_orange = 0;
  for (int y = late.height() / 4; y < 3 * late.height() / 4; ++y)
    for (int x = late.width() / 4; x < 3 * late.width() / 4; ++x)
      late_orange += ui_testing::IsOrange(late.pixel(x, y) & 0xffffff);
  QVERIFY2(late_orange > 2000, "the camera does not follow the bicycle");
}

void BodiesSceneGuiTest::badOptionsAreRefused() {
  dirac::Scenario s =
      dirac::LoadScenario(ui_testing::ScenarioPath("whipple_bicycle.yaml").toStdString());
  const std::shared_ptr<const dirac::Model> model = dirac::BuildModel(s);
  QVERIFY(model->body_poses() != nullptr);
  const dirac::ui::SceneRegistry registry = dirac::ui::SceneRegistry::WithBuiltinScenes();
  struct Case {
    const char* options;
    const char* expected;
  };
  const Case cases[] = {
      {"{type: bodies, bodies: [rear_frame, nope]}", "no body named 'nope'"},
      {"{type: bodies, trail: -3}", "trail"},
      {"{type: bodies, colour: red}", "colour"},
  };
  for (const Case& c : cases) {
    const std::string text = "name: t\ncoordinates: [{name: x}]\nlagrangian: \"vx^2/2\"\n"
                             "view:\n  scene: " +
                             std::string(c.options) + "\n";
    const dirac::Scenario options = dirac::ParseScenario(text, "bad.yaml");
    s.scene = options.scene;
    bool refused = false;
    try {
      registry.Create({s, model, {}});
    } catch (const dirac::ScenarioError& e) {
      refused = QString(e.what()).contains(c.expected) && QString(e.what()).contains("bad.yaml");
      if (!refused) qWarning("%s", e.what());
    }
    QVERIFY2(refused, c.options);
  }
  // A hand-written Lagrangian has no bodies to draw: said, not drawn empty.
  const dirac::Scenario plain = dirac::ParseScenario(
      "name: p\ncoordinates: [{name: x}]\nlagrangian: \"vx^2/2\"\nview:\n  scene: {type: "
      "bodies}\n",
      "plain.yaml");
  bool refused = false;
  try {
    registry.Create({plain, dirac::BuildModel(plain), {}});
  } catch (const dirac::ScenarioError& e) {
    refused = QString(e.what()).contains("bodies:");
  }
  QVERIFY(refused);
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  BodiesSceneGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "bodies_scene_gui_test.moc"
