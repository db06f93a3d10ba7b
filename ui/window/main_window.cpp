#include "window/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QUrl>
#include <QWindow>

#include <charconv>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario.hpp"
#include "panels/constraint_panel.hpp"
#include "panels/parameter_panel.hpp"
#include "panels/scenario_browser.hpp"
#include "plots/column_units.hpp"
#include "plots/plot_panel.hpp"
#include "run/boundary_values.hpp"
#include "run/playback_clock.hpp"
#include "run/run_budget.hpp"
#include "run/simulation_controller.hpp"
#include "run/symbolic_lock.hpp"
#include "scenes/scene_view.hpp"
#include "window/playback_toolbar.hpp"
#include "window/studio_application.hpp"
#include "window/workbench_status_bar.hpp"

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

// Columns of a run of `scenario`: the model's, else a guess from the scenario (t, q, v, a
// multiplier and a residual per constraint, the energy).
std::size_t ColumnCount(const dirac::Model* model, const dirac::Scenario& scenario) {
  if (model) return model->columns().size();
  return 2 + 2 * scenario.coordinates.size() + 2 * scenario.constraints.size() +
         scenario.algebroid.fibre.size();
}

QString BudgetExplanation(double t_end, double output_step, std::size_t columns,
                          const RunBudget& b) {
  return QObject::tr(
             "t_end = %1 s at output step %2 s: %3 samples × %4 columns ≈ %5, over the "
             "bound of %6 (%7 samples)")
      .arg(t_end, 0, 'g', 6)
      .arg(output_step, 0, 'g', 6)
      .arg(FormatCount(b.samples))
      .arg(columns)
      .arg(FormatBytes(b.bytes), FormatBytes(kMaxStoredTrajectoryBytes))
      .arg(FormatCount(b.max_samples));
}

// The shortest text that reads back as the same double (std::to_chars).
QString Shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return QString::fromLatin1(buffer, static_cast<int>(result.ptr - buffer));
}

constexpr int kMaxRecentFiles = 10;

bool IsScenarioFile(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == "yaml" || suffix == "yml";
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
  BuildMenuBar(
      *menuBar(), actions_, {parameter_dock_, plot_dock_, constraint_dock_}, this,
      [this] { return recent_files(); }, [this](const QString& path) { OpenScenario(path); });
  InstallWindowShortcuts(*this, actions_);
  setAcceptDrops(true);
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
  connect(plot_panel_, &PlotPanel::seekRequested, clock_, &PlaybackClock::SetTime);
  connect(plot_panel_, &PlotPanel::pinRequested, this, [this] { PinCurrentRun(); });
  connect(plot_panel_, &PlotPanel::unpinRequested, this, &MainWindow::ClearPinnedRun);
  connect(plot_panel_, &PlotPanel::errorOccurred, this,
          [this](const QString& message) { ShowError(message, false); });
  budget_label_ = new QLabel(this);
  budget_label_->setObjectName("status.budget");
  status_->addPermanentWidget(budget_label_);
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

  // The charts keep a minimum height; the dock scrolls when they do not fit.
  plot_panel_ = new PlotPanel();
  auto* plot_scroll = new QScrollArea();
  plot_scroll->setObjectName("plotScroll");
  plot_scroll->setWidget(plot_panel_);
  plot_scroll->setWidgetResizable(true);
  plot_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  plot_scroll->setFrameShape(QFrame::NoFrame);
  plot_dock_ = MakeDock(this, tr("Plots"), "dock.plots", plot_scroll, false);
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
    // Reading checks every expression with GiNaC: under the symbolic lock, so not while the
    // worker derives or destroys a model (GiNaC's reference counts are not thread-safe).
    std::lock_guard symbolic(SymbolicMutex());
    scenario = dirac::LoadScenario(path.toStdString());
    for (const QString& assignment : overrides)
      dirac::ApplyOverride(scenario, assignment.toStdString());
  } catch (const std::exception& e) {
    ShowError(tr("Cannot open scenario %1:\n%2").arg(path, QString::fromStdString(e.what())), true);
    return false;
  }
  // A run that would store more than the bound stores fewer samples (a coarser output step).
  QString budget_notice;
  {
    const dirac::SimulationSpec& sim = scenario.simulation;
    const std::size_t columns = ColumnCount(nullptr, scenario);
    const RunBudget b = EstimateRun(sim.t_end, sim.output_step, columns);
    if (!b.within) {
      // What was done first: the status bar cuts a long message at its permanent widgets.
      budget_notice = tr("Output step raised to %1 s (stored samples decimated): %2")
                          .arg(b.decimated_step, 0, 'g', 6)
                          .arg(BudgetExplanation(sim.t_end, sim.output_step, columns, b));
      scenario.simulation.output_step = b.decimated_step;
    }
  }
  last_good_.reset();
  stale_ = false;
  run_note_.clear();
  plot_panel_->SetOverlay(PlotPanel::kPinned, nullptr, QString());
  plot_panel_->SetOverlay(PlotPanel::kComparison, nullptr, QString());
  plot_panel_->SetNote(QString());
  plot_panel_->SetColumnQuantities(DescribeColumns(nullptr, scenario));
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
  UpdateBudget();
  if (!budget_notice.isEmpty()) statusBar()->showMessage(budget_notice, 20000);
  AddRecentFile(path);
  return true;
}

