#pragma once
/// @file edit_router.hpp
/// Edits, from the parameter panel or from the 3D view, to the run: each edit goes to the
/// controller (the run length through the budget guard), the other editors follow, and its run
/// is timed until drawn.

#include <QObject>
#include <QString>

#include <string>
#include <utility>
#include <vector>

#include "window/run_presenter.hpp"

namespace dirac::ui {

class ParameterPanel;
class RunBudgetGuard;
class SimulationController;

class EditRouter : public QObject {
  Q_OBJECT

 public:
  /// Edits go to `controller` (the run length through `budget`); `panel` and the views follow;
  /// `presenter` times them.
  EditRouter(SimulationController* controller, ParameterPanel* panel, const RunViews& views,
             RunBudgetGuard* budget, RunPresenter* presenter, QObject* parent);

  /// A value edited in the panel (ParameterPanel::valueChanged, dirac::ApplyOverride names).
  /// An edit of the run length the budget refuses puts the editor back.
  void OnValueEdited(const QString& name, double value);
  /// A boundary value set free in the panel (ParameterPanel::boundaryValueFreed).
  void OnBoundaryFreed(const QString& name);
  /// Values edited in the 3D view (SceneContext::edit), applied as one request; the panel
  /// follows.
  void OnSceneEdited(const std::vector<std::pair<std::string, double>>& values);

 private:
  void AfterEdit(const QString& name, double value);

  SimulationController* controller_;
  ParameterPanel* panel_;
  RunViews v_;
  RunBudgetGuard* budget_;
  RunPresenter* presenter_;
};

}  // namespace dirac::ui
