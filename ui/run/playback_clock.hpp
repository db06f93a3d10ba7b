#pragma once
/// @file playback_clock.hpp
/// The shared time cursor: plays through [0, span] at a chosen speed, never beyond what is
/// computed so far, and can be paused, stepped, reset and scrubbed.

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace dirac::ui {

/// A simulated time [s] as the readouts show it: 3 decimals below 100 s, 1 above.
inline QString FormatSeconds(double t) { return QString::number(t, 'f', t < 100 ? 3 : 1); }

/// Simulation time cursor driven by a ~60 Hz QTimer. Times in seconds of simulated time.
class PlaybackClock : public QObject {
  Q_OBJECT

 public:
  explicit PlaybackClock(QObject* parent = nullptr);

  double time() const { return time_; }
  double span() const { return span_; }
  double available() const { return available_; }
  double speed() const { return speed_; }
  bool playing() const { return timer_.isActive(); }
  /// Whether playback starts again at t = 0 when it reaches the end of the span.
  bool loop() const { return loop_; }

  /// Full time span [0, span] of the current run [s].
  void SetSpan(double span);
  /// Computed so far [s]; playback waits at this time until more exists.
  void SetAvailable(double available);
  /// Simulated seconds per wall-clock second (> 0).
  void SetSpeed(double speed);
  /// Increment used by Step() [s] (the trajectory's output step).
  void SetStepSize(double step) { step_ = step; }
  /// Playback pauses when it reaches `time` (and at the end of the span).
  void SetStopTime(double time) { stop_time_ = time; }

 public slots:
  void Play();
  void Pause();
  void TogglePlay();
  /// Pauses and moves the cursor to t = 0.
  void Reset();
  /// Pauses and advances by one step.
  void Step();
  /// Pauses and goes back by one step.
  void StepBack();
  /// Loop playback (see loop()).
  void SetLoop(bool loop);
  /// Moves the cursor (clamped to [0, span]); does not change play state.
  void SetTime(double time);

 signals:
  void timeChanged(double time);
  void playingChanged(bool playing);

 private:
  void Tick();

  QTimer timer_;
  QElapsedTimer wall_;
  double time_ = 0.0;
  double span_ = 0.0;
  double available_ = 0.0;
  double speed_ = 1.0;
  double step_ = 0.01;
  double stop_time_ = -1.0;
  bool loop_ = false;
};

}  // namespace dirac::ui
