// GUI tests of scenes that leave room (issue 23), under Xvfb: the camera frames a scene's bounds
// in the band that the view's text leaves free (under the top row, above a shown legend), at
// 1280 x 720 and 1600 x 1000 (cubic_spline_bvp's path is no longer cut off); Elroy's beanie
// fills the view, and its readout keeps off the view's time in a narrow view, its legend fits
// the view's width; the rigid body's box follows its inertias (also when they are edited).
#include <QApplication>
#include <QDoubleSpinBox>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <memory>

#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "run/playback_clock.hpp"
#include "scenes/rigid_body_scene.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::SceneView;
using dirac::ui::testing::ScenarioPath;

namespace {

std::unique_ptr<MainWindow> WindowOfSize(int w, int h) {
  auto window = std::make_unique<MainWindow>();
  window->set_error_dialogs(false);
  window->resize(w, h);
  window->show();
  if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
  return window;
}

QString Describe(const QRect& r) {
  return QString("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The topmost row of the legend's light grey text (0.80, 0.82, 0.87) in the view's lower left
// quarter, or the view's height if there is none.
int LegendTop(const QImage& image) {
  for (int y = image.height() / 2; y < image.height(); ++y) {
    int n = 0;
    for (int x = 0; x < image.width() / 2; ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - 204) < 30 && std::abs(c.green() - 209) < 30 &&
          std::abs(c.blue() - 222) < 30)
        ++n;
    }
    if (n >= 3) return y;
  }
  return image.height();
}

// Pixels of the bodies' orange (255, 140, 0, lit and shaded) in `image`.
int OrangePixels(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() > 150 && c.green() > 0.35 * c.red() && c.green() < 0.7 * c.red() &&
          c.blue() < 0.25 * c.red())
        ++n;
    }
  return n;
}

}  // namespace

class SceneFramingGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void boundsFillTheFreeBand_data();
  void boundsFillTheFreeBand();
  void elroysBeanieFillsTheView();
  void readoutKeepsOffTheTime();
  void narrowViewKeepsBodyReadoutAndHintApart();
  void rigidBoxFollowsTheInertias();
  void legendFitsTheViewWidth();
};

void SceneFramingGuiTest::boundsFillTheFreeBand_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("width");
  QTest::addColumn<int>("height");
  for (const char* file : {"cubic_spline_bvp.yaml", "heisenberg.yaml", "so3_spline.yaml"}) {
    QTest::newRow(qPrintable(QString("%1 1280x720").arg(file))) << file << 1280 << 720;
    QTest::newRow(qPrintable(QString("%1 1600x1000").arg(file))) << file << 1600 << 1000;
  }
}

void SceneFramingGuiTest::boundsFillTheFreeBand() {
  QFETCH(QString, file);
  QFETCH(int, width);
  QFETCH(int, height);
  auto window = WindowOfSize(width, height);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, file);
  SceneView* view = window->scene_view();
  view->ResetCamera();
  const QImage frame = view->GrabImage();
  const QRect bounds = view->scene_bounds_rect();
  const QString where = file + QString(": bounds at %1 in a %2x%3 view")
                                   .arg(Describe(bounds))
                                   .arg(view->width())
                                   .arg(view->height());
  QVERIFY2(!bounds.isEmpty(), qPrintable(where));
  // Under the top row (the time, the hint), inside the sides, above the legend when shown.
  QVERIFY2(bounds.top() >= 38 && bounds.left() >= 8 && bounds.right() <= view->width() - 8,
           qPrintable(where));
  const int floor = view->legend_shown() ? LegendTop(frame) : view->height() - 8;
  QVERIFY2(floor < view->height() || !view->legend_shown(), qPrintable(where + ": no legend"));
  QVERIFY2(bounds.bottom() <= floor + 2,
           qPrintable(where + QString(", the legend from row %1").arg(floor)));
  // And it fills the band one way or the other (not a small picture in the middle).
  const double fill = std::max(static_cast<double>(bounds.width()) / view->width(),
                               static_cast<double>(bounds.height()) / (floor - 40));
  QVERIFY2(fill > 0.7, qPrintable(where + QString(": fills %1").arg(fill)));
}

