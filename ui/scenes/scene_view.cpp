#include "scenes/scene_view.hpp"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QPainter>
#include <QTimer>

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkActor2DCollection.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCameraPass.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkOpenGLState.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtk_glew.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "scenes/camera_fit.hpp"
#include "scenes/scene_kit.hpp"

namespace dirac::ui {
namespace {

constexpr int kMultiSamples = 4;  // of the still (settled) frame
constexpr int kSettleMs = 180;    // rest before the smooth frame

}  // namespace

// One job at a time on a thread of its own: the fast frame of an edit (StartFastFrame).
class SceneView::RenderThread {
 public:
  RenderThread() : thread_([this] { Loop(); }) {}
  ~RenderThread() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void Post(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      job_ = std::move(job);
      done_ = false;
    }
    wake_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [this] { return done_; });
  }

 private:
  void Loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || job_; });
        if (stopping_) return;
        job = std::move(job_);
        job_ = nullptr;
      }
      job();
      {
        std::lock_guard lock(mutex_);
        done_ = true;
      }
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::function<void()> job_;
  bool done_ = true;
  bool stopping_ = false;
  std::thread thread_;
};

SceneView::SceneView(QWidget* parent) : QWidget(parent) {
  setObjectName("sceneView");
  setAttribute(Qt::WA_NoSystemBackground);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(320, 240);

  controls_ = std::make_unique<ViewControls>();

  renderer_ = vtkSmartPointer<vtkRenderer>::New();
  // A solid background: it is cleared with the frame. A gradient is a full-view quad drawn
  // every frame, 7-9 ms of CPU per frame with software OpenGL (ui/window/README.md, Playback).
  renderer_->SetBackground(kBackground[0], kBackground[1], kBackground[2]);
  renderer_->SetBackgroundAlpha(1.0);  // opaque frames: they are read back as RGB32
  // Text overlays (the time, messages, the scenes' legends) live in a second layer drawn at full
  // resolution after the 3D layer, also when a fast frame reduced the 3D layer's resolution.
  overlay_ = vtkSmartPointer<vtkRenderer>::New();
  overlay_->SetLayer(1);
  overlay_->InteractiveOff();
  render_window_ = vtkSmartPointer<vtkRenderWindow>::New();
  render_window_->SetNumberOfLayers(2);
  // Off screen: VTK draws into its FBOs, ReadFrame() copies, Qt paints. No blit to a back buffer
  // and no swap: those two full-frame passes were most of a frame's cost with software OpenGL.
  render_window_->OffScreenRenderingOn();
  read_callback_ = vtkSmartPointer<vtkCallbackCommand>::New();
  read_callback_->SetClientData(this);
  read_callback_->SetCallback([](vtkObject*, unsigned long, void* client, void*) {
    auto* view = static_cast<SceneView*>(client);
    view->ReadFrame();
    if (!view->painting_frame_) view->update();  // the interactor's own renders
  });
  render_window_->AddObserver(vtkCommand::EndEvent, read_callback_);
  render_window_->AddRenderer(renderer_);
  render_window_->AddRenderer(overlay_);
  upscale_callback_ = vtkSmartPointer<vtkCallbackCommand>::New();
  upscale_callback_->SetClientData(this);
  upscale_callback_->SetCallback([](vtkObject*, unsigned long, void* client, void*) {
    static_cast<SceneView*>(client)->StretchReducedFrame();
  });
  renderer_->AddObserver(vtkCommand::EndEvent, upscale_callback_);
  ground_callback_ = vtkSmartPointer<vtkCallbackCommand>::New();
  ground_callback_->SetClientData(this);
  ground_callback_->SetCallback([](vtkObject*, unsigned long event, void* client, void*) {
    auto* view = static_cast<SceneView*>(client);
    if (event == vtkCommand::StartEvent)
      view->SubstituteGround();
    else
      view->RestoreGround();
  });
  // Priority below the scenes' start observers (0), so it sees the camera they set.
  renderer_->AddObserver(vtkCommand::StartEvent, ground_callback_, -1.0f);
  renderer_->AddObserver(vtkCommand::EndEvent, ground_callback_, -1.0f);
  // DIRAC_FAST_FRAME_SCALE=s (0 < s < 1): fast frames' 3D layer at s times the size, stretched.
  // Off by default: no measurable CPU saved with llvmpipe (ui/window/README.md, Playback).
  if (const char* scale = std::getenv("DIRAC_FAST_FRAME_SCALE")) {
    const double value = std::atof(scale);
    if (value > 0.0 && value <= 1.0) fast_scale_ = value;
  }
  render_window_->SetMultiSamples(kMultiSamples);
  // Fast frames go through VTK's plain render steps (lights, opaque, translucent blended in
  // draw order, overlay) instead of the renderer's default path with order-independent
  // translucency: with software OpenGL that halves a frame with translucent props (grids,
  // ghosts, the constraint plane). The still frame keeps the default path.
  auto steps = vtkSmartPointer<vtkRenderStepsPass>::New();
  fast_pass_ = vtkSmartPointer<vtkCameraPass>::New();
  fast_pass_->SetDelegatePass(steps);
  // Edits and playback get fast frames (no multisampling: with software OpenGL, as under Xvfb,
  // 4x MSAA doubles the frame time); the view is redrawn smooth once it rests.
  settle_.setSingleShot(true);
  settle_.setInterval(kSettleMs);
  connect(&settle_, &QTimer::timeout, this, [this] { RenderNow(); });
  time_text_ = vtkSmartPointer<vtkTextActor>::New();
  time_text_->GetTextProperty()->SetFontSize(18);
  time_text_->GetTextProperty()->SetColor(0.92, 0.93, 0.96);
  time_text_->GetTextProperty()->SetFontFamilyToCourier();
  time_text_->GetTextProperty()->SetVerticalJustificationToTop();
  time_text_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  time_text_->GetPositionCoordinate()->SetValue(0.015, 0.975);
  overlay_->AddActor2D(time_text_);
  message_ = MakeMessageText(0.5);
  overlay_->AddActor2D(message_);
  interactor_ = vtkSmartPointer<vtkGenericRenderWindowInteractor>::New();
  interactor_->SetRenderWindow(render_window_);
  auto style = vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New();
  interactor_->SetInteractorStyle(style);
  render_thread_ = std::make_unique<RenderThread>();
}

