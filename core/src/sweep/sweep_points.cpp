// SweepPoints: the values of every run of a sweep plan (grid expansion, seeded random draws).
#include <cmath>
#include <random>
#include <set>
#include <string>

#include "dirac/error.hpp"
#include "dirac/sweep.hpp"

namespace dirac {

namespace {

constexpr std::size_t kMaxRuns = 1000000000;

std::string Describe(const std::string& flag, const std::string& name) {
  return "sweep: " + flag + " " + (name.empty() ? std::string("(no name)") : name);
}

// Multiplies `total` by `factor`, refusing more than kMaxRuns runs.
void MultiplyRuns(std::size_t& total, std::size_t factor, const std::string& what) {
  if (factor == 0 || total > kMaxRuns / factor)
    throw ModelError(what + ": the sweep would have more than " + std::to_string(kMaxRuns) +
                     " runs");
  total *= factor;
}

}  // namespace

SweepPoints::SweepPoints(SweepPlan plan) : plan_(std::move(plan)) {
  if (plan_.grid.empty() && plan_.random.empty())
    throw ModelError("sweep: nothing to vary: give at least one --vary or --random");
  std::set<std::string> seen;
  size_ = 1;
  for (const auto& axis : plan_.grid) {
    const std::string what = Describe("--vary", axis.name);
    if (axis.name.empty()) throw ModelError(what + ": the name is empty");
    if (!std::isfinite(axis.start) || !std::isfinite(axis.stop))
      throw ModelError(what + ": START and STOP must be finite numbers");
    if (axis.count < 1) throw ModelError(what + ": COUNT must be at least 1");
    if (!seen.insert(axis.name).second) throw ModelError(what + ": the name is varied twice");
    names_.push_back(axis.name);
    MultiplyRuns(size_, axis.count, what);
  }
  grid_points_ = size_;
  for (const auto& axis : plan_.random) {
    const std::string what = Describe("--random", axis.name);
    if (axis.name.empty()) throw ModelError(what + ": the name is empty");
    if (!std::isfinite(axis.low) || !std::isfinite(axis.high))
      throw ModelError(what + ": LO and HI must be finite numbers");
    if (axis.low > axis.high) throw ModelError(what + ": LO must not exceed HI");
    if (!seen.insert(axis.name).second) throw ModelError(what + ": the name is varied twice");
    names_.push_back(axis.name);
  }
  if (!plan_.random.empty() && plan_.random_count == 0)
    throw ModelError("sweep: --random needs a sample COUNT of at least 1");
  if (plan_.random.empty() && plan_.random_count != 0)
    throw ModelError("sweep: a random sample count without a --random axis");
  samples_ = plan_.random.empty() ? 1 : plan_.random_count;
  MultiplyRuns(size_, samples_, "sweep: --random");

  // Draw sample by sample, axis by axis; explicit arithmetic (not std::uniform_real_distribution,
  // whose output is implementation-defined) so that the values are the same everywhere.
  std::mt19937_64 generator(plan_.seed);
  const std::size_t axes = plan_.random.size();
  random_values_.resize(axes * (axes ? samples_ : 0));
  for (std::size_t j = 0; axes && j < samples_; ++j)
    for (std::size_t a = 0; a < axes; ++a) {
      const double u = static_cast<double>(generator() >> 11) * 0x1.0p-53;  // [0, 1)
      const auto& axis = plan_.random[a];
      random_values_[j * axes + a] = axis.low + (axis.high - axis.low) * u;
    }
}

std::vector<double> SweepPoints::Values(std::size_t run) const {
  if (run >= size_)
    throw ModelError("sweep: run " + std::to_string(run) + " out of range (" +
                     std::to_string(size_) + " runs)");
  std::vector<double> values(names_.size());
  std::size_t grid_index = run / samples_;
  const std::size_t sample = run % samples_;
  for (std::size_t a = plan_.grid.size(); a-- > 0;) {  // the last axis varies fastest
    const SweepGridAxis& axis = plan_.grid[a];
    const std::size_t k = grid_index % axis.count;
    grid_index /= axis.count;
    if (axis.count == 1 || k == 0)
      values[a] = axis.start;
    else if (k == axis.count - 1)
      values[a] = axis.stop;
    else
      values[a] = axis.start + (axis.stop - axis.start) * static_cast<double>(k) /
                                   static_cast<double>(axis.count - 1);
  }
  const std::size_t axes = plan_.random.size();
  for (std::size_t a = 0; a < axes; ++a)
    values[plan_.grid.size() + a] = random_values_[sample * axes + a];
  return values;
}

std::vector<std::size_t> SweepPoints::ShardRuns(const SweepShard& shard) const {
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw ModelError("sweep: shard " + std::to_string(shard.index) + "/" +
                     std::to_string(shard.count) + ": K must be in 1..N");
  std::vector<std::size_t> runs;
  for (std::size_t i = shard.index - 1; i < size_; i += shard.count) runs.push_back(i);
  return runs;
}

std::string SweepPoints::RunFileName(std::size_t run) const {
  const std::size_t width = std::to_string(size_ > 0 ? size_ - 1 : 0).size();
  std::string digits = std::to_string(run);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return "run-" + digits + ".csv";
}

}  // namespace dirac
