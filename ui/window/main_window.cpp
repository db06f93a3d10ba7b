#include "window/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QWindow>

#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dirac/scenario.hpp"
#include "dirac/symbolic_lock.hpp"
#include "panels/constraint_panel.hpp"
#include "panels/parameter_panel.hpp"
#include "panels/scenario_browser.hpp"
#include "plots/chart_export.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_menu.hpp"
#include "scenes/scene_view.hpp"
#include "window/compare_reaction.hpp"
#include "window/constraints_reaction.hpp"
#include "window/edit_history.hpp"
#include "window/edit_router.hpp"
#include "window/gauge_view.hpp"
#include "window/playback_toolbar.hpp"
#include "window/scenario_drops.hpp"
#include "window/scenario_reload.hpp"
#include "window/session_reaction.hpp"
#include "window/shown_result.hpp"
#include "window/solve_chip.hpp"
#include "window/stability_dock.hpp"
#include "window/studio_application.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

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

// A scroll area around `widget` that resizes it, without a frame.
QScrollArea* MakeScroll(const char* name, QWidget* widget) {
  auto* scroll = new QScrollArea();
  scroll->setObjectName(name);
  scroll->setWidget(widget);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("mainWindow");
  setWindowTitle(tr("Dirac Studio"));
  controller_ = new SimulationController(this);
  // The one owner of the moments the behaviours below subscribe to (each connects itself).
  state_ = new WorkbenchState(controller_, this);
  clock_ = new PlaybackClock(this);
  scene_view_ = new SceneView(this);
  setCentralWidget(scene_view_);
  new SceneMenu(scene_view_);  // the scene's settings on a right click (owned by the view)

  actions_ = CreateWorkbenchActions(*this);
  toolbar_ = new PlaybackToolBar(clock_, actions_, this);
  addToolBar(toolbar_);
  BuildDocks();
  BuildMenuBar(
      *menuBar(), actions_, {parameter_dock_, plot_dock_, constraint_dock_, stability_}, this,
      [] { return WindowSettings::RecentFiles(); },
      [this](const QString& path) { OpenScenario(path); });
  InstallWindowShortcuts(*this, actions_);
  status_ = new WorkbenchStatusBar(this);
  setStatusBar(status_);

  // The behaviours, each a class of its own that subscribes to the state's moments itself
  // (scenarioLoading, scenarioLoaded, modelReady, runFinished, editApplied: workbench_state.hpp
  // says what each may rely on): a new behaviour is one more line here, nothing in Load.
  errors_ = new ErrorReporter(status_, this, state_);
  const ReactionContext context{controller_, errors_, status_, state_};
  const RunViews views{clock_, scene_view_, plot_panel_, toolbar_};
  presenter_ = new RunPresenter(
      context, views, &scenes_,
      [this](const std::vector<std::pair<std::string, double>>& values) {
        edits_->OnSceneEdited(values);
      },
      this);
  shown_ = new ShownResult(context, presenter_, plot_panel_, scene_view_, constraint_panel_, this);
  budget_ = new RunBudgetGuard(context, clock_, this);
  solve_chip_ = new SolveChip(context, shown_);
  edits_ = new EditRouter(controller_, parameter_panel_, views, budget_, presenter_, this);
  edits_->set_state(state_, shown_);
  pins_ = new PinReaction(context, plot_panel_, shown_, this);
  compare_ = new CompareReaction(actions_.compare, controller_, state_);
  gauge_ = new GaugeView(context, actions_.gauge, plot_panel_, plot_scroll_, clock_);
  new ConstraintsReaction(context, constraint_panel_, constraint_dock_);
  csv_export_ = std::make_unique<CsvExport>(context);
  saver_ = std::make_unique<ScenarioSaver>(context);
  new ScenarioDrops(*this, [this](const QString& path) { OpenScenario(path); });
  reload_ = new ScenarioReload(
      context,
      [this](const QString& path, const QStringList& overrides) {
        return ReloadScenario(path, overrides);
      },
      this);
  history_ = new EditHistory(state_, edits_, parameter_panel_, scene_view_, this);
  history_->ConnectActions(actions_.undo, actions_.redo);
  history_->RecordCharts(plot_panel_, [this] { return shown_->last_good(); });
  history_->RecordToggles(actions_.compare, tr("Compare"));
  history_->RecordToggles(actions_.gauge, tr("Gauge two-form"));
  for (QDockWidget* dock : {parameter_dock_, plot_dock_, constraint_dock_})
    history_->RecordToggles(dock->toggleViewAction(), dock->windowTitle());
  history_dock_ = history_->MakeDock(this);
  addDockWidget(Qt::RightDockWidgetArea, history_dock_);
  history_dock_->setVisible(false);
  AddHistoryToggle(*menuBar(), history_dock_);
  session_ = new SessionReaction(*this, actions_.reopen_session);
  Wire();
  // Until a scenario is open nothing plays, reruns or exports (started on a missing file).
  EnableScenarioActions(actions_, false);
  // The window's own: its title, its actions, File > Open recent.
  connect(state_, &WorkbenchState::scenarioLoading, this,
          [this](const dirac::Scenario& scenario, const ScenarioLoad& load) {
            QString name = QString::fromStdString(scenario.name);
            if (name.isEmpty()) name = QFileInfo(load.path).completeBaseName();
            setWindowTitle(tr("%1 — Dirac Studio").arg(name));
          });
  connect(state_, &WorkbenchState::scenarioLoaded, this, [this](const ScenarioLoad& load) {
    EnableScenarioActions(actions_, true);
    plot_panel_->SetEmptyHint(QString());
    if (remember_recent_ && !load.reloaded) WindowSettings::AddRecentFile(load.path);
  });
  plot_panel_->SetEmptyHint(tr("No scenario open: File > Open (Ctrl+O) or Browse (Ctrl+B)."));
  // The first screen says how to start; gone once playback has started.
  scene_view_->SetHint(tr("Press Space to play  ·  drag to turn the view  ·  wheel to zoom"));
  connect(clock_, &PlaybackClock::playingChanged, scene_view_, [this](bool playing) {
    if (playing) scene_view_->SetHint(QString());
  });
}

