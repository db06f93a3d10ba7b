#pragma once
/// @file scenario_saver.hpp
/// File > Save scenario as: the scenario with its edited values, in the file's own text.

#include <QCoreApplication>
#include <QString>

#include "window/reaction_context.hpp"

class QWidget;

namespace dirac::ui {

/// Saves the controller's scenario (dirac::SaveScenario: the source file's text with only the
/// edited numbers replaced, written atomically).
class ScenarioSaver {
  Q_DECLARE_TR_FUNCTIONS(ScenarioSaver)

 public:
  explicit ScenarioSaver(const ReactionContext& context) : context_(context) {}

  /// Saves the scenario with the current parameter values and initial conditions to `path`;
  /// reopening it reproduces the run. Shows the error and returns false on failure.
  bool SaveAs(const QString& path);
  /// The save dialog over `parent` (the last folder, "<scenario>_tweaked.yaml"), then SaveAs.
  void SaveDialog(QWidget* parent, const QString& scenario_path);

 private:
  ReactionContext context_;
};

}  // namespace dirac::ui
