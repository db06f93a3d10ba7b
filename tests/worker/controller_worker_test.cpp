// The simulation controller's worker thread without a window (QCoreApplication only): jobs run
// to completion, newer edits cancel older jobs and solves, snapshots are read on the GUI thread
// while the worker writes the next ones, and the controller is destroyed while busy. Built and
// run under ThreadSanitizer by scripts/sanitize.sh (tsan), and as a plain test in every build.
#include <QtTest/QtTest>

#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "dirac/scenario.hpp"
#include "run/simulation_controller.hpp"

namespace {

using dirac::ui::GaugeResultPtr;
using dirac::ui::SimulationController;
using dirac::ui::SnapshotPtr;

dirac::Scenario Load(const char* name) {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + name);
}

double ParameterOf(const dirac::ui::SimulationSnapshot& s, const std::string& name) {
  return s.run_scenario->parameters[*s.run_scenario->FindParameter(name)].value;
}

}  // namespace

class ControllerWorkerTest : public QObject {
  Q_OBJECT

 private slots:
  // Ten edits in a row: each cancels the job before it; the last one runs to t_end with the
  // last value, conserves the energy and satisfies the constraint.
  void NewerEditsCancelOlderRuns() {
    SimulationController controller;
    std::vector<SnapshotPtr> seen;
    connect(&controller, &SimulationController::snapshotReady, this,
            [&](SnapshotPtr s) { seen.push_back(s); });
    dirac::Scenario s = Load("heisenberg.yaml");
    dirac::ApplyOverride(s, "t_end", 4.0);
    controller.LoadScenario(s);
    QTRY_VERIFY_WITH_TIMEOUT(controller.latest() && controller.latest()->complete, 120000);
    for (int k = 1; k <= 10; ++k) QVERIFY(controller.SetValue("kx", 1.0 + 0.25 * k));
    QTRY_VERIFY_WITH_TIMEOUT(!controller.busy() && controller.latest()->complete, 120000);
    const SnapshotPtr last = controller.latest();
    QCOMPARE(ParameterOf(*last, "kx"), 3.5);
    QVERIFY(std::abs(last->last_time() - 4.0) < 1e-12);
    for (std::size_t k = 1; k < seen.size(); ++k) QVERIFY(seen[k]->run >= seen[k - 1]->run);
    // Every snapshot read here, on the GUI thread, while the worker wrote later ones.
    std::size_t rows = 0;
    for (const SnapshotPtr& snap : seen)
      rows += snap->trajectory ? snap->trajectory->num_rows() : 0;
    QVERIFY(rows >= last->trajectory->num_rows());
    const dirac::Trajectory& tr = *last->trajectory;
    const std::size_t E = tr.ColumnIndex("E"), x = tr.ColumnIndex("x"), y = tr.ColumnIndex("y");
    const std::size_t vx = tr.ColumnIndex("vx"), vy = tr.ColumnIndex("vy"),
                      vz = tr.ColumnIndex("vz");
    double drift = 0.0, constraint = 0.0;
    for (std::size_t r = 0; r < tr.num_rows(); ++r) {
      drift = std::max(drift, std::abs(tr.at(r, E) - tr.at(0, E)));
      // omega = dz - y dx + x dy
      constraint = std::max(constraint, std::abs(tr.at(r, vz) - tr.at(r, y) * tr.at(r, vx) +
                                                 tr.at(r, x) * tr.at(r, vy)));
    }
    QVERIFY2(drift < 1e-6, qPrintable(QString::number(drift)));
    QVERIFY2(constraint < 1e-8, qPrintable(QString::number(constraint)));
  }

  // A boundary-value solve superseded by newer target edits: the newest one is solved, and its
  // optimum reaches the last target.
  void NewerEditsCancelSolves() {
    SimulationController controller;
    controller.LoadScenario(Load("cubic_spline_bvp.yaml"));
    QTRY_VERIFY_WITH_TIMEOUT(
        controller.solve_status().state == dirac::ui::SolveStatus::State::kSolved, 120000);
    for (int k = 1; k <= 6; ++k) QVERIFY(controller.SetValue("final.x", 1.0 + 0.1 * k));
    QTRY_VERIFY_WITH_TIMEOUT(!controller.busy() && controller.solve_status().state ==
                                                       dirac::ui::SolveStatus::State::kSolved,
                             120000);
    const SnapshotPtr last = controller.latest();
    QVERIFY(last && last->complete && last->solve && last->solve->converged);
    const dirac::Trajectory& tr = *last->trajectory;
    const double x_end = tr.at(tr.num_rows() - 1, tr.ColumnIndex("x"));
    QVERIFY2(std::abs(x_end - 1.6) < 1e-8, qPrintable(QString::number(x_end, 'g', 17)));
  }

  // The gauge two-form of a run that blows up (Heisenberg with + z^2/2 in L: the flow Jacobian
  // grows like e^t) is long; Cancel stops it where it is, reports it cancelled, and frees the
  // worker. (The GUI suite asserts the 100 ms; here, under ThreadSanitizer too, it is logged.)
  void CancelStopsTheGaugeTwoForm() {
    SimulationController controller;
    std::vector<GaugeResultPtr> results;
    connect(&controller, &SimulationController::gaugeReady, this,
            [&](GaugeResultPtr r) { results.push_back(r); });
    dirac::Scenario s = Load("heisenberg.yaml");
    s.lagrangian += " + 0.5*z^2";
    controller.SetGaugeTwoForm(true);
    controller.LoadScenario(s);
    QTRY_VERIFY_WITH_TIMEOUT(controller.computing_gauge() && controller.gauge_time() > 0.0, 600000);
    QVERIFY(controller.busy() && controller.latest() && controller.latest()->complete);
    const auto cancelled_at = std::chrono::steady_clock::now();
    controller.Cancel();
    QVERIFY(!controller.busy() && !controller.computing_gauge());
    QTRY_VERIFY_WITH_TIMEOUT(!controller.worker_active(), 120000);
    qInfo("worker free %.1f ms after Cancel",
          std::chrono::duration<double, std::milli>(controller.worker_free_since() - cancelled_at)
              .count());
    QVERIFY(controller.worker_free_since() > cancelled_at);
    QCOMPARE(results.size(), std::size_t{1});
    QVERIFY(results[0]->cancelled && !results[0]->trajectory && results[0]->reached > 0.0);
    QVERIFY(!controller.latest_gauge());
    // The worker takes the next request at once: the same run again, to its gauge two-form.
    controller.Restart();
    QTRY_VERIFY_WITH_TIMEOUT(controller.computing_gauge(), 600000);
    controller.Cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!controller.worker_active(), 120000);
  }

  // Destroyed while deriving and while integrating: joins the worker, nothing races or leaks.
  void DestroyedWhileBusy() {
    for (int k = 0; k < 3; ++k) {
      auto controller = std::make_unique<SimulationController>();
      dirac::Scenario s = Load("heisenberg.yaml");
      // Long enough that the integration is still running when the controller is destroyed
      // (the ODE path finishes the shipped 20 s in about a millisecond).
      dirac::ApplyOverride(s, "t_end", 1e4);
      controller->LoadScenario(s);
      if (k > 0) QTRY_VERIFY_WITH_TIMEOUT(controller->model() != nullptr, 120000);
      if (k > 1) QVERIFY(controller->SetValue("ky", 3.0));
      QVERIFY(controller->busy());
      controller.reset();
    }
  }
};

QTEST_GUILESS_MAIN(ControllerWorkerTest)
#include "controller_worker_test.moc"
