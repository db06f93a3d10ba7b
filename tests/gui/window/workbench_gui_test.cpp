// GUI tests of the workbench a user lives in (issue 10), under Xvfb: every shipped scenario
// opened from the browser, played, edited, a chart zoomed and exported (PNG, SVG parsed), the
// CSV exported and parsed; the charts' interactions (pan, rectangle, reset, hover readout,
// click-to-seek, legend toggles, added columns, units and a second axis, pinned and compared
// runs); errors a user can act on (dependent and vanishing constraints, a singular edit, the
// previous result kept and marked stale, Cancel); a final time of 1e9; Save scenario as of a
// commented file; shortcuts with a spin box focused, recent files, drops, settings; and the
// `--gauge --screenshot` capture 20 times.
#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsView>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMimeData>
#include <QMouseEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTransform>
#include <QUrl>
#include <QValueAxis>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "dirac/csv.hpp"
#include "dirac/scenario.hpp"
#include "dirac/scenario_text.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "panels/scenario_browser.hpp"
#include "plots/axis_format.hpp"
#include "plots/plot_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/playback_clock.hpp"
#include "run/run_budget.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/menu_builders.hpp"
#include "window/scripted_capture.hpp"
#include "window/shown_result.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::PlotPanel;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

namespace {

QString ReadText(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

bool WriteText(const QString& path, const QString& text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return file.write(text.toUtf8()) == text.toUtf8().size();
}

// Elements of an SVG file by name (QXmlStreamReader); -1 if it does not parse or is no <svg>.
int CountSvgElements(const QString& path, const QStringList& names) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return -1;
  QXmlStreamReader xml(&file);
  bool root = false;
  int count = 0;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (!root) {
      if (xml.name() != QLatin1String("svg")) return -1;
      root = true;
    }
    if (names.contains(xml.name().toString())) ++count;
  }
  return xml.hasError() || !root ? -1 : count;
}

// Whether every point of every <polyline> of an SVG file (the chart's curves, grid and ticks)
// lies in `box`; false if it does not parse.
bool SvgPolylinesWithin(const QString& path, const QRectF& box) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  QXmlStreamReader xml(&file);
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement || xml.name() != QLatin1String("polyline"))
      continue;
    const QStringList points =
        xml.attributes().value("points").toString().split(' ', Qt::SkipEmptyParts);
    for (const QString& point : points) {
      const QStringList xy = point.split(',');
      if (xy.size() != 2 || !box.contains(QPointF(xy[0].toDouble(), xy[1].toDouble())))
        return false;
    }
  }
  return !xml.hasError();
}

// The plot area of chart `p` in its view's widget coordinates (what ExportChart draws).
QRectF PlotAreaInView(MainWindow& window, PlotPanel& plots, int p) {
  auto* view = window.findChild<QGraphicsView*>(QStringLiteral("plot.%1").arg(p));
  QChart* chart = plots.chart(p);
  const QTransform to_view =
      view->viewportTransform() *
      QTransform::fromTranslate(view->viewport()->x(), view->viewport()->y());
  return to_view.mapRect(chart->mapRectToScene(chart->plotArea()));
}

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

// Non-white pixels of an image.
int Inked(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if ((image.pixel(x, y) & 0xffffff) != 0xffffff) ++n;
  return n;
}

QWidget* Viewport(MainWindow& window, int plot) {
  auto* view = window.findChild<QAbstractScrollArea*>(QStringLiteral("plot.%1").arg(plot));
  return view ? view->viewport() : nullptr;
}

void SendMouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  QMouseEvent event(type, QPointF(pos), target->mapToGlobal(QPointF(pos)), button, buttons,
                    modifiers);
  QApplication::sendEvent(target, &event);
}

void SendWheel(QWidget* target, QPoint pos, int delta) {
  QWheelEvent event(QPointF(pos), target->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, delta),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(target, &event);
}

// Whether every value axis title of every chart fits its axis' length (Qt elides one that does
// not, units first).
bool AxisTitlesFit(PlotPanel& plots) {
  for (int p = 0; p < plots.plot_count(); ++p) {
    for (int a = 1; a <= 2; ++a) {
      const QValueAxis* axis = plots.axis(p, a);
      if (axis && QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()) >
                      plots.chart(p)->plotArea().height())
        return false;
    }
  }
  return true;
}

// Whether chart `p` is shown and laid out (its plot area has its size): what the mouse tests
// map their points with.
bool LaidOut(PlotPanel& plots, int p) {
  QChart* chart = plots.chart(p);
  return chart && chart->isVisible() && chart->plotArea().width() > 100 &&
         chart->plotArea().height() > 50;
}

