// GUI tests of optimal control in the window, under Xvfb (see CMakeLists.txt): each shipped
// scenario with an optimal_control: or boundary_value: block opens solved, a boundary value
// edited in the panel (for so3_spline also through the rigid-body scene's target interface and
// a mouse drag of its ghost; for elroys_beanie_ocp the psi and theta targets through the planar
// scene's target interface and a drag of the rotor's outline) re-solves from the previous optimum,
// the cost and the plots change, the boundary residual shown is <= 1e-10 and the optimum meets the
// new boundary value; the 3D view shows the body (and, for the rigid body, both ghosts); a newer
// edit cancels a running solve at once; File > Save scenario as keeps the boundary values.
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QLineF>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>
#include <vector>

#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "run/simulation_snapshot.hpp"
#include "scenes/particle_scene.hpp"
#include "scenes/planar_bodies_scene.hpp"
#include "scenes/rigid_body_scene.hpp"
#include "scenes/scene_kit.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/solve_chip.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::RigidBodyScene;
using dirac::ui::SnapshotPtr;
using dirac::ui::SolveStatus;
using dirac::ui::testing::CurveDifference;
using dirac::ui::testing::IsOrange;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::LatencyBudget;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForOptimum;
using dirac::ui::testing::WaitForRun;

namespace {

bool Near(QRgb c, const dirac::ui::Rgb& rgb, int tolerance) {
  return std::abs(qRed(c) - rgb[0]) <= tolerance && std::abs(qGreen(c) - rgb[1]) <= tolerance &&
         std::abs(qBlue(c) - rgb[2]) <= tolerance;
}

struct ImageStats {
  int orange = 0;
  int blue = 0;
  int start_ghost = 0;
  int target_ghost = 0;
};

ImageStats Analyze(const QImage& image) {
  ImageStats stats;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const QRgb c = image.pixel(x, y);
      if (IsOrange(c)) ++stats.orange;
      const int r = qRed(c), g = qGreen(c), b = qBlue(c);
      if (b > 140 && r < 0.35 * b && g > 0.4 * b && g < 0.8 * b) ++stats.blue;
      if (Near(c, RigidBodyScene::kStartGhostColor, 45)) ++stats.start_ghost;
      if (Near(c, RigidBodyScene::kTargetGhostColor, 45)) ++stats.target_ghost;
    }
  }
  return stats;
}

std::vector<QList<QPointF>> AllSeries(const MainWindow& window) {
  std::vector<QList<QPointF>> all;
  const auto& plots = window.controller()->scenario().plots;
  for (std::size_t i = 0; i < plots.size(); ++i)
    for (std::size_t k = 0; k < plots[i].series.size(); ++k)
      all.push_back(window.plot_panel()->SeriesPoints(static_cast<int>(i), static_cast<int>(k)));
  return all;
}

// The residual the chip shows ("residual 1.23e-14"), or +inf if it shows none.
double ShownResidual(const QString& chip) {
  const QRegularExpressionMatch m = QRegularExpression(R"(residual ([0-9.eE+-]+))").match(chip);
  return m.hasMatch() ? m.captured(1).toDouble() : INFINITY;
}

// The last value of `column` in the newest trajectory.
double FinalValue(const MainWindow& window, const char* column) {
  const dirac::Trajectory& t = *window.controller()->latest()->trajectory;
  return t.at(t.num_rows() - 1, t.ColumnIndex(column));
}

// Max |R(T) - target| over the entries, R(T) from the trajectory's R11..R33.
double AttitudeError(const MainWindow& window, const dirac::ui::Rotation& target) {
  const char* names[9] = {"R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33"};
  double e = 0.0;
  for (int k = 0; k < 9; ++k) e = std::max(e, std::abs(FinalValue(window, names[k]) - target[k]));
  return e;
}

