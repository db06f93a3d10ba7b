#include "run/playback_clock.hpp"

#include <algorithm>

namespace dirac::ui {

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent) {
  setObjectName("playbackClock");
  timer_.setInterval(16);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &PlaybackClock::Tick);
}

void PlaybackClock::SetSpan(double span) {
  span_ = std::max(0.0, span);
  if (time_ > span_) SetTime(span_);
}

void PlaybackClock::SetAvailable(double available) {
  available_ = std::clamp(available, 0.0, span_);
}

void PlaybackClock::SetSpeed(double speed) {
  if (speed > 0.0) speed_ = speed;
}

void PlaybackClock::Play() {
  if (playing()) return;
  const double end = stop_time_ >= 0.0 && stop_time_ > time_ ? stop_time_ : span_;
  if (time_ >= end) {
    stop_time_ = -1.0;
    SetTime(0.0);  // replay from the start
  }
  wall_.start();
  timer_.start();
  emit playingChanged(true);
}

void PlaybackClock::Pause() {
  if (!playing()) return;
  timer_.stop();
  emit playingChanged(false);
}

void PlaybackClock::TogglePlay() { playing() ? Pause() : Play(); }

void PlaybackClock::Reset() {
  Pause();
  SetTime(0.0);
}

void PlaybackClock::Step() {
  Pause();
  SetTime(std::min(time_ + step_, available_));
}

void PlaybackClock::StepBack() {
  Pause();
  SetTime(std::max(time_ - step_, 0.0));
}

void PlaybackClock::SetLoop(bool loop) { loop_ = loop; }

void PlaybackClock::SetTime(double time) {
  time = std::clamp(time, 0.0, span_);
  if (time == time_) return;
  time_ = time;
  emit timeChanged(time_);
}

void PlaybackClock::Tick() {
  const double wall_seconds = static_cast<double>(wall_.restart()) * 1e-3;
  double end = span_;
  if (stop_time_ >= 0.0) end = std::min(end, stop_time_);
  double next = time_ + wall_seconds * speed_;
  // Follow the computation: wait at the newest sample until more exists.
  next = std::min(next, std::min(end, available_));
  SetTime(next);
  if (loop_ && stop_time_ < 0.0 && time_ >= span_ && available_ >= span_) {
    SetTime(0.0);  // loop: from the start again, still playing
    return;
  }
  if (time_ >= end) {
    stop_time_ = -1.0;
    Pause();
  }
}

}  // namespace dirac::ui
