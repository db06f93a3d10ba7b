// dirac-studio: the workbench GUI. Parses the command line and composes dirac_ui.
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QSettings>
#include <QTextStream>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "run/simulation_controller.hpp"
#include "window/main_window.hpp"
#include "window/scripted_capture.hpp"
#include "window/session_reaction.hpp"
#include "window/studio_application.hpp"

int main(int argc, char** argv) {
  // --help and --version print text; they must work without a display (no QApplication).
  if (dirac::ui::IsInformationRequest(argc, argv)) {
    QCoreApplication info(argc, argv);
    QString error;
    int exit_code = 0;
    dirac::ui::ParseStudioOptions(info.arguments(), &error, &exit_code);
    return exit_code;
  }
  // Qt would take --session FILE as its X11 session id: taken out first, parsed with the rest.
  const QStringList session_arguments = dirac::ui::TakeSessionArguments(argc, argv);
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);

  QString error;
  int exit_code = 0;
  const auto options =
      dirac::ui::ParseStudioOptions(app.arguments() + session_arguments, &error, &exit_code);
  if (!options) {
    if (!error.isEmpty()) QTextStream(stderr) << "dirac-studio: " << error << "\n";
    return exit_code;
  }
  const bool scripted = !options->screenshot.isEmpty() || !options->record.isEmpty();

  dirac::ui::MainWindow window;
  window.set_error_dialogs(!scripted);
  window.set_remember_recent(!scripted);  // a capture leaves File > Open recent alone
  // Within the screen: a window wider than it (1600 px on xvfb-run's 1280-wide default) would
  // be cut in the screenshot.
  const QSize size = dirac::ui::FitWindowToScreen(window, options->window_size);
  if (size != options->window_size && scripted)
    QTextStream(stderr) << "dirac-studio: the window is " << size.width() << "x" << size.height()
                        << ", the screen's available size (asked for "
                        << options->window_size.width() << "x" << options->window_size.height()
                        << ")\n";
  // A user's session comes back (window layout, playback speed, loop) and is saved on close;
  // a scripted capture uses neither, so the same command line gives the same picture.
  if (!scripted) window.RestoreSettings();
  window.compare_action()->setChecked(options->compare);
  window.gauge_action()->setChecked(options->gauge);
  window.show();

  const QString path =
      options->scenario_path.isEmpty() ? dirac::ui::DefaultScenarioPath() : options->scenario_path;
  // A session given, or (interactive, nothing named) the one the window left when it closed.
  QString session = options->session;
  if (session.isEmpty() && !scripted && options->scenario_path.isEmpty() &&
      dirac::ui::SessionReaction::ReopenLastOnStart() &&
      QFileInfo::exists(dirac::ui::SessionReaction::LastSessionPath()))
    session = dirac::ui::SessionReaction::LastSessionPath();
  const bool opened = session.isEmpty() ? window.OpenScenario(path, options->overrides)
                                        : window.session().Open(session, !options->play_to);
  std::unique_ptr<dirac::ui::ScriptedCapture> capture;
  if (scripted) {
    if (!opened) {
      QTextStream(stderr) << "dirac-studio: " << window.last_error() << "\n";
      return 1;
    }
    capture = std::make_unique<dirac::ui::ScriptedCapture>(&window, options->play_to,
                                                           options->screenshot);
    capture->set_scene_only(options->scene_only);
    capture->set_record(options->record);
    // Queued: the capture may finish before app.exec() runs, when exit() would be ignored.
    QObject::connect(capture.get(), &dirac::ui::ScriptedCapture::finished, &app,
                     &QApplication::exit, Qt::QueuedConnection);
    capture->Start();
  } else if (opened && options->play_to) {
    window.PlayTo(*options->play_to);
  }
  const int code = app.exec();
  // Quit while the worker is still in a job (a derivation of thousands of expression nodes, a
  // long integration): the window is closed and its settings are saved, and the job is
  // cancelled, but unwinding it frees large expression graphs for up to a second or more. The
  // user asked the process to end: end it now, without that teardown. Nothing is half-written:
  // CSV exports and scenario saves are synchronous on this thread, and atomic.
  if (window.controller()->worker_active()) {
    QSettings().sync();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
