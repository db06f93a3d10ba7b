#include "window/workbench_status_bar.hpp"

#include <QLabel>
#include <QPaintEvent>
#include <QPainter>
#include <QProgressBar>
#include <QStyle>
#include <QStyleOption>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <string>

#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"

namespace dirac::ui {
namespace {

double ColumnMax(const dirac::Trajectory& trajectory, const std::string& column) {
  double m = 0.0;
  if (!trajectory.FindColumn(column)) return m;
  for (double v : trajectory.Column(column)) m = std::max(m, std::abs(v));
  return m;
}

// A one-line label that never widens the window: it may shrink below its text, and then draws
// the text elided ("…"); text() and the tooltip keep all of it. (A plain QLabel's minimum width
// is its whole text, so a long engine message made the window wider than the screen.)
class ElidingLabel : public QLabel {
 public:
  using QLabel::QLabel;

  QSize minimumSizeHint() const override {
    QSize size = QLabel::minimumSizeHint();
    size.setWidth(std::min(size.width(), fontMetrics().horizontalAdvance(QStringLiteral("M")) * 6));
    return size;
  }

 protected:
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip && Elided()) {  // the whole text, then the details
      QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                         toolTip().isEmpty() || toolTip() == text()
                             ? text()
                             : text() + QStringLiteral("\n\n") + toolTip(),
                         this);
      return true;
    }
    return QLabel::event(event);
  }

  void paintEvent(QPaintEvent* event) override {
    if (!Elided()) {
      QLabel::paintEvent(event);  // fits: as a QLabel (selectable)
      return;
    }
    const QRect rect = contentsRect();
    QPainter painter(this);
    QStyleOption option;  // a style sheet's background and border (the solve chip)
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_Widget, &option, &painter, this);
    style()->drawItemText(&painter, rect, static_cast<int>(alignment()), palette(), isEnabled(),
                          fontMetrics().elidedText(text(), Qt::ElideRight, rect.width()),
                          foregroundRole());
  }

 private:
  bool Elided() const { return fontMetrics().horizontalAdvance(text()) > contentsRect().width(); }
};

}  // namespace

QString WorkbenchStatusBar::MethodSummary(const dirac::SolveReport& report) {
  // Collocation: its mesh and the final time it found (the horizon may be free); shooting: its
  // intervals (the horizon is the user's T).
  // Polished: the collocation optimum handed to shooting (no inequality active), whose exact
  // optimum is the one shown.
  if (report.method == "collocation" && report.polished)
    return tr("collocation, %1 intervals, then shooting polish, t_f = %2 s")
        .arg(report.nodes)
        .arg(report.final_time, 0, 'f', 2);
  if (report.method == "collocation")
    return tr("collocation, %1 intervals, t_f = %2 s")
        .arg(report.nodes)
        .arg(report.final_time, 0, 'f', 2);
  return report.nodes == 1 ? tr("shooting, 1 interval")
                           : tr("shooting, %1 intervals").arg(report.nodes);
}

