#pragma once
/// @file playback_toolbar.hpp
/// The window's toolbar: open, play / step / reset, the playback speed, the time slider and
/// readout, rerun / cancel and the comparison toggle, around the shared PlaybackClock.

#include <QToolBar>

#include "window/menu_builders.hpp"

class QComboBox;
class QLabel;
class QSlider;

namespace dirac::ui {

class PlaybackClock;

/// Object names: "toolbar.playback", "playback.speed" (simulated seconds per second),
/// "playback.slider" (scrubs [0, span]) and "playback.time" ("t = … / … s"). Follows the
/// clock's time by itself; call Refresh() after changing the clock's span. Where its buttons
/// with their texts do not fit (the window at its narrowest, 1012 px), they show their icons
/// only (texts in the tooltips) rather than hiding Rerun and Cancel behind the "»" menu.
class PlaybackToolBar : public QToolBar {
  Q_OBJECT

 public:
  PlaybackToolBar(PlaybackClock* clock, const WorkbenchActions& actions, QWidget* parent = nullptr);

 public slots:
  /// Shows the clock's time and span on the slider and the readout.
  void Refresh();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void actionEvent(QActionEvent* event) override;

 private:
  /// Texts beside the icons when they fit the width, else icons only.
  void FitButtonStyle();

  PlaybackClock* clock_;
  int text_width_ = 0;  // the width the buttons need with their texts (0: not measured)
  QComboBox* speed_ = nullptr;
  QSlider* time_slider_ = nullptr;
  QLabel* time_label_ = nullptr;
};

}  // namespace dirac::ui
