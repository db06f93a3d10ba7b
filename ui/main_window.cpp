#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QWindow>

#include <algorithm>
#include <cmath>
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
#include "plot_panel.hpp"
#include "scene_view.hpp"
#include "simulation_controller.hpp"

namespace dirac::ui {
namespace {

constexpr int kSliderResolution = 10000;
constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};
constexpr int kDefaultSpeedIndex = 3;

QString FormatSeconds(double t) { return QString::number(t, 'f', t < 100 ? 3 : 1); }

// The plots of the gauge two-form (columns of dirac::ComputeGaugeTwoForm).
std::vector<dirac::PlotSpec> GaugePlots() {
  return {{"Gauge two-form B_t", {"B_norm", "omega_change"}, {}},
          {"Identity residual |phi_t* Omega - Omega - B_t|", {"identity_residual"}, {}}};
}

double ColumnMax(const dirac::Trajectory& trajectory, const std::string& column) {
  double m = 0.0;
  if (!trajectory.FindColumn(column)) return m;
  for (double v : trajectory.Column(column)) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("mainWindow");
  setWindowTitle(tr("Dirac Studio"));
  controller_ = new SimulationController(this);
  clock_ = new PlaybackClock(this);

  scene_view_ = new SceneView(this);
  setCentralWidget(scene_view_);

  BuildActions();
  BuildToolBar();
  BuildDocks();
  BuildStatusBar();

  connect(controller_, &SimulationController::modelReady, this, &MainWindow::OnModelReady);
  connect(controller_, &SimulationController::snapshotReady, this, &MainWindow::OnSnapshot);
  connect(controller_, &SimulationController::failed, this, &MainWindow::OnFailed);
  connect(controller_, &SimulationController::gaugeReady, this, &MainWindow::OnGauge);
  connect(controller_, &SimulationController::busyChanged, this, &MainWindow::OnBusyChanged);
  connect(parameter_panel_, &ParameterPanel::valueChanged, this, &MainWindow::OnValueEdited);
  connect(clock_, &PlaybackClock::timeChanged, this, &MainWindow::OnTimeChanged);
  connect(clock_, &PlaybackClock::playingChanged, this, &MainWindow::UpdatePlayAction);
}

MainWindow::~MainWindow() = default;

void MainWindow::BuildActions() {
  QStyle* s = style();
  open_action_ =
      new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open scenario…"), this);
  open_action_->setObjectName("action.open");
  open_action_->setShortcut(QKeySequence::Open);
  connect(open_action_, &QAction::triggered, this, &MainWindow::OpenScenarioDialog);

  export_action_ =
      new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export CSV…"), this);
  export_action_->setObjectName("action.exportCsv");
  export_action_->setShortcut(tr("Ctrl+E"));
  connect(export_action_, &QAction::triggered, this, &MainWindow::ExportCsvDialog);

  save_scenario_action_ = new QAction(tr("Save scenario &as…"), this);
  save_scenario_action_->setObjectName("action.saveScenario");
  save_scenario_action_->setShortcut(QKeySequence::SaveAs);
  connect(save_scenario_action_, &QAction::triggered, this, &MainWindow::SaveScenarioDialog);

  screenshot_action_ = new QAction(tr("Save &screenshot…"), this);
  screenshot_action_->setObjectName("action.screenshot");
  connect(screenshot_action_, &QAction::triggered, this, &MainWindow::SaveScreenshotDialog);

  quit_action_ = new QAction(tr("&Quit"), this);
  quit_action_->setObjectName("action.quit");
  quit_action_->setShortcut(QKeySequence::Quit);
  connect(quit_action_, &QAction::triggered, this, &QWidget::close);

  play_action_ = new QAction(this);
  play_action_->setObjectName("action.play");
  play_action_->setShortcut(Qt::Key_Space);
  connect(play_action_, &QAction::triggered, clock_, &PlaybackClock::TogglePlay);
  UpdatePlayAction(false);

  step_action_ = new QAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"), this);
  step_action_->setObjectName("action.step");
  step_action_->setToolTip(tr("Advance one sample"));
  step_action_->setShortcut(tr("Ctrl+Right"));  // plain arrows belong to sliders and fields
  connect(step_action_, &QAction::triggered, clock_, &PlaybackClock::Step);

  reset_action_ = new QAction(s->standardIcon(QStyle::SP_MediaSkipBackward), tr("&Reset"), this);
  reset_action_->setObjectName("action.reset");
  reset_action_->setToolTip(tr("Back to t = 0"));
  reset_action_->setShortcut(tr("Ctrl+Home"));
  connect(reset_action_, &QAction::triggered, clock_, &PlaybackClock::Reset);

  restart_action_ =
      new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("Re&run simulation"), this);
  restart_action_->setObjectName("action.rerun");
  restart_action_->setShortcut(QKeySequence::Refresh);
  connect(restart_action_, &QAction::triggered, controller_, &SimulationController::Restart);

