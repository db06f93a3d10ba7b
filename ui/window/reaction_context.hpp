#pragma once
/// @file reaction_context.hpp
/// What the window's behaviours (window/README.md) share: the run's controller, the window's
/// state whose moments they subscribe to, where errors are shown and the status bar for short
/// notices; and the views a run is shown in.

namespace dirac::ui {

class ErrorReporter;
class PlaybackClock;
class PlaybackToolBar;
class PlotPanel;
class SceneView;
class SimulationController;
class WorkbenchState;
class WorkbenchStatusBar;

/// Non-owning; everything in it lives as long as the window.
struct ReactionContext {
  SimulationController* controller = nullptr;
  ErrorReporter* errors = nullptr;
  WorkbenchStatusBar* status = nullptr;
  /// The moments a behaviour subscribes to (WorkbenchState's signals); null: it follows none.
  WorkbenchState* state = nullptr;
};

/// The views a run is shown in (besides the status bar) and an edit reaches. Non-owning.
struct RunViews {
  PlaybackClock* clock = nullptr;
  SceneView* scene_view = nullptr;
  PlotPanel* plots = nullptr;
  PlaybackToolBar* toolbar = nullptr;
};

}  // namespace dirac::ui
