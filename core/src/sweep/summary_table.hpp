#pragma once
// Internal: the CSV records of sweep summary tables (RFC 4180 quoting: a cell is quoted only
// when it holds a comma, a quote or a line break), written by RunSweep and read back by
// MergeSweepShards.

#include <cstddef>
#include <string>
#include <vector>

namespace dirac::sweep {

/// A number as every table cell holds it: 17 significant digits ("%.17g").
std::string FormatNumber(double value);

/// `text` as one CSV cell: unchanged, or quoted with inner quotes doubled when it holds a
/// comma, a quote, CR or LF.
std::string QuoteCell(const std::string& text);

/// Joins cells (already quoted) with commas.
std::string JoinCells(const std::vector<std::string>& cells);

/// One record of a table as read: its cells (unquoted), its exact text (without the line
/// break) and the 1-based line it starts on.
struct Record {
  std::vector<std::string> cells;
  std::string text;
  std::size_t line = 0;
};

/// Reads every record of `path`. Throws IoError naming the path (and the line of an unclosed
/// quote or of text after a closing quote).
std::vector<Record> ReadRecords(const std::string& path);

}  // namespace dirac::sweep
