#pragma once
/// @file csv.hpp
/// CSV export of trajectories: one header row of column names, then rows of numbers with 17
/// significant digits. Written atomically (temporary file in the same folder, then rename).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dirac/trajectory.hpp"

namespace dirac {

/// Writes `trajectory` to `path`. Throws IoError (naming the path) if it cannot; on failure the
/// destination is left untouched and no temporary file remains. An existing `path` that is not a
/// regular file (symbolic link, device node, directory) or not writable is refused, never
/// replaced; an existing file's permission bits are kept.
void WriteCsv(const Trajectory& trajectory, const std::string& path);

/// Writes CSV row by row, in the format of WriteCsv, with every write checked: to a file
/// atomically (nothing appears at the path until Finish(); the same refusals as WriteCsv), or
/// to standard output. Rows are buffered (64 KiB) and written as the buffer fills, so memory
/// stays constant however many rows there are. Every member throws IoError naming the
/// destination on a failed or short write (disk full, file-size limit, closed pipe).
class CsvWriter {
 public:
  /// To `path` through a temporary beside it. Throws IoError.
  explicit CsvWriter(const std::string& path);
  /// To standard output (file descriptor 1; flush stdio's stdout before using both).
  static CsvWriter ToStandardOutput();
  CsvWriter(CsvWriter&&) noexcept;
  /// Without a successful Finish(), a file's temporary is removed and the path left untouched.
  ~CsvWriter();

  void WriteHeader(const std::vector<std::string>& columns);
  /// One row of `count` numbers with 17 significant digits.
  void WriteRow(const double* values, std::size_t count);
  /// Writes what is buffered; for a file, syncs and renames it into place. Throws IoError.
  void Finish();
  /// "standard output" or the path.
  const std::string& destination() const;

 private:
  CsvWriter();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Removes the temporary files of atomic writes in progress (CsvWriter, WriteCsv,
/// SaveScenario). Async-signal-safe, for a watchdog or handler about to end the process.
/// SIGINT, SIGTERM and SIGHUP already do this when their action is the default one.
void RemovePendingTemporaryFiles() noexcept;

/// Reads a CSV written by WriteCsv. Throws IoError naming the path and line on malformed input.
Trajectory ReadCsv(const std::string& path);

}  // namespace dirac
