// GUI test of phase portraits and Poincaré sections (issue 40), under Xvfb: the rolling disk's
// "Nutation: valpha vs alpha" chart draws every (alpha, valpha) of the run's CSV, its section
// chart draws the (x, y) rows that `dirac run --section valpha --direction -` writes (the same
// core code), and those are where valpha crosses zero downwards (checked independently by a
// linear interpolation of the CSV to its h^2 accuracy); the cursor mark follows the clock.
// Writes phase_portrait.png (the phase charts) to look at. Copy (Ctrl+C) of a zoomed chart puts
// its image and the rows of its shown time range as CSV on the clipboard, of a phase chart its
// image and samples, of the 3D view its image; the CSV writes shortest numbers (0.03); the CSV
// and screenshot dialogs start in the one folder the last export went to.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QMimeData>
#include <QPainter>
#include <QProgressDialog>
#include <QScatterSeries>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "../../cli_process.hpp"
#include "dirac/csv.hpp"
#include "gui_test_support.hpp"
#include "plots/phase_chart.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/csv_export.hpp"
#include "window/main_window.hpp"
#include "window/studio_application.hpp"

using dirac::ui::MainWindow;
using dirac::ui::PhaseChart;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;

namespace {
QString ScenarioPathOf(const QString& file) { return dirac::ui::testing::ScenarioPath(file); }
}  // namespace

class PhaseGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void RollingDiskPhasePortraitAndSectionAgainstTheCsv();
  void CopyPutsTheImageAndTheVisibleDataOnTheClipboard();
  void CsvAndScreenshotDialogsShareOneFolder();
  void ExportAnimationShowsProgressAndCancels();
};

