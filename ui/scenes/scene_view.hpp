#pragma once
/// @file scene_view.hpp
/// The 3D view: a vtkRenderWindow rendering off screen, its frame read back and painted by Qt
/// (VTK's own Qt module on this platform is built for Qt 5, so it is not used).

#include <QImage>
#include <QTimer>
#include <QWidget>

#include <vtkSmartPointer.h>

#include <array>
#include <memory>
#include <optional>

#include "scenes/camera_fit.hpp"
#include "scenes/drawn_scene.hpp"
#include "scenes/view_controls.hpp"

class vtkCallbackCommand;
class vtkActor;
class vtkCameraPass;
class vtkOpenGLFramebufferObject;
class vtkGenericRenderWindowInteractor;
class vtkRenderWindow;
class vtkRenderer;
class vtkTextActor;

namespace dirac::ui {

/// Hosts one DrawnScene. VTK renders off screen (its framebuffer objects); each frame is read
/// back into an image that this widget paints. With software OpenGL that is about 5 ms cheaper
/// per frame than blitting VTK's framebuffer to a native window and swapping (ui/scenes/README.md,
/// "VTK embedding"). Mouse input drives a trackball camera.
class SceneView : public QWidget {
  Q_OBJECT

 public:
  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  /// Replaces the scene (null: empty view) and renders.
  void SetScene(std::unique_ptr<DrawnScene> scene);
  DrawnScene* scene() const {
    WaitForFrame();
    return scene_.get();
  }

  /// Shows or folds away the scene's legend (DrawnScene::legend); a click on the view's button
  /// in its lower right corner (legend_button_rect) does the same. Until the user chooses, the
  /// legend starts folded in a view lower than kLegendMinHeight (it would cover the scene) and
  /// shown otherwise.
  void SetLegendShown(bool shown);
  /// Whether the scene's legend is drawn (false also without a scene or a legend).
  bool legend_shown() const;
  static constexpr int kLegendMinHeight = 420;

  /// A one-line hint centred under the view's top row (e.g. "Press Space to play"), drawn by VTK
  /// like the legend button; "" hides it.
  void SetHint(const QString& hint);
  QString hint() const;
  /// Where the legend button is, in widget coordinates (empty without a legend or a frame).
  QRect legend_button_rect() const;
  /// Where the scene's legend is drawn, in widget coordinates (empty when it is folded or there
  /// is no legend or frame): never under the legend button.
  QRect legend_rect() const;

  /// Text shown in the middle of the view (e.g. why there is no scene); "" hides it.
  void SetMessage(const QString& message);
  /// The text last given to SetMessage ("" when hidden).
  const QString& message() const { return message_text_; }

  void SetSnapshot(const SnapshotPtr& snapshot);
  void SetTime(double t);
  /// Tells the scene the scenario's values were edited (DrawnScene::OnScenarioEdited).
  void SetScenarioValues(const dirac::Scenario& scenario);

  /// Fits the camera to the scene's bounds, looking from an oblique angle with z up: the bounds
  /// fill the band under the view's top row (time, readout, hint) and above the legend.
  void ResetCamera();
  /// Where the scene's bounds (DrawnScene::Bounds) are drawn, in widget coordinates (empty
  /// without a scene or a frame).
  QRect scene_bounds_rect() const;
  /// Whether the user moved the camera (a drag or the wheel that changed it, SetCameraPose)
  /// since the last ResetCamera; a click that moved nothing does not count.
  bool camera_moved_by_user() const { return camera_moved_by_user_; }
  /// ResetCamera() unless the user moved the camera (mouse) since the last reset.
  void FitCameraUnlessUserMoved();
  /// Where the camera is (a session keeps it): position, focal point and view-up direction in
  /// scene coordinates, the view angle [deg], parallel projection and its scale (half the
  /// view's height in scene units).
  struct CameraPose {
    std::array<double, 3> position{0, 0, 1};
    std::array<double, 3> focal_point{0, 0, 0};
    std::array<double, 3> view_up{0, 1, 0};
    double view_angle = 30.0;
    bool parallel = false;
    double parallel_scale = 1.0;
  };
  CameraPose camera_pose() const;
  /// Puts the camera at `pose`, as if the user had moved it there (no automatic refit follows
  /// until ResetCamera).
  void SetCameraPose(const CameraPose& pose);
  /// Renders now (if the widget is shown), smooth (multisampled), and paints the frame.
  void RenderNow();
  /// Renders now without multisampling and with plain blended translucency (edits, playback,
  /// drags); a smooth frame follows once the view has rested for a moment.
  void RenderFast();
  /// RenderFast() in two halves, so the GUI thread can work while the frame renders: starts the
  /// fast frame on the view's render thread (the GL context moves there for the frame) and
  /// returns at once; FinishFrame() waits for it and paints it. In between the GUI thread must
  /// not touch the scene or VTK other than through this view: every member of the view waits for
  /// a frame in flight first.
  void StartFastFrame();
  void FinishFrame();
  /// The 3D image after a smooth render (RenderNow), as RGB888; null if the view is hidden.
  QImage GrabImage();
  /// Milliseconds the last Render() took in VTK (render and read back), before Qt painted it.
  double last_render_ms() const {
    WaitForFrame();
    return last_render_ms_;
  }
  /// The last frame read back from VTK (what the widget paints), in device pixels.
  const QImage& frame() const {
    WaitForFrame();
    return frame_;
  }

