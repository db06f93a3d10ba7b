#pragma once
/// @file csv.hpp
/// CSV export of trajectories: one header row of column names, then rows of numbers with 17
/// significant digits. Written atomically (temporary file in the same folder, then rename).

#include <string>
#include <vector>

#include "dirac/trajectory.hpp"

namespace dirac {

/// Writes `trajectory` to `path`. Throws IoError (naming the path) if it cannot; on failure the
/// destination is left untouched and no temporary file remains.
void WriteCsv(const Trajectory& trajectory, const std::string& path);
/// As above, with `comments` first, each on its own line after "# " (e.g. the parameter values
/// of the run); ReadCsv skips them.
void WriteCsv(const Trajectory& trajectory, const std::string& path,
              const std::vector<std::string>& comments);

/// Reads a CSV written by WriteCsv (leading "#" comment lines are skipped). Throws IoError naming
/// the path and line on malformed input.
Trajectory ReadCsv(const std::string& path);

}  // namespace dirac