// The pixel of the chart's plot area centre, in the view's viewport.
QPoint PlotCentre(QChart* chart) { return chart->plotArea().center().toPoint(); }

// Peak resident memory of this process [bytes] (VmHWM), -1 if unknown.
double PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return 1024.0 * std::stod(line.substr(6));
  }
  return -1.0;
}

// The value a scenario's test edits: for a solve its first final boundary value, else its
// first parameter, else its first free initial value.
QDoubleSpinBox* FirstEditor(MainWindow& window) {
  const dirac::Scenario& s = window.controller()->scenario();
  auto* panel = window.parameter_panel();
  if (window.controller()->solves()) {  // a target moves the optimum (a mass may not)
    for (QDoubleSpinBox* spin : panel->findChildren<QDoubleSpinBox*>()) {
      if (spin->objectName().startsWith("boundary.final") && spin->isEnabled()) return spin;
    }
  }
  if (!s.parameters.empty())
    return panel->editor(QString::fromStdString(s.parameters.front().name));
  for (QDoubleSpinBox* spin : panel->findChildren<QDoubleSpinBox*>()) {
    const QString name = spin->objectName();
    if ((name.startsWith("initial.") || name.startsWith("boundary.final")) && spin->isEnabled())
      return spin;
  }
  return nullptr;
}

}  // namespace

class WorkbenchGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // settings in a test location
    QSettings().clear();
    QVERIFY(dir_.isValid());
  }

  void everyScenarioFromTheBrowser();
  void chartsAnswer();
  void unitsAndAxes();
  void pinnedAndComparedRuns();
  void badInputIsExplained();
  void cancelSaysSo();
  void hugeFinalTimeIsBounded();
  void saveScenarioKeepsComments();
  void desktopHabits();
  void gaugeScreenshotTwentyTimes();

 private:
  QTemporaryDir dir_;
};