WorkbenchStatusBar::WorkbenchStatusBar(QWidget* parent) : QStatusBar(parent) {
  setObjectName("statusBar");
  error_ = new ElidingLabel(this);
  error_->setObjectName("status.error");
  error_->setStyleSheet("color: #c0392b; font-weight: bold;");
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  diagnostics_ = new ElidingLabel(this);
  diagnostics_->setObjectName("status.diagnostics");
  progress_ = new QProgressBar(this);
  progress_->setObjectName("status.progress");
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->setVisible(false);
  solve_ = new ElidingLabel(this);
  solve_->setObjectName("solveStatus");
  solve_->setTextFormat(Qt::PlainText);
  solve_->setVisible(false);
  // A temporary message (showMessage) in its own label, elided before the run's status instead
  // of QStatusBar's unelided text running up to it: the label takes the room the hidden error
  // line had, so QStatusBar's own message rect (left of the first permanent widget) is empty.
  message_ = new ElidingLabel(this);
  message_->setObjectName("status.message");
  message_->setContentsMargins(0, 0, 16, 0);
  message_->setVisible(false);
  addWidget(error_, 1);
  insertPermanentWidget(1, message_, 1);
  connect(this, &QStatusBar::messageChanged, message_, [this](const QString& message) {
    message_->setText(message);
    message_->setToolTip(message);
    message_->setVisible(!message.isEmpty());
  });
  addPermanentWidget(solve_);
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
  progress_->setRange(0, 1000);
  progress_->setValue(
      snapshot.t_end > 0 ? static_cast<int>(1000 * snapshot.last_time() / snapshot.t_end) : 1000);
  if (!snapshot.complete) {
    diagnostics_->setText(
        tr("simulating… t = %1 s of %2 s (%3 s)")
            .arg(FormatSeconds(snapshot.last_time()), FormatSeconds(snapshot.t_end))
            .arg(snapshot.wall_seconds, 0, 'f', 1));
    return;
  }
  if (snapshot.solve) {
    const SolveResult& solve = *snapshot.solve;
    const dirac::SolveReport& r = solve.report;
    const int samples = snapshot.trajectory ? static_cast<int>(snapshot.trajectory->num_rows()) : 0;
    QString text = !solve.converged ? tr("not solved: showing the motion from the initial guess")
                   : r.method == "collocation"
                       ? tr("optimum: max violation %1   ·   %2, %3 unknowns, %4 IPOPT "
                            "iterations   ·   %5 nodes   ·   %6 s")
                             .arg(r.constraint_violation, 0, 'e', 2)
                             .arg(MethodSummary(r))
                             .arg(r.unknowns)
                             .arg(r.iterations)
                             .arg(samples)
                             .arg(snapshot.wall_seconds, 0, 'f', 3)
                       : tr("optimum: max |F| %1   ·   max |H − H₀| %2   ·   %3, %4 "
                            "unknowns   ·   %5 samples   ·   %6 s")
                             .arg(r.residual, 0, 'e', 2)
                             .arg(solve.hamiltonian_drift, 0, 'e', 2)
                             .arg(MethodSummary(r))
                             .arg(r.unknowns)
                             .arg(samples)
                             .arg(snapshot.wall_seconds, 0, 'f', 3);
    diagnostics_->setText(text);
    diagnostics_->setToolTip(QString::fromStdString(dirac::FormatSolveReport(r, solve.cost)));
    return;
  }
  const dirac::SimulationReport& r = snapshot.report;
  QString text;
  if (r.diverged_at)
    text = tr("diverged at t = %1 s: %2 — not to be trusted after that time   ·   ")
               .arg(FormatSeconds(*r.diverged_at), QString::fromStdString(r.divergence));
  text += tr("max |constraint residual| %1   ·   max |E − E₀| %2   ·   "
             "%3 samples   ·   %4 s")
              .arg(r.max_constraint_residual, 0, 'e', 2)
              .arg(r.max_energy_drift, 0, 'e', 2)
              .arg(snapshot.trajectory ? snapshot.trajectory->num_rows() : 0)
              .arg(snapshot.wall_seconds, 0, 'f', 2);
  if (snapshot.comparison) {
    text += tr("   ·   compared with %1").arg(QString::fromStdString(snapshot.comparison_label));
  }
  run_summary_ = text;
  if (snapshot.gauge_pending) text += tr("   ·   computing gauge two-form…");
  diagnostics_->setText(text);
  diagnostics_->setToolTip(tr("initial energy %1, %2 internal steps, initial velocity "
                              "projection %3\n%4\ntapes: %5")
                               .arg(r.initial_energy, 0, 'g', 10)
                               .arg(r.internal_steps)
                               .arg(r.initial_projection, 0, 'e', 2)
                               .arg(QString::fromStdString(r.method))
                               .arg(QString::fromStdString(r.tape)));
}

void WorkbenchStatusBar::ShowGauge(const GaugeResult& result) {
  const QString separator = tr("   ·   ");
  QString note;
  if (result.cancelled) {
    note = tr("gauge two-form cancelled at t = %1 s (after %2 s)")
               .arg(FormatSeconds(result.reached))
               .arg(result.wall_seconds, 0, 'f', 1);
  } else if (!result.error.empty() || !result.trajectory) {
    note = tr("gauge two-form failed");
  } else {
    note = tr("max |B_t| %1, identity residual %2 (%3 s)")
               .arg(ColumnMax(*result.trajectory, "B_norm"), 0, 'e', 2)
               .arg(ColumnMax(*result.trajectory, "identity_residual"), 0, 'e', 2)
               .arg(result.wall_seconds, 0, 'f', 2);
  }
  diagnostics_->setText(run_summary_ + separator + note);
}