  /// Resolution scale of the fast frames' 3D layer: 1 (full), or DIRAC_FAST_FRAME_SCALE=s
  /// (0 < s <= 1; the 3D layer drawn at s times the width and height and stretched to the view,
  /// the text overlays at full resolution).
  double fast_scale() const { return fast_scale_; }

  /// Whether the last frame cleared in the scene's ground colour instead of drawing the ground
  /// (DrawnScene::Ground); on by default, switchable for comparisons.
  bool ground_substituted() const {
    WaitForFrame();
    return ground_substituted_;
  }
  void set_ground_substitution(bool on) { ground_substitution_ = on; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  class RenderThread;
  bool EnsureWindow();
  void Render(int samples);
  /// Sets up a frame (sample count, render pass, clipping range); false if the view has no
  /// window yet. RestoreAfterFrame() undoes the frame's settings.
  bool BeginFrame(int samples);
  void RestoreAfterFrame() const;
  /// The render itself, timed into last_render_ms_ (on whichever thread holds the context).
  void RenderTimed();
  /// BeginFrame, RenderTimed, RestoreAfterFrame on this thread, without painting; false if the
  /// view has no window yet.
  bool DrawFrame(int samples);
  /// Joins a frame in flight (StartFastFrame) and takes the GL context back.
  void WaitForFrame() const;
  /// After every render of the window (also the interactor's own): reads VTK's display
  /// framebuffer into frame_, top row first.
  void ReadFrame();
  /// After the 3D layer of a reduced fast frame: stretches it over the whole render buffer.
  void StretchReducedFrame();
  /// Before each frame (after the scene's own start observers, which may move the camera): the
  /// scene's ground as the clear colour instead of a quad when it fills the view
  /// (DrawnScene::Ground); after the frame, the ground and the background restored.
  void SubstituteGround();
  void RestoreGround();
  void RequestRender();
  void ForwardMouse(QMouseEvent* event);
  /// Forwards a press (or release) of the event's button to VTK's interactor.
  void ForwardButton(QMouseEvent* event, bool press);

  vtkSmartPointer<vtkRenderWindow> render_window_;
  vtkSmartPointer<vtkRenderer> renderer_;
  vtkSmartPointer<vtkRenderer> overlay_;  // layer 1: text overlays, always at full resolution
  vtkSmartPointer<vtkCallbackCommand> upscale_callback_;
  vtkSmartPointer<vtkCallbackCommand> ground_callback_;
  vtkSmartPointer<vtkCallbackCommand> read_callback_;
  QImage frame_;                         // Format_RGB32, device pixels
  mutable bool painting_frame_ = false;  // inside Render(): it paints the frame itself
  double last_render_ms_ = 0.0;          // VTK part of the last frame (written by its thread)
  qreal frame_ratio_ = 1.0;              // device pixel ratio of the frame being rendered
  std::unique_ptr<RenderThread> render_thread_;
  mutable bool frame_in_flight_ = false;    // StartFastFrame() without FinishFrame() yet
  vtkActor* substituted_ground_ = nullptr;  // hidden for the frame in progress
  bool ground_substitution_ = true;
  bool ground_substituted_ = false;  // in the last frame
  vtkSmartPointer<vtkOpenGLFramebufferObject> stretch_buffer_;
  std::array<int, 2> stretch_size_{0, 0};
  mutable bool stretch_pending_ = false;  // the render in progress is a reduced fast frame
  double fast_scale_ = 1.0;
  vtkSmartPointer<vtkCameraPass> fast_pass_;  // the fast frames' render steps
  vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
  vtkSmartPointer<vtkTextActor> time_text_;  // "t = ... s", top left
  vtkSmartPointer<vtkTextActor> message_;    // centred notice
  QString message_text_;                     // what message_ shows, unwrapped
  std::unique_ptr<ViewControls> controls_;   // the legend button and the hint
  std::optional<bool> legend_choice_;        // the user's, once made
  double legend_raise_ = 0.0;  // device px the legend stands above its place (over the button)
  static constexpr int kLegendLeft = 12;  // the legend's place, device px (MakeLegendText)
  static constexpr int kLegendBottom = 10;
  void ApplyLegend();
  // Places the legend button and the hint (under the scene's own text, DrawnScene).
  void PlaceControls();
  /// The view's size and the rows and columns its text overlays cover (camera_fit.hpp).
  ViewBand FreeBand() const;
  std::unique_ptr<DrawnScene> scene_;
  bool window_ready_ = false;
  bool render_pending_ = false;
  QTimer settle_;  // the smooth frame after the last fast one
  bool camera_moved_by_user_ = false;
  bool camera_press_ = false;  // a button is down on the view, forwarded to the camera
  CameraPose press_pose_;      // the camera when it went down
  bool scene_drag_ = false;    // the scene took the current drag (OnPointerPress)
};

}  // namespace dirac::ui
