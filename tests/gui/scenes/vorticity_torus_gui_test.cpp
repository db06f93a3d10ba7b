// GUI test of the vorticity_torus scene type, run under Xvfb (see CMakeLists.txt): the real
// MainWindow with scenarios/ideal_fluid_torus.yaml (Zeitlin's su(15) model, 224 modes). The
// drawn field is the Fourier sum of the modes, checked at grid points against a sum written
// here (from the scenario's initial vorticity at t = 0, from the trajectory's columns later);
// the colour range is symmetric and fixed; the context menu's resolution changes the grid;
// playback redraws the field; the picture shows both ends of the diverging colours; bad
// options are refused.
#include <QApplication>
#include <QMenu>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "gui_test_support.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/scene_menu.hpp"
#include "scenes/scene_registry.hpp"
#include "scenes/scene_view.hpp"
#include "scenes/vorticity_torus_scene.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::VorticityTorusScene;
namespace ui_testing = dirac::ui::testing;

namespace {

// The scenario's initial vorticity, as its description writes it.
double InitialVorticity(double x, double y) {
  return std::cos(x) + 0.8 * std::cos(2 * y) + 0.5 * std::sin(x + y) + 0.3 * std::cos(2 * x - y);
}

// A wave number of a column name: "m3" is -3.
int WaveNumber(const std::string& text) {
  return text[0] == 'm' ? -std::stoi(text.substr(1)) : std::stoi(text);
}

// ω(x, y) = Σ |m|² y_m cos(m·x) (columns c<m1>_<m2>) or sin(m·x) (s<m1>_<m2>), read from the
// trajectory's column names alone.
double VorticityFromColumns(const dirac::Trajectory& trajectory, std::size_t row, double x,
                            double y, int* modes) {
  double sum = 0.0;
  *modes = 0;
  const std::vector<std::string>& names = trajectory.columns();
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    const auto bar = name.find('_');
    if (name.size() < 4 || (name[0] != 'c' && name[0] != 's') || bar == std::string::npos ||
        name.find_first_not_of("0123456789m", 1) != bar ||
        name.find_first_not_of("0123456789m", bar + 1) != std::string::npos)
      continue;
    const int m1 = WaveNumber(name.substr(1, bar - 1)), m2 = WaveNumber(name.substr(bar + 1));
    const double phase = m1 * x + m2 * y;
    sum += (m1 * m1 + m2 * m2) * trajectory.at(row, k) *
           (name[0] == 'c' ? std::cos(phase) : std::sin(phase));
    ++*modes;
  }
  return sum;
}

}  // namespace

class VorticityTorusGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void fieldIsTheFourierSumOfTheModes();
  void badOptionsAreRefused();
};

