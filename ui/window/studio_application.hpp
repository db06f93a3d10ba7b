#pragma once
/// @file studio_application.hpp
/// Application-wide setup and the dirac-studio command line.

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

class QApplication;
class QWidget;

namespace dirac::ui {

/// `dirac-studio [SCENARIO] [--play-to T] [--screenshot FILE] [--record OUT] [--set NAME=VALUE]...
/// [--size WxH] [--compare] [--gauge] [--scene-only] [--session FILE]`
struct StudioOptions {
  QString scenario_path;          ///< empty: DefaultScenarioPath()
  std::optional<double> play_to;  ///< play (or, with a screenshot, jump) to this time [s]
  QString screenshot;             ///< save a PNG of the window and exit
  QString record;  ///< record [0, play_to] (animation_export.hpp: .mp4, .gif, a folder) and exit
  QStringList overrides;          ///< NAME=VALUE, applied in order after loading
  QSize window_size{1600, 1000};  ///< initial window size [px]
  bool compare = false;           ///< vakonomic scenarios: also draw the nonholonomic motion
  bool gauge = false;             ///< nonholonomic scenarios: also plot the gauge two-form
  bool scene_only = false;        ///< the screenshot holds the 3D view alone
  QString session;                ///< open this session (session_file.hpp) instead of SCENARIO
};

/// Names, icon and attributes every Dirac Studio process (app and GUI tests) sets before
/// creating widgets. Call once after constructing the QApplication.
void ConfigureApplication(QApplication& app);

/// Resizes `window` to `size` [px], bounded by the available geometry of the primary screen
/// (a 1600 x 1000 window on a 1280-wide screen is made 1280 wide, not cut on the right), and
/// moves it to the screen's top left corner. Returns the size given.
QSize FitWindowToScreen(QWidget& window, QSize size);

/// Takes `--session FILE` (or `--session=FILE`) out of `argv` before QApplication sees it:
/// QGuiApplication reads "-session" and "--session" as the X11 session-management id and
/// removes them. Returns the arguments taken ({"--session", FILE}, {"--session"} when FILE is
/// missing, {} when absent) to be given to ParseStudioOptions; argc and argv are shortened.
QStringList TakeSessionArguments(int& argc, char** argv);

/// True if the command line asks for --help or --version (answered without a GUI).
bool IsInformationRequest(int argc, const char* const* argv);

/// Parses the command line (`arguments` includes the program name). On --help/--version prints
/// and returns nothing with *exit_code = 0; on a bad argument returns nothing, *error set and
/// *exit_code = 2.
std::optional<StudioOptions> ParseStudioOptions(const QStringList& arguments, QString* error,
                                                int* exit_code);

/// The shipped scenarios folder: DIRAC_SCENARIO_DIR of the build, else next to the executable
/// (../scenarios, ../share/dirac-studio/scenarios), else ./scenarios.
QString ScenarioDirectory();

/// ScenarioDirectory()/heisenberg.yaml.
QString DefaultScenarioPath();

}  // namespace dirac::ui
