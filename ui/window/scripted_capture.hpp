#pragma once
/// @file scripted_capture.hpp
/// `--screenshot`: wait for the run to reach a time (and, with --gauge, for its gauge two-form),
/// put the cursor there, save a PNG of the window, report an exit code. `--record`: the same
/// wait, then the animation of [0, time] (animation_export.hpp), progress on stderr.

#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <optional>

#include "run/simulation_snapshot.hpp"

namespace dirac::ui {

class MainWindow;

/// Emits finished(0) after writing the PNG, finished(1) if the simulation fails or the file
/// cannot be written, finished(3) on timeout. Messages go to stderr.
class ScriptedCapture : public QObject {
  Q_OBJECT

 public:
  /// @param time  cursor time of the picture [s]; nothing = the scenario's final time
  ScriptedCapture(MainWindow* window, std::optional<double> time, QString path,
                  int timeout_ms = 300000, QObject* parent = nullptr);

  /// Starts waiting (call after the scenario was opened).
  void Start();
  /// Saves the 3D view alone instead of the window (`--scene-only`: the browser's thumbnails).
  void set_scene_only(bool on) { scene_only_ = on; }
  /// Records the animation of [0, time] into `path` instead of a PNG ("" = a screenshot).
  void set_record(const QString& path) { record_ = path; }

 signals:
  void finished(int exit_code);

 private:
  void OnSnapshot(const SnapshotPtr& snapshot);
  void OnGauge(const GaugeResultPtr& result);
  void Begin();
  // Captures once the window is laid out (LaidOut), else looks again a moment later.
  void CaptureWhenLaidOut();
  bool LaidOut() const;
  void Capture();
  void Record();
  void Finish(int exit_code, const QString& message);

  static constexpr int kRetryMs = 10;  // between two looks at the condition (not a settle time)
  MainWindow* window_;
  std::optional<double> time_;
  QString path_;
  QTimer timeout_;
  bool capturing_ = false;
  // A run whose gauge two-form is still being computed: the picture waits for its charts.
  std::optional<std::uint64_t> waiting_for_gauge_;
  bool done_ = false;
  bool scene_only_ = false;
  QString record_;
};

}  // namespace dirac::ui
