#pragma once
/// @file session_file.hpp
/// A session: what a user's working state is, in a small JSON file (File > Save session, Open
/// session, `dirac-studio --session FILE`): the scenario file, the `--set` overrides, the
/// camera, the charts, the pinned run and the view toggles.

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

#include "dirac/view_spec.hpp"
#include "scenes/scene_view.hpp"

namespace dirac::ui {

/// The contents of a session file (format "dirac-studio-session", version 1):
///
///     {
///       "format": "dirac-studio-session", "version": 1,
///       "scenario": "../scenarios/heisenberg.yaml",     (relative to the session's folder)
///       "overrides": ["kx=1.2", "final.psi=free"],
///       "camera": {"position": [x, y, z], "focal_point": [...], "view_up": [...],
///                  "view_angle": 30, "parallel": false, "parallel_scale": 1},
///       "charts": [{"title": "Position", "series": ["x", "y"]}],
///       "pinned": {"csv": "work.session.pinned.csv", "label": "pinned: kx = 1"},
///       "views": {"compare": false, "gauge": false, "loop": false, "time": 2.5,
///                 "docks": {"parameters": true, "plots": true, "constraints": false}}
///     }
///
/// Every key but "format", "version" and "scenario" may be missing (then that part is left as
/// the scenario opens it).
struct Session {
  QString scenario;       ///< absolute path of the scenario file
  QStringList overrides;  ///< "NAME=VALUE" (VALUE "free" releases a boundary value)
  std::optional<SceneView::CameraPose> camera;
  std::optional<std::vector<dirac::PlotSpec>> charts;  ///< titles and series
  QString pinned_csv;    ///< absolute path of the pinned run's CSV ("" if none)
  QString pinned_label;  ///< its legend entry
  bool compare = false;  ///< View > Compare with nonholonomic motion
  bool gauge = false;    ///< View > Gauge two-form
  bool loop = false;     ///< Simulation > Loop
  double time = 0.0;     ///< the time cursor [s]
  std::vector<std::pair<QString, bool>> docks;  ///< "parameters", "plots", ... shown or not
};

/// Reads a session file; relative paths in it are relative to its folder. Throws dirac::Error
/// naming the file and the key that is missing or of the wrong type.
Session ReadSession(const QString& path);
/// Writes `session` to `path` atomically (QSaveFile), paths relative to its folder. Throws
/// dirac::Error naming the file if it cannot be written.
void WriteSession(const Session& session, const QString& path);
/// The file the pinned run of session `path` is written to: "<path without .json>.pinned.csv".
QString PinnedCsvPath(const QString& session_path);

}  // namespace dirac::ui