void WorkbenchGuiTest::everyScenarioFromTheBrowser() {
  auto window = OpenWindow();
  QVERIFY(window);
  dirac::ui::ScenarioBrowser* browser = window->BrowseScenarios();
  QVERIFY(browser);
  const QStringList paths = browser->paths();
  browser->close();  // deleted on close
  QTRY_VERIFY(window->scenario_browser() == nullptr);
  QVERIFY(paths.size() >= 15);
  int index = 0;
  for (const QString& path : paths) {
    const QString base = QFileInfo(path).completeBaseName();
    qInfo("%s", qPrintable(base));
    // Open it from the browser.
    browser = window->BrowseScenarios();
    QVERIFY(browser->Select(path));
    // Each entry has its description (the file's description:, else its opening comment).
    auto* description = browser->findChild<QLabel*>("scenarioBrowser.description");
    QVERIFY(description);
    QVERIFY2(description->text().section("<br>", 1).size() > 40, qPrintable(description->text()));
    browser->OpenSelected();
    QCOMPARE(QString::fromStdString(window->controller()->scenario().source_file), path);
    QVERIFY2(WaitForRun(*window), qPrintable(base + ": " + window->last_error()));
    QTRY_VERIFY(LaidOut(*window->plot_panel(), 0));
    const SnapshotPtr first = window->controller()->latest();
    QVERIFY(first && first->trajectory && first->trajectory->num_rows() > 2);

    // Play (fast) until the cursor has moved, then pause.
    dirac::ui::PlaybackClock* clock = window->clock();
    clock->SetSpeed(0.2 * clock->span() + 1.0);
    window->actions().play->trigger();
    QVERIFY(QTest::qWaitFor([&] { return clock->time() > 0.05 * clock->span(); }, 20000));
    window->actions().play->trigger();
    QVERIFY(!clock->playing());

    // Change a parameter (or a free initial value / boundary value).
    QDoubleSpinBox* editor = FirstEditor(*window);
    QVERIFY2(editor, qPrintable(base));
    const double old_value = editor->value();
    const double new_value = editor->objectName().startsWith("boundary") ? old_value + 0.05
                             : old_value != 0.0                          ? old_value * 1.05
                                                                         : 0.05;
    editor->setValue(std::clamp(new_value, editor->minimum(), editor->maximum()));
    QVERIFY2(WaitForRun(*window, first->run), qPrintable(base + ": " + window->last_error()));
    const SnapshotPtr edited = window->controller()->latest();
    bool changed = false;
    const dirac::Trajectory& a = *first->trajectory;
    const dirac::Trajectory& b = *edited->trajectory;
    for (std::size_t c = 1; c < std::min(a.num_columns(), b.num_columns()) && !changed; ++c)
      for (std::size_t r = 0; r < std::min(a.num_rows(), b.num_rows()) && !changed; ++r)
        changed = std::abs(a.at(r, c) - b.at(r, c)) > 1e-12;
    QVERIFY2(changed, qPrintable(base + ": the edit changed nothing"));

    // Zoom the first chart with the wheel: the time span shrinks about the pointer.
    PlotPanel* plots = window->plot_panel();
    QVERIFY(plots->plot_count() > 0);
    QValueAxis* time = plots->axis(0, 0);
    const double span_before = time->max() - time->min();
    QWidget* viewport = Viewport(*window, 0);
    QVERIFY(viewport);
    SendWheel(viewport, PlotCentre(plots->chart(0)), 240);
    QVERIFY(plots->zoomed(0));
    QVERIFY2(
        time->max() - time->min() < 0.9 * span_before,
        qPrintable(
            QString("%1: %2 -> %3").arg(base).arg(span_before).arg(time->max() - time->min())));

    // Export that chart as PNG and SVG; the SVG parses and draws paths.
    const QString png = dir_.filePath(base + ".png");
    const QString svg = dir_.filePath(base + ".svg");
    QCOMPARE(plots->ExportChart(0, png), QString());
    QCOMPARE(plots->ExportChart(0, svg), QString());
    const QImage image(png);
    QVERIFY(!image.isNull() && image.width() >= 2 * 300);
    QVERIFY(Inked(image) > 5000);
    const int drawn = CountSvgElements(svg, {"path", "polyline", "text"});
    QVERIFY2(drawn > 10, qPrintable(QString("%1: %2 SVG elements").arg(base).arg(drawn)));
    // The zoomed curves stay inside the plot area (QSvgGenerator ignores clipping; ticks reach
    // a few pixels out).
    QVERIFY2(SvgPolylinesWithin(svg, PlotAreaInView(*window, *plots, 0).adjusted(-10, -10, 10, 10)),
             qPrintable(base + ": a curve leaves the plot area in the SVG"));
    if (index == 0) {  // one of them kept for the report
      QFile::remove(OutputPath("chart_export.svg"));
      QFile::copy(svg, OutputPath("chart_export.svg"));
      image.save(OutputPath("chart_export.png"));
    }

    // Export the CSV with the parameters in a header comment and parse it back.
    const QString csv = dir_.filePath(base + ".csv");
    QVERIFY(window->csv_export().Export(csv, dirac::ui::CsvParameters::kHeaderComment));
    const dirac::Trajectory back = dirac::ReadCsv(csv.toStdString());
    QCOMPARE(back.columns(), b.columns());
    QCOMPARE(back.num_rows(), b.num_rows());
    for (std::size_t r = 0; r < b.num_rows(); r += std::max<std::size_t>(1, b.num_rows() / 50))
      for (std::size_t c = 0; c < b.num_columns(); ++c)
        QCOMPARE(back.at(r, c), b.at(r, c));  // %.17g: exact
    const QString head = ReadText(csv).section('\n', 0, 0);
    QVERIFY2(head.startsWith("# scenario: "), qPrintable(head));
    for (const dirac::Parameter& p : edited->run_scenario->parameters) {
      const QString line = QStringLiteral("# %1: %2")
                               .arg(QString::fromStdString(p.name),
                                    QString::fromStdString(dirac::ShortestNumber(p.value)));
      QVERIFY2(ReadText(csv).contains(line), qPrintable(base + ": no " + line));
    }
    // A solve's boundary values (targets) are recorded too.
    for (const dirac::ui::BoundaryValueInfo& info :
         dirac::ui::ListBoundaryValues(*edited->run_scenario)) {
      const auto v = dirac::ui::GetBoundaryValue(*edited->run_scenario, info.name);
      if (info.horizon || !v) continue;
      const QString line = QStringLiteral("# %1: %2")
                               .arg(QString::fromStdString(info.name),
                                    QString::fromStdString(dirac::ShortestNumber(*v)));
      QVERIFY2(ReadText(csv).contains(line), qPrintable(base + ": no " + line));
    }
    ++index;
  }
}

