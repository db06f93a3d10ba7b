#include "window/edit_history.hpp"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QSlider>
#include <QUndoCommand>
#include <QUndoStack>
#include <QUndoView>
#include <QWidget>

#include <utility>

#include "panels/parameter_panel.hpp"
#include "plots/plot_panel.hpp"
#include "window/edit_router.hpp"

namespace dirac::ui {
namespace {

constexpr int kValueCommandId = 4001;

// "kx = 1.2", "final.psi free", "final.R.x, final.R.y, final.R.z"
QString StepText(const ValueEdit& edit) {
  if (edit.changes.size() == 1) {
    const ValueEdit::Change& c = edit.changes.front();
    return c.after ? QStringLiteral("%1 = %2").arg(c.name).arg(*c.after, 0, 'g', 6)
                   : QStringLiteral("%1 free").arg(c.name);
  }
  QStringList names;
  for (const ValueEdit::Change& c : edit.changes) names << c.name;
  const QString list = names.join(QStringLiteral(", "));
  return edit.source == ValueEdit::Source::kScene ? QStringLiteral("drag %1").arg(list) : list;
}

bool SameNames(const ValueEdit& a, const ValueEdit& b) {
  if (a.changes.size() != b.changes.size()) return false;
  for (std::size_t i = 0; i < a.changes.size(); ++i)
    if (a.changes[i].name != b.changes[i].name) return false;
  return true;
}

// One edit of values; the edits of one gesture merged into it.
class ValueCommand : public QUndoCommand {
 public:
  ValueCommand(EditHistory* history, ValueEdit edit, int gesture)
      : history_(history), edit_(std::move(edit)), gesture_(gesture) {
    before_result_ = edit_.before_result;
    setText(StepText(edit_));
  }
  int id() const override { return kValueCommandId; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ValueCommand*>(other);
    if (gesture_ == 0 || next->gesture_ != gesture_ || next->edit_.source != edit_.source ||
        !SameNames(edit_, next->edit_))
      return false;
    for (std::size_t i = 0; i < edit_.changes.size(); ++i)
      edit_.changes[i].after = next->edit_.changes[i].after;
    setText(StepText(edit_));
    return true;
  }
  void undo() override {
    after_result_ = history_->SettledResult();  // the run of the values after, if settled
    history_->Replay(edit_, false, before_result_);
  }
  void redo() override {
    if (first_) {  // already applied by the user
      first_ = false;
      return;
    }
    before_result_ = history_->SettledResult();
    history_->Replay(edit_, true, after_result_);
  }

 private:
  EditHistory* history_;
  ValueEdit edit_;
  int gesture_;
  bool first_ = true;
  SnapshotPtr before_result_;
  SnapshotPtr after_result_;
};

// A view toggle (a checkable action's user toggle).
class ToggleCommand : public QUndoCommand {
 public:
  ToggleCommand(EditHistory* history, QAction* action, bool checked, const QString& what)
      : history_(history), action_(action), checked_(checked) {
    setText(
        QStringLiteral("%1 %2").arg(what, checked ? QStringLiteral("on") : QStringLiteral("off")));
  }
  void undo() override { history_->ReplayToggle(action_, !checked_); }
  void redo() override {
    if (first_) {
      first_ = false;
      return;
    }
    history_->ReplayToggle(action_, checked_);
  }

 private:
  EditHistory* history_;
  QAction* action_;
  bool checked_;
  bool first_ = true;
};

// The charts before and after a chart edit.
class ChartsCommand : public QUndoCommand {
 public:
  ChartsCommand(EditHistory* history, std::vector<dirac::PlotSpec> before,
                std::vector<dirac::PlotSpec> after)
      : history_(history), before_(std::move(before)), after_(std::move(after)) {
    setText(after_.size() > before_.size()   ? QStringLiteral("add chart")
            : after_.size() < before_.size() ? QStringLiteral("remove chart")
                                             : QStringLiteral("chart columns"));
  }
  void undo() override { history_->ReplayCharts(before_); }
  void redo() override {
    if (first_) {
      first_ = false;
      return;
    }
    history_->ReplayCharts(after_);
  }

