#pragma once
/// @file workbench_state.hpp
/// The window's state with one owner: which scenario file is open, what the user changed in it
/// (the `--set` overrides: those it was opened with and every edit since), and the moments
/// the window's behaviours subscribe to (scenarioLoading, scenarioLoaded, modelReady,
/// runFinished, editApplied), as ParaView's reactions listen to its core instead of being
/// called by the window: a new behaviour is one class that connects itself to these signals,
/// and one line in the window that makes it.

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

/// One load of a scenario file (an open, or a reload after a change on disk), as the
/// behaviours that follow it see it.
struct ScenarioLoad {
  QString path;           ///< the file
  bool reloaded = false;  ///< the open file read again after it changed on disk
  /// The `--set` assignments applied ("NAME=VALUE"; on a reload, those the file still takes).
  QStringList overrides;
  /// On a reload: the assignments the file no longer takes, each "NAME=VALUE (why)".
  QStringList dropped;
  /// "Output step raised to … s (stored samples decimated): …" when the run would have stored
  /// more than the bound (RunBudgetGuard::FitToBound), else "".
  QString budget_notice;
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
  /// Forwards `controller`'s modelReady and complete snapshots; hands it the scenarios (Load).
  explicit WorkbenchState(SimulationController* controller, QObject* parent = nullptr);

  /// Hands `scenario` (read from `load.path` with `load.overrides` applied) to the controller,
  /// in this order: emits scenarioLoading(scenario, load) while the controller still holds the
  /// previous scenario (or none); the controller takes it (SimulationController::LoadScenario:
  /// its derivation and run start); remembers the file's bytes and time (to see later changes)
  /// and the overrides; emits scenarioLoaded(load). The model and the run follow (modelReady,
  /// runFinished) from the event loop, never inside Load.
  void Load(dirac::Scenario scenario, const ScenarioLoad& load);
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
  /// A scenario file was read and is about to be handed to the controller, which still holds
  /// the previous one (or none): each behaviour forgets the previous scenario and prepares for
  /// `scenario` (its time span, its charts). Subscribers must not read the controller's
  /// scenario, and none depends on another having run first: they are independent, so their
  /// order (Qt's connection order) does not matter. The shown result is reset here, before the
  /// controller's LoadScenario tells its solve status (which redraws the note over the plots).
  void scenarioLoading(const dirac::Scenario& scenario, const dirac::ui::ScenarioLoad& load);
  /// The controller holds the scenario of `load` (its run has started): the editors, actions
  /// and watchers follow it (they may read SimulationController::scenario()). Subscribers are
  /// independent of each other; one that needs another's work listens to that behaviour's own
  /// signal (EditHistory watches the sliders on EditRouter::editorsRebuilt, after the parameter
  /// panel was filled).
  void scenarioLoaded(const dirac::ui::ScenarioLoad& load);
  /// The model of the open scenario was derived (SimulationController::model() is set).
  /// Subscribers are independent of each other (RunPresenter draws the scene, the charts and
  /// then the newest run in its one handler).
  void modelReady();
  /// A run finished (a complete snapshot of the current scenario arrived).
  void runFinished(const dirac::ui::SnapshotPtr& snapshot);
  /// An edit of the values was applied (by the panel, the 3D view or the history).
  void editApplied(const dirac::ui::ValueEdit& edit);

 private:
  SimulationController* controller_;
  QString path_;
  QByteArray loaded_bytes_;
  QDateTime loaded_time_;
  std::vector<std::pair<QString, QString>> overrides_;               // name, value text
  QStringList opened_with_;                                          // names set when opened
  std::vector<std::pair<QString, std::optional<double>>> baseline_;  // value at first edit
};

}  // namespace dirac::ui