void WorkbenchGuiTest::chartsAnswer() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  const int p = 0;  // "Multiplier mu(t)"
  QTRY_VERIFY(LaidOut(*plots, p));
  QChart* chart = plots->chart(p);
  QWidget* viewport = Viewport(*window, p);
  QValueAxis* time = plots->axis(p, 0);
  QValueAxis* left = plots->axis(p, 1);
  const double t_end = window->controller()->scenario().simulation.t_end;
  QCOMPARE(time->min(), 0.0);
  QCOMPARE(time->max(), t_end);

  // Every chart keeps its minimum height (the dock scrolls instead of squeezing).
  for (int i = 0; i < plots->plot_count(); ++i) {
    auto* view = window->findChild<QWidget*>(QStringLiteral("plot.%1").arg(i));
    QVERIFY(view->height() >= PlotPanel::kMinChartHeight);
  }

  // Hover: the readout names the time and the value of mu at the nearest sample.
  const QPoint centre = PlotCentre(chart);
  SendMouse(viewport, QEvent::MouseMove, centre, Qt::NoButton, Qt::NoButton);
  auto* readout = window->findChild<QLabel*>("plotPanel.readout");
  QVERIFY(readout && readout->isVisible());
  const double t_hover = chart->mapToValue(centre).x();
  const SnapshotPtr run = window->controller()->latest();
  const std::size_t row = run->trajectory->RowAtTime(t_hover);
  const double mu = run->trajectory->at(row, run->trajectory->ColumnIndex("mu"));
  QVERIFY2(readout->text().contains(QStringLiteral("mu = %1").arg(QString::number(mu, 'g', 6))),
           qPrintable(readout->text()));
  QVERIFY(std::abs(run->trajectory->at(row, 0) - t_hover) <= 0.01 + 1e-9);

  // Click (no drag): the shared time cursor moves there.
  SendMouse(viewport, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
  SendMouse(viewport, QEvent::MouseButtonRelease, centre, Qt::LeftButton, Qt::NoButton);
  QVERIFY2(std::abs(window->clock()->time() - t_hover) < 1e-6 * t_end + 1e-9,
           qPrintable(QString("%1 vs %2").arg(window->clock()->time()).arg(t_hover)));
  QVERIFY(!plots->zoomed(p));

  // Drag: pans (the time range moves left by the dragged span, its width stays).
  const double width = time->max() - time->min();
  SendMouse(viewport, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
  for (int dx = 10; dx <= 100; dx += 10)
    SendMouse(viewport, QEvent::MouseMove, centre + QPoint(dx, 0), Qt::NoButton, Qt::LeftButton);
  SendMouse(viewport, QEvent::MouseButtonRelease, centre + QPoint(100, 0), Qt::LeftButton,
            Qt::NoButton);
  QVERIFY(plots->zoomed(p));
  QVERIFY2(time->min() < -0.1 * width, qPrintable(QString::number(time->min())));
  QVERIFY(std::abs((time->max() - time->min()) - width) < 1e-9 * width);

  // Double-click resets.
  SendMouse(viewport, QEvent::MouseButtonDblClick, centre, Qt::LeftButton, Qt::LeftButton);
  QVERIFY(!plots->zoomed(p));
  QCOMPARE(time->min(), 0.0);
  QCOMPARE(time->max(), t_end);

  // Shift + drag: zoom to the rectangle.
  const QRectF area = chart->plotArea();
  const QPoint a = (area.topLeft() + QPointF(0.25 * area.width(), 0.25 * area.height())).toPoint();
  const QPoint b = (area.topLeft() + QPointF(0.5 * area.width(), 0.75 * area.height())).toPoint();
  const QPointF va = chart->mapToValue(a), vb = chart->mapToValue(b);
  SendMouse(viewport, QEvent::MouseButtonPress, a, Qt::LeftButton, Qt::LeftButton,
            Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseMove, (a + b) / 2, Qt::NoButton, Qt::LeftButton,
            Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseMove, b, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
  SendMouse(viewport, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton,
            Qt::ShiftModifier);
  QVERIFY(plots->zoomed(p));
  QVERIFY2(std::abs(time->min() - va.x()) < 0.01 * t_end &&
               std::abs(time->max() - vb.x()) < 0.01 * t_end,
           qPrintable(QString("[%1, %2] vs [%3, %4]")
                          .arg(time->min())
                          .arg(time->max())
                          .arg(va.x())
                          .arg(vb.x())));
  QVERIFY(std::abs(left->max() - va.y()) < 0.02 * std::abs(va.y() - vb.y()));
  QVERIFY(std::abs(left->min() - vb.y()) < 0.02 * std::abs(va.y() - vb.y()));
  // A zoomed chart keeps its view when a new run arrives.
  const double zoom_min = time->min();
  const std::uint64_t before = window->controller()->latest()->run;
  window->parameter_panel()->editor("ky")->setValue(2.2);
  QVERIFY(WaitForRun(*window, before));
  QCOMPARE(time->min(), zoom_min);
  plots->ResetZoom(p);

  // Any trajectory column added from the list, and removed again.
  QVERIFY(plots->AddColumn(p, "x"));
  QCOMPARE(plots->PlotColumns(p), QStringList({"mu", "x"}));
  auto* x_series = window->plot_panel()->FindSeries("plot.0.x");
  QVERIFY(x_series && x_series->count() > 10);
  QCOMPARE(x_series->at(0).y(), 1.0);  // x(0) = 1 in heisenberg.yaml
  // Legend: a click on an entry hides its curve, another shows it.
  QChart* chart_now = plots->chart(p);
  QLegendMarker* x_marker = nullptr;
  for (QLegendMarker* marker : chart_now->legend()->markers())
    if (marker->series()->objectName() == "plot.0.x") x_marker = marker;
  QVERIFY(x_marker);
  emit x_marker->clicked();
  QVERIFY(!plots->SeriesVisible(p, "x"));
  QVERIFY(x_marker->labelBrush().color().alphaF() < 0.5);  // the entry stays, faded
  QVERIFY(!plots->Readout(p, 1.0).contains("x = "));
  emit x_marker->clicked();
  QVERIFY(plots->SeriesVisible(p, "x"));
  QVERIFY(x_marker->labelBrush().color().alphaF() > 0.99);
  QVERIFY(plots->RemoveColumn(p, "x"));
  QCOMPARE(plots->PlotColumns(p), QStringList({"mu"}));
}

void WorkbenchGuiTest::unitsAndAxes() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  // Elroy's beanie: Position [x, y, theta] mixes a position with an angle in rad: two axes.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "elroys_beanie.yaml");
  const int position = plots->FindPlot("Position");
  QVERIFY(position >= 0);
  QVERIFY(plots->axis(position, 2));
  QVERIFY2(plots->axis(position, 2)->titleText() == "theta [rad]",
           qPrintable(plots->axis(position, 2)->titleText()));
  QVERIFY2(plots->axis(position, 1)->titleText().startsWith("x, y"),
           qPrintable(plots->axis(position, 1)->titleText()));

  // Heisenberg: x, y, z in m, their velocities in m/s on the right axis when added.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  QVERIFY(plots->AddColumn(0, "x"));
  QVERIFY(plots->AddColumn(0, "y"));
  QVERIFY(plots->AddColumn(0, "vx"));
  // mu (a multiplier) stays on the left; x, y [m] and vx [m/s] go right.
  QVERIFY2(plots->axis(0, 1)->titleText() == "mu (multiplier)",
           qPrintable(plots->axis(0, 1)->titleText()));
  QVERIFY2(plots->axis(0, 2)->titleText() == "x, y [m]; vx [m/s]",
           qPrintable(plots->axis(0, 2)->titleText()));
  QVERIFY(plots->Readout(0, 0.0).contains("x = 1 m"));

  // Rigid body: the momentum legend names differ (not three identical truncated names).
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
  const int momentum = plots->FindPlot("Spatial angular momentum R I w");
  QVERIFY(momentum >= 0);
  QStringList labels;
  for (QLegendMarker* marker : plots->chart(momentum)->legend()->markers())
    if (!marker->series()->objectName().endsWith(".cursor")) labels << marker->label();
  QCOMPARE(labels, QStringList({"x", "y", "z"}));
  QVERIFY2(plots->axis(momentum, 1)->titleText().startsWith("spatial_momentum_{x,y,z}"),
           qPrintable(plots->axis(momentum, 1)->titleText()));
  // The legend's text fits: no elision.
  for (const QString& label : labels) QVERIFY(!label.contains(QChar(0x2026)));
  QCOMPARE(dirac::ui::CompactNames({"spatial_momentum_x", "spatial_momentum_y"}),
           QString("spatial_momentum_{x,y}"));
  QCOMPARE(dirac::ui::CompactNames({"w1", "w2"}), QString("w1, w2"));
  QCOMPARE(dirac::ui::CompactNames({"q1_dot", "q2_dot", "q4_dot"}), QString("{q1,q2,q4}_dot"));
  window->grab().save(OutputPath("workbench_rigid_body.png"));

  // Four charts of the LC circuit: every axis title fits its axis (was "{q1,q2,q4}_dot [..."),
  // the unit of the currents included.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "lc_circuit.yaml");
  QTRY_VERIFY(AxisTitlesFit(*plots));
  const int currents = plots->FindPlot("Currents");
  QVERIFY(currents >= 0);
  QVERIFY2(plots->axis(currents, 1)->titleText().contains("[C/s]"),
           qPrintable(plots->axis(currents, 1)->titleText()));
}

void WorkbenchGuiTest::pinnedAndComparedRuns() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  const SnapshotPtr pinned_run = window->controller()->latest();
  QVERIFY(window->pins().Pin());
  QVERIFY(plots->has_overlay(PlotPanel::kPinned));
  const std::uint64_t before = window->controller()->latest()->run;
  window->parameter_panel()->editor("ky")->setValue(3.0);
  QVERIFY(WaitForRun(*window, before));
  auto* pinned = window->plot_panel()->FindSeries("plot.0.mu.pinned");
  QVERIFY(pinned);
  // The pinned run, as it was, at the chart's decimation.
  const QList<QPointF> mu_pinned = plots->DisplayedCurve(0, 0, pinned_run->trajectory->Column("t"),
                                                         pinned_run->trajectory->Column("mu"));
  QCOMPARE(pinned->points(), mu_pinned);
  QVERIFY(plots->SeriesPoints(0, 0) != mu_pinned);  // the new run differs
  window->pins().Clear();
  QVERIFY(!window->plot_panel()->FindSeries("plot.0.mu.pinned"));

  // Compare: the nonholonomic motion of the vakonomic scenario in the plots (y = 0 line).
  QVERIFY(window->OpenScenario(ScenarioPath("vakonomic_heisenberg.yaml")));
  window->compare_action()->setChecked(true);
  QVERIFY2(WaitForRun(*window), qPrintable(window->last_error()));
  QVERIFY(QTest::qWaitFor([&] { return window->controller()->latest()->comparison != nullptr; },
                          kRunTimeoutMs));
  const int position = plots->FindPlot("Position");
  auto* y_other =
      window->plot_panel()->FindSeries(QStringLiteral("plot.%1.y.comparison").arg(position));
  QVERIFY(y_other && y_other->count() > 10);
  double max_y = 0.0;
  for (const QPointF& p : y_other->points()) max_y = std::max(max_y, std::abs(p.y()));
  QVERIFY2(max_y < 1e-8, qPrintable(QString::number(max_y)));
  auto* y_main = window->plot_panel()->FindSeries(QStringLiteral("plot.%1.y").arg(position));
  double max_main = 0.0;
  for (const QPointF& p : y_main->points()) max_main = std::max(max_main, std::abs(p.y()));
  QVERIFY(max_main > 0.5);  // the vakonomic circle about (0, -1)
  QVERIFY(y_other->name().contains("nonholonomic"));
  // One legend entry for the overlay ("nonholonomic"), not one per curve: x, y, z, nonholonomic.
  // (Marker items report visible once their rebuilt chart is shown.)
  auto entries = [&] {
    QStringList labels;
    for (QLegendMarker* marker : plots->chart(position)->legend()->markers())
      if (marker->isVisible()) labels << marker->label();
    return labels;
  };
  QTRY_COMPARE(entries(), QStringList({"x", "y", "z", "nonholonomic"}));
  window->compare_action()->setChecked(false);
}