SceneView::~SceneView() {
  WaitForFrame();
  render_thread_.reset();
  RestoreGround();
  scene_.reset();
  stretch_buffer_ = nullptr;
  // Release the GL context and VTK's hidden window while the X display is still open.
  if (window_ready_) render_window_->Finalize();
}

bool SceneView::EnsureWindow() {
  WaitForFrame();
  if (window_ready_) return true;
  if (!isVisible() || width() <= 0 || height() <= 0) return false;
  const qreal ratio = devicePixelRatioF();
  render_window_->SetSize(static_cast<int>(width() * ratio), static_cast<int>(height() * ratio));
  // Texts' sizes are points at VTK's 72 dpi: scaled with the screen (QT_SCALE_FACTOR=1.5: 108).
  render_window_->SetDPI(std::max(72, static_cast<int>(std::lround(72 * ratio))));
  interactor_->Initialize();
  window_ready_ = true;
  PlaceControls();
  return true;
}

void SceneView::SetScene(std::unique_ptr<DrawnScene> scene) {
  WaitForFrame();
  RestoreGround();
  scene_drag_ = false;
  renderer_->RemoveAllViewProps();
  overlay_->RemoveAllViewProps();
  overlay_->AddActor2D(time_text_);
  overlay_->AddActor2D(message_);
  controls_->AddTo(overlay_);
  time_text_->SetInput("");
  scene_ = std::move(scene);
  if (scene_) {
    scene_->AddTo(renderer_);
    // The scene's text overlays go to the overlay layer (kept at full resolution).
    std::vector<vtkActor2D*> overlays;
    vtkActor2DCollection* actors = renderer_->GetActors2D();
    actors->InitTraversal();
    while (vtkActor2D* actor = actors->GetNextActor2D()) overlays.push_back(actor);
    for (vtkActor2D* actor : overlays) {
      overlay_->AddActor2D(actor);
      renderer_->RemoveActor2D(actor);
    }
  }
  ApplyLegend();
  RequestRender();
}

