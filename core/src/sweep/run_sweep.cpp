// RunSweep: the runs of one shard of a sweep on a thread pool sharing one derived model, and
// the summary table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/sweep.hpp"
#include "io/atomic_file.hpp"
#include "sweep/summary_table.hpp"

namespace dirac {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool IsFinalStateColumn(ColumnKind kind) {
  return kind == ColumnKind::kCoordinate || kind == ColumnKind::kVelocity ||
         kind == ColumnKind::kMomentum || kind == ColumnKind::kCostate ||
         kind == ColumnKind::kGroup;
}

std::string ShardSuffix(const SweepShard& shard) {
  if (shard.count == 1) return "";
  return "-shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count);
}

// Refuses a plan that does not fit the scenario and its model, before any run.
void CheckNames(const Model& model, const Scenario& base, const SweepPoints& points) {
  const std::string where = base.source_file.empty() ? "scenario" : base.source_file;
  for (const auto& name : points.names()) {
    if (!CurrentValue(base, name))
      throw ModelError(where + ": sweep: '" + name +
                       "' is not a --set name of this scenario (a parameter, an initial value "
                       "or one of t_end, output_step, rtol, atol, stabilization)");
    const InitialValueInfo* info = model.FindInitialValue(name);
    if (info && !info->free)
      throw ModelError(where + ": sweep: the initial value '" + name + "' is fixed by the model (" +
                       info->fixed_because + "), varying it would change nothing");
  }
}

struct RunOutcome {
  std::string row;  // the table row
  bool failed = false;
  bool diverged = false;  // finished, but its results cannot be trusted (report.diverged_at)
  std::string message;
};

class SweepRunner {
 public:
  SweepRunner(const Model& model, const Scenario& base, const SweepPoints& points,
              const SweepOptions& options, const std::atomic<bool>* cancel)
      : model_(model), base_(base), points_(points), options_(options), cancel_(cancel) {
    const auto& columns = model.columns();
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (IsFinalStateColumn(columns[c].kind)) final_columns_.push_back(c);
  }

  std::string Header() const {
    std::vector<std::string> cells{"run"};
    for (const auto& name : points_.names()) cells.push_back(sweep::QuoteCell(name));
    const auto& columns = model_.columns();
    for (std::size_t c : final_columns_)
      cells.push_back(sweep::QuoteCell("final_" + columns[c].name));
    for (const char* name :
         {"max_constraint_residual", "max_energy_drift", "steps", "status", "message"})
      cells.push_back(name);
    if (options_.wall_time) cells.push_back("wall_time_s");
    return sweep::JoinCells(cells);
  }

  bool Cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }

  // One run; nullopt if it was cut short by the cancel flag.
  std::optional<RunOutcome> Run(std::size_t run) const {
    const auto start = Clock::now();
    const std::vector<double> values = points_.Values(run);
    std::vector<std::string> cells{std::to_string(run)};
    for (double v : values) cells.push_back(sweep::FormatNumber(v));
    RunOutcome outcome;
    try {
      Scenario scenario = base_;
      for (std::size_t a = 0; a < values.size(); ++a)
        ApplyOverride(scenario, points_.names()[a], values[a]);
      SimulationProgress progress;
      if (cancel_) progress = [this](const Trajectory&) { return !Cancelled(); };
      SimulationReport report;
      const Trajectory trajectory =
          model_.Simulate(SimulationInput::FromScenario(scenario), progress, &report);
      if (report.cancelled || Cancelled()) return std::nullopt;
      if (trajectory.num_rows() == 0) throw NumericalError("the run produced no samples");
      if (options_.write_trajectories)
        // Atomic, but synced once for all runs before the table (one fsync per run made a
        // sweep of short runs wait on the disk, not compute: 4-6 ms per file on ext4 here).
        WriteCsvUnsynced(trajectory,
                         (fs::path(options_.out_dir) / points_.RunFileName(run)).string());
      const double* last = trajectory.row(trajectory.num_rows() - 1);
      for (std::size_t c : final_columns_) cells.push_back(sweep::FormatNumber(last[c]));
      cells.push_back(sweep::FormatNumber(report.max_constraint_residual));
      cells.push_back(sweep::FormatNumber(report.max_energy_drift));
      cells.push_back(std::to_string(report.internal_steps));
      if (report.diverged_at) {
        // Not a success: the numbers above are recorded, but they cannot be trusted.
        outcome.diverged = true;
        outcome.message = "diverged at t = " + sweep::FormatNumber(*report.diverged_at) + ": " +
                          report.divergence;
        cells.push_back("diverged");
        cells.push_back(sweep::QuoteCell(outcome.message));
      } else {
        cells.push_back("ok");
        cells.push_back("");
      }
    } catch (const std::exception& e) {
      if (Cancelled()) return std::nullopt;
      outcome.failed = true;
      outcome.message = e.what();
      cells.resize(1 + values.size());  // keep the run and its values, drop partial cells
      cells.resize(cells.size() + final_columns_.size() + 3, "");
      cells.push_back("failed");
      cells.push_back(sweep::QuoteCell(outcome.message));
    }
    if (options_.wall_time) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.6f",
                    std::chrono::duration<double>(Clock::now() - start).count());
      cells.push_back(seconds);
    }
    outcome.row = sweep::JoinCells(cells);
    return outcome;
  }

 private:
  const Model& model_;
  const Scenario& base_;
  const SweepPoints& points_;
  const SweepOptions& options_;
  const std::atomic<bool>* cancel_;
  std::vector<std::size_t> final_columns_;
};

}  // namespace

