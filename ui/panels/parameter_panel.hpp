#pragma once
/// @file parameter_panel.hpp
/// Editors generated from a scenario and its model: a slider and spin box per parameter, spin
/// boxes for the model's initial values and the final time.

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "dirac/model.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
#include "dirac/trajectory.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QVBoxLayout;

namespace dirac::ui {

/// Every editor is named after the `--set` name it sets, so tests and scripts can find it:
/// "parameter.<name>" (spin box) and "parameter.<name>.slider", "initial.<name>" for each of the
/// model's initial values (coordinates, velocities or fibre coordinates, momenta, costates, ...),
/// "simulation.t_end"; the combo "simulation.method" (the methods that apply to the model, once
/// it is ready: method_choice.hpp) and "simulation.step" (the fixed step, enabled for the
/// fixed-step methods), edited as the `--set` names "method" (by IntegrationMethodCode) and
/// "step": choosing a fixed-step method while no step is set sets DefaultFixedStep first. A
/// scenario that poses a solve also gets the group "Boundary values"
/// ("parameterPanel.boundary"): "boundary.<name>" (spin box) and "boundary.<name>.fixed" (check
/// box; unchecked = free) for every name of ListBoundaryValues (initial.<q>, final.<q>,
/// horizon). One field per quantity: a solve's initial values at t = 0 are only its boundary
/// values (no "initial.<q>" duplicate), the group "Initial conditions" becomes the solver's
/// start (the shooting's unknowns: editable guesses, or read-only costates no --set name
/// reaches), and with an optimal_control block the horizon is the one T (editor("t_end") is
/// the horizon's spin box; there is no "simulation.t_end"; a free horizon, its "fixed" box
/// unchecked, shows the T of the last optimum). An optimal_control block with bounds also gets
/// the group "Bounds" ("parameterPanel.bounds"): spin boxes "bounds.<name>.min" / ".max" (an
/// open side a label "—") and the quantity's unit after them (label "bounds.<name>.unit"), and
/// "horizon_bounds.min" / ".max" (enabled while the horizon is free), each named and edited by
/// its `--set` name.
class ParameterPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ParameterPanel(QWidget* parent = nullptr);

  /// Rebuilds the editors of `scenario` (its current values): parameters and the final time.
  /// The initial conditions wait for the model (SetModel).
  void SetScenario(const dirac::Scenario& scenario);

  /// Shows the model: its formulation under the description, and the initial-conditions group
  /// generated from model.initial_values() (values from dirac::CurrentValue). Values the model
  /// determines (InitialValueInfo::free false) are greyed out with fixed_because as tooltip.
  void SetModel(const dirac::Model& model, const dirac::Scenario& scenario);

  /// The spin box editing `name` (a parameter, an initial value, "t_end" or a boundary value
  /// such as "final.psi"), or null.
  QDoubleSpinBox* editor(const QString& name) const { return editors_.value(name, nullptr); }
  /// The method combo ("simulation.method"), or null (a scenario with an optimal_control block).
  QComboBox* method_choice() const { return method_; }
  /// The "fixed" check box of boundary value `name`, or null.
  QCheckBox* fixed_box(const QString& name) const { return fixed_.value(name, nullptr); }

  /// A solve's shooting unknowns at t = 0 (the "initial.<name>" editors left once the boundary
  /// values at t = 0 are taken out: costates, second-order guesses): their values at t = 0 of
  /// `solved`, the optimum, shown without emitting anything; the group hidden if `solved` has
  /// none of them or if `shooting` is false (a solve by collocation: its unknowns are the
  /// mesh's, though its trajectory has the costate columns). A free horizon shows the T of
  /// `solved`.
  void ShowSolvedStart(const dirac::Trajectory& solved, bool shooting = true);
  /// The names ShowSolvedStart updates (empty for a scenario without a solve).
  const QStringList& solver_start_names() const { return guesses_; }

  /// Shows `value` in the editor of `name` (and its slider) without emitting anything.
  void SyncValue(const QString& name, double value);
  /// Shows the scenario's boundary values (values and fixed / free) without emitting anything,
  /// e.g. after the 3D view moved a target.
  void SyncBoundaryValues(const dirac::Scenario& scenario);

 public slots:
  /// Puts every parameter back to its default value (emits valueChanged for each change).
  void ResetToDefaults();

 signals:
  /// A value was edited; `name` is its `--set` name (dirac::ApplyOverride) or a boundary value
  /// name (also when a free boundary value is fixed again, with the editor's value).
  void valueChanged(const QString& name, double value);
  /// A boundary value was set free (its "fixed" box unchecked).
  void boundaryValueFreed(const QString& name);

 private:
  void Clear();
  void SetModelDescription(const QString& text);
  QGroupBox* MakeInitialGroup(const dirac::Model* model, const dirac::Scenario& scenario);
  QGroupBox* MakeBoundaryGroup(const dirac::Scenario& scenario);
  /// The group "Bounds" of an optimal_control block with bounds or horizon bounds (else null).
  QGroupBox* MakeBoundsGroup(const dirac::Scenario& scenario);
  /// The horizon bounds' editors follow the horizon: enabled while it is free.
  void EnableHorizonBounds(bool enabled);
  void AddParameterRow(QWidget* group, const dirac::Parameter& parameter);
  /// The user chose the combo's entry `index`: the step first if needed, then the method.
  void OnMethodChosen(int index);
  /// The step editor is enabled for the fixed-step methods.
  void EnableStep();
  QDoubleSpinBox* AddSpinRow(QWidget* group, const QString& symbol, const QString& object_name,
                             const QString& label, const QString& unit, double value);

  QVBoxLayout* layout_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* description_ = nullptr;
  QLabel* model_ = nullptr;
  QWidget* content_ = nullptr;
  QGroupBox* initial_ = nullptr;      // inside content_, replaced by SetModel
  QComboBox* method_ = nullptr;       // in the Simulation group
  dirac::SimulationSpec simulation_;  // of the scenario shown: DefaultFixedStep
  QHash<QString, QDoubleSpinBox*> editors_;
  QHash<QString, QCheckBox*> fixed_;  // boundary values
  QHash<QString, double> defaults_;
  QStringList guesses_;  // ShowSolvedStart
};

}  // namespace dirac::ui
