#pragma once
/// @file workbench_status_bar.hpp
/// The window's status bar: the current error, the run's diagnostics line and its progress.

#include <QStatusBar>
#include <QString>

#include "simulation_snapshot.hpp"

class QLabel;
class QProgressBar;

namespace dirac::ui {

/// Object names: "statusBar", "status.error" (red, selectable), "status.diagnostics" and
/// "status.progress" (shown while a run is busy).
class WorkbenchStatusBar : public QStatusBar {
  Q_OBJECT

 public:
  explicit WorkbenchStatusBar(QWidget* parent = nullptr);

  /// Shows `message` as the error (on one line; the tooltip keeps its line breaks); "" clears.
  void SetError(const QString& message);
  /// Replaces the diagnostics line (and clears its tooltip).
  void SetDiagnostics(const QString& text);
  /// The diagnostics of a snapshot: "simulating… t = …" while partial; for a complete run the
  /// constraint residual, energy drift, samples and wall time (the comparison and a pending
  /// gauge computation named), details in the tooltip. Also moves the progress bar.
  void ShowRun(const SimulationSnapshot& snapshot);
  /// Replaces the pending-gauge note of the diagnostics with the gauge result (max |B_t|, the
  /// identity residual, its time) or "gauge two-form failed".
  void ShowGauge(const GaugeResult& result);
  /// Shows (and resets) or hides the progress bar.
  void SetBusy(bool busy);

 private:
  QLabel* error_ = nullptr;
  QLabel* diagnostics_ = nullptr;
  QProgressBar* progress_ = nullptr;
};

}  // namespace dirac::ui
