#pragma once
/// @file chart_view.hpp
/// The view of one chart of the PlotPanel: the wheel zooms, a drag pans, Shift + drag zooms to a
/// rectangle, a double-click resets, a click moves the time cursor, hovering shows a readout
/// ("plotPanel.readout"), the context menu is the panel's; a resize refills the curves when the
/// plot area's width changes the decimation. Everything it does goes through the panel.

class QChart;
class QChartView;

namespace dirac::ui {

class PlotPanel;

/// Makes the view of `chart`, one of `panel`'s charts (a child of `panel`).
QChartView* MakeChartView(QChart* chart, PlotPanel* panel);
/// Hides the hover readout of a view MakeChartView made (before an export).
void HideReadout(QChartView* view);

}  // namespace dirac::ui