void SceneFramingGuiTest::elroysBeanieFillsTheView() {
  auto window = WindowOfSize(1600, 1000);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  SceneView* view = window->scene_view();
  view->ResetCamera();
  const QImage frame = view->GrabImage();
  // The main body and the rotor: a large part of the view, not a fifth of it.
  const double share = static_cast<double>(OrangePixels(frame)) / (frame.width() * frame.height());
  qInfo("Elroy's beanie: %.1f %% of the view orange", 100.0 * share);
  QVERIFY2(share > 0.12, qPrintable(QString("%1 % orange").arg(100.0 * share)));
}

void SceneFramingGuiTest::readoutKeepsOffTheTime() {
  auto window = WindowOfSize(1280, 720);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  window->clock()->SetTime(0.8);
  SceneView* view = window->scene_view();
  view->SetHint(QString());
  const QImage frame = view->GrabImage();
  // The time ("t = 0.800 s", near white) in the top row; the readout's grey (0.80, 0.82, 0.87)
  // must not run into its columns there.
  int left = frame.width(), right = -1;
  for (int y = 0; y < 34; ++y)
    for (int x = 0; x < frame.width() / 2; ++x) {
      const QColor c = frame.pixelColor(x, y);
      if (c.red() > 228 && c.green() > 228 && c.blue() > 236) {
        left = std::min(left, x);
        right = std::max(right, x);
      }
    }
  QVERIFY2(right > left, "no time text");
  int into = 0, readout = 0;
  for (int y = 0; y < 90; ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const QColor c = frame.pixelColor(x, y);
      if (std::abs(c.red() - 204) < 6 && std::abs(c.green() - 209) < 6 &&
          std::abs(c.blue() - 222) < 6) {
        ++readout;
        if (y < 34 && x >= left - 6 && x <= right + 6) ++into;
      }
    }
  QVERIFY2(readout > 100, qPrintable(QString("%1 readout pixels").arg(readout)));
  QVERIFY2(
      into < 10,
      qPrintable(
          QString("%1 readout pixels among the time's (x %2..%3)").arg(into).arg(left).arg(right)));
}

void SceneFramingGuiTest::narrowViewKeepsBodyReadoutAndHintApart() {
  // Elroy's beanie at 1100 x 720: the view is about 330 px wide and taller than wide. The
  // readout goes under the time in a font small enough for its longest line, the first-screen
  // hint under the readout, and the camera moves back to keep both bodies' width in view.
  auto window = WindowOfSize(1100, 720);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  window->clock()->SetTime(0.8);
  SceneView* view = window->scene_view();
  view->ResetCamera();
  view->SetHint(QStringLiteral("Press Space to play"));
  const QImage frame = view->GrabImage();
  frame.save(dirac::ui::testing::OutputPath("scene_framing_narrow.png"));
  QVERIFY2(frame.width() < frame.height(), qPrintable(QString::number(frame.width())));
  auto near = [](const QColor& c, int r, int g, int b, int tolerance) {
    return std::abs(c.red() - r) < tolerance && std::abs(c.green() - g) < tolerance &&
           std::abs(c.blue() - b) < tolerance;
  };
  // The hint's box (its fill, blended over the view), then the readout's grey (0.80, 0.82,
  // 0.87) beside it (the hint's antialiased white text has greys of its own).
  int hint_top = frame.height(), hint_left = frame.width(), hint_right = -1;
  for (int y = 0; y < frame.height() / 2; ++y)
    for (int x = 0; x < frame.width(); ++x)
      if (near(frame.pixelColor(x, y), 44, 103, 136, 5)) {
        hint_top = std::min(hint_top, y);
        hint_left = std::min(hint_left, x);
        hint_right = std::max(hint_right, x);
      }
  int readout_left = frame.width(), readout_bottom = -1, edge = 0;
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const QColor c = frame.pixelColor(x, y);
      if (y < 120 && (x < hint_left - 3 || x > hint_right + 3) && near(c, 204, 209, 222, 6)) {
        readout_left = std::min(readout_left, x);
        readout_bottom = std::max(readout_bottom, y);
      }
      // The orange body at the view's left or right edge: cut off.
      if ((x < 2 || x >= frame.width() - 2) && c.red() > 180 && c.green() > 80 && c.green() < 160 &&
          c.blue() < 60)
        ++edge;
    }
  QVERIFY2(readout_bottom > 34, "no readout under the time");
  QVERIFY2(readout_left > 2, qPrintable(QString("the readout cut at x = %1").arg(readout_left)));
  QVERIFY2(hint_top < frame.height() / 2, "no hint");
  QVERIFY2(
      hint_top > readout_bottom,
      qPrintable(QString("hint from row %1, readout to row %2").arg(hint_top).arg(readout_bottom)));
  QVERIFY2(edge == 0, qPrintable(QString("%1 body pixels on the view's side edges").arg(edge)));
}

