// View > Stability on the Whipple bicycle (its `stability:` block): the curves drawn (real and
// imaginary parts of each branch against v) at v = 2, 5 and 8 m/s, the critical speeds marked
// and the spectrum in the complex plane equal what `dirac linearize --json` prints, run here as
// a separate process; an edit of v redraws the spectrum at the new value; Cancel stops a
// computation. Writes stability_view.png (the dock) for docs/linearization.md.
#include <QAction>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "../../cli_process.hpp"
#include "gui_test_support.hpp"
#include "panels/parameter_panel.hpp"
#include "plots/stability_view.hpp"
#include "run/simulation_controller.hpp"
#include "run/stability_worker.hpp"
#include "window/main_window.hpp"
#include "window/stability_dock.hpp"

using dirac::ui::MainWindow;
using dirac::ui::StabilityResultPtr;
using dirac::ui::StabilityView;
using dirac::ui::testing::kRunTimeoutMs;
using dirac::ui::testing::OpenWindow;
using dirac::ui::testing::OutputPath;
using dirac::ui::testing::ScenarioPath;

namespace {

using Complex = std::complex<double>;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// `dirac linearize` on the bicycle with its stability: block's choices, as JSON.
QJsonObject Cli(const std::string& flags) {
  const std::string command = std::string(DIRAC_CLI_PATH) + " linearize '" +
                              ScenarioPath("whipple_bicycle.yaml").toStdString() +
                              "' --ignorable psi,thetaR,thetaF --speeds vphi,vdelta,vthetaR "
                              "--set vphi=0 --json --quiet " +
                              flags;
  int code = -1;
  const std::string out = dirac_test::RunCommand(command, &code);
  if (code != 0) qWarning("%s exited %d: %s", command.c_str(), code, out.c_str());
  return QJsonDocument::fromJson(QByteArray::fromStdString(out)).object();
}

std::vector<Complex> Eigenvalues(const QJsonObject& json) {
  std::vector<Complex> out;
  for (const QJsonValue& e : json["eigenvalues"].toArray())
    out.emplace_back(e.toObject()["re"].toDouble(), e.toObject()["im"].toDouble());
  return out;
}

// The y of `series` at x == `x` exactly (a grid point of the sweep); NaN if none.
double ValueAt(const QLineSeries* series, double x) {
  for (const QPointF& p : series->points())
    if (p.x() == x) return p.y();
  return std::nan("");
}

// Largest distance from each of `drawn` to the nearest of `reference` (and back: same count).
double SetDistance(std::vector<double> drawn, std::vector<double> reference) {
  if (drawn.size() != reference.size()) return kInfinity;
  std::sort(drawn.begin(), drawn.end());
  std::sort(reference.begin(), reference.end());
  double worst = 0.0;
  for (std::size_t i = 0; i < drawn.size(); ++i)
    worst = std::max(worst, std::abs(drawn[i] - reference[i]));
  return worst;
}

// The series of the chart view `view_name` inside `view` whose object name matches `pattern`.
template <typename T>
QList<T*> Series(StabilityView* view, const char* view_name, const QString& pattern) {
  QList<T*> out;
  auto* chart_view = view->findChild<QChartView*>(view_name);
  if (!chart_view) return out;
  const QRegularExpression re(pattern);
  for (QAbstractSeries* s : chart_view->chart()->series())
    if (auto* typed = qobject_cast<T*>(s); typed && re.match(s->objectName()).hasMatch())
      out.append(typed);
  return out;
}

template <typename T>
T* OneSeries(StabilityView* view, const char* view_name, const QString& name) {
  const QList<T*> all = Series<T>(view, view_name, "^" + QRegularExpression::escape(name) + "$");
  return all.size() == 1 ? all.front() : nullptr;
}

// Waits for a result newer than `after` with curves (not cancelled, no error).
StabilityResultPtr WaitForCurves(StabilityView* view, std::uint64_t after) {
  QTest::qWaitFor([&] { return view->shown() && view->shown()->request > after; }, kRunTimeoutMs);
  return view->shown() && view->shown()->request > after ? view->shown() : nullptr;
}

}  // namespace

