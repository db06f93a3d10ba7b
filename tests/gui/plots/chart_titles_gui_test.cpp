// GUI tests of charts that say what they show (issue 23), under Xvfb: every chart of every
// shipped scenario (and the gauge two-form's) has a value-axis title in words, with the unit of
// each of its columns where the scenario gives one; an exported chart carries both axis titles
// ("t [s]" too, also for a chart that is not the last) on a white background, and the export
// dialog does not start in the scenario's folder; stacked charts' plot areas share their left
// and right edges to 1 px.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGraphicsView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QRegularExpression>
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
#include "run/simulation_controller.hpp"
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

}  // namespace

class ChartTitlesGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void everyChartTitledInWords_data();
  void everyChartTitledInWords();
  void exportedChartStandsAlone();
  void stackedPlotAreasAligned();
  void pinnedRunStandsApart();
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
      // A chart of one quantity names it in words; a chart of two names each axis' unit or
      // kind (where they are why it has two axes).
      if (!two_axes) QVERIFY2(!TitleWords(title, columns).isEmpty(), qPrintable(where));
      // The unit of each column where the scenario gives one (a chart of two quantities: on
      // either axis).
      const QString both = title + (two_axes ? " " + plots->axis(p, 3 - a)->titleText() : "");
      for (const QString& column : shown) {
        const auto it = quantities.find(column.toStdString());
        if (it == quantities.end() || it->second.unit.empty()) continue;
        const QString unit = "[" + QString::fromStdString(it->second.unit) + "]";
        QVERIFY2(both.contains(unit), qPrintable(where + " lacks " + unit + " of " + column));
      }
    }
  }
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
  QString texts, fill;
  QStringList backgrounds;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == QLatin1String("g")) fill = xml.attributes().value("fill").toString();
    if (xml.name() == QLatin1String("rect") && xml.attributes().value("x") == QLatin1String("0") &&
        xml.attributes().value("y") == QLatin1String("0"))
      backgrounds << fill.toLower();
    // (QSvgGenerator may split a rotated title into pieces: they are joined.)
    if (xml.name() == QLatin1String("text")) texts += xml.readElementText();
  }
  QVERIFY(!xml.hasError());
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

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  ChartTitlesGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "chart_titles_gui_test.moc"