void SceneFramingGuiTest::rigidBoxFollowsTheInertias() {
  auto window = WindowOfSize(1600, 1000);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
  auto sides = [&] {
    auto* scene = dynamic_cast<dirac::ui::RigidBodyScene*>(window->scene_view()->scene());
    if (!scene) return QList<double>();
    const QRegularExpressionMatch m =
        QRegularExpression(R"(rigid body ([0-9.e+-]+) x ([0-9.e+-]+) x ([0-9.e+-]+))")
            .match(QString::fromStdString(scene->legend_text()));
    return m.hasMatch() ? QList<double>{m.captured(1).toDouble(), m.captured(2).toDouble(),
                                        m.captured(3).toDouble()}
                        : QList<double>();
  };
  // I = (1, 2, 3): sides in the ratio sqrt(I2 + I3 - I1) : sqrt(I1 + I3 - I2) : sqrt(I1 + I2 -
  // I3) = 2 : sqrt(2) : 0, the longest 1.6, the thinnest kept at 0.12 of it.
  QList<double> s = sides();
  QCOMPARE(s.size(), 3);
  QVERIFY2(std::abs(s[0] - 1.6) < 0.01 && std::abs(s[1] - 1.6 / std::sqrt(2.0)) < 0.01 &&
               std::abs(s[2] - 0.192) < 0.01,
           qPrintable(QString("%1 x %2 x %3").arg(s[0]).arg(s[1]).arg(s[2])));
  // I3 = 2: 3 : 1 : 1, at once (before the rerun).
  window->parameter_panel()->editor("I3")->setValue(2.0);
  s = sides();
  QCOMPARE(s.size(), 3);
  QVERIFY2(std::abs(s[0] - 1.6) < 0.01 && std::abs(s[1] - 1.6 / std::sqrt(3.0)) < 0.01 &&
               std::abs(s[2] - 1.6 / std::sqrt(3.0)) < 0.01,
           qPrintable(QString("%1 x %2 x %3").arg(s[0]).arg(s[1]).arg(s[2])));
  // Every body axis still reaches out of the resized box, by at least a fifth of its longest
  // side (e3 grew from 0.192 to 0.92: its arrow would otherwise end inside).
  auto* scene = dynamic_cast<dirac::ui::RigidBodyScene*>(window->scene_view()->scene());
  QVERIFY(scene);
  for (std::size_t k = 0; k < 3; ++k)
    QVERIFY2(scene->axis_lengths()[k] > 0.5 * scene->box_sides()[k] + 0.2 * 1.6,
             qPrintable(QString("e%1: %2 against half a side %3")
                            .arg(k + 1)
                            .arg(scene->axis_lengths()[k])
                            .arg(0.5 * scene->box_sides()[k])));
}

void SceneFramingGuiTest::legendFitsTheViewWidth() {
  // Elroy's beanie at 1280 x 720: its legend's first line ("3D view on the ground plane ...; the
  // camera follows, drag to orbit") is wider than the view at full size; it is drawn smaller
  // rather than cut at the right edge.
  auto window = WindowOfSize(1280, 720);
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  SceneView* view = window->scene_view();
  view->SetLegendShown(true);
  QVERIFY(view->legend_shown());
  const QImage frame = view->GrabImage();
  frame.save(dirac::ui::testing::OutputPath("scene_framing_legend.png"));
  const int top = LegendTop(frame);
  QVERIFY2(top < frame.height(), "no legend drawn");
  int right = -1;
  for (int y = top; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const QColor c = frame.pixelColor(x, y);
      if (std::abs(c.red() - 204) < 30 && std::abs(c.green() - 209) < 30 &&
          std::abs(c.blue() - 222) < 30)
        right = std::max(right, x);
    }
  QVERIFY2(
      right >= 0 && right < frame.width() - 8,
      qPrintable(
          QString("legend text up to x = %1 in a %2 px wide view").arg(right).arg(frame.width())));
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  SceneFramingGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "scene_framing_gui_test.moc"