dirac::ui::Rotation TargetOf(const dirac::Scenario& scenario) {
  dirac::ui::Vec3 v{};
  for (int k = 0; k < 3; ++k)
    v[k] = dirac::CurrentValue(scenario, std::string("final.R.") + "xyz"[k]).value_or(NAN);
  return dirac::ui::RotationFromVector(v);
}

void SendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
  QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &event);
}

}  // namespace

class OptimalControlGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void opensSolvedAndReSolvesOnBoundaryEdit_data();
  void opensSolvedAndReSolvesOnBoundaryEdit();
  void targetAttitudeTurnedThroughTheScene();
  void geodesicEndPointMovedThroughTheScene();
  void beanieTargetsTurnedThroughTheScene();
  void newerEditCancelsRunningSolve();
  void freedBoundaryValueAndSaveScenario();
};

void OptimalControlGuiTest::opensSolvedAndReSolvesOnBoundaryEdit_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("boundary");  // the boundary value edited
  QTest::addColumn<double>("value");
  QTest::addColumn<QString>("column");  // its trajectory column at T ("" for an attitude)
  QTest::newRow("so3_spline") << "so3_spline.yaml"
                              << "final.R.z" << 1.1 << "";
  QTest::newRow("elroys_beanie_ocp") << "elroys_beanie_ocp.yaml"
                                     << "final.psi" << 0.8 << "psi";
  QTest::newRow("cubic_spline_bvp") << "cubic_spline_bvp.yaml"
                                    << "final.x" << 1.5 << "x";
  QTest::newRow("heisenberg_geodesic") << "heisenberg_geodesic.yaml"
                                       << "final.z" << 0.3 << "z";
}