  cancel_action_ =
      new QAction(s->standardIcon(QStyle::SP_BrowserStop), tr("&Cancel simulation"), this);
  cancel_action_->setObjectName("action.cancel");
  cancel_action_->setEnabled(false);
  connect(cancel_action_, &QAction::triggered, controller_, &SimulationController::Cancel);

  reset_camera_action_ = new QAction(tr("Reset &camera"), this);
  reset_camera_action_->setObjectName("action.resetCamera");
  reset_camera_action_->setShortcut(tr("Ctrl+R"));
  connect(reset_camera_action_, &QAction::triggered, scene_view_, &SceneView::ResetCamera);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->setObjectName("menu.file");
  file->addAction(open_action_);
  file->addAction(save_scenario_action_);
  file->addAction(export_action_);
  file->addAction(screenshot_action_);
  file->addSeparator();
  file->addAction(quit_action_);

  QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
  simulation->setObjectName("menu.simulation");
  simulation->addAction(play_action_);
  simulation->addAction(step_action_);
  simulation->addAction(reset_action_);
  simulation->addSeparator();
  simulation->addAction(restart_action_);
  simulation->addAction(cancel_action_);

  compare_action_ = new QAction(tr("Compare with &nonholonomic motion"), this);
  compare_action_->setObjectName("compare.nonholonomic");
  compare_action_->setCheckable(true);
  compare_action_->setEnabled(false);
  compare_action_->setToolTip(
      tr("Also simulate this vakonomic scenario as a nonholonomic (Lagrange–Dirac) system from "
         "the same initial point and draw it in magenta"));
  connect(compare_action_, &QAction::toggled, this, &MainWindow::UpdateComparison);

  gauge_action_ = new QAction(tr("&Gauge two-form"), this);
  gauge_action_->setObjectName("action.gaugeTwoForm");
  gauge_action_->setCheckable(true);
  gauge_action_->setEnabled(false);
  gauge_action_->setToolTip(
      tr("Also compute the gauge two-form B_t of the nonholonomic flow (phi_t* Omega = Omega + "
         "B_t on the constraint manifold) and plot |B_t| and the identity's residual"));
  connect(gauge_action_, &QAction::toggled, this, &MainWindow::UpdateGaugeTwoForm);