MainWindow::~MainWindow() = default;

void MainWindow::BuildDocks() {
  parameter_panel_ = new ParameterPanel();
  QScrollArea* parameter_scroll = MakeScroll("parameterScroll", parameter_panel_);
  parameter_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // rows fit its width
  parameter_dock_ = MakeDock(this, tr("Scenario"), "dock.parameters", parameter_scroll, true);
  parameter_dock_->setMinimumWidth(300);
  addDockWidget(Qt::LeftDockWidgetArea, parameter_dock_);

  // The charts keep a minimum height; the dock scrolls when they do not fit.
  plot_panel_ = new PlotPanel();
  plot_scroll_ = MakeScroll("plotScroll", plot_panel_);
  plot_scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  plot_dock_ = MakeDock(this, tr("Plots"), "dock.plots", plot_scroll_, true);
  plot_dock_->setMinimumWidth(380);
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

  // View > Stability (hidden until chosen): eigenvalues against the stability: block's parameter.
  stability_ = new StabilityDock(controller_, state_, this);
  addDockWidget(Qt::BottomDockWidgetArea, stability_);
  stability_->hide();
}

void MainWindow::Wire() {
  connect(errors_, &ErrorReporter::errorShown, this, &MainWindow::errorShown);
  connect(presenter_, &RunPresenter::editDrawn, this, &MainWindow::editDrawn);
  // The shown result first: a complete run is the last good one before it is drawn.
  connect(controller_, &SimulationController::snapshotReady, shown_, &ShownResult::OnSnapshot);
  connect(controller_, &SimulationController::snapshotReady, presenter_, &RunPresenter::OnSnapshot);
  connect(controller_, &SimulationController::snapshotReady, parameter_panel_,
          [this](const SnapshotPtr& snapshot) {
            // A solve's shooting unknowns show their solved values.
            if (snapshot->complete && snapshot->solve && snapshot->solve->converged &&
                snapshot->trajectory)
              parameter_panel_->ShowSolvedStart(*snapshot->trajectory,
                                                snapshot->solve->report.method != "collocation");
          });
  connect(controller_, &SimulationController::failed, shown_, &ShownResult::OnFailed);
  connect(controller_, &SimulationController::busyChanged, status_, &WorkbenchStatusBar::SetBusy);
  connect(controller_, &SimulationController::derivationProgress, status_, [this] {
    status_->ShowDerivation(controller_->derivation_stage(), controller_->derivation_seconds());
    plot_panel_->SetEmptyHint(controller_->deriving() ? tr("Deriving the model: the charts follow.")
                                                      : QString());
  });
  connect(parameter_panel_, &ParameterPanel::valueChanged, edits_, &EditRouter::OnValueEdited);
  connect(parameter_panel_, &ParameterPanel::boundaryValueFreed, edits_,
          &EditRouter::OnBoundaryFreed);
  connect(clock_, &PlaybackClock::timeChanged, presenter_, &RunPresenter::OnTimeChanged);
  connect(plot_panel_, &PlotPanel::seekRequested, clock_, &PlaybackClock::SetTime);
  connect(plot_panel_, &PlotPanel::pinRequested, this, [this] { pins_->Pin(); });
  connect(plot_panel_, &PlotPanel::unpinRequested, this, [this] { pins_->Clear(); });
  connect(plot_panel_, &PlotPanel::errorOccurred, errors_,
          [this](const QString& message) { errors_->Show(message, false); });
}

bool MainWindow::OpenScenario(const QString& path, const QStringList& overrides) {
  return Load(path, overrides, false);
}

