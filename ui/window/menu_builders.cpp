#include "window/menu_builders.hpp"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QIcon>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStyle>

#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/animation_export.hpp"
#include "window/main_window.hpp"
#include "window/session_reaction.hpp"
#include "window/shown_result.hpp"

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
      MakeAction(window, {"Save scenario &as…", "action.saveScenario", QKeySequence("Ctrl+S")});
  a.save_scenario->setShortcuts({QKeySequence("Ctrl+S"), QKeySequence("Ctrl+Shift+S")});
  a.browse = MakeAction(window, {"&Browse scenarios…", "action.browse", QKeySequence("Ctrl+B"),
                                 QStyle::SP_FileDialogContentsView,
                                 "The shipped scenarios with a picture and description"});
  a.export_csv = MakeAction(window, {"&Export CSV…", "action.exportCsv", QKeySequence("Ctrl+E"),
                                     QStyle::SP_DialogSaveButton});
  a.screenshot = MakeAction(window, {"Save &screenshot…", "action.screenshot", {}});
  a.export_animation =
      MakeAction(window, {"Export &animation…",
                          "action.exportAnimation",
                          {},
                          QStyle::SP_CustomBase,
                          "Record the 3D view and plots as MP4, GIF or PNG frames (30 fps)"});
  a.quit = MakeAction(window, {"&Quit", "action.quit", QKeySequence::Quit});
  a.play = MakeAction(window, {"&Play", "action.play", QKeySequence(Qt::Key_Space)});
  // Plain arrows belong to sliders and fields.
  a.step = MakeAction(window, {"S&tep", "action.step", QKeySequence("Ctrl+Right"),
                               QStyle::SP_MediaSkipForward, "Advance one sample"});
  a.reset = MakeAction(window, {"&Reset", "action.reset", QKeySequence("Ctrl+Home"),
                                QStyle::SP_MediaSkipBackward, "Back to t = 0"});
  a.step_back = MakeAction(window, {"Step &back", "action.stepBack", QKeySequence("Ctrl+Left"),
                                    QStyle::SP_MediaSeekBackward, "Back one sample"});
  a.speed_up = MakeAction(window, {"&Faster", "action.speedUp", QKeySequence("Ctrl+Up"),
                                   QStyle::SP_CustomBase, "Next playback speed"});
  a.speed_down = MakeAction(window, {"S&lower", "action.speedDown", QKeySequence("Ctrl+Down"),
                                     QStyle::SP_CustomBase, "Previous playback speed"});
  a.loop = MakeAction(window, {"&Loop", "action.loop", QKeySequence("Ctrl+L"),
                               QStyle::SP_BrowserReload, "Play again from t = 0 at the end"});
  a.loop->setCheckable(true);
  a.pin_run = MakeAction(
      window, {"&Pin this run", "action.pinRun", QKeySequence("Ctrl+P"), QStyle::SP_CustomBase,
               "Keep this run in the plots (dotted) to compare later runs"});
  a.clear_pin = MakeAction(window, {"Clear pinned run", "action.clearPin", {}});
  a.shortcuts =
      MakeAction(window, {"&Keyboard shortcuts", "action.shortcuts", QKeySequence(Qt::Key_F1)});
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

  a.save_session = MakeAction(window, {"Save sess&ion…", "action.saveSession", {}});
  a.open_session = MakeAction(window, {"Open sessio&n…", "action.openSession", {}});
  a.reopen_session =
      MakeAction(window, {"Reopen last session on start",
                          "action.reopenLastSession",
                          {},
                          QStyle::SP_CustomBase,
                          "When the window starts, bring back the working state it had when it "
                          "last closed"});
  a.reopen_session->setCheckable(true);
  a.undo = MakeAction(window, {"&Undo", "action.undo", QKeySequence::Undo, QStyle::SP_ArrowBack,
                               "Undo the last edit"});
  a.redo = MakeAction(window, {"&Redo", "action.redo", QKeySequence("Ctrl+Shift+Z"),
                               QStyle::SP_ArrowForward, "Redo the edit undone"});
  a.redo->setShortcuts({QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")});
  a.undo->setEnabled(false);
  a.redo->setEnabled(false);

  PlaybackClock* clock = window.clock();
  SimulationController* controller = window.controller();
  QObject::connect(a.open, &QAction::triggered, &window, &MainWindow::OpenScenarioDialog);
  QObject::connect(a.save_scenario, &QAction::triggered, &window, [&window] {
    window.scenario_saver().SaveDialog(&window, window.scenario_path());
  });
  QObject::connect(a.export_csv, &QAction::triggered, &window, [&window] {
    window.csv_export().ExportDialog(&window, window.scenario_path());
  });
  QObject::connect(a.screenshot, &QAction::triggered, &window, &MainWindow::SaveScreenshotDialog);
  QObject::connect(a.export_animation, &QAction::triggered, &window,
                   [&window] { ExportAnimationDialog(window); });
  QObject::connect(a.save_session, &QAction::triggered, &window,
                   [&window] { window.session().SaveDialog(); });
  QObject::connect(a.open_session, &QAction::triggered, &window,
                   [&window] { window.session().OpenDialog(); });
  QObject::connect(a.quit, &QAction::triggered, &window, &QWidget::close);
  QObject::connect(a.play, &QAction::triggered, clock, &PlaybackClock::TogglePlay);
  QObject::connect(a.step, &QAction::triggered, clock, &PlaybackClock::Step);
  QObject::connect(a.reset, &QAction::triggered, clock, &PlaybackClock::Reset);
  QObject::connect(a.rerun, &QAction::triggered, &window, &MainWindow::Rerun);
  QObject::connect(a.cancel, &QAction::triggered, &window,
                   [&window] { window.shown_result().CancelRun(); });
  QObject::connect(a.step_back, &QAction::triggered, clock, &PlaybackClock::StepBack);
  QObject::connect(a.loop, &QAction::toggled, clock, &PlaybackClock::SetLoop);
  QObject::connect(a.browse, &QAction::triggered, &window, &MainWindow::BrowseScenarios);
  QObject::connect(a.pin_run, &QAction::triggered, &window, [&window] { window.pins().Pin(); });
  QObject::connect(a.clear_pin, &QAction::triggered, &window, [&window] { window.pins().Clear(); });
  // The speed box lives in the toolbar, made after the actions: looked up when used.
  auto step_speed = [&window](int delta) {
    if (auto* box = window.findChild<QComboBox*>("playback.speed"))
      box->setCurrentIndex(std::clamp(box->currentIndex() + delta, 0, box->count() - 1));
  };
  QObject::connect(a.speed_up, &QAction::triggered, &window, [step_speed] { step_speed(1); });
  QObject::connect(a.speed_down, &QAction::triggered, &window, [step_speed] { step_speed(-1); });
  QObject::connect(controller, &SimulationController::busyChanged, a.cancel, &QAction::setEnabled);
  QObject::connect(a.reset_camera, &QAction::triggered, window.scene_view(),
                   &SceneView::ResetCamera);
  QAction* play = a.play;
  QObject::connect(clock, &PlaybackClock::playingChanged, play,
                   [play](bool playing) { ShowPlayState(play, playing); });
  ShowPlayState(play, clock->playing());
  return a;
}

void BuildFileMenu(QMenu& menu, const WorkbenchActions& actions,
                   std::function<QStringList()> recent, std::function<void(const QString&)> open) {
  menu.addAction(actions.open);
  menu.addAction(actions.browse);
  if (recent && open) {
    QMenu* recent_menu =
        menu.addMenu(QCoreApplication::translate("dirac::ui::MenuBuilders", "Open &recent"));
    recent_menu->setObjectName("menu.recent");
    QObject::connect(recent_menu, &QMenu::aboutToShow, recent_menu, [recent_menu, recent, open] {
      recent_menu->clear();
      const QStringList files = recent();
      for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* action = recent_menu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(path),
                                                 recent_menu, [open, path] { open(path); });
        action->setObjectName(QStringLiteral("action.recent.%1").arg(i));
      }
      if (files.isEmpty())
        recent_menu->addAction(QCoreApplication::translate("dirac::ui::MenuBuilders", "(none)"))
            ->setEnabled(false);
    });
  }
  menu.addAction(actions.save_scenario);
  menu.addAction(actions.export_csv);
  menu.addAction(actions.screenshot);
  menu.addAction(actions.export_animation);
  menu.addSeparator();
  menu.addAction(actions.open_session);
  menu.addAction(actions.save_session);
  menu.addAction(actions.reopen_session);
  menu.addSeparator();
  menu.addAction(actions.quit);
}

