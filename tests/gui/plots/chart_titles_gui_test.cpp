// GUI tests of charts that say what they show (issue 23), under Xvfb: every chart of every
// shipped scenario (and the gauge two-form's) has a value-axis title in words, with the unit of
// each of its columns where the scenario gives one; an exported chart carries both axis titles
// ("t [s]" too, also for a chart that is not the last) on a white background, and the export
// dialog does not start in the scenario's folder; stacked charts' plot areas share their left
// and right edges to 1 px; after Reset every chart's cursor is at t = 0 on screen (none left
// behind); the hover readout stays inside the plot area (off the x labels) and goes when the
// pointer leaves; turning the gauge charts on keeps the first chart (the multiplier) in view.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGraphicsView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMap>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QXmlStreamReader>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/column_units.hpp"
#include "plots/plot_panel.hpp"
#include "plots/svg_export.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"
#include "window/pin_reaction.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::PlotPanel;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::ScenarioPath;

namespace {

// The words of an axis title that are not column names: its tokens of four letters or more
// outside the unit brackets ("w1, w2: angular velocity [rad/s]" -> "angular", "velocity").
QStringList TitleWords(QString title, const std::set<std::string>& columns) {
  title.replace(QStringLiteral("<br>"), QStringLiteral(" "));
  title.remove(QRegularExpression(R"(\[[^\]]*\])"));
  QStringList words;
  for (const QString& token : title.split(QRegularExpression("[^A-Za-z0-9_]+"), Qt::SkipEmptyParts))
    if (!columns.count(token.toStdString()) &&
        QRegularExpression("^[A-Za-z]{4,}$").match(token).hasMatch())
      words << token;
  return words;
}

// The plot area of chart `p` in the plot panel's coordinates.
QRectF PlotAreaInPanel(MainWindow& window, PlotPanel& plots, int p) {
  auto* view = window.findChild<QGraphicsView*>(QStringLiteral("plot.%1").arg(p));
  QChart* chart = plots.chart(p);
  const QRectF area = view->mapFromScene(chart->mapRectToScene(chart->plotArea())).boundingRect();
  return area.translated(view->mapTo(&plots, QPoint(0, 0)));
}

// Whether the plot areas of all charts share their left and right edges to 1 px.
QString Misaligned(MainWindow& window, PlotPanel& plots) {
  const QRectF first = PlotAreaInPanel(window, plots, 0);
  for (int p = 1; p < plots.plot_count(); ++p) {
    const QRectF area = PlotAreaInPanel(window, plots, p);
    if (std::abs(area.left() - first.left()) > 1.0 || std::abs(area.right() - first.right()) > 1.0)
      return QString("chart %1 spans %2..%3, chart 0 %4..%5")
          .arg(p)
          .arg(area.left())
          .arg(area.right())
          .arg(first.left())
          .arg(first.right());
  }
  return {};
}

// Chart `p`'s plot area in window coordinates.
QRect PlotAreaInWindow(MainWindow& window, PlotPanel& plots, int p) {
  auto* view = window.findChild<QGraphicsView*>(QStringLiteral("plot.%1").arg(p));
  QChart* chart = plots.chart(p);
  const QRect area = view->mapFromScene(chart->mapRectToScene(chart->plotArea())).boundingRect();
  return area.translated(view->viewport()->mapTo(&window, QPoint(0, 0)));
}

// The columns (x, window coordinates) of `rect` in `image` holding at least 3 pixels of the
// time cursor's orange (230, 120, 0).
QList<int> CursorColumns(const QImage& image, const QRect& rect) {
  QList<int> columns;
  for (int x = rect.left(); x <= rect.right(); ++x) {
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() > 190 && c.green() > 80 && c.green() < 160 && c.blue() < 90) ++n;
    }
    if (n >= 3) columns << x;
  }
  return columns;
}

}  // namespace

class ChartTitlesGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void everyChartTitledInWords_data();
  void everyChartTitledInWords();
  void exportedChartStandsAlone();
  void svgTitleOfRichTextIsPlainXml();
  void stackedPlotAreasAligned();
  void pinnedRunStandsApart();
  void cursorFollowsReset();
  void readoutStaysOffTheAxesAndLeaves();
  void gaugeChartsKeepTheFirstInView();
};