void WorkbenchStatusBar::ShowGaugeProgress(double t, double t_end, double seconds) {
  diagnostics_->setText(run_summary_ +
                        tr("   ·   computing gauge two-form: t = %1 s of %2 s (%3 s)")
                            .arg(FormatSeconds(t), FormatSeconds(t_end))
                            .arg(seconds, 0, 'f', 1));
  progress_->setRange(0, 1000);
  progress_->setVisible(true);
  progress_->setValue(t_end > 0 ? static_cast<int>(1000 * std::min(1.0, t / t_end)) : 0);
}

void WorkbenchStatusBar::SetBusy(bool busy) {
  progress_->setVisible(busy);
  if (busy) progress_->setValue(0);
}

void WorkbenchStatusBar::ShowDerivation(const QString& stage, double seconds) {
  if (stage.isEmpty()) {
    progress_->setRange(0, 1000);
    return;
  }
  progress_->setRange(0, 0);  // busy indicator: no fraction to show
  progress_->setVisible(true);
  diagnostics_->setText(tr("deriving the equations: %1 (%2 s)").arg(stage).arg(seconds, 0, 'f', 1));
  diagnostics_->setToolTip(
      tr("The engine derives the model from the scenario; Simulation > Cancel stops it."));
}

}  // namespace dirac::ui

namespace dirac::ui {

QString SolveStatusText(const SolveStatus& status) {
  using State = SolveStatus::State;
  QString text;
  switch (status.state) {
    case State::kNone:
      return QString();
    case State::kSolving:
      text = status.iteration > 0 ? QObject::tr("solving… iteration %1, residual %2")
                                        .arg(status.iteration)
                                        .arg(status.residual, 0, 'e', 2)
                                  : QObject::tr("solving…");
      if (status.continuation < 1.0)
        text += QObject::tr(" (continuation s = %1)").arg(status.continuation, 0, 'f', 3);
      break;
    case State::kSolved: {
      // "6 quasi-Newton iterations, warm start": a re-solve on the previous optimum's Jacobian
      // (iterates without variational equations); "7 iterations (3 quasi-Newton)" when Newton
      // finished it.
      const int quasi = status.stored_jacobian_iterations;
      auto count = [](int n, const QString& kind) {
        return n == 1 ? QObject::tr("1 %1iteration").arg(kind)
                      : QObject::tr("%1 %2iterations").arg(n).arg(kind);
      };
      const QString iterations =
          quasi == 0 ? count(status.iterations, QString())
          : quasi == status.iterations
              ? count(quasi, QStringLiteral("quasi-Newton "))
              : count(status.iterations, QString()) + QObject::tr(" (%1 quasi-Newton)").arg(quasi);
      text = QObject::tr("solved (cost %1, residual %2, %3%4, %5 ms)")
                 .arg(status.cost, 0, 'g', 8)
                 .arg(status.residual, 0, 'e', 2)
                 .arg(iterations)
                 .arg(status.warm_started ? QObject::tr(", warm start") : QString())
                 .arg(status.seconds * 1e3, 0, 'f', 0);
      break;
    }
    case State::kFailed:
      text = QObject::tr("failed: %1").arg(QString::fromStdString(status.message));
      if (status.showing_guess) text += QObject::tr(" — showing the unsolved initial guess");
      break;
  }
  if (status.stale) text += QObject::tr(" — stale: the previous optimum is shown");
  return text;
}

void WorkbenchStatusBar::ShowSolve(const SolveStatus& status) {
  using State = SolveStatus::State;
  const QString text = SolveStatusText(status);
  // Long engine messages are cut in the bar; the tooltip keeps all of it.
  solve_->setText(text.size() > 140 ? text.left(137) + "…" : text);
  solve_->setToolTip(text);
  solve_->setVisible(status.state != State::kNone);
  const char* colors = status.state == State::kSolved   ? "background: #2e7d32; color: white;"
                       : status.state == State::kFailed ? "background: #c0392b; color: white;"
                                                        : "background: #e0a100; color: black;";
  const QString style = QString("QLabel { %1 border-radius: 8px; padding: 1px 8px; }").arg(colors);
  if (style != solve_->styleSheet()) solve_->setStyleSheet(style);  // re-polishing costs
}

QString WorkbenchStatusBar::solve_text() const { return solve_->toolTip(); }

}  // namespace dirac::ui