void BuildEditMenu(QMenu& menu, const WorkbenchActions& actions) {
  menu.addAction(actions.undo);
  menu.addAction(actions.redo);
  menu.addSeparator();
}

void AddHistoryToggle(QMenuBar& bar, QDockWidget* history_dock) {
  QAction* toggle = history_dock->toggleViewAction();
  toggle->setObjectName("action.show.history");
  toggle->setText(QCoreApplication::translate("dirac::ui::MenuBuilders", "&History"));
  if (auto* edit = bar.findChild<QMenu*>("menu.edit")) edit->addAction(toggle);
}

void BuildSimulationMenu(QMenu& menu, const WorkbenchActions& actions) {
  menu.addAction(actions.play);
  menu.addAction(actions.step);
  menu.addAction(actions.step_back);
  menu.addAction(actions.reset);
  menu.addAction(actions.loop);
  menu.addAction(actions.speed_up);
  menu.addAction(actions.speed_down);
  menu.addSeparator();
  menu.addAction(actions.rerun);
  menu.addAction(actions.cancel);
}

void BuildViewMenu(QMenu& menu, const WorkbenchActions& actions, const QList<QDockWidget*>& docks) {
  menu.addAction(actions.reset_camera);
  menu.addAction(actions.compare);
  menu.addAction(actions.gauge);
  menu.addAction(actions.pin_run);
  menu.addAction(actions.clear_pin);
  menu.addSeparator();
  for (QDockWidget* dock : docks) {
    QAction* toggle = dock->toggleViewAction();
    toggle->setObjectName("action.show." + dock->objectName().section('.', 1));
    menu.addAction(toggle);
  }
}

