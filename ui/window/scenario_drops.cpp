#include "window/scenario_drops.hpp"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>
#include <QWidget>

#include <utility>

namespace dirac::ui {
namespace {

// The first local scenario file among the dragged URLs, "" if none.
QString ScenarioFileIn(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
    if (suffix == "yaml" || suffix == "yml") return url.toLocalFile();
  }
  return {};
}

}  // namespace

ScenarioDrops::ScenarioDrops(QWidget& window, std::function<void(const QString&)> open)
    : QObject(&window), open_(std::move(open)) {
  window.setAcceptDrops(true);
  window.installEventFilter(this);
}

bool ScenarioDrops::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::DragEnter) {
    auto* drag = static_cast<QDragEnterEvent*>(event);
    if (ScenarioFileIn(drag->mimeData()).isEmpty()) {
      drag->ignore();
    } else {
      drag->acceptProposedAction();
    }
    return true;
  }
  if (event->type() == QEvent::Drop) {
    auto* drop = static_cast<QDropEvent*>(event);
    const QString path = ScenarioFileIn(drop->mimeData());
    if (path.isEmpty()) return true;
    drop->acceptProposedAction();
    open_(path);
    return true;
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace dirac::ui