void OptimalControlGuiTest::opensSolvedAndReSolvesOnBoundaryEdit() {
  QFETCH(QString, file);
  QFETCH(QString, boundary);
  QFETCH(double, value);
  QFETCH(QString, column);
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY2(window->OpenScenario(ScenarioPath(file)), qPrintable(window->last_error()));
  auto* controller = window->controller();
  QVERIFY(controller->solves());
  QVERIFY2(WaitForOptimum(*window, 0), qPrintable(window->last_error()));
  QVERIFY2(window->last_error().isEmpty(), qPrintable(window->last_error()));

  // Opens solved: the chip, the residual, the boundary value met.
  const SnapshotPtr first = controller->latest();
  QString chip = window->solve_chip().text();
  qInfo("%s opened: %s", qPrintable(file), qPrintable(chip));
  QVERIFY2(chip.startsWith("solved"), qPrintable(chip));
  QVERIFY2(!chip.contains("stale"), qPrintable(chip));
  QVERIFY2(ShownResidual(chip) <= 1e-10, qPrintable(chip));
  QVERIFY(first->solve->report.residual <= 1e-10);
  auto* chip_label = window->findChild<QLabel*>("solveStatus");
  QVERIFY2(chip_label && chip_label->isVisible(), "no visible QLabel solveStatus");
  const double cost_before = first->solve->cost;
  if (file == "cubic_spline_bvp.yaml") {
    QVERIFY2(std::abs(cost_before - 6.0) < 1e-8, qPrintable(QString::number(cost_before, 'g', 17)));
    QVERIFY(std::abs(FinalValue(*window, "x") - 1.0) < 1e-8);
  }

  // The Boundary values group lists the block; edit one through its spin box.
  auto* group = window->findChild<QWidget*>("parameterPanel.boundary");
  QVERIFY2(group, "no Boundary values group");
  auto* editor = window->findChild<QDoubleSpinBox*>("boundary." + boundary);
  QVERIFY2(editor, qPrintable("no editor boundary." + boundary));
  QVERIFY(editor->isEnabled());
  QVERIFY(window->parameter_panel()->editor(boundary) == editor);
  QVERIFY(window->findChild<QCheckBox*>("boundary." + boundary + ".fixed")->isChecked());
  const auto before_plots = AllSeries(*window);
  editor->setValue(value);
  // At once: solving, the previous optimum kept and marked stale.
  const SolveStatus& status = controller->solve_status();
  QCOMPARE(static_cast<int>(status.state), static_cast<int>(SolveStatus::State::kSolving));
  QVERIFY(status.stale);
  QVERIFY2(window->solve_chip().text().contains("stale"), qPrintable(window->solve_chip().text()));
  QVERIFY(window->plot_panel()->note().contains("stale"));
  auto* note = window->findChild<QLabel*>("plotPanel.note");
  QVERIFY(note && note->isVisible() && note->text().contains("stale"));
  QCOMPARE(controller->latest(), first);
  QCOMPARE(*dirac::ui::GetBoundaryValue(controller->scenario(), boundary.toStdString()), value);

  QVERIFY(WaitForOptimum(*window, first->run));
  const SnapshotPtr second = controller->latest();
  chip = window->solve_chip().text();
  qInfo("%s after %s = %g: %s (edit -> drawn %.1f ms)", qPrintable(file), qPrintable(boundary),
        value, qPrintable(chip), window->last_edit_latency_ms());
  QVERIFY2(chip.startsWith("solved") && !chip.contains("stale"), qPrintable(chip));
  QVERIFY2(ShownResidual(chip) <= 1e-10, qPrintable(chip));
  QVERIFY(second->solve->report.residual <= 1e-10);
  QVERIFY(second->solve->report.warm_started);
  QVERIFY(window->plot_panel()->note().isEmpty() && !note->isVisible());
  const double cost_after = second->solve->cost;
  QVERIFY2(std::abs(cost_after - cost_before) > 1e-6,
           qPrintable(QString("cost %1 -> %2").arg(cost_before).arg(cost_after)));
  const double change = CurveDifference(before_plots, AllSeries(*window));
  QVERIFY2(change > 1e-4, qPrintable(QString("plots unchanged: %1").arg(change)));
  if (column.isEmpty()) {
    const double error = AttitudeError(*window, TargetOf(controller->scenario()));
    QVERIFY2(error < 1e-8, qPrintable(QString("R(T) off the target by %1").arg(error)));
  } else {
    const double reached = FinalValue(*window, qPrintable(column));
    QVERIFY2(std::abs(reached - value) < 1e-8,
             qPrintable(QString("%1(T) = %2, wanted %3").arg(column).arg(reached).arg(value)));
  }
  if (file == "cubic_spline_bvp.yaml")  // x = 1.5 (3 t^2 - 2 t^3): cost 1.5^2 * 6
    QVERIFY(std::abs(cost_after - 13.5) < 1e-7);

  // The 3D view: the body, and for the rigid body both ghosts.
  window->clock()->SetTime(0.5 * controller->scenario().simulation.t_end);
  QTest::qWait(250);
  const QString name = QFileInfo(file).completeBaseName();
  QVERIFY(window->GrabWindowImage().save(OutputPath("ocp_window_" + name + ".png")));
  const QImage image = window->scene_view()->GrabImage();
  QVERIFY(image.save(OutputPath("ocp_view_" + name + ".png")));
  const ImageStats stats = Analyze(image);
  const QString report = QString(
                             "%1: %2 orange, %3 blue, %4 cyan (start ghost), %5 magenta "
                             "(target ghost) px")
                             .arg(name)
                             .arg(stats.orange)
                             .arg(stats.blue)
                             .arg(stats.start_ghost)
                             .arg(stats.target_ghost);
  qInfo("%s", qPrintable(report));
  QVERIFY2(stats.orange > 150, qPrintable("body hardly visible: " + report));
  if (auto* rigid = dynamic_cast<RigidBodyScene*>(window->scene_view()->scene())) {
    QVERIFY(rigid->start_rotation() && rigid->target_rotation());
    QVERIFY2(stats.start_ghost > 300, qPrintable("start ghost not visible: " + report));
    QVERIFY2(stats.target_ghost > 300, qPrintable("target ghost not visible: " + report));
    QVERIFY(QString::fromStdString(rigid->legend_text()).contains("magenta ghost"));
  }
  if (auto* particle = dynamic_cast<dirac::ui::ParticleScene*>(window->scene_view()->scene());
      particle && particle->target_point()) {
    QVERIFY(particle->start_point());
    QVERIFY2(stats.start_ghost > 100, qPrintable("start ghost not visible: " + report));
    QVERIFY2(stats.target_ghost > 100, qPrintable("target ghost not visible: " + report));
    const auto target = *particle->target_point();
    QCOMPARE(target[2], value);
  }
  if (auto* planar = dynamic_cast<dirac::ui::PlanarBodiesScene*>(window->scene_view()->scene())) {
    QVERIFY(planar->three_d());
    QVERIFY(planar->shows_boundary_ghosts());
    QVERIFY2(stats.blue > 200, qPrintable("rotor not visible: " + report));
    QVERIFY2(stats.start_ghost > 100, qPrintable("start outline not visible: " + report));
    QVERIFY2(stats.target_ghost > 100, qPrintable("target outline not visible: " + report));
  }
}