void ChartTitlesGuiTest::everyChartTitledInWords_data() {
  QTest::addColumn<QString>("file");
  const QStringList files = QDir(DIRAC_SCENARIO_DIR).entryList({"*.yaml"}, QDir::Files, QDir::Name);
  QVERIFY(files.size() >= 17);
  for (const QString& file : files) QTest::newRow(qPrintable(file)) << file;
}

void ChartTitlesGuiTest::everyChartTitledInWords() {
  QFETCH(QString, file);
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, file);
  if (window->gauge_action()->isEnabled()) {
    window->gauge_action()->trigger();  // its two charts too
    QTRY_VERIFY_WITH_TIMEOUT(window->controller()->latest_gauge() != nullptr,
                             dirac::ui::testing::kRunTimeoutMs);
  }
  // L's unit worked out by hand from the units the file gives (tests/core/scenario/
  // test_energy_unit.cpp checks the reader's inference against the same).
  const QMap<QString, QString> energy_units{
      {"rolling_disk.yaml", "J"},    {"chaplygin_sleigh.yaml", "J"}, {"rigid_body.yaml", "J"},
      {"suslov.yaml", "J"},          {"lc_circuit.yaml", "J"},       {"charged_particle.yaml", "J"},
      {"heisenberg.yaml", "m^2/s^2"}};
  const QString expected_energy_unit = energy_units.value(file);
  PlotPanel* plots = window->plot_panel();
  plots->LayOutNow();
  QTest::qWait(50);
  const auto quantities = dirac::ui::DescribeColumns(window->controller()->model().get(),
                                                     window->controller()->scenario());
  std::set<std::string> columns;
  for (const auto& [name, q] : quantities) columns.insert(name);
  QVERIFY(plots->plot_count() > 0);
  for (int p = 0; p < plots->plot_count(); ++p) {
    const QStringList shown = plots->PlotColumns(p);
    const bool two_axes = plots->axis(p, 2) != nullptr;
    for (int a = 1; a <= (two_axes ? 2 : 1); ++a) {
      const QString title = plots->axis(p, a)->titleText();
      const QString where = QString("%1 chart %2 (%3) axis %4: \"%5\"")
                                .arg(file)
                                .arg(p)
                                .arg(plots->chart(p)->title())
                                .arg(a)
                                .arg(title);
      QVERIFY2(!title.isEmpty(), qPrintable(where));
      // Every axis names its quantity in words (a chart of two quantities on both axes).
      QVERIFY2(!TitleWords(title, columns).isEmpty(), qPrintable(where));
      // The unit of each column where the scenario gives one (a chart of two quantities: on
      // either axis).
      const QString both = title + (two_axes ? " " + plots->axis(p, 3 - a)->titleText() : "");
      for (const QString& column : shown) {
        const auto it = quantities.find(column.toStdString());
        if (it == quantities.end() || it->second.unit.empty()) continue;
        const QString unit = "[" + QString::fromStdString(it->second.unit) + "]";
        QVERIFY2(both.contains(unit), qPrintable(where + " lacks " + unit + " of " + column));
      }
      // The energy in the unit of the Lagrangian (issue 40): "energy [J]" where the units the
      // scenario gives its symbols make L a number of joules.
      if (shown == QStringList{"E"} && !expected_energy_unit.isEmpty())
        QVERIFY2(
            QString(title).replace("<br>", " ").contains("energy [" + expected_energy_unit + "]"),
            qPrintable(where));  // on one line or the unit under the words
    }
  }
  // The energy column carries the unit the reader found for L (none for the Pontryagin
  // Hamiltonian of a solve), and the scenarios whose units say it have it.
  const dirac::Scenario& scenario = window->controller()->scenario();
  const bool pontryagin = scenario.optimal_control.present || scenario.boundary_value.present();
  if (const auto energy = quantities.find("E"); energy != quantities.end())
    QCOMPARE(energy->second.unit, pontryagin ? std::string() : scenario.EnergyUnit());
  if (!expected_energy_unit.isEmpty())
    QCOMPARE(QString::fromStdString(scenario.EnergyUnit()), expected_energy_unit);
}

