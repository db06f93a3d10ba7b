#pragma once
// The panels' number editors: a spin box that reads scientific notation and keeps every digit,
// sliders and spin boxes that take the wheel only when focused, and the slider's value grid.
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QSize>
#include <QSlider>
#include <QString>
#include <QWheelEvent>

#include <algorithm>
#include <utility>

namespace dirac::ui {

/// A number as the panel's editors show it: the shortest text that reads back as the same
/// double, fixed-point for 1e-4 <= |value| < 1e7 ("0.03", "2500"), else scientific ("1e-9",
/// "-2.5e12"; no '+' or leading zero in the exponent).
QString ShortestEditorText(double value);

/// Positions of a parameter's slider (0 … kSliderSteps over its range).
constexpr int kSliderSteps = 1000;

/// Every digit a double has: the spin boxes keep the value as given (a QDoubleSpinBox rounds
/// its value to its decimals: eps = 1e-9 became 0) and show it by ShortestEditorText.
constexpr int kAllDecimals = 323;  // DBL_MAX_10_EXP + DBL_DIG, QDoubleSpinBox's limit

/// The nearest double to `value` written with `digits` significant digits (drops the float
/// residue of a sum: 0.1 + 0.2 -> 0.3).
double Tidy(double value, int digits);

/// The slider position of `value` in [min, max] (0 if the range is empty).
int SliderPosition(double value, double min, double max);

/// The slider's value at `position`, on the decimal grid of its step (a tenth of it): 0.35, not
/// 0.35000000000000003.
double SliderValue(int position, double min, double max);

// The wheel over the panel scrolls the panel: an editor the pointer merely passes over must not
// take the wheel and change its value (QAbstractSpinBox and QSlider do by default), only the
// editor the user has clicked or tabbed into. Unfocused, the event is ignored and goes on to
// the scroll area.
template <typename Editor>
class WheelWhenFocused : public Editor {
 public:
  template <typename... Args>
  explicit WheelWhenFocused(Args&&... args) : Editor(std::forward<Args>(args)...) {
    this->setFocusPolicy(Qt::StrongFocus);  // not Qt::WheelFocus: the wheel does not focus it
  }

 protected:
  void wheelEvent(QWheelEvent* event) override {
    if (this->hasFocus())
      Editor::wheelEvent(event);
    else
      event->ignore();
  }
};

using PanelSlider = WheelWhenFocused<QSlider>;

// A spin box that also takes scientific notation ("1e9", "2.5E-3"): a plain QDoubleSpinBox
// drops the 'e' and reads "1e9" as 19. It keeps every digit of its value and shows the
// shortest text that reads back as it (ShortestEditorText: 1e-9, 0.1, 2.5).
class NumberSpinBox : public WheelWhenFocused<QDoubleSpinBox> {
 public:
  explicit NumberSpinBox(QWidget* parent) : WheelWhenFocused<QDoubleSpinBox>(parent) {
    setDecimals(kAllDecimals);
    connect(this, &QDoubleSpinBox::valueChanged, this, [this](double v) { AlsoFit(v); });
  }

  // Wide enough for `value`'s text with the unit from now on (Qt's hint holds only the range's
  // ends: "0.0225 kg m^2" was cut in a box sized for "0.001 kg m^2"). Never narrower again, so
  // a dragged slider does not make the row's width jitter.
  void AlsoFit(double value) {
    const QString text = textFromValue(value);
    if (TextWidth(text) <= TextWidth(widest_)) return;
    widest_ = text;
    updateGeometry();
  }

  QSize sizeHint() const override {
    QSize hint = QDoubleSpinBox::sizeHint();
    const int qt = std::max(TextWidth(textFromValue(minimum()).left(18)),
                            TextWidth(textFromValue(maximum()).left(18)));
    hint.rwidth() += std::max(0, TextWidth(widest_) - qt);
    return hint;
  }

  QString textFromValue(double value) const override { return ShortestEditorText(value); }

  // A step lands on the decimal grid (0.1 three times up from 0 is 0.3).
  void stepBy(int steps) override {
    setValue(std::clamp(Tidy(value() + steps * singleStep(), 15), minimum(), maximum()));
    selectAll();
  }

  QValidator::State validate(QString& input, int& pos) const override {
    const QString text = Number(input);
    if (!text.contains('e', Qt::CaseInsensitive)) return QDoubleSpinBox::validate(input, pos);
    static const QRegularExpression complete(
        QStringLiteral(R"(^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d{1,3}$)"));
    static const QRegularExpression partial(QStringLiteral(R"(^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?$)"));
    if (complete.match(text).hasMatch()) {
      const double v = text.toDouble();
      return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    }
    return partial.match(text).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
  }

  double valueFromText(const QString& input) const override {
    const QString text = Number(input);
    bool ok = false;
    const double v = text.contains('e', Qt::CaseInsensitive) ? text.toDouble(&ok) : 0.0;
    return ok ? v : QDoubleSpinBox::valueFromText(input);
  }

 private:
  // What Qt's hint measures for a number's text (QAbstractSpinBox::sizeHint).
  int TextWidth(const QString& number) const {
    return fontMetrics().horizontalAdvance(prefix() + number + suffix() + QLatin1Char(' '));
  }

  QString widest_;  // the widest value text to fit (AlsoFit)

  // The text without the prefix, the unit suffix and spaces.
  QString Number(QString text) const {
    if (!suffix().isEmpty() && text.endsWith(suffix())) text.chop(suffix().size());
    if (!prefix().isEmpty() && text.startsWith(prefix())) text.remove(0, prefix().size());
    return text.trimmed();
  }
};

}  // namespace dirac::ui