QStringList MainWindow::recent_files() const {
  return QSettings().value("files/recent").toStringList();
}

void MainWindow::AddRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList files = recent_files();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  QSettings().setValue("files/recent", files);
}

QString MainWindow::LastFolder() const {
  const QString folder = QSettings().value("files/lastFolder").toString();
  if (!folder.isEmpty() && QFileInfo(folder).isDir()) return folder;
  return scenario_path_.isEmpty() ? ScenarioDirectory() : QFileInfo(scenario_path_).absolutePath();
}

void MainWindow::SetLastFolder(const QString& file_or_folder) {
  const QFileInfo info(file_or_folder);
  QSettings().setValue("files/lastFolder",
                       info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

void MainWindow::RestoreSettings() {
  QSettings settings;
  if (settings.contains("window/geometry"))
    restoreGeometry(settings.value("window/geometry").toByteArray());
  if (settings.contains("window/state")) restoreState(settings.value("window/state").toByteArray());
  if (settings.contains("playback/speed")) {
    const double speed = settings.value("playback/speed").toDouble();
    if (auto* box = findChild<QComboBox*>("playback.speed")) {
      const int index = box->findData(speed);
      if (index >= 0) box->setCurrentIndex(index);
    }
  }
  actions_.loop->setChecked(settings.value("playback/loop", false).toBool());
  settings_restored_ = true;
}

void MainWindow::SaveSettings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("playback/speed", clock_->speed());
  settings.setValue("playback/loop", actions_.loop->isChecked());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (settings_restored_) SaveSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime && mime->hasUrls()) {
    for (const QUrl& url : mime->urls()) {
      if (url.isLocalFile() && IsScenarioFile(url.toLocalFile())) {
        event->acceptProposedAction();
        return;
      }
    }
  }
  event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime || !mime->hasUrls()) return;
  for (const QUrl& url : mime->urls()) {
    if (url.isLocalFile() && IsScenarioFile(url.toLocalFile())) {
      event->acceptProposedAction();
      OpenScenario(url.toLocalFile());
      return;
    }
  }
}

ScenarioBrowser* MainWindow::BrowseScenarios() {
  if (browser_) browser_->close();
  browser_ = new ScenarioBrowser(ScenarioDirectory(), this);
  browser_->setAttribute(Qt::WA_DeleteOnClose);
  connect(browser_, &ScenarioBrowser::scenarioChosen, this,
          [this](const QString& path) { OpenScenario(path); });
  connect(browser_, &QObject::destroyed, this, [this] { browser_ = nullptr; });
  if (!scenario_path_.isEmpty()) browser_->Select(scenario_path_);
  browser_->open();
  return browser_;
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
  scroll_to_gauge_ = shown;
  if (shown) {
    plot_panel_->SetTimeSpan(controller_->scenario().simulation.t_end);
    if (const GaugeResultPtr gauge = controller_->latest_gauge())
      plot_panel_->SetAuxiliaryTrajectory(gauge->trajectory);
    plot_panel_->SetCursorTime(clock_->time());
  }
}

