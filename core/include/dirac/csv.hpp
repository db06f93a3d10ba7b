#pragma once
/// @file csv.hpp
/// CSV export of trajectories: one header row of column names, then rows of numbers, each the
/// shortest text that reads back as the same double (0.03, not 0.029999999999999999). Written
/// atomically (temporary file in the same folder, then rename).

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
/// As above, with `comments` first, each on its own line after "# " (e.g. the parameter values
/// of the run); ReadCsv skips them.
void WriteCsv(const Trajectory& trajectory, const std::string& path,
              const std::vector<std::string>& comments);
/// As WriteCsv, atomic as well, but without waiting for the data to reach the disk (no fsync):
/// for many files followed by one SyncFileSystem (a sweep's runs). After a crash of the machine
/// (not of the process) before that sync, the file may be empty; an interrupted process still
/// leaves the old file or the complete new one.
void WriteCsvUnsynced(const Trajectory& trajectory, const std::string& path);
/// Flushes the file system holding `path` to disk (syncfs). Throws IoError naming `path`.
void SyncFileSystem(const std::string& path);

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

  /// One comment line "# text" (before the header; ReadCsv skips them).
  void WriteComment(const std::string& text);
  void WriteHeader(const std::vector<std::string>& columns);
  /// One row of `count` numbers, each the shortest text that reads back exactly.
  void WriteRow(const double* values, std::size_t count);
  /// Writes what is buffered; for a file, syncs (unless `sync` is false, for a caller that
  /// syncs the file system once after many files) and renames it into place. Throws IoError.
  void Finish(bool sync = true);
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

/// Reads a CSV written by WriteCsv (leading "#" comment lines are skipped). Throws IoError naming
/// the path and line on malformed input.
Trajectory ReadCsv(const std::string& path);

}  // namespace dirac
