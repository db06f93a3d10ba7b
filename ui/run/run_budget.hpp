#pragma once
/// @file run_budget.hpp
/// How much a run will store, estimated before it starts from the final time and the output
/// step, and the output step that keeps it under the window's bound.

#include <QString>

#include <cstddef>

namespace dirac::ui {

/// Bound on one stored trajectory [bytes]. The window holds at most a few copies of a run (the
/// worker's, the published snapshot, a partial one in flight, the pinned run), so with this
/// bound the process stays well under 1 GiB for any input.
inline constexpr double kMaxStoredTrajectoryBytes = 64.0 * 1024.0 * 1024.0;

/// The estimate for one run.
struct RunBudget {
  double samples = 0.0;         ///< t_end / output_step + 1
  double bytes = 0.0;           ///< samples x columns x 8
  double max_samples = 0.0;     ///< what the bound allows with these columns
  bool within = true;           ///< bytes <= kMaxStoredTrajectoryBytes
  double decimated_step = 0.0;  ///< an output step [s] that fits (== output_step if within)
};

/// Estimates a run of [0, t_end] sampled every `output_step` [s] with `columns` columns
/// (values <= 0 or not finite count as unbounded: within = false, decimated_step = t_end).
RunBudget EstimateRun(double t_end, double output_step, std::size_t columns);

/// "1.2 MB", "580 kB", "16 GB": bytes in decimal units.
QString FormatBytes(double bytes);

/// "4001" below 1e7, else "1e+11": a sample count.
QString FormatCount(double count);

}  // namespace dirac::ui