void VorticityTorusGuiTest::fieldIsTheFourierSumOfTheModes() {
  auto window = ui_testing::OpenWindow();
  QVERIFY(window);
  // The first 7 s of the run (the test plays to 6 s): a shorter run, a shorter test.
  QVERIFY(window->OpenScenario(ui_testing::ScenarioPath("ideal_fluid_torus.yaml"), {"t_end=7"}));
  QVERIFY2(ui_testing::WaitForRun(*window), qPrintable(window->last_error()));
  auto* scene = dynamic_cast<VorticityTorusScene*>(window->scene_view()->scene());
  QVERIFY2(scene, "ideal_fluid_torus.yaml is not drawn by the vorticity_torus scene");
  QCOMPARE(scene->size(), 15);
  QCOMPARE(scene->modes().size(), std::size_t{224});
  QCOMPARE(scene->resolution(), 96);
  QVERIFY(scene->velocity_shown());
  const dirac::Trajectory& trajectory = *window->controller()->latest()->trajectory;

  // t = 0: the scenario's own ω0 at grid points (i, j) of the 97 x 97 points.
  window->clock()->SetTime(0.0);
  QCOMPARE(scene->drawn_row(), 0L);
  const std::vector<double>& x = scene->coordinates();
  QCOMPARE(x.size(), std::size_t{97});
  QCOMPARE(scene->field().size(), std::size_t{97 * 97});
  double largest = 0.0;
  for (const auto& [i, j] : {std::pair{0, 0}, {13, 71}, {48, 5}, {96, 96}, {60, 33}}) {
    QVERIFY(std::abs(x[i] - 2 * std::numbers::pi * i / 96) < 1e-15);
    const double drawn = scene->field()[j * 97 + i];
    QVERIFY2(std::abs(drawn - InitialVorticity(x[i], x[j])) < 1e-12,
             qPrintable(QString("(%1, %2): %3 vs %4")
                            .arg(i)
                            .arg(j)
                            .arg(drawn)
                            .arg(InitialVorticity(x[i], x[j]))));
  }
  for (double w : scene->field()) largest = std::max(largest, std::abs(w));
  // The colour range: symmetric, ±max |ω0| on the grid.
  QCOMPARE(scene->color_range()[0], -scene->color_range()[1]);
  QCOMPARE(scene->color_range()[1], largest);
  QCOMPARE(scene->arrow_count(), std::size_t{16 * 16});

  // Playback redraws the field at the cursor's sample: the sum of the trajectory's modes.
  window->clock()->SetSpeed(10.0);
  const std::vector<double> start = scene->field();
  window->PlayTo(6.0);
  QVERIFY(QTest::qWaitFor([&] { return !window->clock()->playing(); }, 20000));
  const auto row = static_cast<std::size_t>(scene->drawn_row());
  QCOMPARE(row, trajectory.RowAtTime(window->clock()->time()));
  QVERIFY(row > 0);
  double change = 0.0;
  for (const auto& [i, j] : {std::pair{0, 0}, {13, 71}, {48, 5}, {96, 96}, {60, 33}}) {
    int modes = 0;
    const double expected = VorticityFromColumns(trajectory, row, x[i], x[j], &modes);
    QCOMPARE(modes, 224);
    QVERIFY2(std::abs(scene->field()[j * 97 + i] - expected) < 1e-12, "field at a later time");
    change = std::max(change, std::abs(scene->field()[j * 97 + i] - start[j * 97 + i]));
  }
  QVERIFY2(change > 0.05, "playback did not change the field");
  QCOMPARE(scene->color_range()[1], largest);  // fixed over the run
  qInfo("field summation at 96 x 96: %.3f ms", scene->last_field_ms());

  // The picture: both ends of the diverging map.
  QTest::qWait(250);
  const QImage image = window->scene_view()->GrabImage();
  QVERIFY(!image.isNull());
  QVERIFY(image.save(ui_testing::OutputPath("scenes_view_vorticity_torus.png")));
  int red = 0, blue = 0;
  for (int py = 0; py < image.height(); ++py)
    for (int px = 0; px < image.width(); ++px) {
      const QRgb c = image.pixel(px, py) & 0xffffff;
      red += ui_testing::IsWarmRed(c);
      blue += ui_testing::IsCoolBlue(c);
    }
  const double pixels = image.width() * image.height();
  qInfo("vorticity map: %.1f%% warm red, %.1f%% cool blue px", 100 * red / pixels,
        100 * blue / pixels);
  QVERIFY2(red > 0.01 * pixels && blue > 0.01 * pixels, "the colour map is not drawn");

  // The context menu's resolution: 48 x 48 cells, 49 points per side, the same field.
  QMenu menu;
  QCOMPARE(dirac::ui::SceneMenu::Fill(menu, *window->scene_view()), 1);
  auto* coarse = menu.findChild<QAction*>("sceneSetting.0.1");
  QVERIFY2(coarse && coarse->text() == "48 x 48", "no 48 x 48 entry");
  QVERIFY(!coarse->isChecked());
  coarse->trigger();
  QCOMPARE(scene->resolution(), 48);
  QCOMPARE(scene->coordinates().size(), std::size_t{49});
  QCOMPARE(scene->field().size(), std::size_t{49 * 49});
  QCOMPARE(static_cast<std::size_t>(scene->drawn_row()), row);
  int modes = 0;
  const double at = VorticityFromColumns(trajectory, row, scene->coordinates()[7],
                                         scene->coordinates()[30], &modes);
  QVERIFY(std::abs(scene->field()[30 * 49 + 7] - at) < 1e-12);
  QVERIFY(QString::fromStdString(scene->legend_text()).contains("grid 48 x 48"));
  QCOMPARE(scene->settings()[0].current, std::size_t{1});
  // A right click without a drag on the view opens that menu (a modal popup: read and closed
  // from a timer).
  QString popup;
  QTimer::singleShot(300, [&popup] {
    if (auto* open = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
      for (QAction* action : open->actions()) popup += action->text() + ";";
      open->close();
    }
  });
  QWidget* view = window->scene_view();
  QTest::mouseClick(view, Qt::RightButton, {}, view->rect().center());
  QCOMPARE(popup, QString("Grid resolution;"));
  scene->SetResolution(2);  // clamped
  QCOMPARE(scene->resolution(), VorticityTorusScene::kMinResolution);
}

void VorticityTorusGuiTest::badOptionsAreRefused() {
  const dirac::Scenario good =
      dirac::LoadScenario(ui_testing::ScenarioPath("ideal_fluid_torus.yaml").toStdString());
  const dirac::ui::SceneRegistry registry = dirac::ui::SceneRegistry::WithBuiltinScenes();
  struct Case {
    const char* algebra;  // the algebroid's algebra and inertia
    const char* options;  // the scene's keys after its type
    const char* expected;
  };
  const Case cases[] = {
      {"{family: zeitlin_torus, size: 3}\n  inertia: laplacian", "resolution: 4", "whole number"},
      {"{family: zeitlin_torus, size: 3}\n  inertia: laplacian", "resolution: 96.5",
       "whole number"},
      {"{family: zeitlin_torus, size: 3}\n  inertia: laplacian", "velocity: maybe",
       "true or false"},
      {"{family: zeitlin_torus, size: 3}\n  inertia: laplacian", "colour: red", "colour"},
      {"{family: su, size: 2}\n  inertia: {diagonal: [1, 2, 3]}", "resolution: 32",
       "zeitlin_torus"},
      {"{family: zeitlin_torus, size: 3}\n  inertia: {diagonal: [1, 2, 3, 4, 5, 6, 7, 8]}",
       "resolution: 32", "inertia: laplacian"},
  };
  for (const Case& c : cases) {
    const QString text = QString(
                             "name: bad\nalgebroid:\n  algebra: %1\n"
                             "view:\n  scene: {type: vorticity_torus, %2}\n")
                             .arg(c.algebra, c.options);
    bool refused = false;
    try {
      const dirac::Scenario s = dirac::ParseScenario(text.toStdString(), "bad.yaml");
      registry.Create({s, dirac::BuildModel(s), {}});
    } catch (const dirac::ScenarioError& e) {
      refused = QString(e.what()).contains(c.expected);
      if (!refused) qWarning("%s", e.what());
    }
    QVERIFY2(refused, c.options);
  }
  // The shipped options build, at N = 15.
  QVERIFY(registry.Create({good, dirac::BuildModel(good), {}}) != nullptr);
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  VorticityTorusGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "vorticity_torus_gui_test.moc"
