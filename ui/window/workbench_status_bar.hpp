#pragma once
/// @file workbench_status_bar.hpp
/// The window's status bar: the current error, the run's diagnostics line and its progress.

#include <QStatusBar>
#include <QString>

#include "run/simulation_snapshot.hpp"

namespace dirac::ui {
struct SolveStatus;
}

class QLabel;
class QProgressBar;

namespace dirac::ui {

/// Object names: "statusBar", "status.error" (red, selectable), "status.message" (a
/// showMessage text, elided before the run's status; hidden when there is none),
/// "status.diagnostics", "status.progress" (shown while a run is busy) and "solveStatus" (the chip
/// of a scenario that poses a solve, hidden otherwise).
class WorkbenchStatusBar : public QStatusBar {
  Q_OBJECT

 public:
  explicit WorkbenchStatusBar(QWidget* parent = nullptr);

  /// Shows `message` as the error (on one line; the tooltip keeps its line breaks); "" clears.
  void SetError(const QString& message);
  /// Replaces the diagnostics line (and clears its tooltip).
  void SetDiagnostics(const QString& text);
  /// The diagnostics of a snapshot: "simulating… t = … s of … s (… s)" while partial; for a
  /// complete run the constraint residual, energy drift, samples and wall time (the comparison
  /// and a pending gauge computation named), details in the tooltip, led by "diverged at t = …
  /// s: <what left its bound> — not to be trusted after that time" for a run whose report says
  /// it diverged; for a solve its residual (shooting: max
  /// |F| and the Hamiltonian's drift; collocation: the largest constraint violation and the
  /// IPOPT iterations), the method (MethodSummary) and the samples. Also moves the progress bar.
  void ShowRun(const SimulationSnapshot& snapshot);
  /// How a solve went about it, for the diagnostics line: "collocation, 100 intervals, t_f =
  /// 28.64 s" or "shooting, 4 intervals" (a boundary-value problem's too).
  static QString MethodSummary(const dirac::SolveReport& report);
  /// Replaces the pending-gauge note of the diagnostics with the gauge result (max |B_t|, the
  /// identity residual, its time), "gauge two-form failed" or "gauge two-form cancelled at t =
  /// … s (… s of computing)".
  void ShowGauge(const GaugeResult& result);
  /// While the gauge two-form of the shown run is computed: "computing gauge two-form: t = … s
  /// of … s (… s)" in place of the pending note (model time reached, t_end, wall time).
  void ShowGaugeProgress(double t, double t_end, double seconds);
  /// Shows (and resets) or hides the progress bar.
  void SetBusy(bool busy);
  /// While a derivation runs (`stage` not empty): "deriving the equations: STAGE (S s)" and a
  /// moving busy indicator instead of the run's progress; "" ends it (the bar measures the run
  /// again, the diagnostics line stays for the next message).
  void ShowDerivation(const QString& stage, double seconds);
  /// The solve chip: "solved (cost …, residual …, N iterations, … ms)", "solving… iteration k,
  /// residual r", "failed: <message>", each with "stale" while the optimum shown is of earlier
  /// values; hidden for State::kNone.
  void ShowSolve(const SolveStatus& status);
  /// The chip's text ("" when hidden).
  QString solve_text() const;

 private:
  QLabel* error_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* diagnostics_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* solve_ = nullptr;
  QString run_summary_;  // the diagnostics of the complete run shown, before its gauge note
};

/// The chip's text for `status` ("" for State::kNone).
QString SolveStatusText(const SolveStatus& status);

}  // namespace dirac::ui
