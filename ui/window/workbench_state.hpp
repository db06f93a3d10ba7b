#pragma once
/// @file workbench_state.hpp
/// The window's state with one owner: which scenario file is open, what the user changed in it
/// (the `--set` overrides: those it was opened with and every edit since), and the moments
/// the window's behaviours subscribe to (scenarioLoaded, modelReady, runFinished, editApplied),
/// as ParaView's reactions listen to its core instead of being called by the window.

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
#include "run/simulation_snapshot.hpp"

namespace dirac::ui {

class SimulationController;

/// One edit of the scenario's values, as the user made it (one step of Edit > Undo).
struct ValueEdit {
  /// A value by its `--set` name before and after the edit; nullopt: a free boundary value.
  struct Change {
    QString name;
    std::optional<double> before;
    std::optional<double> after;
  };
  enum class Source {
    kPanel,   ///< the parameter panel (a spin box, a slider, a fixed box)
    kScene,   ///< the 3D view (a dragged ghost or target)
    kHistory  ///< undo / redo putting values back
  };
  std::vector<Change> changes;
  Source source = Source::kPanel;
  /// The complete run of the values before the edit when it was the one shown (nothing was
  /// running, nothing stale), else null: undo shows it again instead of recomputing it.
  SnapshotPtr before_result;
};

/// The value of `name` in `scenario` as an edit sees it: a boundary value (nullopt when free)
/// or dirac::CurrentValue. The outer nullopt: `name` is neither.
std::optional<std::optional<double>> EditedValue(const dirac::Scenario& scenario,
                                                 const QString& name);

/// "name=value" with the shortest text that reads back to the same double, "name=free" for a
/// free boundary value: a `--set` argument.
QString Assignment(const QString& name, std::optional<double> value);

/// Applies one `--set` assignment "NAME=VALUE" as an edit would: a boundary value by its name
/// (VALUE "free" releases it), anything else through dirac::ApplyOverride. Throws
/// dirac::Error naming NAME.
void ApplyAssignment(dirac::Scenario& scenario, const QString& assignment);

/// Owns the window's state besides the run itself (the controller owns the scenario's values
/// and the runs): the open file, what it was opened with and edited since. Emits what the
/// behaviours subscribe to. GUI thread only.
class WorkbenchState : public QObject {
  Q_OBJECT

 public:
  /// Forwards `controller`'s modelReady and complete snapshots.
  explicit WorkbenchState(SimulationController* controller, QObject* parent = nullptr);

  /// The window opened `path` with `overrides` ("NAME=VALUE", applied) and handed it to the
  /// controller; `reloaded` if it is the same file read again after it changed on disk.
  /// Remembers the file's bytes and time to see later changes. Emits scenarioLoaded.
  void NoteScenarioLoaded(const QString& path, const QStringList& overrides, bool reloaded);
  /// An edit was applied to the controller's scenario: the overrides follow (a value put back
  /// to what it was at load is dropped again). Emits editApplied.
  void NoteEdit(const ValueEdit& edit);

  /// The open scenario file ("" before the first).
  const QString& scenario_path() const { return path_; }
  /// The `--set` assignments that turn the file into what the window runs: those it was
  /// opened with, then the edits since, one per name, in the order first set.
  QStringList overrides() const;
  /// True if the file's bytes or modification time differ from those loaded (or it is gone).
  bool FileChangedOnDisk() const;

 signals:
  /// A scenario file was opened (or reloaded after a change on disk).
  void scenarioLoaded(const QString& path, bool reloaded);
  /// The model of the open scenario was derived.
  void modelReady();
  /// A run finished (a complete snapshot of the current scenario arrived).
  void runFinished(const dirac::ui::SnapshotPtr& snapshot);
  /// An edit of the values was applied (by the panel, the 3D view or the history).
  void editApplied(const dirac::ui::ValueEdit& edit);

 private:
  QString path_;
  QByteArray loaded_bytes_;
  QDateTime loaded_time_;
  std::vector<std::pair<QString, QString>> overrides_;               // name, value text
  QStringList opened_with_;                                          // names set when opened
  std::vector<std::pair<QString, std::optional<double>>> baseline_;  // value at first edit
};

}  // namespace dirac::ui