void SceneView::PlaceControls() {
  const qreal ratio = devicePixelRatioF();
  const int w = static_cast<int>(width() * ratio), h = static_cast<int>(height() * ratio);
  controls_->Place(w, h, scene_ ? scene_->TopOverlayDepth(w, h) : 0);
  if (window_ready_) {  // whole when narrow (their ends were cut off)
    controls_->FitHintWidth(overlay_, w - 24.0 * ratio);
    ViewControls::FitTextWidth(message_, overlay_, w - 24.0 * ratio, 16);
  }
}

void SceneView::SetHint(const QString& hint) {
  WaitForFrame();
  controls_->SetHint(hint.toStdString());
  PlaceControls();
  RequestRender();
}

QString SceneView::hint() const { return QString::fromStdString(controls_->hint()); }

QRect SceneView::legend_button_rect() const {
  WaitForFrame();
  double box[4];  // device pixels, y up
  if (!window_ready_ || !controls_->LegendButtonBox(overlay_, box)) return {};
  const qreal ratio = devicePixelRatioF();
  return QRectF(QPointF(box[0] / ratio, height() - box[3] / ratio),
                QPointF(box[1] / ratio, height() - box[2] / ratio))
      .toRect();
}

void SceneView::SetLegendShown(bool shown) {
  legend_choice_ = shown;
  WaitForFrame();
  ApplyLegend();
  FitCameraUnlessUserMoved();  // the scene takes the room the legend leaves
  RequestRender();
}

ViewBand SceneView::FreeBand() const {
  const qreal ratio = devicePixelRatioF();
  ViewBand band{width() * ratio, height() * ratio, 40.0 * ratio, 12.0 * ratio, 12.0 * ratio};
  // Under the legend's lines (its font's 14 px at 1.2 line spacing, from 10 px up).
  auto* legend = vtkTextActor::SafeDownCast(scene_ ? scene_->legend() : nullptr);
  if (legend && legend_shown() && legend->GetInput()) {
    const std::string text = legend->GetInput();
    const auto lines = 1 + std::count(text.begin(), text.end(), '\n');
    band.bottom = (16.0 + 17.0 * static_cast<double>(lines)) * ratio + legend_raise_;
  }
  return band;
}

QRect SceneView::scene_bounds_rect() const {
  WaitForFrame();
  std::array<double, 6> bounds{};
  if (!window_ready_ || !scene_ || !scene_->Bounds(bounds)) return {};
  const std::array<double, 4> box = ProjectedBounds(renderer_, bounds);  // device pixels, y up
  const qreal ratio = devicePixelRatioF();
  return QRectF(QPointF(box[0] / ratio, height() - box[3] / ratio),
                QPointF(box[1] / ratio, height() - box[2] / ratio))
      .toRect();
}

bool SceneView::legend_shown() const {
  WaitForFrame();
  vtkActor2D* legend = scene_ ? scene_->legend() : nullptr;
  return legend && overlay_->GetActors2D()->IsItemPresent(legend);
}

