#include "window/workbench_state.hpp"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <utility>

#include "run/boundary_values.hpp"
#include "run/simulation_controller.hpp"

namespace dirac::ui {

std::optional<std::optional<double>> EditedValue(const dirac::Scenario& scenario,
                                                 const QString& name) {
  const std::string n = name.toStdString();
  if (IsBoundaryValueName(scenario, n)) return GetBoundaryValue(scenario, n);
  if (const auto value = dirac::CurrentValue(scenario, n)) return std::optional<double>(*value);
  return std::nullopt;
}

QString Assignment(const QString& name, std::optional<double> value) {
  if (!value) return name + "=free";
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, *value).ptr;
  return name + "=" + QString::fromLatin1(text, static_cast<int>(end - text));
}

void ApplyAssignment(dirac::Scenario& scenario, const QString& assignment) {
  const std::string name = assignment.section('=', 0, 0).trimmed().toStdString();
  const QString value = assignment.section('=', 1).trimmed();
  if (value == QLatin1String("free") || IsBoundaryValueName(scenario, name)) {
    bool ok = false;
    const double number = value.toDouble(&ok);
    if (value != QLatin1String("free") && !ok) {
      dirac::ApplyOverride(scenario, assignment.toStdString());  // throws, naming NAME
      return;
    }
    SetBoundaryValue(scenario, name, ok ? std::optional<double>(number) : std::nullopt);
    return;
  }
  dirac::ApplyOverride(scenario, assignment.toStdString());
}

WorkbenchState::WorkbenchState(SimulationController* controller, QObject* parent)
    : QObject(parent), controller_(controller) {
  connect(controller, &SimulationController::modelReady, this, &WorkbenchState::modelReady);
  connect(controller, &SimulationController::snapshotReady, this,
          [this](const SnapshotPtr& snapshot) {
            if (snapshot->complete) emit runFinished(snapshot);
          });
}

void WorkbenchState::Load(dirac::Scenario scenario, const ScenarioLoad& load) {
  // The order is the contract of the signals (workbench_state.hpp): every behaviour forgets the
  // previous scenario (the shown result among them) before the controller's LoadScenario tells
  // its new solve status, and the controller holds the scenario before anyone reads it back.
  emit scenarioLoading(scenario, load);
  controller_->LoadScenario(std::move(scenario));
  const QString& path = load.path;
  path_ = path;
  QFile file(path);
  loaded_bytes_ = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  loaded_time_ = QFileInfo(path).lastModified();
  overrides_.clear();
  opened_with_.clear();
  baseline_.clear();
  for (const QString& assignment : load.overrides) {
    const QString name = assignment.section('=', 0, 0).trimmed();
    const QString value = assignment.section('=', 1).trimmed();
    auto at = std::find_if(overrides_.begin(), overrides_.end(),
                           [&](const auto& o) { return o.first == name; });
    if (at != overrides_.end()) {
      at->second = value;
    } else {
      overrides_.emplace_back(name, value);
    }
    opened_with_ << name;
  }
  emit scenarioLoaded(load);
}

void WorkbenchState::NoteEdit(const ValueEdit& edit) {
  for (const ValueEdit::Change& change : edit.changes) {
    auto base = std::find_if(baseline_.begin(), baseline_.end(),
                             [&](const auto& b) { return b.first == change.name; });
    if (base == baseline_.end()) {
      baseline_.emplace_back(change.name, change.before);
      base = baseline_.end() - 1;
    }
    auto at = std::find_if(overrides_.begin(), overrides_.end(),
                           [&](const auto& o) { return o.first == change.name; });
    if (base->second == change.after && !opened_with_.contains(change.name)) {
      if (at != overrides_.end()) overrides_.erase(at);  // back to the file's value
      continue;
    }
    const QString value = Assignment(change.name, change.after).section('=', 1);
    if (at != overrides_.end()) {
      at->second = value;
    } else {
      overrides_.emplace_back(change.name, value);
    }
  }
  emit editApplied(edit);
}

QStringList WorkbenchState::overrides() const {
  QStringList list;
  for (const auto& [name, value] : overrides_) list << name + "=" + value;
  return list;
}

bool WorkbenchState::FileChangedOnDisk() const {
  if (path_.isEmpty()) return false;
  QFile file(path_);
  if (!file.open(QIODevice::ReadOnly)) return true;
  return file.readAll() != loaded_bytes_ || QFileInfo(path_).lastModified() != loaded_time_;
}

}  // namespace dirac::ui
