#pragma once
// The suite of gui_workbench_habits (issue 10), one QtTest class whose test functions live in
// workbench_*_gui_test.cpp by feature (tour, charts, errors, habits), and the helpers they share.

#include <QAbstractScrollArea>
#include <QChart>
#include <QFile>
#include <QObject>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_support.hpp"
#include "plots/plot_panel.hpp"
#include "window/main_window.hpp"

namespace dirac::ui::testing::workbench {

// What the suite's files use, so that each says `using namespace dirac::ui::testing::workbench`.
using dirac::ui::MainWindow;
using dirac::ui::PlotPanel;
using dirac::ui::SnapshotPtr;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;
using dirac::ui::testing::WaitForRun;

inline QString ReadText(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

inline bool WriteText(const QString& path, const QString& text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return file.write(text.toUtf8()) == text.toUtf8().size();
}

inline QWidget* Viewport(MainWindow& window, int plot) {
  auto* view = window.findChild<QAbstractScrollArea*>(QStringLiteral("plot.%1").arg(plot));
  return view ? view->viewport() : nullptr;
}

// Whether chart `p` is shown and laid out (its plot area has its size): what the mouse tests
// map their points with.
inline bool LaidOut(PlotPanel& plots, int p) {
  QChart* chart = plots.chart(p);
  return chart && chart->isVisible() && chart->plotArea().width() > 100 &&
         chart->plotArea().height() > 50;
}

// The pixel of the chart's plot area centre, in the view's viewport.
inline QPoint PlotCentre(QChart* chart) { return chart->plotArea().center().toPoint(); }

}  // namespace dirac::ui::testing::workbench

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