void OptimalControlGuiTest::targetAttitudeTurnedThroughTheScene() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* controller = window->controller();
  auto* scene = dynamic_cast<RigidBodyScene*>(window->scene_view()->scene());
  QVERIFY2(scene, "no rigid-body scene");
  QVERIFY(scene->target_rotation());
  const double cost_before = controller->latest()->solve->cost;
  const auto plots_before = AllSeries(*window);

  // The programmatic interface: turn the target by 0.4 rad about the space z axis.
  const dirac::ui::Rotation expected =
      dirac::ui::Multiply(dirac::ui::RotationFromVector({0, 0, 0.4}), *scene->target_rotation());
  std::uint64_t run = controller->latest()->run;
  QVERIFY(scene->RotateTarget({0, 0, 1}, 0.4));
  const dirac::ui::Rotation edited = TargetOf(controller->scenario());
  for (int k = 0; k < 9; ++k) QVERIFY(std::abs(edited[k] - expected[k]) < 1e-12);
  // The panel follows, with every digit (the editors keep the value, shown shortest).
  auto* rz = window->findChild<QDoubleSpinBox*>("boundary.final.R.z");
  QVERIFY(rz);
  QCOMPARE(rz->value(), *dirac::CurrentValue(controller->scenario(), "final.R.z"));
  QVERIFY(WaitForOptimum(*window, run));
  qInfo("turned by the scene: %s", qPrintable(window->solve_chip().text()));
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);
  QVERIFY(AttitudeError(*window, expected) < 1e-8);
  QVERIFY(std::abs(controller->latest()->solve->cost - cost_before) > 1e-6);
  QVERIFY(CurveDifference(plots_before, AllSeries(*window)) > 1e-4);

  // A mouse drag that starts on the target ghost (it surrounds the origin, drawn at the view's
  // centre) turns the target instead of the camera, re-solving as the pointer moves.
  run = controller->latest()->run;
  const dirac::ui::Rotation before_drag = *scene->target_rotation();
  QWidget* view = window->scene_view();
  const QPointF c(view->width() / 2.0, view->height() / 2.0);
  SendMouse(view, QEvent::MouseButtonPress, c, Qt::LeftButton, Qt::LeftButton);
  QVERIFY2(scene->dragging_target(), "the press on the ghost did not grab the target");
  for (int i = 1; i <= 8; ++i) {
    SendMouse(view, QEvent::MouseMove, c + QPointF(6.0 * i, 0.0), Qt::NoButton, Qt::LeftButton);
    QTest::qWait(15);
  }
  SendMouse(view, QEvent::MouseButtonRelease, c + QPointF(48, 0), Qt::LeftButton, Qt::NoButton);
  QVERIFY(!scene->dragging_target());
  double moved = 0.0;
  for (int k = 0; k < 9; ++k)
    moved = std::max(moved, std::abs((*scene->target_rotation())[k] - before_drag[k]));
  QVERIFY2(moved > 0.05, qPrintable(QString("the drag turned the target by %1").arg(moved)));
  QVERIFY(WaitForOptimum(*window, run));
  QVERIFY(AttitudeError(*window, *scene->target_rotation()) < 1e-8);
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);
  qInfo("dragged: %s", qPrintable(window->solve_chip().text()));
}

