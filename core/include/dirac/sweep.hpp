#pragma once
/// @file sweep.hpp
/// Parameter sweeps: many runs of one derived model over a grid of `--set` values and/or uniform
/// random samples, spread over a thread pool, optionally sliced into shards for several
/// processes or machines, with one summary table per sweep. Layer: sweep (see
/// docs/ARCHITECTURE.md, "Dependency order").
///
/// Run numbering. A plan has G grid points (the Cartesian product of the grid axes, in the order
/// given, the last axis varying fastest; G = 1 without axes) and R random samples (R = 1 without
/// random axes). Run i (0 <= i < G R) takes grid point i / R and random sample i mod R.
///
/// Random samples. One std::mt19937_64 seeded with `seed` is drawn sample by sample, axis by
/// axis in the order given (sample j, axis a is draw j * A + a); a draw w becomes
/// u = (w >> 11) * 2^-53 in [0, 1) and the value low + (high - low) u. The values are therefore
/// the same on every platform and in every shard.
///
/// Shards. Shard K of N runs the indices i with i mod N = K - 1 (striped, so that runs whose cost
/// grows along an axis spread evenly) and writes `summary-shard-K-of-N.csv`; MergeSweepShards
/// joins the N tables into the `summary.csv` the whole sweep would have written.
///
/// Files in the output folder, all written atomically (temporary file + rename):
/// - `run-<i>.csv`: the trajectory of run i (i zero-padded to the digits of G R - 1), as
///   WriteCsv writes it; not written for a failed run;
/// - `summary.csv` (or `summary-shard-K-of-N.csv`): one row per run in run order. Columns:
///   `run`, the varied names, `final_<column>` for every coordinate, velocity, momentum,
///   costate and group column at t_end, `max_constraint_residual`, `max_energy_drift` (max over
///   samples of |E - E0|), `steps` (integrator steps), `status` (`ok`, `diverged` or `failed`),
///   `message` (the error of a failed run, or "diverged at t = T: what" for a run that finished
///   but left the trust bounds of docs/robustness.md, quoted as CSV), and last `wall_time_s` (the
///   run's wall time: the only column that differs between two identical sweeps;
///   SweepOptions::wall_time = false leaves it out). Numbers have 17 significant digits; the cells
///   of a failed run that it has no value for are empty.
/// - an interrupted sweep (cancel flag) writes the rows of the runs that completed to
///   `summary-interrupted.csv` (`summary-shard-K-of-N-interrupted.csv`) instead, so that a
///   partial table is never taken for a whole one; runs cut short write nothing.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac {

/// A grid axis: `count` values evenly spaced from `start` to `stop`, both included (count = 1:
/// start only). `name` is any `--set` name (parameter, initial value, setting).
struct SweepGridAxis {
  std::string name;
  double start = 0.0;
  double stop = 0.0;
  std::size_t count = 1;
};

/// A randomly sampled `--set` name: uniform on [low, high).
struct SweepRandomAxis {
  std::string name;
  double low = 0.0;
  double high = 1.0;
};

/// What to vary: the grid, the random axes and how many random samples.
struct SweepPlan {
  std::vector<SweepGridAxis> grid;
  std::vector<SweepRandomAxis> random;
  std::size_t random_count = 0;  ///< number of random samples (> 0 iff `random` is not empty)
  std::uint64_t seed = 0;        ///< seed of the random samples
};

/// Which slice of the runs one process takes: indices i with i mod count = index - 1.
struct SweepShard {
  std::size_t index = 1;  ///< K, 1-based
  std::size_t count = 1;  ///< N
};

/// How to run a sweep.
struct SweepOptions {
  std::string out_dir;             ///< created if missing
  std::size_t jobs = 1;            ///< worker threads (0: one per hardware thread)
  SweepShard shard;                ///< default: the whole sweep
  bool write_trajectories = true;  ///< false: only the summary table
  bool wall_time = true;           ///< false: no `wall_time_s` column (byte-reproducible table)
};

