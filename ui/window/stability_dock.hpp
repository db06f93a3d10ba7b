#pragma once
/// @file stability_dock.hpp
/// View > Stability: a dock ("dock.stability", its View menu toggle "action.show.stability")
/// with the StabilityView, recomputed on the StabilityWorker whenever it is visible and the
/// scenario's model or values change (every edit), from the scenario's `stability:` block.

#include <QDockWidget>

#include <memory>
#include <vector>

#include "run/stability_worker.hpp"

namespace dirac::ui {

class SimulationController;
class StabilityView;
class WorkbenchState;

class StabilityDock : public QDockWidget {
  Q_OBJECT

 public:
  /// Follows `controller` (its model and scenario) and `state`'s scenarioLoading and
  /// modelReady; hidden until shown from the View menu.
  StabilityDock(SimulationController* controller, WorkbenchState* state, QWidget* parent);

  /// A scenario is loading: the running computation stops, the view waits for the model.
  void OnScenarioLoading();
  /// The model is ready: computes if visible.
  void OnModelReady();
  /// The scenario's values may have changed (an edit): recomputes if visible and they did.
  void OnValuesMaybeChanged();

  StabilityView* view() const { return view_; }
  StabilityWorker* worker() const { return worker_; }

 private:
  void Recompute(bool force);

  SimulationController* controller_;
  StabilityView* view_;
  StabilityWorker* worker_;
  bool model_ready_ = false;
  std::vector<double> requested_values_;  // parameters, q0, v0 of the last request
};

}  // namespace dirac::ui
