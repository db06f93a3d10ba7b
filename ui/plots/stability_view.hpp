#pragma once
/// @file stability_view.hpp
/// The Stability view's drawing: the eigenvalues' real parts (solid) and imaginary parts
/// (dashed) against the swept parameter, one colour per continuous branch, the stable range
/// shaded and the critical values marked; beside it the spectrum in the complex plane at the
/// parameter's current value. Shows StabilityResults; computes nothing.

#include <QString>
#include <QWidget>

#include "run/stability_worker.hpp"

class QChart;
class QChartView;
class QLabel;
class QPushButton;

namespace dirac::ui {

/// Object names (for tests and scripts): "stability.sweepChart" and "stability.spectrumChart"
/// (QChartView), series "stability.re.<k>" and "stability.im.<k>" (branch k from 1: x the
/// parameter, y the real / imaginary part [1/s]; the imaginary part only for a branch that is
/// complex with Im >= 0), "stability.stable.<i>" (shaded stable interval i), "stability.current"
/// (the current value's vertical line), "stability.spectrum" (scatter: x Re, y Im),
/// "stability.status" (QLabel), "stability.cancel" (QPushButton, enabled while computing).
class StabilityView : public QWidget {
  Q_OBJECT

 public:
  explicit StabilityView(QWidget* parent = nullptr);

  /// Draws `result` (a failed or cancelled one keeps the last curves, marked as not current,
  /// and says why in the status line).
  void Show(const StabilityResultPtr& result);
  /// While computing: the status says so and Cancel is enabled.
  void SetBusy(bool busy);
  /// A message instead of curves (no `stability:` block, deriving the model...).
  void ShowMessage(const QString& message);
  /// Lays the charts out now (titles, axes, legend) rather than at the next event-loop pass.
  void LayOutNow();
  /// The last result drawn with curves (null before any).
  const StabilityResultPtr& shown() const { return shown_; }

 signals:
  void cancelRequested();

 private:
  void DrawSweep(const StabilityResult& result);
  void DrawSpectrum(const StabilityResult& result);

  QChart* sweep_chart_ = nullptr;
  QChart* spectrum_chart_ = nullptr;
  QChartView* sweep_view_ = nullptr;
  QChartView* spectrum_view_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* cancel_ = nullptr;
  StabilityResultPtr shown_;
  bool busy_ = false;
};

}  // namespace dirac::ui