bool MainWindow::ReloadScenario(const QString& path, const QStringList& overrides) {
  return Load(path, overrides, true);
}

void MainWindow::Rerun() { reload_->Rerun(); }

const QString& MainWindow::scenario_path() const { return state_->scenario_path(); }

bool MainWindow::Load(const QString& path, const QStringList& overrides, bool reload) {
  dirac::Scenario scenario;
  ScenarioLoad load{path, reload, overrides, {}, {}};
  // Reading checks every expression with GiNaC: under the symbolic lock, so not while the
  // worker derives or destroys a model (GiNaC's reference counts are not thread-safe). A
  // derivation holding the lock is stopped first (it ends at its next checkpoint, within a
  // fraction of a second), so that the window never waits for one; so is everything else the
  // worker does (a run, its gauge two-form, a solve), which another scenario replaces.
  const bool interrupted = controller_->StopWork();
  try {
    std::lock_guard symbolic(SymbolicMutex());
    scenario = dirac::LoadScenario(path.toStdString());
    if (!reload) {
      for (const QString& assignment : overrides)
        dirac::ApplyOverride(scenario, assignment.toStdString());
    } else {
      // The edits where they still apply: all together, else each alone.
      dirac::Scenario edited = scenario;
      try {
        for (const QString& assignment : overrides) ApplyAssignment(edited, assignment);
        scenario = std::move(edited);
      } catch (const std::exception&) {
        load.overrides.clear();
        for (const QString& assignment : overrides) {
          dirac::Scenario one = scenario;
          try {
            ApplyAssignment(one, assignment);
            scenario = std::move(one);
            load.overrides << assignment;
          } catch (const std::exception& e) {
            load.dropped << tr("%1 (%2)").arg(assignment, QString::fromStdString(e.what()));
          }
        }
      }
    }
  } catch (const std::exception& e) {
    if (interrupted) controller_->Restart();  // the current scenario goes on
    // The path once: the engine's message starts with it ("FILE:LINE: ...") when it knows it.
    const QString what = QString::fromStdString(e.what());
    errors_->Show(what.contains(path) ? tr("Cannot open scenario:\n%1").arg(what)
                                      : tr("Cannot open scenario %1:\n%2").arg(path, what),
                  true);
    return false;
  }
  // A run that would store more than the bound stores fewer samples (a coarser output step).
  load.budget_notice = RunBudgetGuard::FitToBound(scenario);
  // scenarioLoading (every behaviour forgets the previous scenario), the controller takes this
  // one, scenarioLoaded (the editors and actions follow it); the model and the run follow.
  state_->Load(std::move(scenario), load);
  return true;
}

void MainWindow::RestoreSettings() { settings_.Restore(*this, *actions_.loop); }

void MainWindow::SaveSettings() const { WindowSettings::Save(*this, *clock_, *actions_.loop); }

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  // The docks start wider than their minima (the window may go narrower than their sum), once
  // the window has its size, unless a restored layout says otherwise.
  if (!docks_sized_ && !settings_.restored())
    resizeDocks({parameter_dock_, plot_dock_}, {300, 460}, Qt::Horizontal);
  docks_sized_ = true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (settings_.restored()) {
    SaveSettings();
    session_->SaveLastIfWanted();
  }
  QMainWindow::closeEvent(event);
}

ScenarioBrowser* MainWindow::BrowseScenarios() {
  if (browser_) browser_->close();
  browser_ = new ScenarioBrowser(ScenarioDirectory(), this);
  browser_->setAttribute(Qt::WA_DeleteOnClose);
  connect(browser_, &ScenarioBrowser::scenarioChosen, this,
          [this](const QString& path) { OpenScenario(path); });
  connect(browser_, &QObject::destroyed, this, [this] { browser_ = nullptr; });
  if (!state_->scenario_path().isEmpty()) browser_->Select(state_->scenario_path());
  browser_->open();
  return browser_;
}

void MainWindow::EnsureSpanCovers(double t) {
  if (!controller_->has_scenario() || t <= controller_->scenario().simulation.t_end) return;
  if (QDoubleSpinBox* t_end = parameter_panel_->editor("t_end")) {
    t_end->setValue(t);  // goes through EditRouter::OnValueEdited like a user edit
  } else {
    edits_->OnValueEdited("t_end", t);
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
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open scenario"), WindowSettings::LastFolder(state_->scenario_path()),
      tr("Scenarios (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  WindowSettings::SetLastFolder(path);
  OpenScenario(path);
}

void MainWindow::SaveScreenshotDialog() {
  // In the export folder the CSV and chart dialogs share (chart_export.hpp).
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save screenshot"), ExportFolder() + "/dirac-studio.png", tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  RememberExportFolder(path);
  if (!GrabWindowImage().save(path, "PNG"))
    errors_->Show(tr("Cannot write %1").arg(path), errors_->dialogs());
}

}  // namespace dirac::ui
