#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QWindow>

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "constraint_panel.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "parameter_panel.hpp"
#include "playback_clock.hpp"
#include "playback_toolbar.hpp"
#include "plot_panel.hpp"
#include "scene_view.hpp"
#include "simulation_controller.hpp"
#include "workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// The plots of the gauge two-form (columns of dirac::GaugeTwoForm::Compute).
std::vector<dirac::PlotSpec> GaugePlots() {
  return {{"Gauge two-form B_t", {"B_norm", "omega_change"}, {}},
          {"Identity residual |phi_t* Omega - Omega - B_t|", {"identity_residual"}, {}}};
}

// A file name for a save dialog: the scenario's base name + `suffix`, else `fallback`.
QString SuggestedName(const QString& scenario_path, const char* suffix, const char* fallback) {
  return scenario_path.isEmpty() ? QString(fallback)
                                 : QFileInfo(scenario_path).completeBaseName() + suffix;
}

// A dock around `widget` that can be moved and floated (and closed if `closable`).
QDockWidget* MakeDock(QMainWindow* window, const QString& title, const char* name, QWidget* widget,
                      bool closable) {
  auto* dock = new QDockWidget(title, window);
  dock->setObjectName(name);
  dock->setWidget(widget);
  dock->setFeatures(
      QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
      (closable ? QDockWidget::DockWidgetClosable : QDockWidget::NoDockWidgetFeatures));
  return dock;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("mainWindow");
  setWindowTitle(tr("Dirac Studio"));
  controller_ = new SimulationController(this);
  clock_ = new PlaybackClock(this);
  scene_view_ = new SceneView(this);
  setCentralWidget(scene_view_);

  actions_ = CreateWorkbenchActions(*this);
  toolbar_ = new PlaybackToolBar(clock_, actions_, this);
  addToolBar(toolbar_);
  BuildDocks();
  BuildMenuBar(*menuBar(), actions_, {parameter_dock_, plot_dock_, constraint_dock_}, this);
  status_ = new WorkbenchStatusBar(this);
  setStatusBar(status_);

  connect(controller_, &SimulationController::modelReady, this, &MainWindow::OnModelReady);
  connect(controller_, &SimulationController::snapshotReady, this, &MainWindow::OnSnapshot);
  connect(controller_, &SimulationController::failed, this, &MainWindow::OnFailed);
  connect(controller_, &SimulationController::gaugeReady, this, &MainWindow::OnGauge);
  connect(controller_, &SimulationController::busyChanged, status_, &WorkbenchStatusBar::SetBusy);
  connect(controller_, &SimulationController::solveStatusChanged, this, &MainWindow::OnSolveStatus);
  connect(parameter_panel_, &ParameterPanel::valueChanged, this, &MainWindow::OnValueEdited);
  connect(parameter_panel_, &ParameterPanel::boundaryValueFreed, this,
          &MainWindow::OnBoundaryFreed);
  connect(clock_, &PlaybackClock::timeChanged, this, &MainWindow::OnTimeChanged);
}

MainWindow::~MainWindow() = default;

