#pragma once
/// @file run_budget_guard.hpp
/// The run length guard: the storage estimate in the status bar ("status.budget") and the bound
/// applied to edits of the final time, the horizon and the output step (run_budget.hpp).

#include <QObject>
#include <QString>

class QLabel;

namespace dirac {
struct Scenario;
}

#include "window/reaction_context.hpp"

namespace dirac::ui {

class PlaybackClock;

/// One stored trajectory takes at most kMaxStoredTrajectoryBytes: past the bound a longer final
/// time stores fewer samples (a coarser output step, said in the status bar) and a finer output
/// step is refused with the reason.
class RunBudgetGuard : public QObject {
  Q_OBJECT

 public:
  /// Adds the estimate's label to the status bar as a permanent widget. Updates on the state's
  /// scenarioLoaded (and shows its budget notice, unless a reload says more) and modelReady.
  RunBudgetGuard(const ReactionContext& context, PlaybackClock* clock, QObject* parent = nullptr);

  /// Whether edits of `name` go through Apply (t_end, horizon, output_step).
  static bool Guards(const QString& name);
  /// Raises the output step of a scenario that would store more than the bound; returns the
  /// notice to show ("Output step raised to … s (stored samples decimated): …"), "" if it fits.
  static QString FitToBound(dirac::Scenario& scenario);
  /// Applies the edit `name` = `value` within the bound (decimating or refusing); false if the
  /// controller did not take it.
  bool Apply(const QString& name, double value);
  /// Refreshes the estimate ("·   storage ≈ N samples, B"; the bound in its tooltip) and the
  /// clock's step from the current scenario.
  void Update();
  /// The estimate's text.
  QString text() const;

 private:
  ReactionContext context_;
  PlaybackClock* clock_;
  QLabel* label_;
};

}  // namespace dirac::ui
