#include "window/scenario_saver.hpp"

#include <QFileDialog>

#include <exception>

#include "dirac/scenario_io.hpp"
#include "run/simulation_controller.hpp"
#include "window/error_reporter.hpp"
#include "window/window_settings.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {

bool ScenarioSaver::SaveAs(const QString& path) {
  if (!context_.controller->has_scenario()) {
    context_.errors->Show(tr("No scenario to save."), false);
    return false;
  }
  try {
    dirac::SaveScenario(context_.controller->scenario(), path.toStdString());
  } catch (const std::exception& e) {
    context_.errors->Show(
        tr("Saving the scenario failed: %1").arg(QString::fromStdString(e.what())),
        context_.errors->dialogs());
    return false;
  }
  context_.status->showMessage(tr("Saved the scenario with its current values to %1").arg(path),
                               8000);
  return true;
}

void ScenarioSaver::SaveDialog(QWidget* parent, const QString& scenario_path) {
  const QString path = QFileDialog::getSaveFileName(
      parent, tr("Save scenario"),
      WindowSettings::SuggestedPath(scenario_path, "_tweaked.yaml", "scenario.yaml"),
      tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  WindowSettings::SetLastFolder(path);
  SaveAs(path);
}

}  // namespace dirac::ui
