#include "run/run_budget.hpp"

#include <algorithm>
#include <cmath>

namespace dirac::ui {

RunBudget EstimateRun(double t_end, double output_step, std::size_t columns) {
  RunBudget b;
  const double width = 8.0 * static_cast<double>(std::max<std::size_t>(columns, 1));
  b.max_samples = std::floor(kMaxStoredTrajectoryBytes / width);
  if (!(t_end > 0.0) || !(output_step > 0.0) || !std::isfinite(t_end) ||
      !std::isfinite(output_step)) {
    b.samples = HUGE_VAL;
    b.bytes = HUGE_VAL;
    b.within = false;
    b.decimated_step = std::isfinite(t_end) && t_end > 0.0 ? t_end : 1.0;
    return b;
  }
  b.samples = std::floor(t_end / output_step) + 1.0;
  b.bytes = b.samples * width;
  b.within = b.bytes <= kMaxStoredTrajectoryBytes;
  b.decimated_step = output_step;
  if (!b.within) {
    // The smallest "nice" multiple (1, 2, 5 x 10^k) of the step that fits.
    const double needed = t_end / (b.max_samples - 1.0);
    const double decade = std::pow(10.0, std::floor(std::log10(needed)));
    double step = 10.0 * decade;
    for (double m : {1.0, 2.0, 5.0}) {
      if (m * decade >= needed) {
        step = m * decade;
        break;
      }
    }
    b.decimated_step = std::max(step, output_step);
  }
  return b;
}

QString FormatBytes(double bytes) {
  if (!std::isfinite(bytes)) return QStringLiteral("unbounded");
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 6) {
    bytes /= 1000.0;
    ++u;
  }
  return QStringLiteral("%1 %2").arg(QString::number(bytes, 'f', bytes >= 10.0 ? 0 : 1), units[u]);
}

QString FormatCount(double count) {
  if (!std::isfinite(count)) return QStringLiteral("unbounded");
  return count < 1e7 ? QString::number(count, 'f', 0) : QString::number(count, 'g', 3);
}

}  // namespace dirac::ui