void OptimalControlGuiTest::geodesicEndPointMovedThroughTheScene() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg_geodesic.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* controller = window->controller();
  auto* scene = dynamic_cast<dirac::ui::ParticleScene*>(window->scene_view()->scene());
  QVERIFY(scene && scene->target_point());
  const double cost_before = controller->latest()->solve->cost;

  // Programmatically: the end point (1, 0, 0.2) -> (0.8, 0.3, 0.25).
  std::uint64_t run = controller->latest()->run;
  QVERIFY(scene->SetTargetPoint({0.8, 0.3, 0.25}));
  QCOMPARE(window->findChild<QDoubleSpinBox*>("boundary.final.y")->value(), 0.3);
  QVERIFY(WaitForOptimum(*window, run));
  for (const auto& [column, wanted] : {std::pair{"x", 0.8}, {"y", 0.3}, {"z", 0.25}})
    QVERIFY2(std::abs(FinalValue(*window, column) - wanted) < 1e-8, column);
  QVERIFY(std::abs(controller->latest()->solve->cost - cost_before) > 1e-6);
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);

  // By the mouse: press on the target ghost (where the camera projects it), drag.
  window->clock()->SetTime(controller->scenario().simulation.t_end);
  QTest::qWait(100);
  const QImage image = window->scene_view()->GrabImage();
  long sx = 0, sy = 0, n = 0;  // the centroid of the target ghost's magenta
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (Near(image.pixel(x, y), dirac::ui::ParticleScene::kTargetGhostColor, 45)) {
        sx += x;
        sy += y;
        ++n;
      }
  QVERIFY2(n > 0, "target ghost not found in the image");
  QWidget* view = window->scene_view();
  const double ratio = view->devicePixelRatioF();
  const QPointF at(sx / static_cast<double>(n) / ratio, sy / static_cast<double>(n) / ratio);
  run = controller->latest()->run;
  const auto before = *scene->target_point();
  SendMouse(view, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
  QVERIFY2(scene->dragging_target(), "the press on the ghost did not grab the target");
  for (int i = 1; i <= 6; ++i) {
    SendMouse(view, QEvent::MouseMove, at + QPointF(0.0, -5.0 * i), Qt::NoButton, Qt::LeftButton);
    QTest::qWait(15);
  }
  SendMouse(view, QEvent::MouseButtonRelease, at + QPointF(0, -30), Qt::LeftButton, Qt::NoButton);
  const auto after = *scene->target_point();
  const double moved = std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
  QVERIFY2(moved > 0.01, qPrintable(QString("the drag moved the target by %1").arg(moved)));
  QVERIFY(WaitForOptimum(*window, run));
  for (const auto& [column, k] : {std::pair{"x", 0}, {"y", 1}, {"z", 2}})
    QVERIFY2(std::abs(FinalValue(*window, column) - after[k]) < 1e-8, column);
  qInfo("end point dragged by %.3f: %s", moved, qPrintable(window->solve_chip().text()));
}

