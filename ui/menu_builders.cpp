#include "menu_builders.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QIcon>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>

#include "main_window.hpp"
#include "playback_clock.hpp"
#include "scene_view.hpp"
#include "simulation_controller.hpp"

namespace dirac::ui {
namespace {

// One action: text, object name and shortcut (empty: none), optionally an icon and a tooltip.
struct ActionSpec {
  const char* text;
  const char* name;
  QKeySequence shortcut;
  QStyle::StandardPixmap icon = QStyle::SP_CustomBase;  // SP_CustomBase: no icon
  const char* tooltip = nullptr;
};

QAction* MakeAction(QWidget& owner, const ActionSpec& spec) {
  auto* action =
      new QAction(QCoreApplication::translate("dirac::ui::MenuBuilders", spec.text), &owner);
  action->setObjectName(spec.name);
  if (!spec.shortcut.isEmpty()) action->setShortcut(spec.shortcut);
  if (spec.icon != QStyle::SP_CustomBase) action->setIcon(owner.style()->standardIcon(spec.icon));
  if (spec.tooltip)
    action->setToolTip(QCoreApplication::translate("dirac::ui::MenuBuilders", spec.tooltip));
  return action;
}

QAction* MakeCheckable(QWidget& owner, const ActionSpec& spec) {
  QAction* action = MakeAction(owner, spec);
  action->setCheckable(true);
  action->setEnabled(false);  // the window enables it for scenarios and models it applies to
  return action;
}

QMenu* AddMenu(QMenuBar& bar, const char* title, const char* name) {
  QMenu* menu = bar.addMenu(QCoreApplication::translate("dirac::ui::MenuBuilders", title));
  menu->setObjectName(name);
  return menu;
}

}  // namespace

WorkbenchActions CreateWorkbenchActions(MainWindow& window) {
  WorkbenchActions a;
  a.open = MakeAction(
      window, {"&Open scenario…", "action.open", QKeySequence::Open, QStyle::SP_DialogOpenButton});
  a.save_scenario =
      MakeAction(window, {"Save scenario &as…", "action.saveScenario", QKeySequence::SaveAs});
  a.export_csv = MakeAction(window, {"&Export CSV…", "action.exportCsv", QKeySequence("Ctrl+E"),
                                     QStyle::SP_DialogSaveButton});
  a.screenshot = MakeAction(window, {"Save &screenshot…", "action.screenshot", {}});
  a.quit = MakeAction(window, {"&Quit", "action.quit", QKeySequence::Quit});
  a.play = MakeAction(window, {"&Play", "action.play", QKeySequence(Qt::Key_Space)});
  // Plain arrows belong to sliders and fields.
  a.step = MakeAction(window, {"S&tep", "action.step", QKeySequence("Ctrl+Right"),
                               QStyle::SP_MediaSkipForward, "Advance one sample"});
  a.reset = MakeAction(window, {"&Reset", "action.reset", QKeySequence("Ctrl+Home"),
                                QStyle::SP_MediaSkipBackward, "Back to t = 0"});
  a.rerun = MakeAction(window, {"Re&run simulation", "action.rerun", QKeySequence::Refresh,
                                QStyle::SP_BrowserReload});
  a.cancel =
      MakeAction(window, {"&Cancel simulation", "action.cancel", {}, QStyle::SP_BrowserStop});
  a.cancel->setEnabled(false);
  a.reset_camera =
      MakeAction(window, {"Reset &camera", "action.resetCamera", QKeySequence("Ctrl+R")});
  a.compare = MakeCheckable(
      window, {"Compare with &nonholonomic motion",
               "compare.nonholonomic",
               {},
               QStyle::SP_CustomBase,
               "Also simulate this vakonomic scenario as a nonholonomic (Lagrange–Dirac) system "
               "from the same initial point and draw it in magenta"});
  a.gauge = MakeCheckable(
      window, {"&Gauge two-form",
               "action.gaugeTwoForm",
               {},
               QStyle::SP_CustomBase,
               "Also compute the gauge two-form B_t of the nonholonomic flow (phi_t* Omega = "
               "Omega + B_t on the constraint manifold) and plot |B_t| and the identity's "
               "residual"});

  PlaybackClock* clock = window.clock();
  SimulationController* controller = window.controller();
  QObject::connect(a.open, &QAction::triggered, &window, &MainWindow::OpenScenarioDialog);
  QObject::connect(a.save_scenario, &QAction::triggered, &window, &MainWindow::SaveScenarioDialog);
  QObject::connect(a.export_csv, &QAction::triggered, &window, &MainWindow::ExportCsvDialog);
  QObject::connect(a.screenshot, &QAction::triggered, &window, &MainWindow::SaveScreenshotDialog);
  QObject::connect(a.quit, &QAction::triggered, &window, &QWidget::close);
  QObject::connect(a.play, &QAction::triggered, clock, &PlaybackClock::TogglePlay);
  QObject::connect(a.step, &QAction::triggered, clock, &PlaybackClock::Step);
  QObject::connect(a.reset, &QAction::triggered, clock, &PlaybackClock::Reset);
  QObject::connect(a.rerun, &QAction::triggered, controller, &SimulationController::Restart);
  QObject::connect(a.cancel, &QAction::triggered, controller, &SimulationController::Cancel);
  QObject::connect(controller, &SimulationController::busyChanged, a.cancel, &QAction::setEnabled);
  QObject::connect(a.reset_camera, &QAction::triggered, window.scene_view(),
                   &SceneView::ResetCamera);
  QObject::connect(a.compare, &QAction::toggled, &window, &MainWindow::UpdateComparison);
  QObject::connect(a.gauge, &QAction::toggled, &window, &MainWindow::UpdateGaugeTwoForm);
  QAction* play = a.play;
  QObject::connect(clock, &PlaybackClock::playingChanged, play,
                   [play](bool playing) { ShowPlayState(play, playing); });
  ShowPlayState(play, clock->playing());
  return a;
}

void BuildFileMenu(QMenu& menu, const WorkbenchActions& actions) {
  menu.addAction(actions.open);
  menu.addAction(actions.save_scenario);
  menu.addAction(actions.export_csv);
  menu.addAction(actions.screenshot);
  menu.addSeparator();
  menu.addAction(actions.quit);
}

void BuildSimulationMenu(QMenu& menu, const WorkbenchActions& actions) {
  menu.addAction(actions.play);
  menu.addAction(actions.step);
  menu.addAction(actions.reset);
  menu.addSeparator();
  menu.addAction(actions.rerun);
  menu.addAction(actions.cancel);
}

void BuildViewMenu(QMenu& menu, const WorkbenchActions& actions, const QList<QDockWidget*>& docks) {
  menu.addAction(actions.reset_camera);
  menu.addAction(actions.compare);
  menu.addAction(actions.gauge);
  menu.addSeparator();
  for (QDockWidget* dock : docks) {
    QAction* toggle = dock->toggleViewAction();
    toggle->setObjectName("action.show." + dock->objectName().section('.', 1));
    menu.addAction(toggle);
  }
}

void BuildHelpMenu(QMenu& menu, QWidget* parent) {
  menu.addAction(QCoreApplication::translate("dirac::ui::MenuBuilders", "&About Dirac Studio"),
                 parent, [parent] {
                   QMessageBox::about(
                       parent,
                       QCoreApplication::translate("dirac::ui::MenuBuilders", "About Dirac Studio"),
                       QCoreApplication::translate(
                           "dirac::ui::MenuBuilders",
                           "<b>Dirac Studio</b> %1<br>A workbench for constrained geometric "
                           "mechanics: Lagrange–Dirac and vakonomic systems derived from the "
                           "scenario's Lagrangian and constraints, run through the "
                           "Gotay–Nester–Hinds constraint algorithm when degenerate, and "
                           "integrated with SUNDIALS (CVODES, IDAS).")
                           .arg(QApplication::applicationVersion()));
                 });
}

void BuildMenuBar(QMenuBar& bar, const WorkbenchActions& actions, const QList<QDockWidget*>& docks,
                  QWidget* about_parent) {
  BuildFileMenu(*AddMenu(bar, "&File", "menu.file"), actions);
  BuildSimulationMenu(*AddMenu(bar, "&Simulation", "menu.simulation"), actions);
  BuildViewMenu(*AddMenu(bar, "&View", "menu.view"), actions, docks);
  BuildHelpMenu(*AddMenu(bar, "&Help", "menu.help"), about_parent);
}

void ShowPlayState(QAction* play, bool playing) {
  const auto tr = [](const char* text) {
    return QCoreApplication::translate("dirac::ui::MenuBuilders", text);
  };
  play->setIcon(
      qApp->style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  play->setText(playing ? tr("&Pause") : tr("&Play"));
  play->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

}  // namespace dirac::ui
