#include "workbench_status_bar.hpp"

#include <QLabel>
#include <QProgressBar>

#include <algorithm>
#include <cmath>
#include <string>

#include "playback_clock.hpp"

namespace dirac::ui {
namespace {

double ColumnMax(const dirac::Trajectory& trajectory, const std::string& column) {
  double m = 0.0;
  if (!trajectory.FindColumn(column)) return m;
  for (double v : trajectory.Column(column)) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

WorkbenchStatusBar::WorkbenchStatusBar(QWidget* parent) : QStatusBar(parent) {
  setObjectName("statusBar");
  error_ = new QLabel(this);
  error_->setObjectName("status.error");
  error_->setStyleSheet("color: #c0392b; font-weight: bold;");
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  diagnostics_ = new QLabel(this);
  diagnostics_->setObjectName("status.diagnostics");
  progress_ = new QProgressBar(this);
  progress_->setObjectName("status.progress");
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->setVisible(false);
  addWidget(error_, 1);
  addPermanentWidget(diagnostics_);
  addPermanentWidget(progress_);
}

void WorkbenchStatusBar::SetError(const QString& message) {
  error_->setText(QString(message).replace('\n', ' '));
  error_->setToolTip(message);
}

void WorkbenchStatusBar::SetDiagnostics(const QString& text) {
  diagnostics_->setText(text);
  diagnostics_->setToolTip(QString());
}

void WorkbenchStatusBar::ShowRun(const SimulationSnapshot& snapshot) {
  progress_->setValue(
      snapshot.t_end > 0 ? static_cast<int>(1000 * snapshot.last_time() / snapshot.t_end) : 1000);
  if (!snapshot.complete) {
    diagnostics_->setText(tr("simulating… t = %1 s").arg(FormatSeconds(snapshot.last_time())));
    return;
  }
  const dirac::SimulationReport& r = snapshot.report;
  QString text = tr("max |constraint residual| %1   ·   max |E − E₀| %2   ·   "
                    "%3 samples   ·   %4 s")
                     .arg(r.max_constraint_residual, 0, 'e', 2)
                     .arg(r.max_energy_drift, 0, 'e', 2)
                     .arg(snapshot.trajectory ? snapshot.trajectory->num_rows() : 0)
                     .arg(snapshot.wall_seconds, 0, 'f', 2);
  if (snapshot.comparison) {
    text += tr("   ·   compared with %1").arg(QString::fromStdString(snapshot.comparison_label));
  }
  if (snapshot.gauge_pending) text += tr("   ·   computing gauge two-form…");
  diagnostics_->setText(text);
  diagnostics_->setToolTip(tr("initial energy %1, %2 internal steps, initial velocity "
                              "projection %3")
                               .arg(r.initial_energy, 0, 'g', 10)
                               .arg(r.internal_steps)
                               .arg(r.initial_projection, 0, 'e', 2));
}

void WorkbenchStatusBar::ShowGauge(const GaugeResult& result) {
  const QString pending = tr("computing gauge two-form…");
  QString text = diagnostics_->text();
  if (!result.error.empty() || !result.trajectory) {
    diagnostics_->setText(text.replace(pending, tr("gauge two-form failed")));
    return;
  }
  diagnostics_->setText(
      text.replace(pending, tr("max |B_t| %1, identity residual %2 (%3 s)")
                                .arg(ColumnMax(*result.trajectory, "B_norm"), 0, 'e', 2)
                                .arg(ColumnMax(*result.trajectory, "identity_residual"), 0, 'e', 2)
                                .arg(result.wall_seconds, 0, 'f', 2)));
}

void WorkbenchStatusBar::SetBusy(bool busy) {
  progress_->setVisible(busy);
  if (busy) progress_->setValue(0);
}

}  // namespace dirac::ui
