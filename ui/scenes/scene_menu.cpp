#include "scenes/scene_menu.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenu>
#include <QMouseEvent>

#include "scenes/scene_view.hpp"

namespace dirac::ui {
namespace {

constexpr int kClickSlop = 4;  // px a right click may move and still open the menu

}  // namespace

SceneMenu::SceneMenu(SceneView* view) : QObject(view), view_(view) {
  view->installEventFilter(this);
}

int SceneMenu::Fill(QMenu& menu, SceneView& view) {
  DrawnScene* scene = view.scene();
  if (!scene) return 0;
  const std::vector<SceneSetting> settings = scene->settings();
  for (std::size_t s = 0; s < settings.size(); ++s) {
    QMenu* sub = menu.addMenu(QString::fromStdString(settings[s].label));
    auto* group = new QActionGroup(sub);
    for (std::size_t c = 0; c < settings[s].choices.size(); ++c) {
      QAction* action = sub->addAction(QString::fromStdString(settings[s].choices[c]));
      action->setObjectName(QString("sceneSetting.%1.%2").arg(s).arg(c));
      action->setCheckable(true);
      action->setChecked(c == settings[s].current);
      group->addAction(action);
      QObject::connect(action, &QAction::triggered, &view, [&view, s, c] {
        DrawnScene* current = view.scene();
        if (current && current->Choose(s, c)) view.RenderNow();
      });
    }
  }
  return static_cast<int>(settings.size());
}

bool SceneMenu::eventFilter(QObject* watched, QEvent* event) {
  if (watched != view_) return false;
  // Ctrl+C with the view focused: its image (the smooth frame) to the clipboard.
  if (event->type() == QEvent::KeyPress &&
      static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
    if (const QImage image = view_->GrabImage(); !image.isNull())
      QApplication::clipboard()->setImage(image);
    return true;
  }
  if (event->type() != QEvent::MouseButtonPress && event->type() != QEvent::MouseButtonRelease)
    return false;
  auto* mouse = static_cast<QMouseEvent*>(event);
  if (mouse->button() != Qt::RightButton) return false;
  const QPoint at = mouse->position().toPoint();
  if (event->type() == QEvent::MouseButtonPress) {
    press_ = at;
    pressed_ = true;
    return false;
  }
  const bool click = pressed_ && (at - press_).manhattanLength() <= kClickSlop;
  pressed_ = false;
  if (!click) return false;
  QMenu menu(view_);
  if (Fill(menu, *view_) > 0) menu.exec(mouse->globalPosition().toPoint());
  return false;
}

}  // namespace dirac::ui