 private:
  EditHistory* history_;
  std::vector<dirac::PlotSpec> before_;
  std::vector<dirac::PlotSpec> after_;
  bool first_ = true;
};

}  // namespace

void EditHistory::RecordCharts(PlotPanel* plots, std::function<SnapshotPtr()> shown) {
  plots_ = plots;
  shown_ = std::move(shown);
  connect(plots, &PlotPanel::chartsEdited, this,
          [this](const std::vector<dirac::PlotSpec>& before) {
            if (!replaying_) stack_->push(new ChartsCommand(this, before, plots_->plot_specs()));
          });
}

void EditHistory::ReplayCharts(const std::vector<dirac::PlotSpec>& specs) {
  replaying_ = true;
  const SnapshotPtr run = shown_ ? shown_() : nullptr;
  plots_->SetPlots(specs, run ? run->t_end : 0.0);
  if (run) plots_->SetTrajectory(run->trajectory);
  replaying_ = false;
}

EditHistory::EditHistory(WorkbenchState* state, EditRouter* router, ParameterPanel* panel,
                         QWidget* scene_view, QObject* parent)
    : QObject(parent), state_(state), router_(router), panel_(panel), stack_(new QUndoStack(this)) {
  stack_->setObjectName("undoStack");
  connect(state_, &WorkbenchState::editApplied, this, &EditHistory::OnEditApplied);
  connect(state_, &WorkbenchState::scenarioLoaded, this, [this](const ScenarioLoad& load) {
    if (!load.reloaded) stack_->clear();
  });
  // The panel's sliders exist once the router has rebuilt its editors.
  connect(router_, &EditRouter::editorsRebuilt, this, &EditHistory::WatchSliders);
  scene_view->installEventFilter(this);
}

EditHistory::~EditHistory() = default;

void EditHistory::ConnectActions(QAction* undo, QAction* redo) {
  undo->setEnabled(stack_->canUndo());
  redo->setEnabled(stack_->canRedo());
  connect(undo, &QAction::triggered, stack_, &QUndoStack::undo);
  connect(redo, &QAction::triggered, stack_, &QUndoStack::redo);
  connect(stack_, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
  connect(stack_, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
  connect(stack_, &QUndoStack::undoTextChanged, undo, [undo](const QString& text) {
    undo->setText(text.isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(text));
  });
  connect(stack_, &QUndoStack::redoTextChanged, redo, [redo](const QString& text) {
    redo->setText(text.isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(text));
  });
}

void EditHistory::RecordToggles(QAction* action, const QString& what) {
  connect(action, &QAction::triggered, this, [this, action, what](bool checked) {
    if (!replaying_) stack_->push(new ToggleCommand(this, action, checked, what));
  });
}

QDockWidget* EditHistory::MakeDock(QWidget* window) {
  auto* view = new QUndoView(stack_);
  view->setObjectName("history.view");
  view->setEmptyLabel(tr("(as opened)"));
  auto* dock = new QDockWidget(tr("History"), window);
  dock->setObjectName("dock.history");
  dock->setWidget(view);
  dock->setVisible(false);
  return dock;
}

void EditHistory::OnEditApplied(const ValueEdit& edit) {
  if (replaying_ || edit.source == ValueEdit::Source::kHistory) return;
  stack_->push(new ValueCommand(this, edit, gesture()));
}

void EditHistory::Replay(const ValueEdit& edit, bool forward, const SnapshotPtr& result) {
  replaying_ = true;
  router_->Replay(edit, forward, result);
  replaying_ = false;
}

SnapshotPtr EditHistory::SettledResult() const { return router_->SettledResult(); }

void EditHistory::ReplayToggle(QAction* action, bool checked) {
  replaying_ = true;
  if (action->isChecked() != checked) action->trigger();
  replaying_ = false;
}

void EditHistory::WatchSliders() {
  for (QSlider* slider : panel_->findChildren<QSlider*>()) {
    if (slider->property("dirac.historyWatched").toBool()) continue;
    slider->setProperty("dirac.historyWatched", true);
    connect(slider, &QSlider::sliderPressed, this, &EditHistory::BeginGesture);
    connect(slider, &QSlider::sliderReleased, this, &EditHistory::EndGesture);
  }
}

void EditHistory::BeginGesture() {
  ++gesture_;
  gesture_open_ = true;
}

bool EditHistory::eventFilter(QObject* watched, QEvent* event) {
  // A drag in the 3D view (a ghost turned or moved) is one step.
  if (event->type() == QEvent::MouseButtonPress) BeginGesture();
  if (event->type() == QEvent::MouseButtonRelease) EndGesture();
  return QObject::eventFilter(watched, event);
}

}  // namespace dirac::ui
