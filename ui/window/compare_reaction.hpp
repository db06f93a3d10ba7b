#pragma once
/// @file compare_reaction.hpp
/// View > "Compare with nonholonomic motion": the action's behaviour.

#include <QObject>

class QAction;

namespace dirac::ui {

class SimulationController;
class WorkbenchState;

/// Enables and shows `action` (objectName "compare.nonholonomic") for vakonomic scenarios;
/// checked, each run of the controller also simulates the scenario as a Lagrange–Dirac
/// (nonholonomic) system, which the 3D view draws in magenta and the plots dashed.
class CompareReaction : public QObject {
  Q_OBJECT

 public:
  /// Follows `action`'s check state and `state`'s scenarioLoaded from now on.
  CompareReaction(QAction* action, SimulationController* controller, WorkbenchState* state);

  /// A scenario was loaded (the controller holds it): the action applies to vakonomic
  /// scenarios only.
  void OnScenarioLoaded();
  /// The controller compares iff the action is checked and applies.
  void Apply();

 private:
  QAction* action_;
  SimulationController* controller_;
};

}  // namespace dirac::ui