void MainWindow::BuildDocks() {
  parameter_panel_ = new ParameterPanel();
  auto* scroll = new QScrollArea();
  scroll->setObjectName("parameterScroll");
  scroll->setWidget(parameter_panel_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  parameter_dock_ = MakeDock(this, tr("Scenario"), "dock.parameters", scroll, false);
  parameter_dock_->setMinimumWidth(300);
  addDockWidget(Qt::LeftDockWidgetArea, parameter_dock_);

  plot_panel_ = new PlotPanel();
  plot_dock_ = MakeDock(this, tr("Plots"), "dock.plots", plot_panel_, false);
  plot_dock_->setMinimumWidth(460);
  addDockWidget(Qt::RightDockWidgetArea, plot_dock_);

  // The chain goes under the 3D view; the side docks keep the full height.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  constraint_panel_ = new ConstraintPanel();
  constraint_dock_ = MakeDock(this, tr("Constraints"), "dock.constraints", constraint_panel_, true);
  constraint_dock_->setMinimumHeight(160);
  addDockWidget(Qt::BottomDockWidgetArea, constraint_dock_);
  resizeDocks({constraint_dock_}, {340}, Qt::Vertical);
  constraint_dock_->setVisible(false);  // shown for models with a constraint chain
}

bool MainWindow::OpenScenario(const QString& path, const QStringList& overrides) {
  dirac::Scenario scenario;
  try {
    scenario = dirac::LoadScenario(path.toStdString());
    for (const QString& assignment : overrides)
      dirac::ApplyOverride(scenario, assignment.toStdString());
  } catch (const std::exception& e) {
    ShowError(tr("Cannot open scenario %1:\n%2").arg(path, QString::fromStdString(e.what())), true);
    return false;
  }
  scene_error_.clear();
  ClearError();
  scenario_path_ = path;
  clock_->Pause();
  clock_->SetSpan(scenario.simulation.t_end);
  clock_->SetAvailable(0.0);
  clock_->SetStepSize(scenario.simulation.output_step);
  clock_->SetTime(0.0);
  camera_fitted_ = false;
  scene_view_->SetScene(nullptr);
  constraint_panel_->ShowMessage(tr("Deriving the model…"));
  actions_.gauge->setEnabled(false);  // until the model shows whether it applies
  plot_panel_->SetAuxiliaryPlots({});
  plot_panel_->SetPlots(scenario.plots, scenario.simulation.t_end);
  QString name = QString::fromStdString(scenario.name);
  if (name.isEmpty()) name = QFileInfo(path).completeBaseName();
  setWindowTitle(tr("%1 — Dirac Studio").arg(name));
  status_->SetDiagnostics(tr("deriving equations…"));
  const bool vakonomic = scenario.formulation == dirac::Formulation::kVakonomic;
  controller_->LoadScenario(std::move(scenario));
  parameter_panel_->SetScenario(controller_->scenario());
  actions_.compare->setEnabled(vakonomic);
  actions_.compare->setVisible(vakonomic);
  UpdateComparison();
  toolbar_->Refresh();
  return true;
}

void MainWindow::SetCompare(bool enabled) { actions_.compare->setChecked(enabled); }

void MainWindow::UpdateComparison() {
  const bool applies = controller_->has_scenario() &&
                       controller_->scenario().formulation == dirac::Formulation::kVakonomic;
  controller_->SetComparison(applies && actions_.compare->isChecked()
                                 ? std::optional(dirac::Formulation::kLagrangeDirac)
                                 : std::nullopt);
}

void MainWindow::SetGaugeTwoForm(bool enabled) { actions_.gauge->setChecked(enabled); }

void MainWindow::UpdateGaugeTwoForm() {
  // The controller computes it only for models that have it, so the choice may stay on while
  // a scenario loads: a model that has it then gets it in its first run.
  controller_->SetGaugeTwoForm(actions_.gauge->isChecked());
  const bool shown =
      actions_.gauge->isChecked() && SupportsGaugeTwoForm(controller_->model().get());
  if (shown == (plot_panel_->auxiliary_plot_count() > 0)) return;
  plot_panel_->SetAuxiliaryPlots(shown ? GaugePlots() : std::vector<dirac::PlotSpec>{});
  if (shown) {
    plot_panel_->SetTimeSpan(controller_->scenario().simulation.t_end);
    if (const GaugeResultPtr gauge = controller_->latest_gauge())
      plot_panel_->SetAuxiliaryTrajectory(gauge->trajectory);
    plot_panel_->SetCursorTime(clock_->time());
  }
}

void MainWindow::OnGauge(const GaugeResultPtr& result) {
  if (plot_panel_->auxiliary_plot_count() > 0)
    plot_panel_->SetAuxiliaryTrajectory(result->trajectory);
  if (!result->error.empty())
    ShowError(tr("Gauge two-form: %1").arg(QString::fromStdString(result->error)), false);
  status_->ShowGauge(*result);
}

bool MainWindow::ExportCsv(const QString& path) {
  const SnapshotPtr snapshot = controller_->latest();
  if (!snapshot || !snapshot->trajectory || snapshot->trajectory->empty()) {
    ShowError(tr("Nothing to export yet: no trajectory has been computed."), false);
    return false;
  }
  try {
    dirac::WriteCsv(*snapshot->trajectory, path.toStdString());
  } catch (const std::exception& e) {
    ShowError(tr("Export failed: %1").arg(QString::fromStdString(e.what())), error_dialogs_);
    return false;
  }
  statusBar()->showMessage(tr("Exported %1 samples to %2%3")
                               .arg(snapshot->trajectory->num_rows())
                               .arg(path, snapshot->complete ? QString() : tr(" (partial run)")),
                           8000);
  return true;
}

void MainWindow::EnsureSpanCovers(double t) {
  if (!controller_->has_scenario() || t <= controller_->scenario().simulation.t_end) return;
  if (QDoubleSpinBox* t_end = parameter_panel_->editor("t_end")) {
    t_end->setValue(t);  // goes through OnValueEdited like a user edit
  } else {
    OnValueEdited("t_end", t);
  }
  controller_->Restart();
}

void MainWindow::PlayTo(double t) {
  EnsureSpanCovers(t);
  clock_->Reset();
  clock_->SetStopTime(t);
  clock_->Play();
}

QImage MainWindow::GrabWindowImage() {
  scene_view_->RenderNow();
  QScreen* screen = windowHandle() ? windowHandle()->screen() : QApplication::primaryScreen();
  if (!screen) return {};
  return screen->grabWindow(winId()).toImage();
}

void MainWindow::OpenScenarioDialog() {
  const QString start =
      scenario_path_.isEmpty() ? QString() : QFileInfo(scenario_path_).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), start,
                                                    tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) OpenScenario(path);
}