void ChartTitlesGuiTest::exportedChartStandsAlone() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  QVERIFY(plots->plot_count() >= 2);
  QVERIFY(!plots->axis(0, 0)->isTitleVisible());  // in the window: under the last chart only
  QTemporaryDir dir;
  const QString svg = dir.filePath("mu.svg");
  QCOMPARE(plots->ExportChart(0, svg), QString());
  QVERIFY(!plots->axis(0, 0)->isTitleVisible());  // as it was
  QFile::remove(dirac::ui::testing::OutputPath("chart_titles_export.svg"));
  QFile::copy(svg, dirac::ui::testing::OutputPath("chart_titles_export.svg"));
  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&file);
  // Every rectangle filled from the top left corner (a background) is white.
  QString texts, fill, document_title;
  QStringList backgrounds;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == QLatin1String("title")) document_title = xml.readElementText();
    if (xml.name() == QLatin1String("g")) fill = xml.attributes().value("fill").toString();
    if (xml.name() == QLatin1String("rect") && xml.attributes().value("x") == QLatin1String("0") &&
        xml.attributes().value("y") == QLatin1String("0"))
      backgrounds << fill.toLower();
    // (QSvgGenerator may split a rotated title into pieces: they are joined.)
    if (xml.name() == QLatin1String("text")) texts += xml.readElementText();
  }
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  // The chart's title in words, whether or not the window broke it in two ("<br>").
  QString title_words = plots->chart(0)->title();
  title_words.replace(QLatin1String("<br>"), QLatin1String(" "));
  QCOMPARE(document_title, title_words.simplified());
  QVERIFY2(texts.contains("t [s]"), qPrintable(texts));
  QVERIFY2(texts.contains("multiplier"), qPrintable(texts));  // the y title, in words
  QVERIFY(!backgrounds.isEmpty());
  for (const QString& background : backgrounds)
    QVERIFY2(background == "#ffffff", qPrintable(backgrounds.join(", ")));
  const QString png = dir.filePath("mu.png");
  QCOMPARE(plots->ExportChart(0, png), QString());
  QVERIFY(!QImage(png).isNull());

  // The export dialog starts in the last export's folder or the user's documents, never the
  // scenario's folder (the source or install tree), even when that is the last folder opened.
  QSettings().remove("files/lastExportFolder");
  QSettings().setValue("files/lastFolder", QString(DIRAC_SCENARIO_DIR));
  const QString folder = QDir(plots->ExportFolder()).canonicalPath();
  QVERIFY2(!folder.isEmpty() && !folder.startsWith(QDir(DIRAC_SCENARIO_DIR "/..").canonicalPath()),
           qPrintable(folder));
}

void ChartTitlesGuiTest::svgTitleOfRichTextIsPlainXml() {
  // A title broken in two, with the characters XML reserves: the file stays valid XML and the
  // document title reads as the words (CI failed once on "<title>Multiplier<br>mu(t)</title>").
  QWidget widget;
  widget.resize(120, 80);
  QTemporaryDir dir;
  const QString svg = dir.filePath("rich.svg");
  QCOMPARE(dirac::ui::RenderWidgetToSvg(widget, svg, "Force &amp; torque<br>F &lt; 2 \"N\""),
           QString());
  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&file);
  QString document_title;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("title"))
      document_title = xml.readElementText();
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  QCOMPARE(document_title, QString("Force & torque F < 2 \"N\""));
}

void ChartTitlesGuiTest::stackedPlotAreasAligned() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  // Heisenberg's charts differ in their tick labels ("1.1400010" vs "0.4"); the gauge charts
  // add a legend; Elroy's beanie has a chart with a right axis.
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  window->gauge_action()->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(window->controller()->latest_gauge() != nullptr,
                           dirac::ui::testing::kRunTimeoutMs);
  QTRY_VERIFY(plots->plot_count() == 5);
  QTRY_VERIFY2(Misaligned(*window, *plots).isEmpty(), qPrintable(Misaligned(*window, *plots)));
  window->gauge_action()->trigger();
  for (const char* file : {"elroys_beanie.yaml", "so3_spline.yaml", "lc_circuit.yaml"}) {
    DIRAC_VERIFY_OPEN_AND_RUN(*window, file);
    QTRY_VERIFY2(Misaligned(*window, *plots).isEmpty(),
                 qPrintable(file + (": " + Misaligned(*window, *plots))));
  }
  // And after the window narrows.
  window->resize(1280, 720);
  QTRY_VERIFY2(Misaligned(*window, *plots).isEmpty(), qPrintable(Misaligned(*window, *plots)));
}