void WorkbenchGuiTest::badInputIsExplained() {
  // A duplicated constraint row: named, not "IDACalcIC failed".
  QString text = ReadText(ScenarioPath("heisenberg.yaml"));
  text.replace("  - {name: heisenberg, form: \"vz - y*vx + x*vy\", multiplier: mu}",
               "  - {name: heisenberg, form: \"vz - y*vx + x*vy\", multiplier: mu}\n"
               "  - {name: h2, form: \"2*vz - 2*y*vx + 2*x*vy\", multiplier: mu2}");
  QVERIFY(text.contains("h2"));
  const QString duplicated = dir_.filePath("duplicated.yaml");
  QVERIFY(WriteText(duplicated, text));
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(duplicated));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("constraints heisenberg and h2 are dependent at q0"),
           qPrintable(window->last_error()));
  QVERIFY(!window->last_error().contains("IDACalcIC"));
  QVERIFY(window->plot_panel()->note().contains("failed"));

  // A constraint form that vanishes at the initial point.
  const QString vanishing = dir_.filePath("vanishing.yaml");
  QVERIFY(WriteText(vanishing, R"(name: vanishing form
coordinates:
  - {name: a1, velocity: v1, initial: 0.0, initial_velocity: 0.1}
  - {name: a2, velocity: v2, initial: 0.0, initial_velocity: 0.0}
  - {name: a3, velocity: v3, initial: 0.0, initial_velocity: 0.0}
lagrangian: "(v1^2 + v2^2 + v3^2)/2"
constraints:
  - {name: c, form: "a1*v1 + a2*v2 + a3*v3", multiplier: mu}
simulation: {t_end: 1, output_step: 0.01}
view:
  scene: {type: particle}
  plots:
    - {title: "a", series: [a1]}
)"));
  QVERIFY(window->OpenScenario(vanishing));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains(
               "the constraint form c vanishes at q0 (a1 = 0, a2 = 0, a3 = 0)"),
           qPrintable(window->last_error()));

  // A singular live edit (an inertia 0): the message, and the previous result kept, stale.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rigid_body.yaml");
  QVERIFY(window->last_error().isEmpty());
  const SnapshotPtr good = window->controller()->latest();
  const QList<QPointF> shown = window->plot_panel()->SeriesPoints(0, 0);
  QVERIFY(!window->shown_result().stale());
  QVERIFY(window->controller()->SetValue("I1", 0.0));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("singular"), qPrintable(window->last_error()));
  QVERIFY2(window->last_error().contains("rank 2 < 3"), qPrintable(window->last_error()));
  // The long message does not widen the window (the status bar elides it).
  QVERIFY2(window->minimumSizeHint().width() <= 1600,
           qPrintable(QString::number(window->minimumSizeHint().width())));
  QVERIFY(window->shown_result().stale());
  QCOMPARE(window->shown_result().last_good(), good);
  // The last good run, still drawn (at the chart's decimation).
  const std::string column = window->plot_panel()->PlotColumns(0).front().toStdString();
  QCOMPARE(window->plot_panel()->SeriesPoints(0, 0),
           window->plot_panel()->DisplayedCurve(0, 0, good->trajectory->Column("t"),
                                                good->trajectory->Column(column)));
  QVERIFY(!shown.isEmpty());
  QVERIFY2(window->plot_panel()->note().contains("stale"),
           qPrintable(window->plot_panel()->note()));
  auto* note = window->findChild<QLabel*>("plotPanel.note");
  QVERIFY(note && note->isVisible());
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY2(diagnostics->text().contains("previous result"), qPrintable(diagnostics->text()));
  window->grab().save(OutputPath("workbench_stale.png"));
  // A good value again: fresh, not stale.
  QVERIFY(window->controller()->SetValue("I1", 1.0));
  QVERIFY(WaitForRun(*window, good->run));
  QVERIFY(!window->shown_result().stale());
  QVERIFY(window->plot_panel()->note().isEmpty());

  // A first run that fails after streaming samples (q1 ~ e^t overflows near t = 710 s): its
  // partial run stays shown and is named, not "no result".
  QVERIFY(window->OpenScenario(ScenarioPath("degenerate.yaml"), {"t_end=1000"}));
  QVERIFY(QTest::qWaitFor([&] { return !window->last_error().isEmpty(); }, kRunTimeoutMs));
  QVERIFY2(window->last_error().contains("non-finite"), qPrintable(window->last_error()));
  QVERIFY2(window->plot_panel()->note().contains("partial run up to t = "),
           qPrintable(window->plot_panel()->note()));
  QVERIFY(diagnostics->text().contains("partial run"));
  QVERIFY(!window->plot_panel()->SeriesPoints(0, 0).isEmpty());
}

