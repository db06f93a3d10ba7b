// GUI tests (issue 21) of a scenario without a `view:` section, under Xvfb: generated family
// scenarios opened from a file get the default plots (coordinates, capped at eight with the
// title saying so; energy; multipliers; constraint residuals) and a 3D view that says no scene
// was given (a notice, not an error) while the run and playback work.
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

#include "dirac/families.hpp"
#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/run_presenter.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::testing::CurveDrawsColumn;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::WaitForRun;

namespace {

// The generated scenario of `family` at size `n`, without its `view:` section if `keep_view` is
// false, written to `dir`; "" if it could not be written.
QString WriteScenario(const QTemporaryDir& dir, const char* family, int n, bool keep_view) {
  std::string text = dirac::GenerateFamilyScenario(family, n);
  if (!keep_view) {
    const std::size_t view = text.find("\nview:");
    if (view == std::string::npos) return {};
    text.resize(view + 1);
  }
  const QString path = dir.filePath(
      QStringLiteral("%1_%2%3.yaml").arg(family).arg(n).arg(keep_view ? "" : "_no_view"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text.data(), static_cast<qint64>(text.size()));
  return path;
}

// Writes the scenario (see WriteScenario), opens it in `window` and waits for its first run;
// "" on success, else what failed, for QVERIFY2.
QString OpenAndRun(MainWindow& window, const QTemporaryDir& dir, const char* family, int n,
                   bool keep_view) {
  const QString path = WriteScenario(dir, family, n, keep_view);
  if (path.isEmpty()) return QStringLiteral("cannot write the %1 scenario").arg(family);
  if (!window.OpenScenario(path)) return "cannot open " + path + ": " + window.last_error();
  if (!WaitForRun(window)) return "run of " + path + " did not finish: " + window.last_error();
  return {};
}

QStringList ToQt(const std::vector<std::string>& names) {
  QStringList list;
  for (const auto& name : names) list << QString::fromStdString(name);
  return list;
}

// The 3D view shows the no-scene notice, draws nothing and reports no error.
QString NoSceneProblem(MainWindow& window) {
  if (window.scene_view()->scene()) return "a scene was drawn";
  if (!window.last_error().isEmpty()) return "error: " + window.last_error();
  if (window.scene_view()->message() != dirac::ui::RunPresenter::NoSceneMessage())
    return "3D view says: " + window.scene_view()->message();
  return {};
}

}  // namespace

class DefaultViewGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    window_ = OpenWindow();
    QVERIFY(window_);
    QVERIFY(dir_.isValid());
  }
  void cleanupTestCase() { window_.reset(); }
  void plotsGivenButNoScene();
  void noViewGetsDefaultPlotsAndNoScene();
  void manyColumnsAreCapped();

 private:
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir dir_;
};

// A generated rigid body on so(3) names its plots but no scene: its plots stay, the view says no
// scene.
void DefaultViewGuiTest::plotsGivenButNoScene() {
  MainWindow* window = window_.get();
  const QString opened = OpenAndRun(*window, dir_, "rigid_body_so", 3, true);
  QVERIFY2(opened.isEmpty(), qPrintable(opened));
  const QString problem = NoSceneProblem(*window);
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
  dirac::ui::PlotPanel* plots = window->plot_panel();
  QCOMPARE(plots->plot_count(), 2);
  QCOMPARE(plots->chart(0)->title(), QStringLiteral("Body angular velocity"));
  QCOMPARE(plots->chart(1)->title(), QStringLiteral("Energy"));
  // Playback works without a scene: the clock moves to a time and the charts follow.
  window->PlayTo(0.5);
  // Playback runs on the wall clock: waited for with the runs' generous bound, not Qt's 5 s.
  QTRY_VERIFY_WITH_TIMEOUT(!window->clock()->playing(), dirac::ui::testing::kRunTimeoutMs);
  QVERIFY(std::abs(window->clock()->time() - 0.5) < 1e-9);
  const dirac::Trajectory& run = *window->controller()->latest()->trajectory;
  const QString drawn =
      CurveDrawsColumn(plots->SeriesPoints(0, 0), run, plots->PlotColumns(0)[0].toStdString());
  QVERIFY2(drawn.isEmpty(), qPrintable(drawn));
}