/// The values of every run of a plan, checked and expanded (the random samples drawn).
class SweepPoints {
 public:
  /// Checks the plan (at least one axis; counts >= 1; finite bounds; low <= high; a random
  /// count given iff there are random axes; no name twice; at most 10^9 runs) and draws the
  /// random samples. Throws ModelError naming the axis.
  explicit SweepPoints(SweepPlan plan);
  /// The varied names: grid axes, then random axes, in the order given.
  const std::vector<std::string>& names() const { return names_; }
  /// Number of runs G R.
  std::size_t size() const { return size_; }
  /// The values of run `run` (< size()), in the order of names().
  std::vector<double> Values(std::size_t run) const;
  /// Run indices of a shard in increasing order. Throws ModelError if K is not in 1..N.
  std::vector<std::size_t> ShardRuns(const SweepShard& shard) const;
  /// The trajectory file name of run `run`: "run-<zero-padded index>.csv".
  std::string RunFileName(std::size_t run) const;

 private:
  SweepPlan plan_;
  std::vector<std::string> names_;
  std::size_t grid_points_ = 1, samples_ = 1, size_ = 0;
  std::vector<double> random_values_;  ///< samples_ x plan_.random.size(), row-major
};

/// Progress of a running sweep, reported after every finished run.
struct SweepProgress {
  std::size_t finished = 0;  ///< runs finished in this process (ok or failed)
  std::size_t failed = 0;
  std::size_t total = 0;  ///< runs of this process (its shard)
  double elapsed_seconds = 0.0;
  std::size_t last_run = 0;  ///< index of the run that just finished
  std::string last_failure;  ///< its message if it failed, else empty
};

/// Called after each finished run, from the worker thread that ran it, one call at a time.
using SweepProgressCallback = std::function<void(const SweepProgress&)>;

/// What a sweep did.
struct SweepResult {
  std::size_t planned = 0;    ///< runs of this process (its shard)
  std::size_t completed = 0;  ///< runs recorded in the table (ok, diverged or failed)
  std::size_t failed = 0;
  std::size_t diverged = 0;  ///< runs that finished but cannot be trusted (status `diverged`)
  bool interrupted = false;  ///< the cancel flag stopped it
  std::string summary_path;  ///< the table written
  double elapsed_seconds = 0.0;
};

/// Runs a sweep of `model` (derived from `base` once, by the caller): for every run of the
/// shard, a copy of `base` gets the run's values by ApplyOverride, is turned into a
/// SimulationInput and simulated. Runs share the model across `options.jobs` threads. A run
/// that throws (an invalid value, a failed integration) is recorded as failed with the message
/// and the sweep goes on. When `*cancel` becomes true no new run starts, runs in progress are
/// cut short (their files are not written) and the table of the completed runs is written as
/// the interrupted summary. Files: see the top of this header.
/// Throws ModelError for a plan that does not fit the scenario (a name that is not a `--set`
/// name of it, an initial value the model fixes), IoError if the folder or table cannot be
/// written. Every failure of a single run is caught and recorded.
SweepResult RunSweep(const Model& model, const Scenario& base, const SweepPlan& plan,
                     const SweepOptions& options, const SweepProgressCallback& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

/// What a merge did.
struct SweepMergeResult {
  std::size_t shards = 0;
  std::size_t runs = 0;
  std::string summary_path;
};

/// Joins shard tables into `<out_dir>/summary.csv`, rows in run order, verbatim: what the sweep
/// in one process writes, apart from `wall_time_s` and from the rounding differences between two
/// derivations of the model in different processes (docs/sweeps.md, "Reproducibility"). Each input
/// is a folder (its `summary-shard-K-of-N.csv` files are taken) or a shard table itself. Requires
/// one table for every K in 1..N with the same N and the same header, each holding exactly the runs
/// of its shard, together runs 0..T-1. Throws IoError naming the file and line (malformed table,
/// missing or duplicate shard, a run in the wrong shard or missing).
SweepMergeResult MergeSweepShards(const std::vector<std::string>& inputs,
                                  const std::string& out_dir);

}  // namespace dirac
