// The 3D view's mouse: presses, drags and the wheel forwarded to VTK's trackball camera or
// taken by the scene (a ghost drag) or the legend button (members of SceneView;
// scene_view.hpp).
#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkGenericRenderWindowInteractor.h>
#include <vtkRenderer.h>

#include "scenes/scene_view.hpp"
#include "scenes/view_controls.hpp"

namespace dirac::ui {

void SceneView::ForwardMouse(QMouseEvent* event) {
  const qreal ratio = devicePixelRatioF();
  const bool ctrl = event->modifiers() & Qt::ControlModifier;
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  interactor_->SetEventInformationFlipY(static_cast<int>(event->position().x() * ratio),
                                        static_cast<int>(event->position().y() * ratio), ctrl,
                                        shift, 0, event->type() == QEvent::MouseButtonDblClick);
}

void SceneView::ForwardButton(QMouseEvent* event, bool press) {
  using Handler = void (vtkRenderWindowInteractor::*)();
  Handler handler = nullptr;
  switch (event->button()) {
    case Qt::LeftButton:
      handler = press ? &vtkRenderWindowInteractor::LeftButtonPressEvent
                      : &vtkRenderWindowInteractor::LeftButtonReleaseEvent;
      break;
    case Qt::MiddleButton:
      handler = press ? &vtkRenderWindowInteractor::MiddleButtonPressEvent
                      : &vtkRenderWindowInteractor::MiddleButtonReleaseEvent;
      break;
    case Qt::RightButton:
      handler = press ? &vtkRenderWindowInteractor::RightButtonPressEvent
                      : &vtkRenderWindowInteractor::RightButtonReleaseEvent;
      break;
    default:
      return;
  }
  ForwardMouse(event);
  (interactor_.Get()->*handler)();
}

void SceneView::mousePressEvent(QMouseEvent* event) {
  WaitForFrame();
  if (!EnsureWindow()) return;
  if (scene_ && event->button() == Qt::LeftButton) {
    const qreal ratio = devicePixelRatioF();
    const int x = static_cast<int>(event->position().x() * ratio);
    const int y = static_cast<int>((height() - event->position().y()) * ratio);
    if (controls_->OnLegendButton(overlay_, x, y)) {  // the legend button, not the camera
      SetLegendShown(!legend_shown());
      return;
    }
    if (scene_->OnPointerPress(renderer_, x, y)) {
      scene_drag_ = true;
      RequestRender();
      return;
    }
  }
  // The camera is the user's once a drag has moved it (at the release): a click leaves the
  // automatic refit on.
  if (event->buttons() == event->button()) press_pose_ = camera_pose();  // the first one down
  camera_press_ = true;
  ForwardButton(event, true);
}

void SceneView::mouseReleaseEvent(QMouseEvent* event) {
  WaitForFrame();
  if (!EnsureWindow()) return;
  if (scene_drag_) {
    if (event->button() == Qt::LeftButton) {
      scene_drag_ = false;
      if (scene_) scene_->OnPointerRelease();
      RequestRender();
    }
    return;
  }
  ForwardButton(event, false);
  if (camera_press_ && event->buttons() == Qt::NoButton) {
    camera_press_ = false;
    const CameraPose pose = camera_pose();
    if (pose.position != press_pose_.position || pose.focal_point != press_pose_.focal_point ||
        pose.view_up != press_pose_.view_up || pose.view_angle != press_pose_.view_angle ||
        pose.parallel_scale != press_pose_.parallel_scale)
      camera_moved_by_user_ = true;
  }
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
  WaitForFrame();
  if (!EnsureWindow()) return;
  if (scene_drag_) {
    const qreal ratio = devicePixelRatioF();
    if (scene_)
      scene_->OnPointerMove(renderer_, static_cast<int>(event->position().x() * ratio),
                            static_cast<int>((height() - event->position().y()) * ratio));
    RequestRender();
    return;
  }
  ForwardMouse(event);
  interactor_->MouseMoveEvent();
}

void SceneView::wheelEvent(QWheelEvent* event) {
  WaitForFrame();
  if (!EnsureWindow()) return;
  camera_moved_by_user_ = true;
  const qreal ratio = devicePixelRatioF();
  interactor_->SetEventInformationFlipY(static_cast<int>(event->position().x() * ratio),
                                        static_cast<int>(event->position().y() * ratio));
  if (event->angleDelta().y() > 0) {
    interactor_->MouseWheelForwardEvent();
  } else if (event->angleDelta().y() < 0) {
    interactor_->MouseWheelBackwardEvent();
  }
  event->accept();
}

}  // namespace dirac::ui