  view_menu_ = menuBar()->addMenu(tr("&View"));
  view_menu_->setObjectName("menu.view");
  view_menu_->addAction(reset_camera_action_);
  view_menu_->addAction(compare_action_);
  view_menu_->addAction(gauge_action_);
  view_menu_->addSeparator();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->setObjectName("menu.help");
  help->addAction(tr("&About Dirac Studio"), this, [this] {
    QMessageBox::about(this, tr("About Dirac Studio"),
                       tr("<b>Dirac Studio</b> %1<br>A workbench for constrained geometric "
                          "mechanics: Lagrange–Dirac and vakonomic systems derived from the "
                          "scenario's Lagrangian and constraints, run through the "
                          "Gotay–Nester–Hinds constraint algorithm when degenerate, and "
                          "integrated with SUNDIALS IDAS.")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::BuildToolBar() {
  QToolBar* bar = addToolBar(tr("Playback"));
  bar->setObjectName("toolbar.playback");
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(open_action_);
  bar->addSeparator();
  bar->addAction(play_action_);
  bar->addAction(step_action_);
  bar->addAction(reset_action_);
  bar->addSeparator();

  auto* speed_label = new QLabel(tr(" Speed "), bar);
  bar->addWidget(speed_label);
  speed_ = new QComboBox(bar);
  speed_->setObjectName("playback.speed");
  speed_->setToolTip(tr("Simulated seconds per second"));
  for (double v : kSpeeds) speed_->addItem(QStringLiteral("%1×").arg(v), v);
  speed_->setCurrentIndex(kDefaultSpeedIndex);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { clock_->SetSpeed(speed_->itemData(i).toDouble()); });
  bar->addWidget(speed_);
  bar->addSeparator();

  time_slider_ = new QSlider(Qt::Horizontal, bar);
  time_slider_->setObjectName("playback.slider");
  time_slider_->setRange(0, kSliderResolution);
  time_slider_->setToolTip(tr("Scrub through time"));
  time_slider_->setMinimumWidth(240);
  connect(time_slider_, &QSlider::valueChanged, this, [this](int v) {
    clock_->SetTime(clock_->span() * static_cast<double>(v) / kSliderResolution);
  });
  bar->addWidget(time_slider_);
  time_label_ = new QLabel(bar);
  time_label_->setObjectName("playback.time");
  time_label_->setMinimumWidth(150);
  time_label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  QFont mono = time_label_->font();
  mono.setFamily("monospace");
  mono.setStyleHint(QFont::TypeWriter);
  time_label_->setFont(mono);
  bar->addWidget(time_label_);
  bar->addSeparator();
  bar->addAction(restart_action_);
  bar->addAction(cancel_action_);
  bar->addSeparator();
  bar->addAction(compare_action_);
  compare_action_->setVisible(false);  // shown for scenarios it applies to
  UpdateTimeWidgets();
}

void MainWindow::BuildDocks() {
  parameter_panel_ = new ParameterPanel();
  auto* scroll = new QScrollArea();
  scroll->setObjectName("parameterScroll");
  scroll->setWidget(parameter_panel_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  parameter_dock_ = new QDockWidget(tr("Scenario"), this);
  parameter_dock_->setObjectName("dock.parameters");
  parameter_dock_->setWidget(scroll);
  parameter_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  parameter_dock_->setMinimumWidth(300);
  addDockWidget(Qt::LeftDockWidgetArea, parameter_dock_);

  plot_panel_ = new PlotPanel();
  plot_dock_ = new QDockWidget(tr("Plots"), this);
  plot_dock_->setObjectName("dock.plots");
  plot_dock_->setWidget(plot_panel_);
  plot_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  plot_dock_->setMinimumWidth(460);
  addDockWidget(Qt::RightDockWidgetArea, plot_dock_);

  // The chain goes under the 3D view; the side docks keep the full height.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  constraint_panel_ = new ConstraintPanel();
  constraint_dock_ = new QDockWidget(tr("Constraints"), this);
  constraint_dock_->setObjectName("dock.constraints");
  constraint_dock_->setWidget(constraint_panel_);
  constraint_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                                QDockWidget::DockWidgetClosable);
  constraint_dock_->setMinimumHeight(160);
  addDockWidget(Qt::BottomDockWidgetArea, constraint_dock_);
  resizeDocks({constraint_dock_}, {340}, Qt::Vertical);
  constraint_dock_->setVisible(false);  // shown for models with a constraint chain

  for (QDockWidget* dock : {parameter_dock_, plot_dock_, constraint_dock_}) {
    QAction* toggle = dock->toggleViewAction();
    toggle->setObjectName("action.show." + dock->objectName().section('.', 1));
    view_menu_->addAction(toggle);
  }
}

void MainWindow::BuildStatusBar() {
  error_label_ = new QLabel(this);
  error_label_->setObjectName("status.error");
  error_label_->setStyleSheet("color: #c0392b; font-weight: bold;");
  error_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  diagnostics_label_ = new QLabel(this);
  diagnostics_label_->setObjectName("status.diagnostics");
  progress_ = new QProgressBar(this);
  progress_->setObjectName("status.progress");
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->setVisible(false);
  statusBar()->setObjectName("statusBar");
  statusBar()->addWidget(error_label_, 1);
  statusBar()->addPermanentWidget(diagnostics_label_);
  statusBar()->addPermanentWidget(progress_);
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
  parameter_panel_->SetModelDescription(QString());
  constraint_panel_->ShowMessage(tr("Deriving the model…"));
  gauge_action_->setEnabled(false);  // until the model shows whether it applies
  plot_panel_->SetAuxiliaryPlots({});
  plot_panel_->SetPlots(scenario.plots, scenario.simulation.t_end);
  QString name = QString::fromStdString(scenario.name);
  if (name.isEmpty()) name = QFileInfo(path).completeBaseName();
  setWindowTitle(tr("%1 — Dirac Studio").arg(name));
  diagnostics_label_->setText(tr("deriving equations…"));
  const bool vakonomic = scenario.formulation == dirac::Formulation::kVakonomic;
  controller_->LoadScenario(std::move(scenario));
  parameter_panel_->SetScenario(controller_->scenario());
  compare_action_->setEnabled(vakonomic);
  compare_action_->setVisible(vakonomic);
  UpdateComparison();
  UpdateTimeWidgets();
  return true;
}

void MainWindow::SetCompare(bool enabled) { compare_action_->setChecked(enabled); }

void MainWindow::UpdateComparison() {
  const bool applies = controller_->has_scenario() &&
                       controller_->scenario().formulation == dirac::Formulation::kVakonomic;
  controller_->SetComparison(applies && compare_action_->isChecked()
                                 ? std::optional(dirac::Formulation::kLagrangeDirac)
                                 : std::nullopt);
}

void MainWindow::SetGaugeTwoForm(bool enabled) { gauge_action_->setChecked(enabled); }

void MainWindow::UpdateGaugeTwoForm() {
  // The controller computes it only for models it applies to, so the choice may stay on while
  // a scenario loads: a model that supports it then gets it in its first run.
  controller_->SetGaugeTwoForm(gauge_action_->isChecked());
  const bool shown = gauge_action_->isChecked() && SupportsGaugeTwoForm(controller_->model().get());
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
  if (!result->error.empty()) {
    ShowError(tr("Gauge two-form: %1").arg(QString::fromStdString(result->error)), false);
    diagnostics_label_->setText(diagnostics_label_->text().replace(tr("computing gauge two-form…"),
                                                                   tr("gauge two-form failed")));
    return;
  }
  diagnostics_label_->setText(diagnostics_label_->text().replace(
      tr("computing gauge two-form…"),
      tr("max |B_t| %1, identity residual %2 (%3 s)")
          .arg(ColumnMax(*result->trajectory, "B_norm"), 0, 'e', 2)
          .arg(ColumnMax(*result->trajectory, "identity_residual"), 0, 'e', 2)
          .arg(result->wall_seconds, 0, 'f', 2)));
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
  const QString suggestion = scenario_path_.isEmpty()
                                 ? QStringLiteral("scenario.yaml")
                                 : QFileInfo(scenario_path_).completeBaseName() + "_tweaked.yaml";
  const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), suggestion,
                                                    tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) SaveScenarioAs(path);
}

void MainWindow::ExportCsvDialog() {
  const QString suggestion = scenario_path_.isEmpty()
                                 ? QStringLiteral("trajectory.csv")
                                 : QFileInfo(scenario_path_).completeBaseName() + ".csv";
  const QString path = QFileDialog::getSaveFileName(this, tr("Export trajectory"), suggestion,
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
  error_label_->setText(QString(message).replace('\n', ' '));
  error_label_->setToolTip(message);
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
  error_label_->clear();
  error_label_->setToolTip(QString());
  // A scene that cannot be drawn stays reported while its scenario is loaded.
  if (!scene_error_.isEmpty()) ShowError(scene_error_, false);
}

void MainWindow::OnModelReady() {
  const std::shared_ptr<const dirac::Model> model = controller_->model();
  const dirac::Scenario& scenario = controller_->scenario();
  std::unique_ptr<SceneBuilder> scene;
  try {
    scene = scenes_.Create(SceneContext{scenario, model});
  } catch (const std::exception& e) {
    scene_error_ = tr("3D view: %1").arg(QString::fromStdString(e.what()));
    ShowError(scene_error_, false);
  }
  scene_view_->SetScene(std::move(scene));
  scene_view_->SetMessage(scene_error_);

  // The scenario's plots, and the hidden-constraint residuals if the algorithm found any.
  std::vector<dirac::PlotSpec> plots = scenario.plots;
  dirac::PlotSpec hidden{"Hidden-constraint residuals", {}, {}};
  for (const std::string& column : model->TrajectoryColumns()) {
    if (column.rfind("residual_hidden", 0) == 0) hidden.series.push_back(column);
  }
  if (!hidden.series.empty()) {
    plots.push_back(hidden);
    plot_panel_->SetPlots(plots, scenario.simulation.t_end);
  }

  // The constraint chain (shown when there is one) and what it fixes.
  constraint_panel_->SetModel(model.get(), scenario);
  constraint_dock_->setVisible(constraint_panel_->has_chain());
  parameter_panel_->SetModelDescription(
      tr("Model: %1").arg(QString::fromStdString(model->formulation())));
  QHash<QString, QString> fixed;
  if (const dirac::ConstraintChain* chain = model->constraint_chain()) {
    for (const auto& [name, equation] : EliminatedCoordinates(*chain)) {
      fixed.insert(QString::fromStdString(name),
                   tr("Fixed on M_f by the constraint algorithm: %1 (not a free initial "
                      "condition)")
                       .arg(QString::fromStdString(equation)));
    }
    // Scenario symbols that are no coordinates of M_0 (e.g. the constrained velocities of a
    // vakonomic problem, M_0 = T*Q x_Q M) are not initial conditions of this model either.
    const std::vector<std::string>& z = chain->coordinates;
    auto is_coordinate = [&z](const std::string& name) {
      return std::find(z.begin(), z.end(), name) != z.end();
    };
    for (const dirac::Coordinate& c : scenario.coordinates) {
      std::vector<std::string> symbols{c.name, c.velocity};
      if (scenario.formulation == dirac::Formulation::kVakonomic) symbols.push_back(c.momentum);
      for (const std::string& symbol : symbols) {
        const QString name = QString::fromStdString(symbol);
        if (!is_coordinate(symbol) && !fixed.contains(name)) {
          fixed.insert(name, tr("%1 is not a coordinate of M_0 in this formulation: the "
                                "constraints determine it")
                                 .arg(name));
        }
      }
    }
  }
  parameter_panel_->MarkFixed(fixed);
  gauge_action_->setEnabled(SupportsGaugeTwoForm(model.get()));
  UpdateGaugeTwoForm();

  if (const SnapshotPtr latest = controller_->latest()) {
    scene_view_->SetSnapshot(latest);
    scene_view_->SetTime(clock_->time());
    plot_panel_->SetTrajectory(latest->trajectory);
    plot_panel_->SetCursorTime(clock_->time());
  }
  diagnostics_label_->setText(tr("simulating…"));
}

void MainWindow::OnSnapshot(const SnapshotPtr& snapshot) {
  plot_panel_->SetTimeSpan(snapshot->t_end);
  plot_panel_->SetTrajectory(snapshot->trajectory);
  clock_->SetSpan(snapshot->t_end);
  clock_->SetAvailable(snapshot->complete ? snapshot->t_end : snapshot->last_time());
  scene_view_->SetSnapshot(snapshot);
  scene_view_->SetTime(clock_->time());
  plot_panel_->SetCursorTime(clock_->time());
  // Follow the first run as it grows; afterwards refit to each finished run unless the user has
  // placed the camera.
  if (!camera_fitted_) {
    scene_view_->ResetCamera();
    camera_fitted_ = snapshot->complete;
  } else if (snapshot->complete) {
    scene_view_->FitCameraUnlessUserMoved();
  }
  progress_->setValue(snapshot->t_end > 0
                          ? static_cast<int>(1000 * snapshot->last_time() / snapshot->t_end)
                          : 1000);
  if (snapshot->complete) {
    ClearError();
    if (!snapshot->comparison_error.empty())
      ShowError(QString::fromStdString(snapshot->comparison_error), false);
    const dirac::SimulationReport& r = snapshot->report;
    QString text = tr("max |constraint residual| %1   ·   max |E − E₀| %2   ·   "
                      "%3 samples   ·   %4 s")
                       .arg(r.max_constraint_residual, 0, 'e', 2)
                       .arg(r.max_energy_drift, 0, 'e', 2)
                       .arg(snapshot->trajectory->num_rows())
                       .arg(snapshot->wall_seconds, 0, 'f', 2);
    if (snapshot->comparison) {
      text += tr("   ·   compared with %1").arg(QString::fromStdString(snapshot->comparison_label));
    }
    if (snapshot->gauge_pending) text += tr("   ·   computing gauge two-form…");
    diagnostics_label_->setText(text);
    diagnostics_label_->setToolTip(tr("initial energy %1, %2 internal steps, initial velocity "
                                      "projection %3")
                                       .arg(r.initial_energy, 0, 'g', 10)
                                       .arg(r.internal_steps)
                                       .arg(r.initial_projection, 0, 'e', 2));
  } else {
    diagnostics_label_->setText(
        tr("simulating… t = %1 s").arg(FormatSeconds(snapshot->last_time())));
  }
  UpdateTimeWidgets();
}

void MainWindow::OnFailed(const QString& message) {
  const bool derivation_failed = !controller_->model();
  ShowError(message, derivation_failed);
  if (derivation_failed) constraint_panel_->ShowMessage(tr("No model: %1").arg(message));
  diagnostics_label_->setText(derivation_failed ? tr("no model") : tr("run failed"));
}

void MainWindow::OnValueEdited(const QString& name, double value) {
  if (!controller_->SetValue(name, value)) return;
  if (name == "t_end") {
    clock_->SetSpan(value);
    plot_panel_->SetTimeSpan(value);
    UpdateTimeWidgets();
  }
}

void MainWindow::OnTimeChanged(double t) {
  scene_view_->SetTime(t);
  plot_panel_->SetCursorTime(t);
  UpdateTimeWidgets();
}

void MainWindow::OnBusyChanged(bool busy) {
  progress_->setVisible(busy);
  cancel_action_->setEnabled(busy);
  if (busy) progress_->setValue(0);
}

void MainWindow::UpdateTimeWidgets() {
  const double span = clock_->span();
  const double t = clock_->time();
  {
    const QSignalBlocker block(time_slider_);
    time_slider_->setValue(span > 0 ? static_cast<int>(std::lround(t / span * kSliderResolution))
                                    : 0);
  }
  time_label_->setText(tr("t = %1 / %2 s").arg(FormatSeconds(t), FormatSeconds(span)));
}

void MainWindow::UpdatePlayAction(bool playing) {
  play_action_->setIcon(
      style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  play_action_->setText(playing ? tr("&Pause") : tr("&Play"));
  play_action_->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

}  // namespace dirac::ui