void ChartTitlesGuiTest::pinnedRunStandsApart() {
  auto window = OpenWindow();
  QVERIFY(window);
  PlotPanel* plots = window->plot_panel();
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  QVERIFY(window->pins().Pin());
  const std::uint64_t before = window->controller()->latest()->run;
  window->parameter_panel()->editor("ky")->setValue(3.0);
  QVERIFY(dirac::ui::testing::WaitForRun(*window, before));
  auto* pinned = plots->FindSeries("plot.0.mu.pinned");
  auto* current = plots->FindSeries("plot.0.mu");
  QVERIFY(pinned && current);
  // Its own colour (not a lighter shade of the series'), its parameters in the legend.
  const QColor a = pinned->pen().color(), b = current->pen().color();
  QVERIFY2(std::abs(a.hueF() - b.hueF()) > 0.1 || std::abs(a.saturationF() - b.saturationF()) > 0.4,
           qPrintable(a.name() + " vs " + b.name()));
  QStringList labels;
  for (QLegendMarker* marker : plots->chart(0)->legend()->markers())
    if (marker->series() == pinned) labels << marker->label();
  QCOMPARE(labels.size(), 1);
  QVERIFY2(labels[0].contains("ky = 2") && labels[0].contains("kx = 1"), qPrintable(labels[0]));
}

void ChartTitlesGuiTest::cursorFollowsReset() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  auto* scroll = window->findChild<QScrollArea*>("plotScroll");
  QVERIFY(scroll);
  const QRect shown(scroll->viewport()->mapTo(window.get(), QPoint(0, 0)),
                    scroll->viewport()->size());
  // On screen (the X server's picture of the window, not a fresh render of each chart): the
  // dashed cursor at `t` in every chart in view, and nowhere else.
  auto check = [&](double t, const char* when) {
    const QImage image = window->GrabWindowImage();
    int charts = 0;
    for (int p = 0; p < plots->plot_count(); ++p) {
      const QRect area = PlotAreaInWindow(*window, *plots, p).intersected(shown);
      if (area.height() < 60) continue;
      ++charts;
      const double x = area.left() + t / 50.0 * area.width();  // the time axis spans [0, 50]
      const QList<int> columns = CursorColumns(image, area);
      QString list;
      for (int c : columns) list += QString::number(c) + " ";
      for (int c : columns)
        if (std::abs(c - x) > 3.0)
          return QString("%1: chart %2 has cursor pixels at x = %3, expected %4 (%5)")
              .arg(when)
              .arg(p)
              .arg(c)
              .arg(x)
              .arg(list);
      if (t > 1.0 && columns.isEmpty())
        return QString("%1: chart %2 shows no cursor").arg(when).arg(p);
    }
    return charts >= 2 ? QString() : QString("%1: %2 charts in view").arg(when).arg(charts);
  };
  // Polled for up to 3 s (a busy machine paints late); a line left behind stays for good.
  window->clock()->SetTime(30.0);
  QString failure;
  QTRY_VERIFY2_WITH_TIMEOUT((failure = check(30.0, "at t = 30")).isEmpty(), qPrintable(failure),
                            3000);
  window->findChild<QAction*>("action.reset")->trigger();
  QCOMPARE(window->clock()->time(), 0.0);
  QTRY_VERIFY2_WITH_TIMEOUT((failure = check(0.0, "after Reset")).isEmpty(), qPrintable(failure),
                            3000);
}