void OptimalControlGuiTest::beanieTargetsTurnedThroughTheScene() {
  using dirac::ui::PlanarBodiesScene;
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("elroys_beanie_ocp.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* controller = window->controller();
  auto* scene = dynamic_cast<PlanarBodiesScene*>(window->scene_view()->scene());
  QVERIFY2(scene && scene->shows_boundary_ghosts(), "no planar scene with its outlines");
  // psi(T) is fixed, theta(T) free: the rotor's outline turns psi, the main body's nothing.
  QCOMPARE(scene->TargetAngleColumn(1).value_or(""), std::string("psi"));
  QVERIFY(!scene->TargetAngleColumn(0));
  QVERIFY(!scene->SetTargetAngle("theta", 0.3));
  QCOMPARE(*scene->target_angle("psi"), 1.2);
  const double cost_before = controller->latest()->solve->cost;
  const auto plots_before = AllSeries(*window);

  // The programmatic interface: turn the rotor's target by -0.3 rad.
  std::uint64_t run = controller->latest()->run;
  QVERIFY(scene->RotateTarget(1, -0.3));
  QCOMPARE(*dirac::CurrentValue(controller->scenario(), "final.psi"), 0.9);
  QCOMPARE(window->findChild<QDoubleSpinBox*>("boundary.final.psi")->value(), 0.9);
  QVERIFY(WaitForOptimum(*window, run));
  qInfo("psi(T) turned by the scene: %s", qPrintable(window->solve_chip().text()));
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);
  QVERIFY(std::abs(FinalValue(*window, "psi") - 0.9) < 1e-8);
  QVERIFY(std::abs(controller->latest()->solve->cost - cost_before) > 1e-6);
  QVERIFY(CurveDifference(plots_before, AllSeries(*window)) > 1e-4);
  // The drawn outline: the main body's theta(T) of the optimum plus the new psi(T).
  const auto pose = scene->target_pose(1);
  QVERIFY(pose);
  QVERIFY(std::abs((*pose)[2] - (FinalValue(*window, "theta") + 0.9)) < 1e-9);

  // By the mouse: press on the rotor's outline near its tip (the cursor at T puts the body
  // under it), sweep the pointer about the outline's centre.
  window->clock()->SetTime(controller->scenario().simulation.t_end);
  window->scene_view()->RenderNow();
  QWidget* view = window->scene_view();
  const double ratio = view->devicePixelRatioF();
  auto widget_point = [&](const std::array<double, 2>& d) {
    return QPointF(d[0] / ratio, view->height() - d[1] / ratio);
  };
  const auto centre = scene->TargetDisplayPoint(1, 0.0);
  const auto tip = scene->TargetDisplayPoint(1, 0.8);
  QVERIFY(centre && tip);
  const QPointF c = widget_point(*centre), p0 = widget_point(*tip);
  QVERIFY2(QLineF(c, p0).length() > 20.0,
           qPrintable(QString("the rotor outline is %1 px long").arg(QLineF(c, p0).length())));
  run = controller->latest()->run;
  const double psi_before = *scene->target_angle("psi");
  SendMouse(view, QEvent::MouseButtonPress, p0, Qt::LeftButton, Qt::LeftButton);
  QVERIFY2(scene->dragging_target(), "the press on the rotor's outline did not grab it");
  // Screen y points down: turning the pointer clockwise on the screen, seen from above with z
  // up, turns the target clockwise too (psi decreases) for a camera above the ground.
  const QPointF r = p0 - c;
  for (int i = 1; i <= 8; ++i) {
    const double a = -0.06 * i;  // screen radians
    const QPointF q(c.x() + std::cos(a) * r.x() + std::sin(a) * r.y(),
                    c.y() - std::sin(a) * r.x() + std::cos(a) * r.y());
    SendMouse(view, QEvent::MouseMove, q, Qt::NoButton, Qt::LeftButton);
    QTest::qWait(15);
  }
  SendMouse(view, QEvent::MouseButtonRelease, c, Qt::LeftButton, Qt::NoButton);
  QVERIFY(!scene->dragging_target());
  const double psi_after = *scene->target_angle("psi");
  qInfo("dragged the rotor's outline: psi(T) %.4f -> %.4f", psi_before, psi_after);
  QVERIFY2(std::abs(psi_after - psi_before) > 0.1,
           qPrintable(QString("the drag turned psi(T) by %1").arg(psi_after - psi_before)));
  QCOMPARE(*dirac::CurrentValue(controller->scenario(), "final.psi"), psi_after);
  QVERIFY(WaitForOptimum(*window, run));
  QVERIFY(std::abs(FinalValue(*window, "psi") - psi_after) < 1e-8);
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);

  // Steer theta instead: free psi(T), fix theta(T) in the panel; both outlines then turn theta.
  run = controller->latest()->run;
  window->findChild<QCheckBox*>("boundary.final.psi.fixed")->setChecked(false);
  auto* theta_fixed = window->findChild<QCheckBox*>("boundary.final.theta.fixed");
  QVERIFY(theta_fixed && theta_fixed->isEnabled());
  theta_fixed->setChecked(true);
  QVERIFY(WaitForOptimum(*window, run));
  QCOMPARE(scene->TargetAngleColumn(0).value_or(""), std::string("theta"));
  QCOMPARE(scene->TargetAngleColumn(1).value_or(""), std::string("theta"));
  const double theta_target = *scene->target_angle("theta") - 0.2;
  run = controller->latest()->run;
  QVERIFY(scene->SetTargetAngle("theta", theta_target));
  QVERIFY(!scene->SetTargetAngle("psi", 1.0));  // free now
  QVERIFY(WaitForOptimum(*window, run));
  qInfo("theta(T) = %.4f set by the scene: %s", theta_target,
        qPrintable(window->solve_chip().text()));
  QVERIFY(std::abs(FinalValue(*window, "theta") - theta_target) < 1e-8);
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);
}