void SceneView::ApplyLegend() {
  vtkActor2D* legend = scene_ ? scene_->legend() : nullptr;
  const bool shown = legend_choice_.value_or(height() >= kLegendMinHeight);
  if (legend) {
    if (shown && !overlay_->GetActors2D()->IsItemPresent(legend)) overlay_->AddActor2D(legend);
    if (!shown) overlay_->RemoveActor2D(legend);
  }
  controls_->ShowLegendButton(legend != nullptr, shown);
  legend_raise_ = 0.0;
  auto* text = vtkTextActor::SafeDownCast(legend);
  if (!shown || !text || !window_ready_) return;
  // Beside the view's left margin, short of the legend button ("Hide legend" covered the
  // legend's end in a narrow view); where it does not fit there even at the smallest size
  // (a 1012 px window at QT_SCALE_FACTOR=1.5), above the button instead.
  const double ratio = devicePixelRatioF();
  const double gap = 12.0 * ratio;
  text->SetDisplayPosition(kLegendLeft, kLegendBottom);
  double button[4];  // x0, x1, y0, y1, device pixels
  const bool has_button = controls_->LegendButtonBox(overlay_, button);
  const double right = has_button ? button[0] - gap : (width() - 16) * ratio;
  ViewControls::FitLegendWidth(text, overlay_, right - kLegendLeft);
  double box[4];  // about the legend's position
  text->GetBoundingBox(overlay_, box);
  if (has_button && kLegendLeft + box[1] > right) {
    legend_raise_ = button[3] + 0.5 * gap - kLegendBottom;
    text->SetDisplayPosition(kLegendLeft, kLegendBottom + static_cast<int>(legend_raise_));
    ViewControls::FitLegendWidth(text, overlay_, (width() - 16) * ratio - kLegendLeft);
  }
}

QRect SceneView::legend_rect() const {
  WaitForFrame();
  auto* text = vtkTextActor::SafeDownCast(scene_ ? scene_->legend() : nullptr);
  if (!window_ready_ || !text || !legend_shown() || !text->GetInput()) return {};
  double box[4];  // about the legend's position, device pixels, y up
  text->GetBoundingBox(overlay_, box);
  const double x = kLegendLeft, y = kLegendBottom + static_cast<int>(legend_raise_);
  const qreal ratio = devicePixelRatioF();
  return QRectF(QPointF((x + box[0]) / ratio, height() - (y + box[3]) / ratio),
                QPointF((x + box[1]) / ratio, height() - (y + box[2]) / ratio))
      .toRect();
}

void SceneView::SetMessage(const QString& message) {
  WaitForFrame();
  message_text_ = message;
  // Wrap long messages (VTK text does not wrap) at ~44 characters per line.
  QStringList lines;
  for (const QString& paragraph : message.split('\n')) {
    QString line;
    for (const QString& word : paragraph.split(' ', Qt::SkipEmptyParts)) {
      if (!line.isEmpty() && line.size() + word.size() > 44) {
        lines << line;
        line.clear();
      }
      line += (line.isEmpty() ? "" : " ") + word;
    }
    lines << line;
  }
  message_->SetInput(lines.join('\n').toUtf8().constData());
  message_->SetVisibility(!message.isEmpty());
  PlaceControls();  // sized to the view's width
  RequestRender();
}

void SceneView::SetSnapshot(const SnapshotPtr& snapshot) {
  WaitForFrame();
  if (!scene_) return;
  scene_->SetSnapshot(snapshot);
  ApplyLegend();  // its text may have changed (and with it, its width)
  RequestRender();
}

void SceneView::SetTime(double t) {
  WaitForFrame();
  if (!scene_) return;
  scene_->SetTime(t);
  time_text_->SetInput(QStringLiteral("t = %1 s").arg(t, 0, 'f', 3).toUtf8().constData());
  RequestRender();
}

void SceneView::SetScenarioValues(const dirac::Scenario& scenario) {
  WaitForFrame();
  if (scene_ && scene_->OnScenarioEdited(scenario)) RequestRender();
}

void SceneView::FitCameraUnlessUserMoved() {
  // Not during a press on the view either: the drag it may start is the user's.
  // (A press whose release went elsewhere, to the context menu, holds nothing.)
  if (camera_moved_by_user_ || (camera_press_ && QGuiApplication::mouseButtons() != Qt::NoButton))
    return;
  ResetCamera();
}

SceneView::CameraPose SceneView::camera_pose() const {
  WaitForFrame();
  CameraPose pose;
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->GetPosition(pose.position.data());
  camera->GetFocalPoint(pose.focal_point.data());
  camera->GetViewUp(pose.view_up.data());
  pose.view_angle = camera->GetViewAngle();
  pose.parallel = camera->GetParallelProjection() != 0;
  pose.parallel_scale = camera->GetParallelScale();
  return pose;
}

