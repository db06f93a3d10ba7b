#include "window/scripted_capture.hpp"

#include <QImage>
#include <QMetaObject>
#include <QTextStream>
#include <QWindow>

#include "plots/plot_panel.hpp"
#include "run/playback_clock.hpp"
#include "run/simulation_controller.hpp"
#include "scenes/scene_view.hpp"
#include "window/animation_export.hpp"
#include "window/main_window.hpp"

namespace dirac::ui {
ScriptedCapture::ScriptedCapture(MainWindow* window, std::optional<double> time, QString path,
                                 int timeout_ms, QObject* parent)
    : QObject(parent), window_(window), time_(time), path_(std::move(path)) {
  timeout_.setSingleShot(true);
  timeout_.setInterval(timeout_ms);
  connect(&timeout_, &QTimer::timeout, this, [this] {
    Finish(3, capturing_ ? "timed out waiting for the window's layout"
                         : "timed out waiting for the simulation");
  });
}

void ScriptedCapture::Start() {
  SimulationController* controller = window_->controller();
  connect(controller, &SimulationController::snapshotReady, this, &ScriptedCapture::OnSnapshot);
  connect(controller, &SimulationController::gaugeReady, this, &ScriptedCapture::OnGauge);
  connect(controller, &SimulationController::failed, this,
          [this](const QString& message) { Finish(1, message); });
  if (time_) window_->EnsureSpanCovers(*time_);
  timeout_.start();
  if (const SnapshotPtr latest = controller->latest(); latest && !controller->busy()) {
    OnSnapshot(latest);
  }
}

void ScriptedCapture::OnSnapshot(const SnapshotPtr& snapshot) {
  if (capturing_ || done_ || !snapshot->complete) return;
  if (time_ && snapshot->t_end < *time_) return;  // a longer run is on its way
  if (snapshot->gauge_pending) {
    // The gauge charts fill when the gauge result of this run arrives (after the snapshot).
    const GaugeResultPtr gauge = window_->controller()->latest_gauge();
    if (!gauge || gauge->run != snapshot->run) {
      waiting_for_gauge_ = snapshot->run;
      return;
    }
  }
  Begin();
}

void ScriptedCapture::OnGauge(const GaugeResultPtr& result) {
  if (capturing_ || done_ || !waiting_for_gauge_ || result->run != *waiting_for_gauge_) return;
  Begin();
}

void ScriptedCapture::Begin() {
  capturing_ = true;
  const SnapshotPtr snapshot = window_->controller()->latest();
  window_->clock()->Pause();
  window_->clock()->SetTime(time_.value_or(snapshot->t_end));
  // A picture of the run under way, not of the first screen: no "Press Space to play".
  window_->scene_view()->SetHint(QString());
  QMetaObject::invokeMethod(this, &ScriptedCapture::CaptureWhenLaidOut, Qt::QueuedConnection);
}

bool ScriptedCapture::LaidOut() const {
  QWindow* handle = window_->windowHandle();
  return handle && handle->isExposed() && window_->plot_panel()->LaidOut();
}

void ScriptedCapture::CaptureWhenLaidOut() {
  // A condition, not a delay: the window shown and every chart laid out for its final size
  // with the plot areas aligned (a chart once was drawn before its layout). Each turn of the
  // event loop settles what it can now; what it cannot yet (the window not exposed, a size
  // still to arrive) the next turn sees.
  if (done_) return;
  window_->plot_panel()->SettleLayout();
  if (!LaidOut()) {
    QTimer::singleShot(kRetryMs, this, &ScriptedCapture::CaptureWhenLaidOut);
    return;
  }
  Capture();
}

void ScriptedCapture::Capture() {
  if (!record_.isEmpty()) {
    Record();
    return;
  }
  // Painted as laid out, whatever the load.
  window_->plot_panel()->repaint();
  window_->scene_view()->RenderNow();
  const QImage image =
      scene_only_ ? window_->scene_view()->GrabImage() : window_->GrabWindowImage();
  if (image.isNull()) {
    Finish(1, "could not grab the window");
  } else if (!image.save(path_, "PNG")) {
    Finish(1, "cannot write " + path_);
  } else {
    Finish(0, QString());
  }
}

void ScriptedCapture::Record() {
  AnimationRecorder recorder(*window_);
  const double end = time_.value_or(window_->controller()->latest()->t_end);
  int said = -1;
  const AnimationResult result = recorder.Record(end, record_, [&said](int done, int total) {
    const int percent = 100 * done / total;
    if (percent / 10 != said / 10 || done == total) {
      QTextStream(stderr) << "dirac-studio: recording: frame " << done << " of " << total << "\n";
      said = percent;
    }
    return true;
  });
  if (result.ok)
    Finish(0, QString());
  else
    Finish(1, result.error);
}

void ScriptedCapture::Finish(int exit_code, const QString& message) {
  if (done_) return;
  done_ = true;
  timeout_.stop();
  if (!message.isEmpty()) QTextStream(stderr) << "dirac-studio: " << message << "\n";
  emit finished(exit_code);
}

}  // namespace dirac::ui