void OptimalControlGuiTest::newerEditCancelsRunningSolve() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* controller = window->controller();
  auto* editor = window->findChild<QDoubleSpinBox*>("boundary.final.R.x");
  QVERIFY(editor);
  std::vector<std::uint64_t> published;
  connect(controller, &dirac::ui::SimulationController::snapshotReady, this,
          [&published](const SnapshotPtr& s) { published.push_back(s->run); });

  // A far target (several Newton iterations, some 10-60 ms of work); a few ms after it (the GUI
  // thread blocked meanwhile, so the worker is inside the solve), a newer edit.
  bool cancelled_in_flight = false;
  const double far_targets[] = {2.6, -2.4, 2.2, -2.0, 2.8, 2.5, -2.6, 2.3};
  for (std::size_t attempt = 0; attempt < std::size(far_targets); ++attempt) {
    const double far = far_targets[attempt];
    const std::uint64_t before = controller->latest()->run;
    const int cancelled_before = controller->cancelled_solves();
    LatencyBudget budget;  // calibrated before the edits, not between them
    editor->setValue(far);
    QThread::msleep(2 + 2 * (attempt % 4));
    editor->setValue(0.5);  // the newer edit
    QVERIFY(controller->solve_status().state == SolveStatus::State::kSolving);
    QCOMPARE(controller->solve_status().iteration, 0);
    QVERIFY(WaitForOptimum(*window, before));
    QCOMPARE(*dirac::CurrentValue(controller->scenario(), "final.R.x"), 0.5);
    QCOMPARE(*dirac::CurrentValue(*controller->latest()->run_scenario, "final.R.x"), 0.5);
    QVERIFY(AttitudeError(*window, TargetOf(controller->scenario())) < 1e-8);
    // Only the newest run published anything.
    QCOMPARE(std::count_if(published.begin(), published.end(),
                           [&](std::uint64_t r) { return r > before; }),
             std::ptrdiff_t{1});
    QCOMPARE(published.back(), controller->latest()->run);
    qInfo(
        "far target R.x = %g: cancelled solves %d -> %d (worker free %.2f ms after the newer "
        "edit), then %s",
        far, cancelled_before, controller->cancelled_solves(), controller->last_cancel_latency_ms(),
        qPrintable(window->solve_chip().text()));
    published.clear();
    if (controller->cancelled_solves() > cancelled_before) {
      const double latency_ms = controller->last_cancel_latency_ms();
      QVERIFY2(latency_ms < budget.Bound(50.0),
               qPrintable("cancel took " + budget.Describe(latency_ms, 50)));
      cancelled_in_flight = true;
      break;
    }
  }
  QVERIFY2(cancelled_in_flight, "every far solve finished before the newer edit reached it");

  // Cancel (the toolbar's) stops a solve too: the chip says so, the optimum stays, stale.
  const std::uint64_t before = controller->latest()->run;
  editor->setValue(-0.3);
  controller->Cancel();
  QVERIFY(!controller->busy());
  QCOMPARE(static_cast<int>(controller->solve_status().state),
           static_cast<int>(SolveStatus::State::kFailed));
  QVERIFY(window->solve_chip().text().contains("cancelled"));
  QVERIFY(window->solve_chip().text().contains("stale"));
  QTest::qWait(300);
  QCOMPARE(controller->latest()->run, before);
  controller->Restart();
  QVERIFY(WaitForOptimum(*window, before));
  QVERIFY(AttitudeError(*window, TargetOf(controller->scenario())) < 1e-8);
}

