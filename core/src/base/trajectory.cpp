#include "dirac/trajectory.hpp"

#include <algorithm>
#include <cstdio>

#include "dirac/error.hpp"

namespace dirac {

Trajectory::Trajectory(std::vector<std::string> columns) : columns_(std::move(columns)) {}

std::optional<std::size_t> Trajectory::FindColumn(const std::string& name) const {
  auto it = std::find(columns_.begin(), columns_.end(), name);
  if (it == columns_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - columns_.begin());
}

std::size_t Trajectory::ColumnIndex(const std::string& name) const {
  auto index = FindColumn(name);
  if (!index) throw Error("trajectory has no column '" + name + "'");
  return *index;
}

std::vector<double> Trajectory::Column(const std::string& name) const {
  const std::size_t c = ColumnIndex(name);
  std::vector<double> out(num_rows());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = at(r, c);
  return out;
}

void RequireTrajectoryFits(double rows, std::size_t columns, const std::string& what) {
  const double bytes = rows * static_cast<double>(columns) * sizeof(double);
  if (!(bytes <= static_cast<double>(kMaxTrajectoryBytes))) {
    char text[256];
    std::snprintf(text, sizeof text,
                  ": %.0f samples of %zu columns would hold %.0f MB in memory, above the bound "
                  "of %zu MB (raise output_step, shorten t_end, or stream the run with the CLI)",
                  rows, columns, bytes / 1e6, kMaxTrajectoryBytes >> 20);
    throw Error(what + text);
  }
}

void Trajectory::StreamTo(RowSink sink) {
  if (!sink) return;
  sink_ = std::move(sink);
  if (num_rows() > 1) data_.erase(data_.begin(), data_.end() - static_cast<long>(num_columns()));
}

void Trajectory::AppendRow(const double* values) {
  if (sink_) {
    sink_(columns_, values);
    data_.assign(values, values + num_columns());
  } else {
    data_.insert(data_.end(), values, values + num_columns());
  }
  ++rows_appended_;
}

void Trajectory::Append(const Trajectory& other) {
  if (other.columns_ != columns_) throw Error("cannot append a trajectory with other columns");
  for (std::size_t r = 0; r < other.num_rows(); ++r) AppendRow(other.row(r));
}

std::size_t Trajectory::RowAtTime(double time) const {
  const std::size_t n = num_rows();
  if (n == 0) return 0;
  std::size_t lo = 0, hi = n;  // first row with t > time, by bisection
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (at(mid, 0) <= time)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo == 0 ? 0 : lo - 1;
}

}  // namespace dirac
