#pragma once
/// @file trajectory.hpp
/// Sampled output of a simulation: named columns, one row per output time.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dirac {

/// A table of samples. Column 0 is always "t". Rows are appended in time order.
class Trajectory {
 public:
  Trajectory() = default;
  explicit Trajectory(std::vector<std::string> columns);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t num_columns() const { return columns_.size(); }
  std::size_t num_rows() const { return num_columns() ? data_.size() / num_columns() : 0; }
  bool empty() const { return data_.empty(); }

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
  /// Appends a row of num_columns() values.
  void AppendRow(const double* values);
  /// Appends all rows of `other` (same columns required, else throws Error).
  void Append(const Trajectory& other);
  /// Index of the last row with t <= time (0 if none).
  std::size_t RowAtTime(double time) const;

 private:
  std::vector<std::string> columns_;
  std::vector<double> data_;
};

}  // namespace dirac
