// GUI test of the affine_ellipse scene type, run under Xvfb (see CMakeLists.txt): the real
// MainWindow with scenarios/affine_fluid.yaml. The drawn ellipse is A(t) E0 for the trajectory's
// A at the time cursor (its outline points checked against the columns), the legend reads
// det A = 1, an edit of the semi-axis b redraws with the new reference ellipse, the orange fluid
// and the blue material axis are visible in the rendered view, and bad options are refused.
#include <QApplication>
#include <QDoubleSpinBox>
#include <QTest>

#include <cmath>
#include <memory>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "gui_test_support.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/affine_ellipse_scene.hpp"
#include "scenes/scene_registry.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::AffineEllipseScene;
namespace ui_testing = dirac::ui::testing;

namespace {

bool IsAxisBlue(QRgb c) {
  const int r = qRed(c), g = qGreen(c), b = qBlue(c);
  return b > 180 && r < 0.35 * b && g > 0.4 * b && g < 0.8 * b;
}

}  // namespace

class AffineEllipseGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void ellipseIsTheImageOfTheReferenceUnderA();
  void badOptionsAreRefused();
};

void AffineEllipseGuiTest::ellipseIsTheImageOfTheReferenceUnderA() {
  auto window = ui_testing::OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "affine_fluid.yaml");
  auto* scene = dynamic_cast<AffineEllipseScene*>(window->scene_view()->scene());
  QVERIFY2(scene, "affine_fluid.yaml is not drawn by the affine_ellipse scene");
  QCOMPARE(scene->material_line_count(), std::size_t{10});  // 4 + 4 chords, 2 inner ellipses

  std::array<double, 4> a{};  // A at the last check
  auto check = [&](double t, double b) {
    window->clock()->SetTime(t);
    const dirac::Trajectory& trajectory = *window->controller()->latest()->trajectory;
    const std::size_t row = trajectory.RowAtTime(window->clock()->time());
    const char* names[4] = {"a11", "a12", "a21", "a22"};
    a = scene->matrix();
    for (int k = 0; k < 4; ++k)
      QCOMPARE(a[k], trajectory.at(row, trajectory.ColumnIndex(names[k])));
    QCOMPARE(scene->semi_axes()[0], 1.0);
    QCOMPARE(scene->semi_axes()[1], b);
    // Outline point k is A (a cos s, b sin s); det A = 1 in the legend.
    for (std::size_t k : {std::size_t{0}, std::size_t{17}, std::size_t{60}}) {
      const double s = 2 * M_PI * k / AffineEllipseScene::kOutlinePoints;
      const auto p = scene->OutlinePoint(k);
      QVERIFY(std::abs(p[0] - (a[0] * std::cos(s) + a[1] * b * std::sin(s))) < 1e-12);
      QVERIFY(std::abs(p[1] - (a[2] * std::cos(s) + a[3] * b * std::sin(s))) < 1e-12);
    }
    const QString legend = QString::fromStdString(scene->legend_text());
    QVERIFY2(legend.contains("det A = 1.0000000000") || legend.contains("det A = 0.9999999999"),
             qPrintable(legend));
  };
  const double t_end = window->controller()->scenario().simulation.t_end;
  check(0.1 * t_end, 0.9);
  const std::array<double, 4> early = a;
  if (QTest::currentTestFailed()) return;
  check(0.8 * t_end, 0.9);
  const std::array<double, 4> late = a;
  if (QTest::currentTestFailed()) return;
  const auto norm = [](const std::array<double, 4>& m) {
    return std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
  };
  QVERIFY2(norm(late) > 2 * norm(early), "the ellipse does not spread");

  // The picture: the orange fluid and the blue material axis.
  window->clock()->SetTime(0.55 * t_end);
  QTest::qWait(250);
  const QImage image = window->scene_view()->GrabImage();
  QVERIFY(!image.isNull());
  QVERIFY(image.save(ui_testing::OutputPath("scenes_view_affine_ellipse.png")));
  int orange = 0, blue = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb c = image.pixel(x, y) & 0xffffff;
      orange += ui_testing::IsOrange(c);
      blue += IsAxisBlue(c);
    }
  const double share = static_cast<double>(orange) / (image.width() * image.height());
  qInfo("affine ellipse: %d orange px (%.2f%%), %d blue px", orange, 100 * share, blue);
  QVERIFY2(share > 0.005, "the fluid ellipse is hardly visible");
  QVERIFY2(blue > 20, "the material axis is not drawn");

  // An edit of b: the scene follows the parameter, the new run is drawn with it.
  const dirac::ui::SnapshotPtr first = window->controller()->latest();
  auto* editor = window->findChild<QDoubleSpinBox*>("parameter.b");
  QVERIFY2(editor, "no editor named parameter.b");
  editor->setValue(0.7);
  QVERIFY2(ui_testing::WaitForRun(*window, first->run), qPrintable(window->last_error()));
  QTest::qWait(50);
  check(0.3 * t_end, 0.7);
}

void AffineEllipseGuiTest::badOptionsAreRefused() {
  const dirac::Scenario good =
      dirac::LoadScenario(ui_testing::ScenarioPath("affine_fluid.yaml").toStdString());
  const std::shared_ptr<const dirac::Model> model = dirac::BuildModel(good);
  const dirac::ui::SceneRegistry registry = dirac::ui::SceneRegistry::WithBuiltinScenes();
  struct Case {
    const char* options;  // the scene's keys after its type
    const char* expected;
  };
  const Case cases[] = {
      {"matrix: [a11, a12, a21]", "four trajectory columns"},
      {"matrix: [a11, a12, a21, nope]", "nope"},
      {"matrix: [a11, a12, a21, a22], semi_axes: [a, -1]", "positive number or a parameter"},
      {"matrix: [a11, a12, a21, a22], semi_axes: [a]", "two semi-axes"},
      {"matrix: [a11, a12, a21, a22], lines: 2.5", "whole number"},
      {"matrix: [a11, a12, a21, a22], colour: red", "colour"},
  };
  for (const Case& c : cases) {
    const QString text = QString(
                             "name: bad\ncoordinates: [{name: a11}, {name: a12}, {name: a21}, "
                             "{name: a22}]\nparameters: [{name: a, default: 1.0}]\n"
                             "lagrangian: \"(va11^2 + va12^2 + va21^2 + va22^2)/2\"\n"
                             "view:\n  scene: {type: affine_ellipse, %1}\n")
                             .arg(c.options);
    const dirac::Scenario s = dirac::ParseScenario(text.toStdString(), "bad.yaml");
    bool refused = false;
    try {
      registry.Create({s, dirac::BuildModel(s), {}});
    } catch (const dirac::ScenarioError& e) {
      refused = QString(e.what()).contains(c.expected);
      if (!refused) qWarning("%s", e.what());
    }
    QVERIFY2(refused, c.options);
  }
  // The shipped options build.
  QVERIFY(registry.Create({good, model, {}}) != nullptr);
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  AffineEllipseGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "affine_ellipse_gui_test.moc"