void ChartTitlesGuiTest::readoutStaysOffTheAxesAndLeaves() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  auto* view = window->findChild<QGraphicsView*>("plot.0");
  QVERIFY(view);
  auto* readout = view->findChild<QLabel*>("plotPanel.readout");
  QVERIFY(readout);
  plots->LayOutNow();
  QTest::qWait(200);  // the plot areas' alignment settles
  QChart* chart = plots->chart(0);
  const QRect area =
      view->mapFromScene(chart->mapRectToScene(chart->plotArea())).boundingRect();  // viewport
  // The pointer's moves as the viewport gets them (the hover readout follows them).
  QWidget* viewport = view->viewport();
  auto move = [&](const QPoint& pos) {
    QMouseEvent event(QEvent::MouseMove, pos, viewport->mapToGlobal(pos), Qt::NoButton,
                      Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &event);
  };
  // At each corner of the plot area, a little inside: the readout inside the plot area too,
  // off the axes' labels (below and left of it).
  for (const QPoint& at :
       {area.bottomLeft() + QPoint(10, -10), area.bottomRight() + QPoint(-10, -10),
        area.topLeft() + QPoint(10, 10), area.topRight() + QPoint(-10, 10)}) {
    move(at);
    QVERIFY(readout->isVisible());
    const QRect box(viewport->mapFrom(view, readout->geometry().topLeft()), readout->size());
    QVERIFY2(area.adjusted(-1, -1, 1, 1).contains(box),
             qPrintable(QString("readout %1,%2 %3x%4 outside the plot area %5,%6 %7x%8")
                            .arg(box.x())
                            .arg(box.y())
                            .arg(box.width())
                            .arg(box.height())
                            .arg(area.x())
                            .arg(area.y())
                            .arg(area.width())
                            .arg(area.height())));
  }
  // The pointer leaves the chart: the readout goes.
  QEvent leave(QEvent::Leave);
  QApplication::sendEvent(viewport, &leave);
  QVERIFY(!readout->isVisible());
  // Back over the chart, then down over the x labels (below the plot area): gone too.
  move(area.center());
  QVERIFY(readout->isVisible());
  move(QPoint(area.center().x(), area.bottom() + 12));
  QVERIFY(!readout->isVisible());
}

void ChartTitlesGuiTest::gaugeChartsKeepTheFirstInView() {
  // At 1280 x 720 Heisenberg's multiplier chart stays in view beside the two gauge charts.
  auto window = OpenWindow();
  QVERIFY(window);
  window->resize(1280, 720);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  PlotPanel* plots = window->plot_panel();
  window->gauge_action()->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(window->controller()->latest_gauge() != nullptr,
                           dirac::ui::testing::kRunTimeoutMs);
  QTRY_VERIFY(plots->plot_count() == 5);
  QTest::qWait(200);
  auto* scroll = window->findChild<QScrollArea*>("plotScroll");
  const QRect shown(scroll->viewport()->mapTo(window.get(), QPoint(0, 0)),
                    scroll->viewport()->size());
  auto visible = [&](int p) {
    const QRect area = PlotAreaInWindow(*window, *plots, p);
    return static_cast<double>(area.intersected(shown).height()) / area.height();
  };
  QVERIFY(plots->chart(0)->title().contains("Multiplier"));
  QVERIFY2(visible(0) == 1.0, qPrintable(QString("multiplier chart %1 in view").arg(visible(0))));
  // The gauge charts (the last two indices) right under it, the first wholly in view.
  QVERIFY2(visible(3) == 1.0, qPrintable(QString("B_t chart %1 in view").arg(visible(3))));
  QVERIFY2(visible(4) >= 0.5, qPrintable(QString("identity chart %1 in view").arg(visible(4))));
  QVERIFY(PlotAreaInWindow(*window, *plots, 3).top() > PlotAreaInWindow(*window, *plots, 0).top());
  QVERIFY(PlotAreaInWindow(*window, *plots, 1).top() > PlotAreaInWindow(*window, *plots, 4).top());
  // The time axis' title under the chart shown last (the scenario's last).
  QVERIFY(plots->axis(2, 0)->isTitleVisible());
  QVERIFY(!plots->axis(4, 0)->isTitleVisible());
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  ChartTitlesGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "chart_titles_gui_test.moc"