void OptimalControlGuiTest::freedBoundaryValueAndSaveScenario() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("so3_spline.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* controller = window->controller();
  const double cost_before = controller->latest()->solve->cost;

  // Free w3(T): the optimum may end spinning about e3, so it is cheaper.
  auto* fixed = window->findChild<QCheckBox*>("boundary.final.w3.fixed");
  QVERIFY(fixed && fixed->isEnabled() && fixed->isChecked());
  std::uint64_t run = controller->latest()->run;
  fixed->setChecked(false);
  QVERIFY(!window->findChild<QDoubleSpinBox*>("boundary.final.w3")->isEnabled());
  QVERIFY(!dirac::CurrentValue(controller->scenario(), "final.w3"));
  QVERIFY(WaitForOptimum(*window, run));
  const double cost_free = controller->latest()->solve->cost;
  qInfo("w3(T) free: %s", qPrintable(window->solve_chip().text()));
  QVERIFY2(cost_free < cost_before - 1e-6,
           qPrintable(QString("cost %1 -> %2").arg(cost_before).arg(cost_free)));
  QVERIFY(ShownResidual(window->solve_chip().text()) <= 1e-10);

  // A new horizon and a new target, then save: the file keeps the boundary values.
  run = controller->latest()->run;
  window->findChild<QDoubleSpinBox*>("boundary.horizon")->setValue(2.5);
  QCOMPARE(window->parameter_panel()->editor("t_end")->value(), 2.5);
  window->findChild<QDoubleSpinBox*>("boundary.final.R.y")->setValue(-0.2);
  QVERIFY(WaitForOptimum(*window, run));
  QVERIFY(std::abs(controller->latest()->last_time() - 2.5) < 1e-9);
  QTemporaryDir dir;
  const QString path = dir.filePath("so3_tweaked.yaml");
  QVERIFY(window->scenario_saver().SaveAs(path));
  const dirac::Scenario saved = dirac::LoadScenario(path.toStdString());
  QVERIFY(!dirac::CurrentValue(saved, "final.w3"));
  QCOMPARE(*dirac::CurrentValue(saved, "final.R.y"), -0.2);
  QCOMPARE(*dirac::CurrentValue(saved, "horizon"), 2.5);
  QCOMPARE(*dirac::CurrentValue(saved, "final.R.x"), 0.9);

  // A boundary_value block: its targets are always prescribed (no free toggle).
  QVERIFY(window->OpenScenario(ScenarioPath("cubic_spline_bvp.yaml")));
  QVERIFY(WaitForOptimum(*window, 0));
  auto* target = window->findChild<QCheckBox*>("boundary.final.v.fixed");
  QVERIFY(target && target->isChecked() && !target->isEnabled());
  QVERIFY(window->findChild<QDoubleSpinBox*>("boundary.initial.x"));
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  OptimalControlGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "optimal_control_gui_test.moc"
