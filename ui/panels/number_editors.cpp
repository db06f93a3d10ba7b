#include "panels/number_editors.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace dirac::ui {

QString ShortestEditorText(double value) {
  if (!std::isfinite(value)) return QString::number(value);
  const double magnitude = std::abs(value);
  const bool fixed = magnitude == 0.0 || (magnitude >= 1e-4 && magnitude < 1e7);
  char buffer[400];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value,
                                 fixed ? std::chars_format::fixed : std::chars_format::scientific)
                       .ptr;
  std::string text(buffer, end);
  if (const std::size_t e = text.find('e'); e != std::string::npos) {
    std::string exponent = text.substr(e + 1);
    const bool negative = exponent.front() == '-';
    if (exponent.front() == '+' || negative) exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    text = text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
  }
  return QString::fromStdString(text);
}

double Tidy(double value, int digits) {
  if (!std::isfinite(value) || value == 0.0) return value;
  return QString::number(value, 'g', digits).toDouble();
}

int SliderPosition(double value, double min, double max) {
  if (!(max > min)) return 0;
  return static_cast<int>(std::lround((value - min) / (max - min) * kSliderSteps));
}

double SliderValue(int position, double min, double max) {
  const double value = min + (max - min) * static_cast<double>(position) / kSliderSteps;
  const double step = (max - min) / kSliderSteps;
  if (!(step > 0.0) || !std::isfinite(value)) return value;
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(step))), 0, 300);
  return std::clamp(QString::number(value, 'f', decimals).toDouble(), min, max);
}

}  // namespace dirac::ui
