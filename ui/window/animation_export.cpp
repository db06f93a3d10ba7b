#include "window/animation_export.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QStatusBar>

#include <algorithm>
#include <cmath>
#include <memory>

#include "plots/chart_export.hpp"
#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/main_window.hpp"

namespace dirac::ui {

AnimationKind AnimationKindOf(const QString& path) {
  const QFileInfo info(path);
  if (info.isDir() || path.endsWith('/') || info.suffix().isEmpty())
    return AnimationKind::kPngFolder;
  if (info.suffix().compare("gif", Qt::CaseInsensitive) == 0) return AnimationKind::kGif;
  return AnimationKind::kVideo;
}

int AnimationRecorder::FrameCount(double t_end, double speed) {
  if (!(speed > 0.0) || !(t_end > 0.0)) return 1;
  return std::max(1, static_cast<int>(std::lround(kFramesPerSecond * t_end / speed)));
}

QString AnimationRecorder::FfmpegProgram() {
  const QString own = qEnvironmentVariable("DIRAC_FFMPEG");
  if (!own.isEmpty()) return own;
  return QStandardPaths::findExecutable(QStringLiteral("ffmpeg"));
}

QImage AnimationRecorder::Frame() {
  PlotPanel* plots = window_.plot_panel();
  plots->LayOutNow();
  // The widgets as drawn now (QWidget::grab paints them; no screen, no wall time), then the 3D
  // view's frame rendered for the same time over its place (a native window grab leaves black).
  QImage image = window_.grab().toImage().convertToFormat(QImage::Format_RGB888);
  SceneView* scene = window_.scene_view();
  if (scene->isVisible()) {
    const QImage frame = scene->GrabImage();
    if (!frame.isNull()) {
      const QPoint at = scene->mapTo(&window_, QPoint(0, 0));
      QPainter painter(&image);
      painter.drawImage(QRectF(at.x(), at.y(), scene->width(), scene->height()), frame);
    }
  }
  image.setDevicePixelRatio(1.0);
  // Even sides for the encoders (yuv420p halves both).
  return image.copy(0, 0, image.width() & ~1, image.height() & ~1);
}

AnimationResult AnimationRecorder::Record(double t_end, const QString& path,
                                          const std::function<bool(int, int)>& progress) {
  AnimationResult result;
  PlaybackClock* clock = window_.clock();
  const double was = clock->time();
  clock->Pause();
  const double speed = clock->speed() > 0.0 ? clock->speed() : 1.0;
  const int total = FrameCount(t_end, speed);
  const AnimationKind kind = AnimationKindOf(path);

  // The first frame gives the video's size.
  clock->SetTime(0.0);
  QImage first = Frame();
  std::unique_ptr<QProcess> ffmpeg;
  if (kind == AnimationKind::kPngFolder) {
    if (!QDir().mkpath(path)) {
      result.error = tr("cannot make the folder %1").arg(path);
      return result;
    }
  } else {
    const QString program = FfmpegProgram();
    if (program.isEmpty()) {
      result.error =
          tr("ffmpeg was not found (install Debian's ffmpeg package, or set "
             "DIRAC_FFMPEG); a folder instead of a file name records PNG frames");
      return result;
    }
    QStringList args{"-y",
                     "-loglevel",
                     "error",
                     "-f",
                     "rawvideo",
                     "-pix_fmt",
                     "rgb24",
                     "-video_size",
                     QStringLiteral("%1x%2").arg(first.width()).arg(first.height()),
                     "-framerate",
                     QString::number(kFramesPerSecond),
                     "-i",
                     "-"};
    if (kind == AnimationKind::kGif)
      args << "-vf"
           << "split[a][b];[a]palettegen[p];[b][p]paletteuse";
    else if (QFileInfo(path).suffix().compare("mp4", Qt::CaseInsensitive) == 0)
      args << "-c:v"
           << "libx264"
           << "-preset"
           << "veryfast"
           << "-crf"
           << "20";
    if (kind == AnimationKind::kVideo)
      args << "-pix_fmt"
           << "yuv420p";
    args << path;
    ffmpeg = std::make_unique<QProcess>();
    ffmpeg->setProcessChannelMode(QProcess::SeparateChannels);
    ffmpeg->start(program, args);
    if (!ffmpeg->waitForStarted(30000)) {
      result.error = tr("cannot start %1: %2").arg(program, ffmpeg->errorString());
      return result;
    }
  }

  auto write = [&](const QImage& image, int k) -> bool {
    if (kind == AnimationKind::kPngFolder) {
      const QString file =
          QDir(path).filePath(QStringLiteral("frame_%1.png").arg(k, 5, 10, QChar('0')));
      if (!image.save(file, "PNG")) {
        result.error = tr("cannot write %1").arg(file);
        return false;
      }
      return true;
    }
    if (image.size() != first.size()) {
      result.error = tr("the window changed size during the recording");
      return false;
    }
    QByteArray bytes;
    const qsizetype line = static_cast<qsizetype>(image.width()) * 3;
    bytes.reserve(line * image.height());
    for (int y = 0; y < image.height(); ++y)
      bytes.append(reinterpret_cast<const char*>(image.constScanLine(y)), line);
    if (ffmpeg->write(bytes) != bytes.size()) {
      result.error =
          tr("ffmpeg stopped: %1").arg(QString::fromLocal8Bit(ffmpeg->readAllStandardError()));
      return false;
    }
    while (ffmpeg->bytesToWrite() > 0) {
      if (!ffmpeg->waitForBytesWritten(60000)) {
        result.error =
            tr("ffmpeg stopped: %1").arg(QString::fromLocal8Bit(ffmpeg->readAllStandardError()));
        return false;
      }
    }
    return true;
  };

  bool ok = true;
  for (int k = 0; k < total && ok; ++k) {
    const double t = std::min(t_end, k * speed / kFramesPerSecond);
    if (k > 0) clock->SetTime(t);
    const QImage image = k == 0 ? first : Frame();
    ok = write(image, k);
    if (ok) result.frames = k + 1;
    if (ok && progress && !progress(k + 1, total)) {
      result.cancelled = true;
      ok = false;
    }
  }
  if (ffmpeg) {
    if (ok) {
      ffmpeg->closeWriteChannel();
      ffmpeg->waitForFinished(-1);
      if (ffmpeg->exitStatus() != QProcess::NormalExit || ffmpeg->exitCode() != 0) {
        result.error = tr("ffmpeg failed: %1")
                           .arg(QString::fromLocal8Bit(ffmpeg->readAllStandardError()).trimmed());
        ok = false;
      }
    } else {
      ffmpeg->kill();
      ffmpeg->waitForFinished(10000);
    }
    if (!ok) QFile::remove(path);
  }
  clock->SetTime(was);
  result.ok = ok;
  return result;
}

void ExportAnimationDialog(MainWindow& window) {
  const SnapshotPtr shown = window.controller()->latest();
  if (!shown || !shown->complete) {
    QMessageBox::information(&window, AnimationRecorder::tr("Export animation"),
                             AnimationRecorder::tr("There is no complete run to record yet."));
    return;
  }
  const QString name = window.scenario_path().isEmpty()
                           ? QStringLiteral("animation")
                           : QFileInfo(window.scenario_path()).completeBaseName();
  QString filter;
  const QString path = QFileDialog::getSaveFileName(
      &window, AnimationRecorder::tr("Export animation"), ExportFolder() + "/" + name + ".mp4",
      AnimationRecorder::tr("MP4 video (*.mp4);;Animated GIF (*.gif);;PNG frames (a folder name "
                            "without suffix) (*)"),
      &filter);
  if (path.isEmpty()) return;
  RememberExportFolder(path);
  const double t_end = shown->t_end;
  const int total = AnimationRecorder::FrameCount(t_end, window.clock()->speed());
  QProgressDialog dialog(AnimationRecorder::tr("Recording %1 frames…").arg(total),
                         AnimationRecorder::tr("Cancel"), 0, total, &window);
  dialog.setObjectName("animationProgress");
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setMinimumDuration(0);
  AnimationRecorder recorder(window);
  const AnimationResult result = recorder.Record(t_end, path, [&dialog](int done, int) {
    dialog.setValue(done);
    QCoreApplication::processEvents();
    return !dialog.wasCanceled();
  });
  dialog.reset();
  if (result.ok)
    window.statusBar()->showMessage(
        AnimationRecorder::tr("Recorded %1 frames to %2").arg(result.frames).arg(path), 8000);
  else if (result.cancelled)
    window.statusBar()->showMessage(AnimationRecorder::tr("Recording cancelled"), 5000);
  else
    QMessageBox::warning(&window, AnimationRecorder::tr("Export animation"), result.error);
}

}  // namespace dirac::ui
