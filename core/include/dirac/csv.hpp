#pragma once
/// @file csv.hpp
/// CSV export of trajectories: one header row of column names, then rows of numbers with 17
/// significant digits. Written atomically (temporary file in the same folder, then rename).

#include <string>

#include "dirac/trajectory.hpp"

namespace dirac {

/// Writes `trajectory` to `path`. Throws IoError (naming the path) if it cannot; on failure the
/// destination is left untouched and no temporary file remains.
void WriteCsv(const Trajectory& trajectory, const std::string& path);

/// Reads a CSV written by WriteCsv. Throws IoError naming the path and line on malformed input.
Trajectory ReadCsv(const std::string& path);

}  // namespace dirac