void PhaseGuiTest::RollingDiskPhasePortraitAndSectionAgainstTheCsv() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "rolling_disk.yaml");
  dirac::ui::PlotPanel* plots = window->plot_panel();
  QCOMPARE(plots->phase_plot_count(), 2);
  PhaseChart* portrait = plots->phase_chart(0);
  PhaseChart* section = plots->phase_chart(1);
  QCOMPARE(portrait->objectName(), QStringLiteral("phase.0"));
  QVERIFY2(portrait->problem().isEmpty(), qPrintable(portrait->problem()));
  QVERIFY2(section->problem().isEmpty(), qPrintable(section->problem()));

  // The run's CSV, as File > Export CSV writes it.
  QTemporaryDir dir;
  const QString csv_path = dir.filePath("disk.csv");
  QVERIFY(window->csv_export().Export(csv_path));
  const dirac::Trajectory csv = dirac::ReadCsv(csv_path.toStdString());
  QVERIFY(csv.num_rows() > 1000);
  const std::size_t alpha = csv.ColumnIndex("alpha"), valpha = csv.ColumnIndex("valpha");
  const std::size_t x = csv.ColumnIndex("x"), y = csv.ColumnIndex("y");

  // The phase portrait: every sample (fewer than PhaseChart::kMaxPoints), in order.
  const QList<QPointF> orbit = portrait->Points(0);
  QCOMPARE(static_cast<std::size_t>(orbit.size()), csv.num_rows());
  for (std::size_t r = 0; r < csv.num_rows(); ++r) {
    const QPointF p = orbit[static_cast<qsizetype>(r)];
    if (p.x() != csv.at(r, alpha) || p.y() != csv.at(r, valpha))
      QFAIL(qPrintable(QStringLiteral("point %1 (%2, %3) is not the CSV's (%4, %5)")
                           .arg(r)
                           .arg(p.x(), 0, 'g', 17)
                           .arg(p.y(), 0, 'g', 17)
                           .arg(csv.at(r, alpha), 0, 'g', 17)
                           .arg(csv.at(r, valpha), 0, 'g', 17)));
  }
  // The nutation's orbit is closed: alpha between its extremes, valpha of both signs.
  double a_min = 1e300, a_max = -1e300, v_min = 1e300, v_max = -1e300;
  for (const QPointF& p : orbit) {
    a_min = std::min(a_min, p.x());
    a_max = std::max(a_max, p.x());
    v_min = std::min(v_min, p.y());
    v_max = std::max(v_max, p.y());
  }
  QVERIFY(v_min < -0.1 && v_max > 0.1);
  auto* x_axis = qobject_cast<QValueAxis*>(portrait->chart_item()->axes(Qt::Horizontal).front());
  QVERIFY(x_axis->min() <= a_min && x_axis->max() >= a_max);
  QVERIFY2(x_axis->titleText().contains("alpha") && x_axis->titleText().contains("[rad]"),
           qPrintable(x_axis->titleText()));

  // The section: the rows `dirac run --section valpha --direction -` writes, as points.
  const QString cli_csv = dir.filePath("section.csv");
  int status = -1;
  const std::string out =
      dirac_test::RunCommand(std::string(DIRAC_CLI) + " run " + DIRAC_SCENARIO_DIR +
                                 "/rolling_disk.yaml --section valpha" +
                                 " --direction - --quiet --csv '" + cli_csv.toStdString() + "'",
                             &status);
  QVERIFY2(status == 0, out.c_str());
  const dirac::Trajectory rows = dirac::ReadCsv(cli_csv.toStdString());
  const QList<QPointF> points = section->Points(0);
  QVERIFY(rows.num_rows() >= 5);
  QCOMPARE(static_cast<std::size_t>(points.size()), rows.num_rows());
  QCOMPARE(section->section().num_rows(), rows.num_rows());
  for (std::size_t r = 0; r < rows.num_rows(); ++r) {
    const QPointF p = points[static_cast<qsizetype>(r)];
    QCOMPARE(p.x(), rows.at(r, x));
    QCOMPARE(p.y(), rows.at(r, y));
  }
  // Independently: each row is where valpha crosses zero downwards in the CSV, at the time a
  // linear interpolation gives to within its h^2 error, and the crossings are all of them.
  std::size_t found = 0;
  for (std::size_t r = 0; r + 1 < csv.num_rows(); ++r) {
    const double a = csv.at(r, valpha), b = csv.at(r + 1, valpha);
    if (!(a >= 0.0 && b < 0.0)) continue;
    QVERIFY(found < rows.num_rows());
    const double t0 = csv.at(r, 0), t1 = csv.at(r + 1, 0);
    const double t_linear = t0 + a * (t1 - t0) / (a - b);
    const double h = t1 - t0;
    QVERIFY2(std::abs(rows.at(found, 0) - t_linear) < h * h,
             qPrintable(QStringLiteral("crossing %1 at %2, linear %3")
                            .arg(found)
                            .arg(rows.at(found, 0), 0, 'g', 17)
                            .arg(t_linear, 0, 'g', 17)));
    QVERIFY(std::abs(rows.at(found, valpha)) < 1e-9);
    QVERIFY(std::abs(rows.at(found, x) - (csv.at(r, x) + (csv.at(r + 1, x) - csv.at(r, x)) *
                                                             (t_linear - t0) / h)) < 1e-3);
    ++found;
  }
  QCOMPARE(found, rows.num_rows());
  QVERIFY(section->title().contains(QString::number(found) + " crossing"));

  // The cursor mark is the state at the clock's time.
  window->clock()->SetTime(7.5);
  const std::size_t row = csv.RowAtTime(window->clock()->time());
  QTRY_COMPARE_WITH_TIMEOUT(portrait->CursorPoint(0).value(0),
                            QPointF(csv.at(row, alpha), csv.at(row, valpha)), 10000);
  QCOMPARE(section->CursorPoint(0).value(0), QPointF(csv.at(row, x), csv.at(row, y)));

  // A picture of the two phase charts to look at, each as the window lays it out (a chart
  // resized by hand here went back to the panel's size before it was drawn), and drawn once
  // laid out for that size: a condition (the picture was once drawn before the charts' layout).
  for (PhaseChart* chart : {portrait, section})
    QTRY_VERIFY(chart->chart_item()->size() == QSizeF(chart->size()) &&
                chart->chart_item()->layout()->isActivated());
  // Titles whole (Qt cut them: "…(24 crossings of valpha = 0...", "valpha [ra..."): each line
  // of the chart's title within its width, of the value axis' title within the plot's height.
  for (PhaseChart* chart : {portrait, section}) {
    QChart* item = chart->chart_item();
    auto* y_axis = qobject_cast<QValueAxis*>(item->axes(Qt::Vertical).value(0));
    QVERIFY(y_axis);
    for (const QString& line : item->title().split("<br>"))
      QVERIFY2(QFontMetricsF(item->titleFont()).horizontalAdvance(line) <= item->size().width(),
               qPrintable(line));
    for (const QString& line : y_axis->titleText().split("<br>"))
      QVERIFY2(
          QFontMetricsF(y_axis->titleFont()).horizontalAdvance(line) <= item->plotArea().height(),
          qPrintable(line));
  }
  const QSize a = portrait->size(), b = section->size();
  QImage image(a.width() + b.width(), std::max(a.height(), b.height()), QImage::Format_RGB32);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    portrait->render(&painter, QRectF(QPointF(0, 0), QSizeF(a)));
    section->render(&painter, QRectF(QPointF(a.width(), 0), QSizeF(b)));
  }
  QVERIFY(image.save(OutputPath("phase_portrait.png")));
}

