// Desktop habits (issue 10): Save scenario as of a commented file, shortcuts with a spin box
// focused, recent files, drops, settings, and the `--gauge --screenshot` capture 20 times.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <QWheelEvent>

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "dirac/scenario.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/menu_builders.hpp"
#include "window/scripted_capture.hpp"
#include "window/workbench_gui_test.hpp"

using namespace dirac::ui::testing::workbench;

namespace {

// Pixels of `image` in `rect` close to `color` (antialiased lines included).
int CountColor(const QImage& image, const QRect& rect, QColor color, int tolerance = 40) {
  int n = 0;
  const QRect r = rect.intersected(image.rect());
  for (int y = r.top(); y <= r.bottom(); ++y) {
    for (int x = r.left(); x <= r.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
              std::abs(c.blue() - color.blue()) <
          tolerance)
        ++n;
    }
  }
  return n;
}

}  // namespace

void WorkbenchGuiTest::saveScenarioKeepsComments() {
  // A commented file in its own layout.
  const QString source = dir_.filePath("commented.yaml");
  const QString original = R"(# A commented scenario: these lines must survive Save scenario as.
name: Commented Heisenberg   # trailing comment
coordinates:
  - {name: x, velocity: vx, initial: 1.0, initial_velocity: 0.0, unit: m}
  - {name: y, velocity: vy, initial: 0.0, initial_velocity: 0.8, unit: m}
  # vz(0) on the constraint
  - {name: z, velocity: vz, initial: 0.0, initial_velocity: -0.8, unit: m}
parameters:
  - {name: kx, default: 1.0, min: 0.0, max: 5.0, unit: 1/s^2}   # stiffness x
  - name: ky        # block style
    default: 2.0
    min: 0.0
    max: 5.0
lagrangian: "(vx^2 + vy^2 + vz^2)/2 - (kx*x^2 + ky*y^2)/2"
constraints:
  - {name: heisenberg, form: "vz - y*vx + x*vy", multiplier: mu}

simulation:
  t_end: 5          # seconds
  output_step: 0.01
  rtol: 1.0e-10
  atol: 1.0e-12
view:
  scene: {type: particle, position: [x, y, z]}
  plots:
    - {title: "Multiplier", series: [mu]}
)";
  QVERIFY(WriteText(source, original));
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(source));
  QVERIFY2(WaitForRun(*window), qPrintable(window->last_error()));
  window->parameter_panel()->editor("kx")->setValue(0.8);
  window->parameter_panel()->editor("ky")->setValue(0.1 + 0.2);  // 0.30000000000000004
  window->parameter_panel()->editor("t_end")->setValue(7.5);
  QVERIFY(WaitForRun(*window));
  const QString saved = dir_.filePath("saved.yaml");
  QVERIFY(window->scenario_saver().SaveAs(saved));
  const QString text = ReadText(saved);
  // Every comment line and the layout are kept; only the three numbers changed.
  QStringList expected = original.split('\n');
  expected[8] = "  - {name: kx, default: 0.8, min: 0.0, max: 5.0, unit: 1/s^2}   # stiffness x";
  // The editor keeps every digit of the value it was given (no editor rounds), and the writer
  // writes the shortest text that reads back the same double: 0.1 + 0.2 is not 0.3.
  expected[10] = "    default: 0.30000000000000004";
  expected[18] = "  t_end: 7.5          # seconds";
  const QStringList got = text.split('\n');
  QCOMPARE(got.size(), expected.size());
  for (int i = 0; i < got.size(); ++i) QCOMPARE(got[i], expected[i]);
  QVERIFY(!text.contains("0.80000000000000004"));
  // The numbers come back equal.
  const dirac::Scenario back = dirac::LoadScenario(saved.toStdString());
  const dirac::Scenario& now = window->controller()->scenario();
  QCOMPARE(back.parameters[0].value, 0.8);
  QCOMPARE(back.parameters[1].value, now.parameters[1].value);
  QCOMPARE(back.simulation.t_end, 7.5);
  QCOMPARE(QString::fromStdString(dirac::SaveScenarioToString(back)),
           QString::fromStdString(dirac::SaveScenarioToString(now)));
  // A value the text cannot take in place (a boundary value freed, say) falls back to the
  // re-emitting writer, still with shortest numbers.
  dirac::Scenario edited = now;
  edited.source_file.clear();
  const std::string emitted = dirac::SaveScenarioToString(edited);
  QVERIFY(emitted.find("0.80000000000000004") == std::string::npos);
  QVERIFY(emitted.find("default: 0.8") != std::string::npos);
  QVERIFY(dirac::ParseScenario(emitted, "emitted.yaml").parameters[0].value == 0.8);
}

