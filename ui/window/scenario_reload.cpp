#include "window/scenario_reload.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

#include "run/simulation_controller.hpp"
#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

QByteArray ReadBytes(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

ScenarioReload::ScenarioReload(const ReactionContext& context, Reopen reopen, QObject* parent)
    : QObject(parent),
      state_(context.state),
      controller_(context.controller),
      status_(context.status),
      reopen_(std::move(reopen)),
      watcher_(new QFileSystemWatcher(this)) {
  settle_.setSingleShot(true);
  settle_.setInterval(150);  // an editor's truncate-then-write is one save
  connect(&settle_, &QTimer::timeout, this, [this] { ReloadIfChanged(); });
  connect(state_, &WorkbenchState::scenarioLoaded, this, [this](const ScenarioLoad& load) {
    Watch(load.path);
    if (!load.reloaded) return;
    QString notice = tr("Reloaded %1 (changed on disk)").arg(QFileInfo(load.path).fileName());
    if (!load.overrides.isEmpty()) notice += tr("; edits kept: %1").arg(load.overrides.join(", "));
    if (!load.dropped.isEmpty())
      notice += tr("; no longer applicable: %1").arg(load.dropped.join("; "));
    status_->showMessage(notice, 20000);
  });
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &ScenarioReload::OnChanged);
  connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &ScenarioReload::OnChanged);
}

void ScenarioReload::Watch(const QString& path) {
  if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
  if (!watcher_->directories().isEmpty()) watcher_->removePaths(watcher_->directories());
  const QFileInfo info(path);
  if (info.exists()) watcher_->addPath(info.absoluteFilePath());
  if (info.absoluteDir().exists()) watcher_->addPath(info.absolutePath());
}

QStringList ScenarioReload::watched() const { return watcher_->files() + watcher_->directories(); }

void ScenarioReload::OnChanged() {
  const QString path = state_->scenario_path();
  if (path.isEmpty()) return;
  // Saved by rename: the watch went with the old file; watch the new one.
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (QFileInfo::exists(absolute) && !watcher_->files().contains(absolute))
    watcher_->addPath(absolute);
  if (state_->FileChangedOnDisk() && ReadBytes(path) != failed_bytes_) settle_.start();
}

bool ScenarioReload::ReloadIfChanged() {
  settle_.stop();
  const QString path = state_->scenario_path();
  if (path.isEmpty() || !QFileInfo::exists(path) || !state_->FileChangedOnDisk()) return true;
  ++reloads_;
  const QByteArray bytes = ReadBytes(path);
  const bool ok = reopen_(path, state_->overrides());
  failed_bytes_ = ok ? QByteArray() : bytes;
  emit reloaded(ok);
  return ok;
}

void ScenarioReload::Rerun() {
  const QString path = state_->scenario_path();
  if (!path.isEmpty() && QFileInfo::exists(path) && state_->FileChangedOnDisk()) {
    ReloadIfChanged();
    return;
  }
  controller_->Restart();
}

}  // namespace dirac::ui