bool MainWindow::SaveScenarioAs(const QString& path) {
  if (!controller_->has_scenario()) {
    ShowError(tr("No scenario to save."), false);
    return false;
  }
  try {
    dirac::SaveScenario(controller_->scenario(), path.toStdString());
  } catch (const std::exception& e) {
    ShowError(tr("Saving the scenario failed: %1").arg(QString::fromStdString(e.what())),
              error_dialogs_);
    return false;
  }
  statusBar()->showMessage(tr("Saved the scenario with its current values to %1").arg(path), 8000);
  return true;
}

void MainWindow::SaveScenarioDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save scenario"), SuggestedName(scenario_path_, "_tweaked.yaml", "scenario.yaml"),
      tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) SaveScenarioAs(path);
}

void MainWindow::ExportCsvDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export trajectory"), SuggestedName(scenario_path_, ".csv", "trajectory.csv"),
      tr("CSV files (*.csv);;All files (*)"));
  if (!path.isEmpty()) ExportCsv(path);
}

void MainWindow::SaveScreenshotDialog() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), "dirac-studio.png",
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  if (!GrabWindowImage().save(path, "PNG"))
    ShowError(tr("Cannot write %1").arg(path), error_dialogs_);
}

void MainWindow::ShowError(const QString& message, bool dialog) {
  last_error_ = message;
  status_->SetError(message);
  emit errorShown(message);
  if (dialog && error_dialogs_) {
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Dirac Studio"), message, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // non-modal for the event loop: a running simulation keeps updating
  }
}

void MainWindow::ClearError() {
  last_error_.clear();
  status_->SetError(QString());
  // A scene that cannot be drawn stays reported while its scenario is loaded.
  if (!scene_error_.isEmpty()) ShowError(scene_error_, false);
}

void MainWindow::OnModelReady() {
  const std::shared_ptr<const dirac::Model> model = controller_->model();
  const dirac::Scenario& scenario = controller_->scenario();
  std::unique_ptr<DrawnScene> scene;
  try {
    scene = scenes_.Create(SceneContext{
        scenario, model, [this](const std::vector<std::pair<std::string, double>>& values) {
          OnSceneEdited(values);
        }});
  } catch (const std::exception& e) {
    scene_error_ = tr("3D view: %1").arg(QString::fromStdString(e.what()));
    ShowError(scene_error_, false);
  }
  scene_view_->SetScene(std::move(scene));
  scene_view_->SetMessage(scene_error_);

  // The scenario's plots, and the hidden-constraint residuals if the algorithm found any.
  dirac::PlotSpec hidden{"Hidden-constraint residuals",
                         model->ColumnsOfKind(dirac::ColumnKind::kHiddenConstraintResidual),
                         {}};
  if (!hidden.series.empty()) {
    std::vector<dirac::PlotSpec> plots = scenario.plots;
    plots.push_back(std::move(hidden));
    plot_panel_->SetPlots(plots, scenario.simulation.t_end);
  }

  // The constraint chain (shown when there is one); the model's initial values, free or not.
  constraint_panel_->SetModel(model.get(), scenario);
  constraint_dock_->setVisible(constraint_panel_->has_chain());
  parameter_panel_->SetModel(*model, scenario);
  actions_.gauge->setEnabled(SupportsGaugeTwoForm(model.get()));
  UpdateGaugeTwoForm();

  if (const SnapshotPtr latest = controller_->latest()) {
    scene_view_->SetSnapshot(latest);
    scene_view_->SetTime(clock_->time());
    plot_panel_->SetTrajectory(latest->trajectory);
    plot_panel_->SetCursorTime(clock_->time());
  }
  status_->SetDiagnostics(controller_->solves() ? tr("solving…") : tr("simulating…"));
}