void WorkbenchGuiTest::cancelSaysSo() {
  auto window = OpenWindow();
  QVERIFY(window);
  QVERIFY(window->OpenScenario(ScenarioPath("heisenberg.yaml"), {"t_end=20000"}));
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY(QTest::qWaitFor(
      [&] {
        const SnapshotPtr s = window->controller()->latest();
        return s && !s->complete && s->last_time() > 1.0;
      },
      kRunTimeoutMs));
  QVERIFY(diagnostics->text().startsWith("simulating"));
  window->actions().cancel->trigger();
  QVERIFY(!window->controller()->busy());
  QVERIFY2(diagnostics->text().startsWith("cancelled at t = "), qPrintable(diagnostics->text()));
  QTest::qWait(300);  // nothing late overwrites it
  QVERIFY2(diagnostics->text().startsWith("cancelled at t = "), qPrintable(diagnostics->text()));
  QVERIFY(!window->actions().cancel->isEnabled());
}

void WorkbenchGuiTest::hugeFinalTimeIsBounded() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  const double columns = static_cast<double>(window->controller()->model()->columns().size());
  // The estimate of the file's run: 50 / 0.01 + 1 samples.
  QVERIFY2(window->run_budget().text().contains("≈ 5001 samples, 400 kB"),
           qPrintable(window->run_budget().text()));
  const std::uint64_t before = window->controller()->latest()->run;

  // The final time box takes 1e9: the stored samples are decimated under the bound.
  QDoubleSpinBox* t_end = window->parameter_panel()->editor("t_end");
  QVERIFY(t_end);
  // Typed as a user would, in scientific notation (a plain QDoubleSpinBox read "1e9" as 19).
  t_end->selectAll();
  QTest::keyClicks(t_end, "1e9");
  QTest::keyClick(t_end, Qt::Key_Return);
  QCOMPARE(t_end->value(), 1e9);
  QCOMPARE(window->controller()->scenario().simulation.t_end, 1e9);
  const double step = window->controller()->scenario().simulation.output_step;
  const double samples = 1e9 / step + 1.0;
  QVERIFY2(samples * columns * 8.0 <= dirac::ui::kMaxStoredTrajectoryBytes,
           qPrintable(QString("step %1").arg(step)));
  QVERIFY(step >= 0.01);
  QVERIFY(window->last_error().isEmpty());

  // The window keeps answering while it runs: a 20 ms timer keeps firing, the run streams.
  // Asserted as the longest wait between two ticks (the count of ticks depends on the load of
  // the machine: playback renders with llvmpipe on the same cores). Measured: 0.2-1.6 s with
  // two other builds running on this 2-core machine; a frozen window waits the whole 3 s.
  int ticks = 0;
  qint64 longest_gap_ms = 0;
  QElapsedTimer since_tick;
  since_tick.start();
  QTimer timer;
  QElapsedTimer since_start;
  since_start.start();
  qint64 gap_at_ms = 0;
  QObject::connect(&timer, &QTimer::timeout, [&] {
    ++ticks;
    const qint64 gap = since_tick.restart();
    if (gap > longest_gap_ms) gap_at_ms = since_start.elapsed();
    longest_gap_ms = std::max(longest_gap_ms, gap);
  });
  timer.start(20);
  QVERIFY(window->controller()->busy());
  QTest::qWait(3000);
  timer.stop();
  QVERIFY2(ticks >= 10 && longest_gap_ms <= 2000,
           qPrintable(QString("%1 ticks in > 3 s, longest gap %2 ms ending at %3 ms")
                          .arg(ticks)
                          .arg(longest_gap_ms)
                          .arg(gap_at_ms)));
  // Still integrating towards 1e9, or stopped by IDAS with the reason said and the previous
  // result kept (each output step of 2000 s may take more than IDAS's 500000 steps).
  const SnapshotPtr partial = window->controller()->latest();
  const bool running = window->controller()->busy();
  QVERIFY2(running || (window->shown_result().stale() && window->last_error().contains("IDAS")),
           qPrintable(window->last_error()));
  const double peak = PeakResidentBytes();
  qInfo("t_end 1e9: output step %g s, %s, %zu rows of run %llu, peak RSS %.0f MB, %d ticks: %s",
        step, running ? "running" : "stopped",
        partial->trajectory ? partial->trajectory->num_rows() : 0,
        static_cast<unsigned long long>(partial->run), peak / 1e6, ticks,
        qPrintable(window->last_error()));
  QVERIFY(peak > 0.0 && peak < 1024.0 * 1024.0 * 1024.0);
  // The UI thread answers at once: the time cursor moves.
  window->clock()->SetTime(0.5);
  QCOMPARE(window->clock()->time(), 0.5);
  window->shown_result().CancelRun();
  QVERIFY(!window->controller()->busy());
  auto* diagnostics = window->findChild<QLabel*>("status.diagnostics");
  QVERIFY2(diagnostics->text().startsWith(running ? "cancelled" : "run failed"),
           qPrintable(diagnostics->text()));

  // The bound itself: a run of 1e9 s every 0.01 s with 12 columns needs ~9.6 TB.
  const dirac::ui::RunBudget b = dirac::ui::EstimateRun(1e9, 0.01, 12);
  QVERIFY(!b.within);
  QCOMPARE(b.samples, 1e11 + 1.0);
  QVERIFY(b.decimated_step >= 1e9 / (b.max_samples - 1.0));
  QVERIFY(dirac::ui::EstimateRun(50, 0.01, 12).within);
}

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
  expected[10] = "    default: 0.3";
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

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  WorkbenchGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "workbench_gui_test.moc"
