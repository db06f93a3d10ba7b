#pragma once
/// @file animation_export.hpp
/// File > Export animation and `--record`: the window (3D view and plots, with the moving time
/// cursor) recorded at 30 frames per second of playback, as a video or GIF through Debian's
/// ffmpeg (a separate process, frames piped to it as raw RGB), or as a folder of PNGs.
///
/// Frames do not depend on wall time: frame k shows time t_k = k s / 30 (s the playback speed,
/// 1 = real time), k = 0 .. N-1, N = round(30 T / s) for a recording of [0, T]; for each, the
/// clock is set to t_k, the charts laid out, and the window drawn with the 3D view's frame
/// rendered at t_k (SceneView::GrabImage), so a video lasts T / s seconds.

#include <QCoreApplication>
#include <QImage>
#include <QString>

#include <functional>

namespace dirac::ui {

class MainWindow;

/// What a recording writes, by its path: a folder (an existing directory, or a path ending in
/// '/' or without a suffix) gets frame_00000.png, ...; ".gif" an animated GIF (ffmpeg's
/// palette filters); any other suffix (".mp4", ".mkv", ".webm") a video by ffmpeg (H.264 in
/// yuv420p for .mp4).
enum class AnimationKind { kPngFolder, kGif, kVideo };
AnimationKind AnimationKindOf(const QString& path);

/// The outcome of AnimationRecorder::Record.
struct AnimationResult {
  bool ok = false;
  bool cancelled = false;
  int frames = 0;  ///< frames written
  QString error;   ///< why it failed (ffmpeg's message, a write error)
};

class AnimationRecorder {
  Q_DECLARE_TR_FUNCTIONS(AnimationRecorder)

 public:
  static constexpr int kFramesPerSecond = 30;

  explicit AnimationRecorder(MainWindow& window) : window_(window) {}

  /// Frames of a recording of [0, t_end] [s] at playback speed `speed` (N above; at least 1).
  static int FrameCount(double t_end, double speed);
  /// The ffmpeg program: $DIRAC_FFMPEG, else `ffmpeg` on the PATH; "" if none.
  static QString FfmpegProgram();

  /// Records [0, t_end] of the run shown into `path` (AnimationKindOf), at the clock's playback
  /// speed. `progress(done, total)` is called after each frame; returning false cancels (the
  /// partial file is removed). The clock is paused, and put back at its time afterwards.
  AnimationResult Record(double t_end, const QString& path,
                         const std::function<bool(int, int)>& progress = {});
  /// The window as shown at the clock's time: the widgets drawn, the 3D view's frame over its
  /// place; even width and height (video encoders ask for them), in device pixels.
  QImage Frame();

 private:
  MainWindow& window_;
};

/// File > Export animation…: asks for the file (the export folder of chart_export.hpp), records
/// the run shown from 0 to its end with a progress dialog and Cancel; errors go to the window's
/// error reporter, success to the status bar.
void ExportAnimationDialog(MainWindow& window);

}  // namespace dirac::ui