void MainWindow::OnGauge(const GaugeResultPtr& result) {
  if (plot_panel_->auxiliary_plot_count() > 0) {
    plot_panel_->SetAuxiliaryTrajectory(result->trajectory);
    if (scroll_to_gauge_) {
      // Newly turned on: bring its two charts into view (once; the user scrolls after that).
      scroll_to_gauge_ = false;
      ScrollToPlot(plot_panel_->plot_count() - plot_panel_->auxiliary_plot_count());
    }
  }
  if (!result->error.empty())
    ShowError(tr("Gauge two-form: %1").arg(QString::fromStdString(result->error)), false);
  status_->ShowGauge(*result);
}

QString MainWindow::ParameterSidecarPath(const QString& csv_path) {
  const QFileInfo info(csv_path);
  return info.path() + "/" + info.completeBaseName() + ".parameters.yaml";
}

bool MainWindow::ExportCsv(const QString& path, CsvParameters parameters) {
  const SnapshotPtr snapshot = controller_->latest();
  if (!snapshot || !snapshot->trajectory || snapshot->trajectory->empty()) {
    ShowError(tr("Nothing to export yet: no trajectory has been computed."), false);
    return false;
  }
  // The values of this run: its parameters and settings, as "name: value" (valid YAML).
  std::vector<std::string> lines;
  const dirac::Scenario& run =
      snapshot->run_scenario ? *snapshot->run_scenario : controller_->scenario();
  lines.push_back("scenario: " + (run.name.empty() ? std::string("unnamed") : run.name) +
                  (run.source_file.empty() ? std::string() : "  # " + run.source_file));
  for (const dirac::Parameter& p : run.parameters) {
    lines.push_back(p.name + ": " + Shortest(p.value).toStdString() +
                    (p.unit.empty() ? std::string() : "  # " + p.unit));
  }
  // A solve's boundary values (its targets), "free" where the optimum chose them.
  for (const BoundaryValueInfo& info : ListBoundaryValues(run)) {
    if (info.horizon) continue;  // t_end below
    const auto v = GetBoundaryValue(run, info.name);
    lines.push_back(info.name + ": " + (v ? Shortest(*v).toStdString() : std::string("free")) +
                    (info.unit.empty() || !v ? std::string() : "  # " + info.unit));
  }
  for (const char* name : {"t_end", "output_step", "rtol", "atol", "stabilization"}) {
    if (const auto v = dirac::CurrentValue(run, name))
      lines.push_back(std::string(name) + ": " + Shortest(*v).toStdString());
  }
  try {
    if (parameters == CsvParameters::kHeaderComment) {
      dirac::WriteCsv(*snapshot->trajectory, path.toStdString(), lines);
    } else {
      dirac::WriteCsv(*snapshot->trajectory, path.toStdString());
    }
    if (parameters == CsvParameters::kSidecar) {
      QSaveFile sidecar(ParameterSidecarPath(path));
      if (!sidecar.open(QIODevice::WriteOnly | QIODevice::Text))
        throw std::runtime_error("cannot write " + sidecar.fileName().toStdString());
      QByteArray text =
          "# Parameters of the run exported to " + QFileInfo(path).fileName().toUtf8() + "\n";
      for (const std::string& line : lines) text += QByteArray::fromStdString(line) + "\n";
      sidecar.write(text);
      if (!sidecar.commit())
        throw std::runtime_error("cannot write " + sidecar.fileName().toStdString());
    }
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

bool MainWindow::PinCurrentRun() {
  const SnapshotPtr run = last_good_;
  if (!run || !run->trajectory) {
    ShowError(tr("Nothing to pin yet: no run has finished."), false);
    return false;
  }
  plot_panel_->SetOverlay(PlotPanel::kPinned, run->trajectory, tr("pinned"));
  statusBar()->showMessage(tr("Pinned run %1: later runs are drawn over it").arg(run->run), 8000);
  return true;
}

void MainWindow::ClearPinnedRun() {
  plot_panel_->SetOverlay(PlotPanel::kPinned, nullptr, QString());
}

void MainWindow::CancelRun() {
  const bool was_busy = controller_->busy();
  controller_->Cancel();
  if (!was_busy || controller_->solves()) return;  // the solve chip says it for solves
  const SnapshotPtr latest = controller_->latest();
  if (latest && !latest->complete && latest != last_good_) {
    status_->SetDiagnostics(
        tr("cancelled at t = %1 s of %2 s: the partial run is shown")
            .arg(FormatSeconds(latest->last_time()), FormatSeconds(latest->t_end)));
    run_note_ = tr("cancelled: partial run up to t = %1 s").arg(FormatSeconds(latest->last_time()));
  } else if (last_good_) {
    ShowSnapshot(last_good_);
    stale_ = true;
    status_->SetDiagnostics(tr("cancelled: the previous result is shown (stale)"));
    run_note_ = tr("stale: cancelled — showing the previous result");
  } else {
    status_->SetDiagnostics(tr("cancelled before any result"));
    run_note_ = tr("cancelled");
  }
  UpdateNote();
}

QImage MainWindow::GrabWindowImage() {
  scene_view_->RenderNow();
  QScreen* screen = windowHandle() ? windowHandle()->screen() : QApplication::primaryScreen();
  if (!screen) return {};
  return screen->grabWindow(winId()).toImage();
}

void MainWindow::OpenScenarioDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), LastFolder(),
                                                    tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  SetLastFolder(path);
  OpenScenario(path);
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
      this, tr("Save scenario"),
      LastFolder() + "/" + SuggestedName(scenario_path_, "_tweaked.yaml", "scenario.yaml"),
      tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  SetLastFolder(path);
  SaveScenarioAs(path);
}