void SceneView::SetCameraPose(const CameraPose& pose) {
  WaitForFrame();
  camera_moved_by_user_ = true;
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->SetPosition(pose.position.data());
  camera->SetFocalPoint(pose.focal_point.data());
  camera->SetViewUp(pose.view_up.data());
  camera->SetViewAngle(pose.view_angle);
  camera->SetParallelProjection(pose.parallel ? 1 : 0);
  camera->SetParallelScale(pose.parallel_scale);
  renderer_->ResetCameraClippingRange();
  RequestRender();
}

void SceneView::ResetCamera() {
  WaitForFrame();
  camera_moved_by_user_ = false;
  std::array<double, 6> bounds{};
  if (!scene_ || !scene_->Bounds(bounds)) {
    renderer_->ResetCamera();
    RequestRender();
    return;
  }
  const double center[3] = {0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]),
                            0.5 * (bounds[4] + bounds[5])};
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->SetFocalPoint(center);
  // Oblique view from the (+e1, -e2, +up) octant of the scene's up direction and a right-handed
  // basis (e1, e2) of the ground (x, y for z up): all three axes visible.
  const std::array<double, 3> up = scene_->up();
  const std::array<double, 3> e1 =
      std::abs(up[0]) < 0.9 ? std::array<double, 3>{1, 0, 0} : std::array<double, 3>{0, 1, 0};
  std::array<double, 3> a{}, e2{};
  const double along = e1[0] * up[0] + e1[1] * up[1] + e1[2] * up[2];
  for (int k = 0; k < 3; ++k) a[k] = e1[k] - along * up[k];  // e1 made horizontal
  const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int k = 0; k < 3; ++k) a[k] /= n;
  e2 = {up[1] * a[2] - up[2] * a[1], up[2] * a[0] - up[0] * a[2], up[0] * a[1] - up[1] * a[0]};
  camera->SetPosition(center[0] + 1.0 * a[0] - 1.6 * e2[0] + 0.9 * up[0],
                      center[1] + 1.0 * a[1] - 1.6 * e2[1] + 0.9 * up[1],
                      center[2] + 1.0 * a[2] - 1.6 * e2[2] + 0.9 * up[2]);
  camera->SetViewUp(up[0], up[1], up[2]);
  renderer_->ResetCamera(bounds.data());
  if (window_ready_ && width() > 50 && height() > 50) {
    FitCameraToBand(renderer_, bounds, FreeBand());
  } else {
    camera->Zoom(1.15);
  }
  renderer_->ResetCameraClippingRange();
  scene_->OnCameraReset();
  RequestRender();
}

void SceneView::RequestRender() {
  settle_.start();
  if (render_pending_) return;
  render_pending_ = true;
  QTimer::singleShot(0, this, [this] {
    if (render_pending_) RenderFast();
  });
}

bool SceneView::BeginFrame(int samples) {
  WaitForFrame();
  render_pending_ = false;
  if (!EnsureWindow()) return false;
  PlaceControls();  // the hint under the scene's text, which may have moved
  if (render_window_->GetMultiSamples() != samples) render_window_->SetMultiSamples(samples);
  renderer_->ResetCameraClippingRange();
  // Only for this frame: picking (vtkPropPicker) renders through the default path.
  const bool fast = samples == 0;
  if (fast) renderer_->SetPass(fast_pass_);
  // No copy into the display framebuffer (Frame() does one when it swaps buffers): ReadFrame
  // reads the single-sampled frame from the render framebuffer.
  if (fast) render_window_->SetSwapBuffers(0);
  stretch_pending_ = fast && fast_scale_ < 1.0;
  if (stretch_pending_) renderer_->SetViewport(0.0, 0.0, fast_scale_, fast_scale_);
  painting_frame_ = true;
  frame_ratio_ = devicePixelRatioF();
  return true;
}

