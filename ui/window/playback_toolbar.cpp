#include "window/playback_toolbar.hpp"

#include <QAction>
#include <QActionEvent>
#include <QComboBox>
#include <QLabel>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

#include "run/playback_clock.hpp"

namespace dirac::ui {
namespace {

constexpr int kSliderResolution = 10000;
constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};
constexpr int kDefaultSpeedIndex = 3;

}  // namespace

PlaybackToolBar::PlaybackToolBar(PlaybackClock* clock, const WorkbenchActions& actions,
                                 QWidget* parent)
    : QToolBar(tr("Playback"), parent), clock_(clock) {
  setObjectName("toolbar.playback");
  setMovable(false);
  setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  // Short button texts (the menus keep the full ones): at 1280 px nothing overflows into "»".
  actions.open->setIconText(tr("Open"));
  actions.rerun->setIconText(tr("Rerun"));
  actions.cancel->setIconText(tr("Cancel"));
  actions.compare->setIconText(tr("Compare"));
  addAction(actions.open);
  addSeparator();
  addAction(actions.play);
  if (actions.step_back) addAction(actions.step_back);
  addAction(actions.step);
  addAction(actions.reset);
  if (actions.loop) addAction(actions.loop);
  addSeparator();

  addWidget(new QLabel(tr(" Speed "), this));
  speed_ = new QComboBox(this);
  speed_->setObjectName("playback.speed");
  speed_->setToolTip(tr("Simulated seconds per second"));
  for (double v : kSpeeds) speed_->addItem(QStringLiteral("%1×").arg(v), v);
  speed_->setCurrentIndex(kDefaultSpeedIndex);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { clock_->SetSpeed(speed_->itemData(i).toDouble()); });
  addWidget(speed_);
  addSeparator();

  time_slider_ = new QSlider(Qt::Horizontal, this);
  time_slider_->setObjectName("playback.slider");
  time_slider_->setRange(0, kSliderResolution);
  time_slider_->setToolTip(tr("Scrub through time"));
  time_slider_->setMinimumWidth(120);
  connect(time_slider_, &QSlider::valueChanged, this, [this](int v) {
    clock_->SetTime(clock_->span() * static_cast<double>(v) / kSliderResolution);
  });
  addWidget(time_slider_);
  time_label_ = new QLabel(this);
  time_label_->setObjectName("playback.time");
  time_label_->setMinimumWidth(120);
  time_label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  QFont mono = time_label_->font();
  mono.setFamily("monospace");
  mono.setStyleHint(QFont::TypeWriter);
  time_label_->setFont(mono);
  addWidget(time_label_);
  addSeparator();
  addAction(actions.rerun);
  addAction(actions.cancel);
  addSeparator();
  addAction(actions.compare);
  actions.compare->setVisible(false);  // shown for scenarios it applies to
  connect(clock_, &PlaybackClock::timeChanged, this, &PlaybackToolBar::Refresh);
  Refresh();
}

void PlaybackToolBar::resizeEvent(QResizeEvent* event) {
  QToolBar::resizeEvent(event);
  FitButtonStyle();
}

void PlaybackToolBar::actionEvent(QActionEvent* event) {
  QToolBar::actionEvent(event);
  // An action shown or hidden (Compare) changes the width the texts need.
  text_width_ = 0;
  if (isVisible()) FitButtonStyle();
}

void PlaybackToolBar::FitButtonStyle() {
  if (toolButtonStyle() == Qt::ToolButtonTextBesideIcon || text_width_ == 0) {
    if (toolButtonStyle() != Qt::ToolButtonTextBesideIcon)
      setToolButtonStyle(Qt::ToolButtonTextBesideIcon);  // measured with the texts
    text_width_ = sizeHint().width();
  }
  const Qt::ToolButtonStyle style =
      width() >= text_width_ ? Qt::ToolButtonTextBesideIcon : Qt::ToolButtonIconOnly;
  if (style != toolButtonStyle()) setToolButtonStyle(style);
}

void PlaybackToolBar::Refresh() {
  const double span = clock_->span();
  const double t = clock_->time();
  {
    const QSignalBlocker block(time_slider_);
    time_slider_->setValue(span > 0 ? static_cast<int>(std::lround(t / span * kSliderResolution))
                                    : 0);
  }
  time_label_->setText(tr("t = %1 / %2 s").arg(FormatSeconds(t), FormatSeconds(span)));
}

}  // namespace dirac::ui
