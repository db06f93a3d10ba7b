#pragma once
/// @file parameter_panel.hpp
/// Editors generated from a scenario: a slider and spin box per parameter, spin boxes for the
/// initial conditions and the final time.

#include <QHash>
#include <QString>
#include <QWidget>

#include "dirac/scenario.hpp"

class QDoubleSpinBox;
class QLabel;
class QVBoxLayout;

namespace dirac::ui {

/// Every editor is named after the scenario symbol it sets, so tests and scripts can find it:
/// "parameter.<name>" (spin box) and "parameter.<name>.slider", "initial.<coordinate>",
/// "initial.<velocity>", "initial.<momentum>" (vakonomic scenarios), "simulation.t_end".
class ParameterPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ParameterPanel(QWidget* parent = nullptr);

  /// Rebuilds all editors for `scenario` (its current values).
  void SetScenario(const dirac::Scenario& scenario);

  /// One line under the description naming the derived model ("" hides it).
  void SetModelDescription(const QString& text);

  /// Greys out the initial-condition editors of `fixed` (symbol -> why, shown as tooltip):
  /// values the model derives itself, e.g. coordinates eliminated by the constraint algorithm.
  /// Replaces the previous marks.
  void MarkFixed(const QHash<QString, QString>& fixed);

  /// The spin box editing `name` (a parameter, coordinate, velocity, momentum or "t_end"), or
  /// null.
  QDoubleSpinBox* editor(const QString& name) const { return editors_.value(name, nullptr); }

 public slots:
  /// Puts every parameter back to its default value (emits valueChanged for each change).
  void ResetToDefaults();

 signals:
  /// A value was edited; `name` is the scenario symbol (dirac::ApplyOverride names).
  void valueChanged(const QString& name, double value);

 private:
  void Clear();
  void AddParameterRow(QWidget* group, const dirac::Parameter& parameter);
  QDoubleSpinBox* AddSpinRow(QWidget* group, const QString& object_name, const QString& symbol,
                             const QString& label, const QString& unit, double value);

  QVBoxLayout* layout_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* description_ = nullptr;
  QLabel* model_ = nullptr;
  QWidget* content_ = nullptr;
  QHash<QString, QDoubleSpinBox*> editors_;
  QHash<QString, double> defaults_;
  QHash<QString, QString> tooltips_;  // of the initial-condition editors, before MarkFixed
  QLabel* fixed_note_ = nullptr;
};

}  // namespace dirac::ui