void MainWindow::ExportCsvDialog() {
  const QString plain = tr("CSV files (*.csv)");
  const QString header = tr("CSV with the parameters in a header comment (*.csv)");
  const QString sidecar = tr("CSV and a .parameters.yaml sidecar file (*.csv)");
  QString filter = plain;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export trajectory"),
      LastFolder() + "/" + SuggestedName(scenario_path_, ".csv", "trajectory.csv"),
      QStringList{plain, header, sidecar}.join(";;"), &filter);
  if (path.isEmpty()) return;
  SetLastFolder(path);
  ExportCsv(path, filter == header    ? CsvParameters::kHeaderComment
                  : filter == sidecar ? CsvParameters::kSidecar
                                      : CsvParameters::kNone);
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

  // The scenario's plots, and the hidden-constraint residuals if the algorithm found any;
  // axes with the units and kinds of the model's columns.
  plot_panel_->SetColumnQuantities(DescribeColumns(model.get(), scenario));
  dirac::PlotSpec hidden{"Hidden-constraint residuals",
                         model->ColumnsOfKind(dirac::ColumnKind::kHiddenConstraintResidual),
                         {}};
  std::vector<dirac::PlotSpec> plots = scenario.plots;
  if (!hidden.series.empty()) plots.push_back(std::move(hidden));
  plot_panel_->SetPlots(plots, scenario.simulation.t_end);
  UpdateBudget();

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

void MainWindow::ShowSnapshot(const SnapshotPtr& snapshot) {
  plot_panel_->SetTimeSpan(snapshot->t_end);
  plot_panel_->SetTrajectory(snapshot->trajectory);
  clock_->SetSpan(snapshot->t_end);
  clock_->SetAvailable(snapshot->complete ? snapshot->t_end : snapshot->last_time());
  scene_view_->SetSnapshot(snapshot);
  scene_view_->SetTime(clock_->time());
  plot_panel_->SetCursorTime(clock_->time());
  toolbar_->Refresh();  // "t = … / <the shown run's final time>"
}

