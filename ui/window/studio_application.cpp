#include "window/studio_application.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QScreen>
#include <QTextStream>
#include <QWidget>

#ifndef DIRAC_SCENARIO_DIR
#define DIRAC_SCENARIO_DIR ""
#endif
#ifndef DIRAC_STUDIO_VERSION
#define DIRAC_STUDIO_VERSION "0"
#endif

// Outside any namespace, as Q_INIT_RESOURCE requires; the resources live in a static library.
static void InitStudioResources() { Q_INIT_RESOURCE(dirac_studio); }

namespace dirac::ui {

QSize FitWindowToScreen(QWidget& window, QSize size) {
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    const QRect available = screen->availableGeometry();
    size = size.boundedTo(available.size());
    window.move(available.topLeft());
  }
  window.resize(size);
  return size;
}

void ConfigureApplication(QApplication& app) {
  InitStudioResources();
  app.setApplicationName("Dirac Studio");
  app.setApplicationVersion(DIRAC_STUDIO_VERSION);
  app.setOrganizationName("Dirac Studio");
  app.setDesktopFileName("dirac-studio");
  app.setWindowIcon(QIcon(":/icons/dirac-studio.png"));
}

QStringList TakeSessionArguments(int& argc, char** argv) {
  QStringList taken;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (arg == "--") {  // the rest is positional
      while (i < argc) argv[out++] = argv[i++];
      break;
    }
    if (arg == "--session" || arg == "-session") {
      taken << QStringLiteral("--session");
      if (i + 1 < argc) taken << QString::fromLocal8Bit(argv[++i]);
      continue;
    }
    if (arg.startsWith("--session=")) {
      taken << QStringLiteral("--session") << QString::fromLocal8Bit(arg.mid(10));
      continue;
    }
    argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  return taken;
}

bool IsInformationRequest(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (arg == "--") break;
    if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" ||
        arg == "--version") {
      return true;
    }
  }
  return false;
}

std::optional<StudioOptions> ParseStudioOptions(const QStringList& arguments, QString* error,
                                                int* exit_code) {
  QCoreApplication::setApplicationVersion(DIRAC_STUDIO_VERSION);
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Dirac Studio: a workbench for constrained geometric mechanics.");
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  parser.addPositionalArgument("scenario", "Scenario file (YAML); default: heisenberg.yaml.",
                               "[SCENARIO]");
  const QCommandLineOption play_to("play-to", "Play to time T [s].", "T");
  const QCommandLineOption screenshot(
      "screenshot", "Render the window at the --play-to time, save a PNG and exit.", "FILE");
  const QCommandLineOption record(
      "record",
      "Record the window from t = 0 to the --play-to time at 30 frames per second of playback "
      "into OUT (.mp4, .gif through ffmpeg, or a folder of PNGs) and exit.",
      "OUT");
  const QCommandLineOption set("set", "Set a parameter, initial condition or setting.",
                               "NAME=VALUE");
  const QCommandLineOption size("size", "Window size, e.g. 1600x1000.", "WxH");
  const QCommandLineOption compare(
      "compare", "Vakonomic scenarios: also simulate and draw the nonholonomic motion.");
  const QCommandLineOption gauge(
      "gauge", "Nonholonomic scenarios: also compute and plot the gauge two-form B_t.");
  const QCommandLineOption scene_only(
      "scene-only", "With --screenshot: save the 3D view alone (the browser's thumbnails).");
  const QCommandLineOption session(
      "session", "Open a saved session (File > Save session): scenario, edits, camera, charts.",
      "FILE");
  parser.addOptions({play_to, screenshot, record, set, size, compare, gauge, scene_only, session});

  *exit_code = 0;
  if (!parser.parse(arguments)) {
    *error = parser.errorText();
    *exit_code = 2;
    return std::nullopt;
  }
  if (parser.isSet(help)) {
    QTextStream(stdout) << parser.helpText();
    return std::nullopt;
  }
  if (parser.isSet(version)) {
    QTextStream(stdout) << "dirac-studio " << DIRAC_STUDIO_VERSION << "\n";
    return std::nullopt;
  }

  auto fail = [&](const QString& message) -> std::optional<StudioOptions> {
    *error = message;
    *exit_code = 2;
    return std::nullopt;
  };
  StudioOptions options;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) return fail("expected at most one scenario file");
  if (!positional.isEmpty()) options.scenario_path = positional.front();
  if (parser.isSet(play_to)) {
    bool ok = false;
    const double t = parser.value(play_to).toDouble(&ok);
    if (!ok || !(t >= 0.0))
      return fail("--play-to needs a time >= 0, got '" + parser.value(play_to) + "'");
    options.play_to = t;
  }
  options.screenshot = parser.value(screenshot);
  options.record = parser.value(record);
  if (!options.record.isEmpty() && !options.play_to)
    return fail("--record needs --play-to T (the time the recording ends)");
  if (!options.record.isEmpty() && !options.screenshot.isEmpty())
    return fail("--record and --screenshot cannot be combined");
  options.compare = parser.isSet(compare);
  options.gauge = parser.isSet(gauge);
  options.scene_only = parser.isSet(scene_only);
  options.session = parser.value(session);
  if (!options.session.isEmpty() && (!options.scenario_path.isEmpty() || parser.isSet(set)))
    return fail("--session brings its own scenario and edits: give no SCENARIO or --set with it");
  for (const QString& assignment : parser.values(set)) {
    if (!assignment.contains('=')) return fail("--set needs NAME=VALUE, got '" + assignment + "'");
    options.overrides << assignment;
  }
  if (parser.isSet(size)) {
    const QStringList parts = parser.value(size).split('x');
    bool ok_w = false, ok_h = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&ok_w) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&ok_h) : 0;
    if (!ok_w || !ok_h || w < 200 || h < 150)
      return fail("--size needs WxH, got '" + parser.value(size) + "'");
    options.window_size = QSize(w, h);
  }
  return options;
}

QString ScenarioDirectory() {
  const QString app_dir = QCoreApplication::applicationDirPath();
  const QStringList candidates = {QString::fromUtf8(DIRAC_SCENARIO_DIR), app_dir + "/../scenarios",
                                  app_dir + "/../share/dirac-studio/scenarios",
                                  QDir::currentPath() + "/scenarios"};
  for (const QString& dir : candidates) {
    if (!dir.isEmpty() && QFileInfo(dir + "/heisenberg.yaml").isFile()) {
      return QDir::cleanPath(dir);
    }
  }
  return QDir::cleanPath(candidates.front().isEmpty() ? candidates.back() : candidates.front());
}

QString DefaultScenarioPath() { return ScenarioDirectory() + "/heisenberg.yaml"; }

}  // namespace dirac::ui