namespace {

// The cells of CSV text, line by line (the header first).
QList<QStringList> Cells(const QString& csv) {
  QList<QStringList> lines;
  for (const QString& line : csv.split('\n', Qt::SkipEmptyParts)) lines << line.split(',');
  return lines;
}

// Whether `cell` is the shortest text of the double it reads as (as std::to_chars writes it).
bool Shortest(const QString& cell) {
  const double v = std::strtod(cell.toLatin1().constData(), nullptr);
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return QString::fromLatin1(buffer, end - buffer) == cell;
}

// Accepts the next modal file dialog with `file` (after noting the folder it opened in).
void AcceptNextFileDialog(const QString& file, QString* opened_in) {
  QTimer::singleShot(0, [file, opened_in] {
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<QFileDialog*>(QApplication::activeModalWidget()), 20000);
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    *opened_in = QDir(dialog->directory()).canonicalPath();
    dialog->selectFile(file);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept is protected
  });
}

}  // namespace

void PhaseGuiTest::CopyPutsTheImageAndTheVisibleDataOnTheClipboard() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  dirac::ui::PlotPanel* plots = window->plot_panel();
  const auto trajectory = window->controller()->latest()->trajectory;
  QVERIFY(plots->plot_count() >= 1);
  // A chart zoomed to t in [2, 5]: Ctrl+C copies its image and those rows of its columns.
  plots->ZoomTo(0, 2.0, 5.0, -10.0, 10.0);
  auto* view = plots->findChild<QChartView*>("plot.0");
  QVERIFY(view);
  // The key goes to the chart's view (a click would give it focus in an active window).
  view->setFocus();
  QApplication::clipboard()->clear();
  QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
  const QMimeData* data = QApplication::clipboard()->mimeData();
  QVERIFY(data && data->hasImage() && data->hasText());
  QVERIFY(data->hasFormat("text/csv"));
  const QImage image = qvariant_cast<QImage>(data->imageData());
  QCOMPARE(image.size(), view->size() * view->devicePixelRatio());
  const QList<QStringList> lines = Cells(data->text());
  const QStringList columns = plots->PlotColumns(0);
  QCOMPARE(lines.front(), QStringList{"t"} + columns);
  const double t0 = plots->axis(0, 0)->min(), t1 = plots->axis(0, 0)->max();
  QVERIFY(t0 >= 1.9 && t1 <= 5.1 && t1 - t0 > 2.5);
  std::size_t expected_rows = 0;
  for (std::size_t r = 0; r < trajectory->num_rows(); ++r)
    expected_rows += trajectory->at(r, 0) >= t0 && trajectory->at(r, 0) <= t1;
  QCOMPARE(static_cast<std::size_t>(lines.size() - 1), expected_rows);
  QVERIFY(expected_rows > 10);
  for (qsizetype l = 1; l < lines.size(); ++l) {
    const std::size_t row = trajectory->RowAtTime(lines[l][0].toDouble());
    QCOMPARE(lines[l][0].toDouble(), trajectory->at(row, 0));
    for (qsizetype c = 0; c < columns.size(); ++c) {
      QCOMPARE(lines[l][c + 1].toDouble(),
               trajectory->at(row, trajectory->ColumnIndex(columns[c].toStdString())));
      QVERIFY2(Shortest(lines[l][c + 1]), qPrintable(lines[l][c + 1]));
    }
  }
  // The image is the chart: not blank.
  int dark = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) dark += qGray(image.pixel(x, y)) < 128;
  QVERIFY(dark > 100);

  // The 3D view: Ctrl+C copies its image.
  QApplication::clipboard()->clear();
  window->scene_view()->setFocus();
  QTest::keyClick(window->scene_view(), Qt::Key_C, Qt::ControlModifier);
  const QImage scene = QApplication::clipboard()->image();
  QVERIFY(!scene.isNull());
  QCOMPARE(scene.size(), window->scene_view()->size() * window->scene_view()->devicePixelRatio());

  // Export CSV writes the shortest numbers: t = 0.03 as "0.03".
  QTemporaryDir dir;
  const QString path = dir.filePath("h.csv");
  QVERIFY(window->csv_export().Export(path));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromLatin1(file.readAll());
  QVERIFY(text.contains("\n0.03,"));
  QVERIFY(!text.contains("0.029999999999999999"));
  const QList<QStringList> cells = Cells(text);
  for (qsizetype l = 1; l < cells.size(); l += 97)
    for (const QString& cell : cells[l]) QVERIFY2(Shortest(cell), qPrintable(cell));
  // Read back, the values are the run's exactly.
  const dirac::Trajectory back = dirac::ReadCsv(path.toStdString());
  QCOMPARE(back.num_rows(), trajectory->num_rows());
  for (std::size_t r = 0; r < back.num_rows(); r += 37)
    for (std::size_t c = 0; c < back.num_columns(); ++c)
      QCOMPARE(back.at(r, c), trajectory->at(r, c));
}