void WorkbenchGuiTest::desktopHabits() {
  QSettings().clear();
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");

  // Shortcuts work with a spin box focused (it would keep Space, Ctrl+Left, ... otherwise).
  QDoubleSpinBox* kx = window->parameter_panel()->editor("kx");
  window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window.get()));
  kx->setFocus();
  QVERIFY(QTest::qWaitFor([&] { return kx->hasFocus(); }, 2000));
  dirac::ui::PlaybackClock* clock = window->clock();
  clock->SetTime(1.0);
  QWidget* focused = QApplication::focusWidget();
  QVERIFY(focused);
  QTest::keyClick(focused, Qt::Key_Right, Qt::ControlModifier);
  QVERIFY2(std::abs(clock->time() - 1.01) < 1e-12, qPrintable(QString::number(clock->time())));
  QTest::keyClick(focused, Qt::Key_Left, Qt::ControlModifier);
  QTest::keyClick(focused, Qt::Key_Left, Qt::ControlModifier);
  QVERIFY(std::abs(clock->time() - 0.99) < 1e-12);
  auto* speed = window->findChild<QComboBox*>("playback.speed");
  const int speed_index = speed->currentIndex();
  QTest::keyClick(focused, Qt::Key_Up, Qt::ControlModifier);
  QCOMPARE(speed->currentIndex(), speed_index + 1);
  QCOMPARE(clock->speed(), speed->currentData().toDouble());
  QTest::keyClick(focused, Qt::Key_Down, Qt::ControlModifier);
  QCOMPARE(speed->currentIndex(), speed_index);
  QTest::keyClick(focused, Qt::Key_L, Qt::ControlModifier);
  QVERIFY(window->actions().loop->isChecked() && clock->loop());
  QTest::keyClick(focused, Qt::Key_Space);
  QVERIFY(clock->playing());
  QTest::keyClick(focused, Qt::Key_Space);
  QVERIFY(!clock->playing());
  QCOMPARE(kx->value(), 1.0);  // the spin box did not take the keys
  // Ctrl+E and Ctrl+S open their dialogs (closed again at once).
  QSignalSpy export_spy(window->actions().export_csv, &QAction::triggered);
  QSignalSpy save_spy(window->actions().save_scenario, &QAction::triggered);
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, [] {
    if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
  });
  closer.start(100);
  QTest::keyClick(focused, Qt::Key_E, Qt::ControlModifier);
  // The closed dialog hands activation back asynchronously; a shortcut needs the active window.
  QTRY_VERIFY(QApplication::activeModalWidget() == nullptr);
  window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window.get()));
  focused->setFocus();
  QTest::keyClick(focused, Qt::Key_S, Qt::ControlModifier);
  closer.stop();
  QCOMPARE(export_spy.count(), 1);
  QCOMPARE(save_spy.count(), 1);
  // Loop: playing past the end starts again at 0.
  clock->SetTime(clock->span() - 0.05);
  clock->SetSpeed(1.0);
  clock->Play();
  QVERIFY(QTest::qWaitFor([&] { return clock->time() < 1.0 && clock->playing(); }, 5000));
  clock->Pause();

  // The wheel over an editor the user has not clicked into is the panel's (it scrolls), not the
  // editor's: the value stays. Once the editor has focus, the wheel steps it.
  QDoubleSpinBox* ky = window->parameter_panel()->editor("ky");
  auto* ky_slider = window->findChild<QSlider*>("parameter.ky.slider");
  QVERIFY(ky && ky_slider);
  window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window.get()));
  kx->setFocus();
  QVERIFY(QTest::qWaitFor([&] { return kx->hasFocus(); }, 2000));
  auto wheel_up = [](QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
  };
  const double ky_before = ky->value();
  const int ky_slider_before = ky_slider->value();
  wheel_up(ky);
  wheel_up(ky_slider);
  QCOMPARE(ky->value(), ky_before);
  QCOMPARE(ky_slider->value(), ky_slider_before);
  QVERIFY(kx->hasFocus());  // the wheel did not take the focus either
  ky->setFocus();
  QVERIFY(QTest::qWaitFor([&] { return ky->hasFocus(); }, 2000));
  wheel_up(ky);
  QVERIFY2(ky->value() > ky_before, qPrintable(QString::number(ky->value())));
  ky->setValue(ky_before);

  // Help lists the shortcuts.
  const QStringList shortcuts = dirac::ui::ShortcutList(window->actions());
  for (const char* key : {"Space", "Ctrl+O", "Ctrl+E", "Ctrl+S", "Ctrl+Left", "Ctrl+Right",
                          "Ctrl+Up", "Ctrl+Down", "Ctrl+L"}) {
    bool found = false;
    for (const QString& line : shortcuts)
      found = found || line.section('\t', 0, 0).split(", ").contains(key);
    QVERIFY2(found, key);
  }

  // Recent files, newest first.
  QVERIFY(window->OpenScenario(ScenarioPath("lc_circuit.yaml")));
  QCOMPARE(dirac::ui::WindowSettings::RecentFiles().value(0), ScenarioPath("lc_circuit.yaml"));
  QCOMPARE(dirac::ui::WindowSettings::RecentFiles().value(1), ScenarioPath("heisenberg.yaml"));

  // A file dropped onto the window opens.
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(ScenarioPath("degenerate.yaml"))});
  QDragEnterEvent enter(QPoint(300, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent drop(QPointF(300, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &drop);
  QCOMPARE(QString::fromStdString(window->controller()->scenario().source_file),
           ScenarioPath("degenerate.yaml"));
  QCOMPARE(dirac::ui::WindowSettings::RecentFiles().value(0), ScenarioPath("degenerate.yaml"));
  QMimeData text_mime;
  text_mime.setUrls({QUrl::fromLocalFile("/tmp/picture.png")});
  QDragEnterEvent refuse(QPoint(300, 300), Qt::CopyAction, &text_mime, Qt::LeftButton,
                         Qt::NoModifier);
  QApplication::sendEvent(window.get(), &refuse);
  QVERIFY(!refuse.isAccepted());

  // Settings persist: speed, loop and layout come back in a new window.
  speed->setCurrentIndex(speed->count() - 1);
  window->resize(1400, 900);
  window->SaveSettings();
  const double saved_speed = clock->speed();
  window.reset();
  auto again = OpenWindow();
  QVERIFY(again);
  again->RestoreSettings();
  QCOMPARE(again->clock()->speed(), saved_speed);
  QVERIFY(again->clock()->loop());
  QVERIFY(QTest::qWaitFor([&] { return again->size() == QSize(1400, 900); }, 3000));
}

void WorkbenchGuiTest::gaugeScreenshotTwentyTimes() {
  // As `dirac-studio heisenberg.yaml --gauge --size 1280x720 --screenshot FILE`: each picture
  // shows both gauge charts drawn (their blue curves), 20 times out of 20.
  const QColor blue(0, 114, 178);
  int full = 0;
  for (int i = 0; i < 20; ++i) {
    MainWindow window;
    window.set_error_dialogs(false);
    window.resize(1280, 720);
    window.gauge_action()->setChecked(true);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.OpenScenario(ScenarioPath("heisenberg.yaml")));
    const QString png = dir_.filePath(QStringLiteral("gauge_%1.png").arg(i));
    dirac::ui::ScriptedCapture capture(&window, std::nullopt, png);
    int exit_code = -1;
    QObject::connect(&capture, &dirac::ui::ScriptedCapture::finished,
                     [&](int code) { exit_code = code; });
    capture.Start();
    QVERIFY(QTest::qWaitFor([&] { return exit_code >= 0; }, kRunTimeoutMs));
    QCOMPARE(exit_code, 0);
    const QImage image(png);
    QVERIFY(!image.isNull());
    PlotPanel* plots = window.plot_panel();
    QCOMPARE(plots->auxiliary_plot_count(), 2);
    bool both = true;
    for (int p = plots->plot_count() - 2; p < plots->plot_count(); ++p) {
      // The chart's part that the scrolling dock shows.
      auto* view = window.findChild<QWidget*>(QStringLiteral("plot.%1").arg(p));
      auto* scroll = window.findChild<QScrollArea*>("plotScroll");
      const QRect shown(scroll->viewport()->mapTo(&window, QPoint(0, 0)),
                        scroll->viewport()->size());
      // The plot area (the legend's markers are blue too); one-pixel antialiased curves ink
      // a few dozen pixels in exactly their colour, an undrawn chart none.
      const QRect area = plots->chart(p)->plotArea().toAlignedRect();
      const QRect rect =
          QRect(view->mapTo(&window, area.topLeft()), area.size()).intersected(shown);
      const int inked = CountColor(image, rect, blue);
      if (inked < 40) both = false;
      if (i == 0) qInfo("gauge chart %d: %d curve pixels", p, inked);
    }
    if (both) ++full;
    if (i == 0) QFile::copy(png, OutputPath("gauge_screenshot_1280x720.png"));
  }
  QCOMPARE(full, 20);
}