void MainWindow::OnSnapshot(const SnapshotPtr& snapshot) {
  const bool answers_edit =
      snapshot->complete && edit_timer_.isValid() && snapshot->run > edit_run_;
  auto since_edit = [this] { return static_cast<double>(edit_timer_.nsecsElapsed()) * 1e-6; };
  EditTimes times;
  if (answers_edit) times.arrived = since_edit();
  if (snapshot->complete) {
    // Compare's other formulation, drawn dashed in the plots (as in 3D, in magenta).
    plot_panel_->SetOverlay(PlotPanel::kComparison, snapshot->comparison,
                            snapshot->comparison ? tr("nonholonomic") : QString());
    last_good_ = snapshot;
    stale_ = false;
    run_note_.clear();
    scene_view_->SetMessage(scene_error_);
    UpdateNote();
  }
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
  if (answers_edit) {
    times.scene = since_edit() - times.arrived;
    // Draw now (not at the next turn of the event loop) so the latency covers the drawing: the
    // 3D frame renders on the view's render thread while this thread fills the charts.
    scene_view_->StartFastFrame();
  }
  const double plots_start = answers_edit ? since_edit() : 0.0;
  plot_panel_->SetTimeSpan(snapshot->t_end);
  plot_panel_->SetTrajectory(snapshot->trajectory);
  plot_panel_->SetCursorTime(clock_->time());
  if (answers_edit) times.plots = since_edit() - plots_start;
  if (snapshot->complete) {
    ClearError();
    if (!snapshot->comparison_error.empty())
      ShowError(QString::fromStdString(snapshot->comparison_error), false);
  }
  status_->ShowRun(*snapshot);
  toolbar_->Refresh();
  if (answers_edit) {
    // The charts (laid out now, not at the next turn of the event loop) are painted and put on
    // screen while the 3D frame is still rendering on its thread; then the 3D view alone. The
    // charts' scenes take in their items' changes without painting them a second time.
    const double waited_from = since_edit();
    plot_panel_->LayOutNow();
    plot_panel_->repaint();
    plot_panel_->AbsorbPaintedChanges();
    scene_view_->FinishFrame();
    last_edit_latency_ms_ = since_edit();
    times.render = scene_view_->last_render_ms();
    times.paint = last_edit_latency_ms_ - waited_from;
    last_edit_times_ = times;
    edit_timer_.invalidate();
    emit editDrawn(last_edit_latency_ms_);
  }
}

QString MainWindow::solve_status_text() const {
  return SolveStatusText(controller_->solve_status());
}

void MainWindow::OnSolveStatus() {
  status_->ShowSolve(controller_->solve_status());
  UpdateNote();
}

void MainWindow::UpdateNote() {
  QString note = run_note_;
  if (controller_->solves()) {
    const SolveStatus& status = controller_->solve_status();
    if (status.stale) {
      note = status.state == SolveStatus::State::kFailed ? tr("stale: the solve failed")
                                                         : tr("stale: re-solving");
    } else if (status.state == SolveStatus::State::kFailed && status.showing_guess) {
      note = tr("not solved: initial guess");
    }
  }
  plot_panel_->SetNote(note);
}