QStringList ShortcutList(const WorkbenchActions& a) {
  QStringList lines;
  for (QAction* action : {a.play, a.step, a.step_back, a.reset, a.loop, a.speed_up, a.speed_down,
                          a.open, a.browse, a.save_scenario, a.export_csv, a.undo, a.redo, a.rerun,
                          a.pin_run, a.reset_camera, a.shortcuts, a.quit}) {
    if (!action || action->shortcuts().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& k : action->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    lines << keys.join(QStringLiteral(", ")) + "\t" + QString(action->text()).remove('&');
  }
  return lines;
}

namespace {

// Takes the ShortcutOverride of the window's action shortcuts from whatever widget has focus.
class ShortcutFilter : public QObject {
 public:
  ShortcutFilter(QWidget& window, QList<QAction*> actions)
      : QObject(&window), window_(&window), actions_(std::move(actions)) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::ShortcutOverride) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || !window_ || widget->window() != window_) return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    const QKeySequence pressed(key->keyCombination());
    for (QAction* action : actions_) {
      if (!action->isEnabled()) continue;
      for (const QKeySequence& shortcut : action->shortcuts()) {
        if (shortcut.matches(pressed) == QKeySequence::ExactMatch) {
          event->ignore();  // not the widget's: the shortcut map fires the action
          return true;
        }
      }
    }
    return false;
  }

 private:
  QPointer<QWidget> window_;
  QList<QAction*> actions_;
};

}  // namespace

void InstallWindowShortcuts(QWidget& window, const WorkbenchActions& a) {
  QList<QAction*> list;
  for (QAction* action : {a.play, a.step, a.step_back, a.reset, a.loop, a.speed_up, a.speed_down,
                          a.open, a.browse, a.save_scenario, a.export_csv, a.undo, a.redo, a.rerun,
                          a.pin_run, a.reset_camera, a.shortcuts, a.quit}) {
    if (action) list << action;
  }
  qApp->installEventFilter(new ShortcutFilter(window, list));
}

void BuildHelpMenu(QMenu& menu, QWidget* parent, const WorkbenchActions& actions) {
  menu.addAction(actions.shortcuts);
  QObject::connect(actions.shortcuts, &QAction::triggered, parent, [parent, actions] {
    QString html = QStringLiteral("<table>");
    for (const QString& line : ShortcutList(actions)) {
      const QStringList parts = line.split('\t');
      html += QStringLiteral("<tr><td><b>%1</b></td><td>&nbsp;&nbsp;%2</td></tr>")
                  .arg(parts.value(0).toHtmlEscaped(), parts.value(1).toHtmlEscaped());
    }
    html += QStringLiteral(
        "</table><p>Charts: wheel zooms, drag pans, Shift+drag zooms to a "
        "rectangle, double-click resets, a click moves the time cursor, "
        "right-click adds columns and exports.</p><p>3D view: drag turns, wheel zooms, "
        "right-click opens the scene's settings (the vorticity map's grid).</p>");
    auto* box = new QMessageBox(
        QMessageBox::Information,
        QCoreApplication::translate("dirac::ui::MenuBuilders", "Keyboard shortcuts"), html,
        QMessageBox::Close, parent);
    box->setObjectName("shortcutsDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
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
                  QWidget* about_parent, std::function<QStringList()> recent,
                  std::function<void(const QString&)> open) {
  BuildFileMenu(*AddMenu(bar, "&File", "menu.file"), actions, std::move(recent), std::move(open));
  BuildEditMenu(*AddMenu(bar, "&Edit", "menu.edit"), actions);
  BuildSimulationMenu(*AddMenu(bar, "&Simulation", "menu.simulation"), actions);
  BuildViewMenu(*AddMenu(bar, "&View", "menu.view"), actions, docks);
  BuildHelpMenu(*AddMenu(bar, "&Help", "menu.help"), about_parent, actions);
}

void EnableScenarioActions(const WorkbenchActions& actions, bool loaded) {
  for (QAction* action : {actions.play, actions.step, actions.step_back, actions.reset,
                          actions.rerun, actions.pin_run, actions.save_scenario, actions.export_csv,
                          actions.export_animation, actions.save_session})
    if (action) action->setEnabled(loaded);
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