void MainWindow::OnSnapshot(const SnapshotPtr& snapshot) {
  const bool answers_edit =
      snapshot->complete && edit_timer_.isValid() && snapshot->run > edit_run_;
  auto since_edit = [this] { return static_cast<double>(edit_timer_.nsecsElapsed()) * 1e-6; };
  EditTimes times;
  if (answers_edit) times.arrived = since_edit();
  plot_panel_->SetTimeSpan(snapshot->t_end);
  plot_panel_->SetTrajectory(snapshot->trajectory);
  plot_panel_->SetCursorTime(clock_->time());
  if (answers_edit) times.plots = since_edit() - times.arrived;
  clock_->SetSpan(snapshot->t_end);
  clock_->SetAvailable(snapshot->complete ? snapshot->t_end : snapshot->last_time());
  scene_view_->SetSnapshot(snapshot);
  scene_view_->SetTime(clock_->time());
  // Follow the first run as it grows; afterwards refit to each finished run unless the user has
  // placed the camera.
  if (!camera_fitted_) {
    scene_view_->ResetCamera();
    camera_fitted_ = snapshot->complete;
  } else if (snapshot->complete) {
    scene_view_->FitCameraUnlessUserMoved();
  }
  if (snapshot->complete) {
    ClearError();
    if (!snapshot->comparison_error.empty())
      ShowError(QString::fromStdString(snapshot->comparison_error), false);
  }
  status_->ShowRun(*snapshot);
  toolbar_->Refresh();
  if (answers_edit) {
    times.scene = since_edit() - times.arrived - times.plots;
    // Draw now (not at the next turn of the event loop) so the latency covers the drawing.
    scene_view_->RenderFast();
    times.render = since_edit() - times.arrived - times.plots - times.scene;
    plot_panel_->repaint();
    last_edit_latency_ms_ = since_edit();
    times.paint = last_edit_latency_ms_ - times.arrived - times.plots - times.scene - times.render;
    last_edit_times_ = times;
    edit_timer_.invalidate();
    emit editDrawn(last_edit_latency_ms_);
  }
}

QString MainWindow::solve_status_text() const {
  return SolveStatusText(controller_->solve_status());
}

void MainWindow::OnSolveStatus() {
  const SolveStatus& status = controller_->solve_status();
  status_->ShowSolve(status);
  QString note;
  if (status.stale) {
    note = status.state == SolveStatus::State::kFailed ? tr("stale: the solve failed")
                                                       : tr("stale: re-solving");
  } else if (status.state == SolveStatus::State::kFailed && status.showing_guess) {
    note = tr("not solved: initial guess");
  }
  plot_panel_->SetNote(note);
}

void MainWindow::OnFailed(const QString& message) {
  const bool derivation_failed = !controller_->model();
  ShowError(message, derivation_failed);
  if (derivation_failed) constraint_panel_->ShowMessage(tr("No model: %1").arg(message));
  status_->SetDiagnostics(derivation_failed ? tr("no model") : tr("run failed"));
}

void MainWindow::OnValueEdited(const QString& name, double value) {
  edit_run_ = controller_->latest() ? controller_->latest()->run : 0;
  edit_timer_.start();
  if (!controller_->SetValue(name, value)) return;
  AfterEdit(name, value);
}

void MainWindow::OnBoundaryFreed(const QString& name) {
  edit_run_ = controller_->latest() ? controller_->latest()->run : 0;
  edit_timer_.start();
  if (!controller_->SetBoundaryValue(name, std::nullopt)) return;
  AfterEdit(name, 0.0);
}

void MainWindow::OnSceneEdited(const std::vector<std::pair<std::string, double>>& values) {
  edit_run_ = controller_->latest() ? controller_->latest()->run : 0;
  edit_timer_.start();
  std::vector<std::pair<QString, double>> list;
  for (const auto& [name, value] : values) list.emplace_back(QString::fromStdString(name), value);
  if (!controller_->SetValues(list)) return;
  parameter_panel_->SyncBoundaryValues(controller_->scenario());
  scene_view_->SetScenarioValues(controller_->scenario());
}

void MainWindow::AfterEdit(const QString& name, double value) {
  if (name == "t_end" || name == "horizon") {
    // With an optimal_control block they are the one T.
    parameter_panel_->SyncValue(name == "t_end" ? "horizon" : "t_end", value);
    clock_->SetSpan(value);
    plot_panel_->SetTimeSpan(value);
    toolbar_->Refresh();
  }
  scene_view_->SetScenarioValues(controller_->scenario());
}

void MainWindow::OnTimeChanged(double t) {
  scene_view_->SetTime(t);
  plot_panel_->SetCursorTime(t);
}

}  // namespace dirac::ui