// Without `view:` at all: coordinates and energy (the chain has no constraints), a car with
// trailers adds its multipliers. The chain is written with bodies (`dirac generate`), so the
// bodies scene is its default scene; the car has none, and the 3D view says so.
void DefaultViewGuiTest::noViewGetsDefaultPlotsAndNoScene() {
  MainWindow* window = window_.get();

  QString opened = OpenAndRun(*window, dir_, "pendulum_chain", 3, false);
  QVERIFY2(opened.isEmpty(), qPrintable(opened));
  QVERIFY2(window->scene_view()->scene() != nullptr, "the generated chain draws no bodies");
  QVERIFY2(window->last_error().isEmpty(), qPrintable(window->last_error()));
  QString problem;
  auto model = window->controller()->model();
  dirac::ui::PlotPanel* plots = window->plot_panel();
  QCOMPARE(plots->plot_count(), 2);
  QCOMPARE(plots->chart(0)->title(), QStringLiteral("Coordinates"));
  QCOMPARE(plots->PlotColumns(0), ToQt(model->ColumnsOfKind(dirac::ColumnKind::kCoordinate)));
  QCOMPARE(plots->PlotColumns(0).size(), 3);
  QCOMPARE(plots->chart(1)->title(), QStringLiteral("Energy"));
  QCOMPARE(plots->PlotColumns(1), QStringList{QStringLiteral("E")});
  // The charts draw the whole run (not a count of points: how many a curve keeps depends on
  // the chart's size when it was filled, and a near-constant energy keeps few).
  const dirac::Trajectory& run = *window->controller()->latest()->trajectory;
  QString drawn =
      CurveDrawsColumn(plots->SeriesPoints(0, 2), run, plots->PlotColumns(0)[2].toStdString());
  QVERIFY2(drawn.isEmpty(), qPrintable(drawn));
  drawn = CurveDrawsColumn(plots->SeriesPoints(1, 0), run, "E");
  QVERIFY2(drawn.isEmpty(), qPrintable(drawn));

  opened = OpenAndRun(*window, dir_, "car_trailers", 1, false);
  QVERIFY2(opened.isEmpty(), qPrintable(opened));
  problem = NoSceneProblem(*window);
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
  model = window->controller()->model();
  const QStringList multipliers = ToQt(model->ColumnsOfKind(dirac::ColumnKind::kMultiplier));
  QCOMPARE(multipliers.size(), 2);  // n + 1 knife edges
  QStringList titles;
  for (int i = 0; i < plots->plot_count(); ++i) titles << plots->chart(i)->title();
  QVERIFY2(titles.size() >= 3, qPrintable(titles.join(", ")));
  QCOMPARE(titles.mid(0, 3), (QStringList{"Coordinates", "Energy", "Multipliers"}));
  QCOMPARE(plots->PlotColumns(2), multipliers);
  const QStringList residuals = ToQt(model->ColumnsOfKind(dirac::ColumnKind::kConstraintResidual));
  if (!residuals.isEmpty()) {
    QCOMPARE(titles.value(3), QStringLiteral("Constraint residuals"));
    QCOMPARE(plots->PlotColumns(3), residuals);
  }
}

// Twelve coordinates: the chart shows the first eight and its title says so.
void DefaultViewGuiTest::manyColumnsAreCapped() {
  MainWindow* window = window_.get();
  const QString opened = OpenAndRun(*window, dir_, "car_trailers", 9, false);
  QVERIFY2(opened.isEmpty(), qPrintable(opened));
  const auto model = window->controller()->model();
  const QStringList coordinates = ToQt(model->ColumnsOfKind(dirac::ColumnKind::kCoordinate));
  QCOMPARE(coordinates.size(), 12);  // x, y, the car's heading th0, nine trailer angles
  dirac::ui::PlotPanel* plots = window->plot_panel();
  QCOMPARE(plots->chart(0)->title(), QStringLiteral("Coordinates (first 8 of 12)"));
  QCOMPARE(plots->PlotColumns(0), coordinates.mid(0, 8));
  QCOMPARE(plots->chart(2)->title(), QStringLiteral("Multipliers (first 8 of 10)"));
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  DefaultViewGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "default_view_gui_test.moc"