void PhaseGuiTest::CsvAndScreenshotDialogsShareOneFolder() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  QTemporaryDir first, second;
  QSettings().remove("files/lastExportFolder");
  // Export CSV into `first`: the screenshot dialog then opens there.
  QString opened;
  AcceptNextFileDialog(first.filePath("run.csv"), &opened);
  window->csv_export().ExportDialog(window.get(), ScenarioPathOf("heisenberg.yaml"));
  QVERIFY(QFileInfo::exists(first.filePath("run.csv")));
  QVERIFY(opened != QDir(DIRAC_SCENARIO_DIR).canonicalPath());
  AcceptNextFileDialog(second.filePath("shot.png"), &opened);
  window->SaveScreenshotDialog();
  QCOMPARE(opened, QDir(first.path()).canonicalPath());
  QVERIFY(QFileInfo::exists(second.filePath("shot.png")));
  // And the CSV dialog opens where the screenshot went, as does a chart's export.
  AcceptNextFileDialog(second.filePath("run2.csv"), &opened);
  window->csv_export().ExportDialog(window.get(), ScenarioPathOf("heisenberg.yaml"));
  QCOMPARE(opened, QDir(second.path()).canonicalPath());
  QCOMPARE(QDir(window->plot_panel()->ExportFolder()).canonicalPath(),
           QDir(second.path()).canonicalPath());
}

void PhaseGuiTest::ExportAnimationShowsProgressAndCancels() {
  auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "heisenberg.yaml");
  window->clock()->SetTime(3.25);
  QTemporaryDir dir;
  const QString frames = dir.filePath("frames");  // no suffix: a folder of PNG frames
  QString opened;
  AcceptNextFileDialog(frames, &opened);
  // Cancel once the progress dialog has counted five frames.
  int seen = 0;
  QTimer canceller;
  QObject::connect(&canceller, &QTimer::timeout, [&] {
    auto* progress = window->findChild<QProgressDialog*>("animationProgress");
    if (!progress) return;
    seen = std::max(seen, progress->value());
    if (progress->value() >= 5) progress->cancel();
  });
  canceller.start(0);
  window->findChild<QAction*>("action.exportAnimation")->trigger();
  canceller.stop();
  QVERIFY(seen >= 5);
  const int written = static_cast<int>(QDir(frames).entryList({"frame_*.png"}).size());
  const int total = static_cast<int>(std::lround(30 * window->controller()->latest()->t_end));
  QVERIFY2(written >= 5 && written < total, qPrintable(QString::number(written)));
  QVERIFY(window->statusBar()->currentMessage().contains("cancelled"));
  QCOMPARE(window->clock()->time(), 3.25);  // the cursor back where it was
  // Frame k is drawn for t = k/30: frames 0 and 3 differ (the cursor and the particle moved).
  const QImage first(QDir(frames).filePath("frame_00000.png"));
  const QImage fourth(QDir(frames).filePath("frame_00003.png"));
  QVERIFY(!first.isNull() && first.size() == fourth.size());
  QVERIFY(first != fourth);
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  PhaseGuiTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "phase_gui_test.moc"