class StabilityGuiTest : public QObject {
  Q_OBJECT

 private slots:
  void bicycleCurvesAndSpectrumEqualTheCli();
};

void StabilityGuiTest::bicycleCurvesAndSpectrumEqualTheCli() {
  const auto window = OpenWindow();
  QVERIFY(window);
  DIRAC_VERIFY_OPEN_AND_RUN(*window, "whipple_bicycle.yaml");
  auto* show = window->findChild<QAction*>("action.show.stability");
  QVERIFY2(show, "no View menu action action.show.stability");
  dirac::ui::StabilityDock* dock = window->stability_dock();
  QVERIFY(!dock->isVisible());
  QCOMPARE(dock->worker()->requests(), std::uint64_t{0});  // nothing computed while hidden
  show->trigger();
  QVERIFY(dock->isVisible());
  StabilityView* view = dock->view();
  const StabilityResultPtr first = WaitForCurves(view, 0);
  QVERIFY2(first, qPrintable(view->findChild<QLabel*>("stability.status")->text()));
  QCOMPARE(first->sweep.parameter, std::string("v"));
  QCOMPARE(first->sweep.values.size(), std::size_t{201});
  QCOMPARE(first->current_value, 5.0);

  // The curves at three speeds: every branch's real part (solid) and the imaginary parts of the
  // complex branches (dashed) equal the CLI's eigenvalues there.
  const auto re_series = Series<QLineSeries>(view, "stability.sweepChart", "^stability\\.re\\.");
  const auto im_series = Series<QLineSeries>(view, "stability.sweepChart", "^stability\\.im\\.");
  QCOMPARE(re_series.size(), 4);
  QVERIFY(!im_series.isEmpty());
  double worst = 0.0;
  for (const double v : {2.0, 5.0, 8.0}) {
    const std::vector<Complex> cli = Eigenvalues(Cli("--set v=" + std::to_string(v)));
    QCOMPARE(cli.size(), std::size_t{4});
    std::vector<double> drawn_re, cli_re, drawn_im, cli_im;
    for (const QLineSeries* s : re_series) drawn_re.push_back(ValueAt(s, v));
    for (const Complex& l : cli) cli_re.push_back(l.real());
    for (const QLineSeries* s : im_series) {
      const double y = ValueAt(s, v);
      if (std::abs(y) > 1e-9) drawn_im.push_back(y);
    }
    for (const Complex& l : cli)
      if (l.imag() > 1e-9) cli_im.push_back(l.imag());
    const double re_error = SetDistance(drawn_re, cli_re);
    const double im_error = SetDistance(drawn_im, cli_im);
    QVERIFY2(re_error < 1e-10, qPrintable(QString("Re at v = %1: %2").arg(v).arg(re_error)));
    QVERIFY2(im_error < 1e-10, qPrintable(QString("Im at v = %1: %2").arg(v).arg(im_error)));
    worst = std::max({worst, re_error, im_error});
  }
  qInfo("curves against the CLI at v = 2, 5, 8: max difference %.2e", worst);

  // The critical speeds (the weave and capsize speeds) and the shaded stable range are the
  // CLI's sweep's.
  const QJsonObject sweep = Cli("--vary v=0:10:201");
  const QJsonArray critical = sweep["critical"].toArray();
  QCOMPARE(critical.size(), 2);
  auto* marks = OneSeries<QScatterSeries>(view, "stability.sweepChart", "stability.critical");
  QVERIFY(marks);
  QCOMPARE(marks->count(), 2);
  for (int i = 0; i < 2; ++i)
    QVERIFY(std::abs(marks->at(i).x() - critical[i].toObject()["value"].toDouble()) < 1e-10);
  QVERIFY(std::abs(marks->at(0).x() - 4.29238253634111) < 1e-10);
  QVERIFY(std::abs(marks->at(1).x() - 6.02426201538837) < 1e-10);
  auto* stable = OneSeries<QAreaSeries>(view, "stability.sweepChart", "stability.stable.1");
  QVERIFY(stable);
  const QJsonArray interval = sweep["stable_intervals"].toArray()[0].toArray();
  QVERIFY(std::abs(stable->upperSeries()->at(0).x() - interval[0].toDouble()) < 1e-10);
  QVERIFY(std::abs(stable->upperSeries()->at(1).x() - interval[1].toDouble()) < 1e-10);

  // The spectrum at the current v = 5 in the complex plane.
  auto spectrum_error = [&](double v) -> double {
    auto* points = OneSeries<QScatterSeries>(view, "stability.spectrumChart", "stability.spectrum");
    if (!points) return kInfinity;
    const std::vector<Complex> cli = Eigenvalues(Cli("--set v=" + std::to_string(v)));
    if (static_cast<std::size_t>(points->count()) != cli.size()) return kInfinity;
    double e = 0.0;
    for (const QPointF& p : points->points()) {
      double nearest = kInfinity;
      for (const Complex& l : cli) nearest = std::min(nearest, std::abs(Complex(p.x(), p.y()) - l));
      e = std::max(e, nearest);
    }
    return e;
  };
  QVERIFY2(spectrum_error(5.0) < 1e-10, qPrintable(QString::number(spectrum_error(5.0))));

  // Written out for the docs; the stable range (light green) and the branches' colours drawn.
  dock->setFloating(true);
  dock->resize(1240, 520);
  QVERIFY(QTest::qWaitFor([&] { return dock->height() >= 480 && dock->width() >= 1200; },
                          kRunTimeoutMs));
  view->LayOutNow();
  const QImage image = dock->grab().toImage();
  QVERIFY(image.save(OutputPath("stability_view.png")));
  int shade = 0, red = 0, green = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb c = image.pixel(x, y);
      shade += qRed(c) == 200 && qGreen(c) == 235 && qBlue(c) == 200;
      red += qRed(c) == 214 && qGreen(c) == 39 && qBlue(c) == 40;
      green += qRed(c) == 44 && qGreen(c) == 160 && qBlue(c) == 44;
    }
  QVERIFY2(shade > 5000 && red > 200 && green > 200,
           qPrintable(QString("shade %1 red %2 green %3").arg(shade).arg(red).arg(green)));

  // An edit of v in the panel: recomputed on the worker, the spectrum now at v = 8.
  QDoubleSpinBox* v_editor = window->parameter_panel()->editor("v");
  QVERIFY(v_editor);
  v_editor->setValue(8.0);
  QVERIFY(QTest::qWaitFor([&] { return view->shown() && view->shown()->current_value == 8.0; },
                          kRunTimeoutMs));
  QVERIFY2(spectrum_error(8.0) < 1e-10, qPrintable(QString::number(spectrum_error(8.0))));

  // Cancel: a request stopped at once reports a cancellation and keeps the curves shown.
  dirac::ui::StabilityWorker* worker = dock->worker();
  QSignalSpy results(worker, &dirac::ui::StabilityWorker::resultReady);
  const StabilityResultPtr before = view->shown();
  const std::uint64_t request =
      worker->Request(window->controller()->model(), window->controller()->scenario());
  auto* cancel = view->findChild<QPushButton*>("stability.cancel");
  QVERIFY(cancel && cancel->isEnabled());
  cancel->click();
  QVERIFY(QTest::qWaitFor([&] { return !worker->busy(); }, kRunTimeoutMs));
  QCOMPARE(results.size(), 1);
  const auto result = results.at(0).at(0).value<StabilityResultPtr>();
  QCOMPARE(result->request, request);
  QVERIFY(result->cancelled);
  QCOMPARE(view->shown(), before);
  QVERIFY(!cancel->isEnabled());
  QVERIFY(view->findChild<QLabel*>("stability.status")->text().startsWith("Cancelled"));
}

QTEST_MAIN(StabilityGuiTest)
#include "stability_gui_test.moc"