void SceneView::RestoreAfterFrame() const {
  painting_frame_ = false;
  if (stretch_pending_) renderer_->SetViewport(0.0, 0.0, 1.0, 1.0);
  stretch_pending_ = false;
  renderer_->SetPass(nullptr);
  render_window_->SetSwapBuffers(1);
}

void SceneView::RenderTimed() {
  QElapsedTimer timer;
  timer.start();
  render_window_->Render();
  last_render_ms_ = static_cast<double>(timer.nsecsElapsed()) * 1e-6;
}

bool SceneView::DrawFrame(int samples) {
  if (!BeginFrame(samples)) return false;
  RenderTimed();
  RestoreAfterFrame();
  return true;
}

void SceneView::Render(int samples) {
  if (DrawFrame(samples)) repaint();  // on screen now: edits time their latency up to here
}

void SceneView::StartFastFrame() {
  settle_.start();
  if (!BeginFrame(0)) return;
  // The context moves to the render thread for the frame (a context is current on one thread
  // at a time); WaitForFrame() takes it back.
  render_window_->ReleaseCurrent();
  frame_in_flight_ = true;
  render_thread_->Post([this] {
    RenderTimed();
    render_window_->ReleaseCurrent();
  });
}

void SceneView::WaitForFrame() const {
  if (!frame_in_flight_) return;
  render_thread_->Wait();
  frame_in_flight_ = false;
  render_window_->MakeCurrent();
  RestoreAfterFrame();
}

void SceneView::FinishFrame() {
  if (!frame_in_flight_) return;
  WaitForFrame();
  repaint();
}

void SceneView::ReadFrame() {
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(render_window_);
  if (!window) return;
  // A fast frame (single-sampled, no buffer swap: BeginFrame) is read where it was drawn; any
  // other frame from the display framebuffer, where Frame() resolved it.
  vtkOpenGLFramebufferObject* source = render_window_->GetSwapBuffers()
                                           ? window->GetDisplayFramebuffer()
                                           : window->GetRenderFramebuffer();
  if (!source) return;
  const int* size = window->GetSize();
  const int w = size[0], h = size[1];
  if (w <= 0 || h <= 0) return;
  if (frame_.width() != w || frame_.height() != h) frame_ = QImage(w, h, QImage::Format_RGB32);
  window->MakeCurrent();
  vtkOpenGLState* state = window->GetState();
  state->PushReadFramebufferBinding();
  source->Bind(GL_READ_FRAMEBUFFER);
  source->ActivateReadBuffer(0);
  // GL rows go bottom-up: Mesa returns them top-down itself (GL_MESA_pack_invert, in the copy
  // it makes anyway), else the image is mirrored afterwards (one more pass over the frame).
  const bool invert = GLEW_MESA_pack_invert;
  if (invert) glPixelStorei(GL_PACK_INVERT_MESA, GL_TRUE);
  // RGB32 is 0xffRRGGBB: B, G, R, A bytes in memory on this little-endian machine. The rows are
  // 4 w bytes, so any pack alignment fits QImage's (4-byte aligned) scan lines.
  glReadPixels(0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, frame_.bits());
  if (invert) glPixelStorei(GL_PACK_INVERT_MESA, GL_FALSE);
  state->PopReadFramebufferBinding();
  if (!invert) frame_.mirror();
  frame_.setDevicePixelRatio(frame_ratio_);
}

void SceneView::SubstituteGround() {
  RestoreGround();
  ground_substituted_ = false;
  if (!scene_ || !ground_substitution_) return;
  const std::optional<GroundPlane> ground = scene_->Ground();
  if (!ground || !ground->actor || !ground->actor->GetVisibility()) return;
  if (!PlaneFillsView(renderer_, ground->rect, ground->z)) return;
  ground->actor->VisibilityOff();
  renderer_->SetBackground(ground->color[0], ground->color[1], ground->color[2]);
  substituted_ground_ = ground->actor;
  ground_substituted_ = true;
}

void SceneView::RestoreGround() {
  if (!substituted_ground_) return;
  substituted_ground_->VisibilityOn();
  renderer_->SetBackground(kBackground[0], kBackground[1], kBackground[2]);
  substituted_ground_ = nullptr;
}

