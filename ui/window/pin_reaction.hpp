#pragma once
/// @file pin_reaction.hpp
/// View > Pin this run / Clear pinned run (and a chart's context menu): the pinned run drawn
/// dotted in the plots under every later run.

#include <QObject>
#include <QString>

#include <memory>

#include "dirac/trajectory.hpp"

#include "run/simulation_snapshot.hpp"
#include "window/reaction_context.hpp"

namespace dirac::ui {

class PlotPanel;
class ShownResult;

/// The pin stays until Clear or another scenario is opened (the state's scenarioLoading, not
/// for a reload: the pinned run is the one before the file changed).
class PinReaction : public QObject {
  Q_OBJECT

 public:
  PinReaction(const ReactionContext& context, PlotPanel* plots, const ShownResult* shown,
              QObject* parent = nullptr);

  /// Pins the newest complete run; false (said in the status bar) if there is none yet.
  bool Pin();
  /// Pins `trajectory` under `label` (a session's pinned run read back); null clears.
  void PinTrajectory(std::shared_ptr<const dirac::Trajectory> trajectory, const QString& label);
  /// Removes the pinned run from the plots.
  void Clear();
  /// The pinned run (null if none) and its legend entry.
  const std::shared_ptr<const dirac::Trajectory>& pinned() const { return pinned_; }
  const QString& pinned_label() const { return pinned_label_; }
  /// The legend entry of a pinned run: "pinned: kx = 1, ky = 2" (its first four parameters),
  /// "pinned" without parameters.
  static QString PinnedLabel(const SimulationSnapshot& run);

 private:
  ReactionContext context_;
  PlotPanel* plots_;
  const ShownResult* shown_;
  std::shared_ptr<const dirac::Trajectory> pinned_;
  QString pinned_label_;
};

}  // namespace dirac::ui
