#pragma once
/// @file solve_chip.hpp
/// The solve chip ("solveStatus" in the status bar) of a scenario that poses a solve.

#include <QObject>
#include <QString>

#include "window/reaction_context.hpp"

namespace dirac::ui {

class ShownResult;

/// Follows SimulationController::solve_status(): "solving… iteration k, residual r", "solved
/// (…)", "failed: …", each "stale" while the optimum shown is of earlier values; the note over
/// the plots follows it too.
class SolveChip : public QObject {
  Q_OBJECT

 public:
  /// Follows the controller's solveStatusChanged from now on.
  SolveChip(const ReactionContext& context, ShownResult* shown);

  /// The chip's text ("" for scenarios without a solve).
  QString text() const;

 private:
  void OnSolveStatus();

  ReactionContext context_;
  ShownResult* shown_;
};

}  // namespace dirac::ui