void MainWindow::OnFailed(const QString& message) {
  const bool derivation_failed = !controller_->model();
  ShowError(message, derivation_failed);
  // Said where the result would be: over the 3D view, and over the plots.
  scene_view_->SetMessage(
      tr("%1\n%2").arg(derivation_failed ? tr("No model:") : tr("The run failed:"), message));
  if (derivation_failed) {
    constraint_panel_->ShowMessage(tr("No model: %1").arg(message));
    status_->SetDiagnostics(tr("no model"));
    run_note_ = tr("no model");
  } else if (last_good_ && last_good_->trajectory) {
    ShowSnapshot(last_good_);  // not the partial run that failed
    stale_ = true;
    run_note_ = tr("stale: the last run failed — showing the previous result");
    status_->SetDiagnostics(tr("run failed — the previous result is shown (stale)"));
  } else if (const SnapshotPtr partial = controller_->latest();
             partial && partial->trajectory && partial->trajectory->num_rows() > 1) {
    // No earlier result, but the failed run streamed samples: they stay shown, and are named.
    run_note_ =
        tr("the run failed: partial run up to t = %1 s").arg(FormatSeconds(partial->last_time()));
    status_->SetDiagnostics(tr("run failed — the partial run is shown"));
  } else {
    run_note_ = tr("no result: the run failed");
    status_->SetDiagnostics(tr("run failed"));
  }
  UpdateNote();
}

void MainWindow::ScrollToPlot(int index) {
  auto* scroll = findChild<QScrollArea*>("plotScroll");
  auto* view = plot_panel_->findChild<QWidget*>(QStringLiteral("plot.%1").arg(index));
  if (!scroll || !view) return;
  plot_panel_->layout()->activate();  // positions of charts added in this turn of the loop
  scroll->verticalScrollBar()->setValue(view->y());
}

QString MainWindow::budget_text() const { return budget_label_->text(); }

void MainWindow::UpdateBudget() {
  if (!controller_->has_scenario()) return;
  const dirac::SimulationSpec& sim = controller_->scenario().simulation;
  const std::size_t columns = ColumnCount(controller_->model().get(), controller_->scenario());
  const RunBudget b = EstimateRun(sim.t_end, sim.output_step, columns);
  budget_label_->setText(
      tr("·   storage ≈ %1 samples, %2").arg(FormatCount(b.samples), FormatBytes(b.bytes)));
  budget_label_->setToolTip(
      tr("Estimated from the final time %1 s and the output step %2 s with %3 columns. Runs "
         "store at most %4 (%5 samples of these columns); longer ones store fewer samples.")
          .arg(sim.t_end, 0, 'g', 6)
          .arg(sim.output_step, 0, 'g', 6)
          .arg(columns)
          .arg(FormatBytes(kMaxStoredTrajectoryBytes))
          .arg(FormatCount(b.max_samples)));
  clock_->SetStepSize(sim.output_step);
}

bool MainWindow::GuardRunLength(const QString& name, double value) {
  const dirac::SimulationSpec& sim = controller_->scenario().simulation;
  const bool step_edit = name == "output_step";
  const double t_end = step_edit ? sim.t_end : value;
  const double step = step_edit ? value : sim.output_step;
  const std::size_t columns = ColumnCount(controller_->model().get(), controller_->scenario());
  const RunBudget b = EstimateRun(t_end, step, columns);
  if (b.within) return controller_->SetValue(name, value);
  if (step_edit) {
    ShowError(tr("Refused: %1. Choose a larger output step or a shorter final time.")
                  .arg(BudgetExplanation(t_end, step, columns, b)),
              false);
    return false;
  }
  // Decimate: store every n-th sample (a coarser output step), and say so.
  if (!controller_->SetValues({{"output_step", b.decimated_step}, {name, value}})) return false;
  // What was done first: the status bar cuts a long message at its permanent widgets.
  statusBar()->showMessage(tr("Output step raised to %1 s (stored samples decimated): %2")
                               .arg(b.decimated_step, 0, 'g', 6)
                               .arg(BudgetExplanation(t_end, step, columns, b)),
                           20000);
  return true;
}

void MainWindow::OnValueEdited(const QString& name, double value) {
  edit_run_ = controller_->latest() ? controller_->latest()->run : 0;
  edit_timer_.start();
  if (name == "t_end" || name == "horizon" || name == "output_step") {
    if (!GuardRunLength(name, value)) {
      parameter_panel_->SyncValue(
          name, dirac::CurrentValue(controller_->scenario(), name.toStdString()).value_or(value));
      return;
    }
  } else if (!controller_->SetValue(name, value)) {
    return;
  }
  AfterEdit(name, value);
  UpdateBudget();
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
