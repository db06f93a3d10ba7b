// The workbench tour (issue 10): every shipped scenario opened from the browser, played, edited,
// its first chart zoomed and exported (PNG, SVG parsed), the CSV exported and read back.
#include <QApplication>
#include <QChart>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsView>
#include <QImage>
#include <QLabel>
#include <QTest>
#include <QTransform>
#include <QValueAxis>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <memory>

#include "dirac/csv.hpp"
#include "dirac/scenario.hpp"
#include "dirac/scenario_text.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "panels/scenario_browser.hpp"
#include "plots/plot_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/workbench_gui_test.hpp"

using namespace dirac::ui::testing::workbench;

namespace {

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

// Non-white pixels of an image.
int Inked(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if ((image.pixel(x, y) & 0xffffff) != 0xffffff) ++n;
  return n;
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

void SendWheel(QWidget* target, QPoint pos, int delta) {
  QWheelEvent event(QPointF(pos), target->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, delta),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(target, &event);
}

}  // namespace

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