void SceneView::StretchReducedFrame() {
  if (!stretch_pending_) return;
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(render_window_);
  if (!window || !window->GetRenderFramebuffer()) return;
  int vw = 0, vh = 0, vx = 0, vy = 0;
  renderer_->GetTiledSizeAndOrigin(&vw, &vh, &vx, &vy);
  const int* size = window->GetSize();
  const int w = size[0], h = size[1];
  if (w <= 0 || h <= 0 || vw <= 0 || vh <= 0) return;
  vtkOpenGLState* state = window->GetState();
  state->PushFramebufferBindings();
  if (!stretch_buffer_ || stretch_size_ != std::array<int, 2>{w, h}) {
    stretch_buffer_ = vtkSmartPointer<vtkOpenGLFramebufferObject>::New();
    stretch_buffer_->SetContext(window);
    stretch_buffer_->PopulateFramebuffer(w, h, true, 1, VTK_UNSIGNED_CHAR, false, 0, 0);
    stretch_size_ = {w, h};
  }
  vtkOpenGLState::ScopedglEnableDisable scissor(state, GL_SCISSOR_TEST);
  state->vtkglDisable(GL_SCISSOR_TEST);
  vtkOpenGLFramebufferObject* frame = window->GetRenderFramebuffer();
  // The reduced image (lower left of the render buffer) stretched into the spare buffer, then
  // copied back over the whole render buffer; the overlay layer is drawn on top of it.
  frame->Bind(GL_READ_FRAMEBUFFER);
  frame->ActivateReadBuffer(0);
  stretch_buffer_->Bind(GL_DRAW_FRAMEBUFFER);
  stretch_buffer_->ActivateDrawBuffer(0);
  state->vtkglBlitFramebuffer(vx, vy, vx + vw, vy + vh, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  stretch_buffer_->Bind(GL_READ_FRAMEBUFFER);
  stretch_buffer_->ActivateReadBuffer(0);
  frame->Bind(GL_DRAW_FRAMEBUFFER);
  frame->ActivateDrawBuffer(0);
  state->vtkglBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  state->PopFramebufferBindings();
}

void SceneView::RenderNow() {
  settle_.stop();
  Render(kMultiSamples);
}

void SceneView::RenderFast() {
  settle_.start();
  Render(0);
}

QImage SceneView::GrabImage() {
  WaitForFrame();
  if (!EnsureWindow()) return {};
  RenderNow();
  if (frame_.isNull()) return {};
  QImage image = frame_.convertToFormat(QImage::Format_RGB888);
  image.setDevicePixelRatio(1.0);
  return image;
}

void SceneView::paintEvent(QPaintEvent*) {
  WaitForFrame();
  const qreal ratio = devicePixelRatioF();
  const QSize wanted(static_cast<int>(width() * ratio), static_cast<int>(height() * ratio));
  // First show or a resize: a fast frame before painting (the smooth one follows at rest).
  if (!painting_frame_ && (frame_.isNull() || frame_.size() != wanted) && DrawFrame(0))
    settle_.start();
  QPainter painter(this);
  if (frame_.isNull()) {
    painter.fillRect(rect(), QColor::fromRgbF(kBackground[0], kBackground[1], kBackground[2]));
    return;
  }
  painter.drawImage(QPointF(0, 0), frame_);
}

void SceneView::resizeEvent(QResizeEvent* event) {
  WaitForFrame();
  QWidget::resizeEvent(event);
  ApplyLegend();  // the automatic choice follows the height
  if (!window_ready_) return;
  const qreal ratio = devicePixelRatioF();
  const int w = static_cast<int>(width() * ratio), h = static_cast<int>(height() * ratio);
  render_window_->SetDPI(std::max(72, static_cast<int>(std::lround(72 * ratio))));
  PlaceControls();
  render_window_->SetSize(w, h);
  interactor_->UpdateSize(w, h);
  FitCameraUnlessUserMoved();  // the framing follows the view's shape
  RequestRender();
}

}  // namespace dirac::ui
