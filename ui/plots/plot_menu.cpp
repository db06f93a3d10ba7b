// The charts' context menu (members of PlotPanel; plot_panel.hpp): Add chart, Add / Remove
// column, Remove chart, Copy, zoom, export, pin.
#include <QAction>
#include <QContextMenuEvent>
#include <QKeySequence>
#include <QMenu>

#include <memory>
#include <string>
#include <vector>

#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {

void PlotPanel::contextMenuEvent(QContextMenuEvent* event) {
  std::unique_ptr<QMenu> menu = ContextMenu(-1);
  if (!menu->isEmpty()) menu->exec(event->globalPos());
}

bool PlotPanel::RemovePlot(int index) {
  if (index < 0 || index >= static_cast<int>(specs_.size()) ||
      plots_[static_cast<std::size_t>(index)]->auxiliary)
    return false;
  const std::vector<dirac::PlotSpec> before = specs_;
  specs_.erase(specs_.begin() + index);
  Rebuild();
  emit chartsEdited(before);
  return true;
}

void PlotPanel::ShowContextMenu(int index, const QPoint& global) {
  ContextMenu(index)->exec(global);
}

std::unique_ptr<QMenu> PlotPanel::ContextMenu(int index) {
  auto owned = std::make_unique<QMenu>(this);
  QMenu& menu = *owned;
  menu.setObjectName("plotPanel.menu");
  // Add chart only with columns to add (without a scenario the menu is empty and not shown).
  if (const QStringList columns = AvailableColumns(); !columns.isEmpty()) {
    QMenu* add_chart = menu.addMenu(tr("Add chart"));
    add_chart->setObjectName("plotPanel.addChart");
    for (const QString& column : columns)
      add_chart->addAction(column, this, [this, column] { AddPlot(column); });
  }
  if (index < 0 || index >= plot_count()) return owned;
  const QStringList shown = PlotColumns(index);
  QMenu* add = menu.addMenu(tr("Add column"));
  const dirac::Trajectory* trajectory = TrajectoryOf(*plots_[static_cast<std::size_t>(index)]);
  if (trajectory) {
    for (const std::string& c : trajectory->columns()) {
      const QString column = QString::fromStdString(c);
      if (column == "t" || shown.contains(column)) continue;
      QString text = column;
      if (const auto q = quantities_.find(c); q != quantities_.end() && !q->second.Key().empty())
        text += "  " + QString::fromStdString(q->second.Key());
      add->addAction(text, this, [this, index, column] { AddColumn(index, column); });
    }
  }
  add->setEnabled(!add->isEmpty());
  if (shown.size() > 1) {
    QMenu* remove = menu.addMenu(tr("Remove column"));
    for (const QString& column : shown)
      remove->addAction(column, this, [this, index, column] { RemoveColumn(index, column); });
  }
  // The scenario's and the user's charts (Edit > Undo brings one back); the gauge's charts go
  // with View > Gauge two-form.
  if (!plots_[static_cast<std::size_t>(index)]->auxiliary) {
    QAction* remove_chart =
        menu.addAction(tr("Remove chart"), this, [this, index] { RemovePlot(index); });
    remove_chart->setObjectName("plotPanel.removeChart");
  }
  menu.addSeparator();
  QAction* copy =
      menu.addAction(tr("Copy image and data"), this, [this, index] { CopyChart(index); });
  copy->setShortcut(QKeySequence::Copy);  // shown; the chart's view takes the key itself
  menu.addAction(tr("Reset zoom"), this, [this, index] { ResetZoom(index); });
  menu.addAction(tr("Export chart as PNG…"), this, [this, index] { ExportDialog(index, "png"); });
  menu.addAction(tr("Export chart as SVG…"), this, [this, index] { ExportDialog(index, "svg"); });
  menu.addSeparator();
  menu.addAction(tr("Pin this run for comparison"), this, [this] { emit pinRequested(); });
  QAction* unpin =
      menu.addAction(tr("Clear the pinned run"), this, [this] { emit unpinRequested(); });
  unpin->setEnabled(has_overlay(kPinned));
  return owned;
}

}  // namespace dirac::ui