SweepResult RunSweep(const Model& model, const Scenario& base, const SweepPlan& plan,
                     const SweepOptions& options, const SweepProgressCallback& progress,
                     const std::atomic<bool>* cancel) {
  const auto start = Clock::now();
  const SweepPoints points(plan);
  CheckNames(model, base, points);
  const std::vector<std::size_t> runs = points.ShardRuns(options.shard);
  if (options.out_dir.empty()) throw IoError("sweep: no output folder given");
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec || !fs::is_directory(options.out_dir))
    throw IoError("cannot create the sweep folder '" + options.out_dir + "'" +
                  (ec ? ": " + ec.message() : std::string()));

  const SweepRunner runner(model, base, points, options, cancel);
  std::vector<std::optional<RunOutcome>> outcomes(runs.size());
  std::atomic<std::size_t> next{0};
  std::mutex mutex;  // guards the counters, the progress call and `error`
  SweepProgress state;
  state.total = runs.size();
  std::exception_ptr error;

  auto worker = [&] {
    try {
      for (;;) {
        if (runner.Cancelled()) return;
        const std::size_t k = next.fetch_add(1);
        if (k >= runs.size()) return;
        std::optional<RunOutcome> outcome = runner.Run(runs[k]);
        if (!outcome) return;  // cut short by the cancel flag
        std::lock_guard<std::mutex> lock(mutex);
        ++state.finished;
        state.failed += outcome->failed;
        state.last_run = runs[k];
        state.last_failure = outcome->failed ? outcome->message : std::string();
        state.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        outcomes[k] = std::move(outcome);
        if (progress) progress(state);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
    }
  };

  std::size_t jobs =
      options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::max<std::size_t>(1, std::min(jobs, runs.size()));
  if (jobs == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (std::size_t j = 0; j < jobs; ++j) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);

  SweepResult result;
  result.planned = runs.size();
  for (const auto& o : outcomes)
    if (o) {
      ++result.completed;
      result.failed += o->failed;
      result.diverged += o->diverged;
    }
  result.interrupted = result.completed < result.planned;
  const std::string name =
      "summary" + ShardSuffix(options.shard) + (result.interrupted ? "-interrupted" : "") + ".csv";
  result.summary_path = (fs::path(options.out_dir) / name).string();
  // The run files reach the disk before the table that lists them.
  if (options.write_trajectories && result.completed > 0) SyncFileSystem(options.out_dir);
  io::AtomicFile table(result.summary_path);
  table.Write(runner.Header());
  table.Write("\n");
  for (const auto& o : outcomes)
    if (o) {
      table.Write(o->row);
      table.Write("\n");
    }
  table.Commit();
  result.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace dirac
