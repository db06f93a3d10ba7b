#pragma once
/// @file gauge_view.hpp
/// View > "Gauge two-form": the action's behaviour and the two charts it adds to the plots.

#include <QObject>

#include "run/simulation_snapshot.hpp"
#include "window/reaction_context.hpp"

class QAction;
class QScrollArea;

namespace dirac::ui {

class PlaybackClock;
class PlotPanel;

/// `action` (objectName "action.gaugeTwoForm") is enabled when the model has the capability
/// (Model::gauge_two_form(), a regular Lagrangian on TQ with constraints); checked, each run
/// also computes it and the plots gain "Gauge two-form B_t" (B_norm, omega_change) and
/// "Identity residual |phi_t* Omega - Omega - B_t|" (identity_residual), scrolled into view once.
/// The choice stays set across scenarios.
class GaugeView : public QObject {
  Q_OBJECT

 public:
  /// Follows `action`'s check state, the controller's gauge results and the state's
  /// scenarioLoading and modelReady from now on.
  GaugeView(const ReactionContext& context, QAction* action, PlotPanel* plots,
            QScrollArea* plot_scroll, PlaybackClock* clock);

  /// A scenario is loading: the action is disabled and the charts removed until its model
  /// shows whether it applies.
  void OnScenarioLoading();
  /// The model is ready: the action is enabled iff it has the capability; then Apply.
  void OnModelReady();
  /// The controller computes the gauge two-form iff the action is checked; its two charts are
  /// shown iff the current model has it.
  void Apply();

 private:
  void OnGauge(const GaugeResultPtr& result);
  void ScrollToPlot(int index);

  ReactionContext context_;
  QAction* action_;
  PlotPanel* plots_;
  QScrollArea* plot_scroll_;
  PlaybackClock* clock_;
  bool scroll_pending_ = false;  // scroll the charts into view when they first fill
};

}  // namespace dirac::ui
