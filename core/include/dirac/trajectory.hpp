#pragma once
/// @file trajectory.hpp
/// Sampled output of a simulation: named columns, one row per output time.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dirac {

/// Largest trajectory held in memory [bytes]: rows x columns x 8. Runs that would hold more are
/// refused before they start (RequireTrajectoryFits) unless their rows are streamed
/// (Trajectory::StreamTo), as the CLI does.
inline constexpr std::size_t kMaxTrajectoryBytes = std::size_t{256} << 20;

/// Throws Error if `rows` rows of `columns` doubles exceed kMaxTrajectoryBytes; the message
/// names `what` (e.g. the scenario file), the size and the bound.
void RequireTrajectoryFits(double rows, std::size_t columns, const std::string& what);

/// A table of samples. Column 0 is always "t". Rows are appended in time order.
class Trajectory {
 public:
  Trajectory() = default;
  explicit Trajectory(std::vector<std::string> columns);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t num_columns() const { return columns_.size(); }
  std::size_t num_rows() const { return num_columns() ? data_.size() / num_columns() : 0; }
  /// True until the first row is appended (also when streaming).
  bool empty() const { return rows_appended_ == 0; }
  /// Every row appended so far (equals num_rows() unless streaming).
  std::size_t rows_appended() const { return rows_appended_; }

  /// Receives each appended row: the column names and num_columns() values.
  using RowSink = std::function<void(const std::vector<std::string>& columns, const double* row)>;
  /// Streams from now on: AppendRow hands each row to `sink` (which may throw, e.g. IoError on a
  /// failed write; the row is then not appended) and keeps only the last row, so num_rows() is
  /// at most 1 and memory stays constant. An empty sink is ignored.
  void StreamTo(RowSink sink);
  bool streaming() const { return static_cast<bool>(sink_); }

  /// Index of the column named `name`, if present.
  std::optional<std::size_t> FindColumn(const std::string& name) const;
  /// Index of `name`; throws Error if absent.
  std::size_t ColumnIndex(const std::string& name) const;

  double at(std::size_t row, std::size_t column) const {
    return data_[row * num_columns() + column];
  }
  /// Pointer to the row's num_columns() values.
  const double* row(std::size_t r) const { return data_.data() + r * num_columns(); }
  /// Copy of one column.
  std::vector<double> Column(const std::string& name) const;
  /// Appends a row of num_columns() values (streaming: hands it to the sink, keeps only it).
  void AppendRow(const double* values);
  /// Appends all rows of `other` (same columns required, else throws Error).
  void Append(const Trajectory& other);
  /// Index of the last row with t <= time (0 if none).
  std::size_t RowAtTime(double time) const;

 private:
  std::vector<std::string> columns_;
  std::vector<double> data_;
  std::size_t rows_appended_ = 0;
  RowSink sink_;
};

}  // namespace dirac
