// dirac.sweep: core's RunSweep over a derived model, its summary table as a NumPy record array.
#include <pybind11/stl.h>

#include <atomic>
#include <cmath>

#include "dirac/sweep.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {

// (start, stop, count) or (low, high) from a Python sequence, naming the axis in errors.
std::vector<double> Numbers(const std::string& name, const py::handle& value, std::size_t size) {
  const auto numbers = value.cast<std::vector<double>>();
  if (numbers.size() != size)
    throw py::value_error("sweep: '" + name + "' needs " + std::to_string(size) + " numbers");
  return numbers;
}

// The summary table as a record array: numbers as float64 (nan where a failed run has none),
// status and message as text.
py::object ReadTable(const std::string& path) {
  const py::module_ csv = py::module_::import("csv");
  const py::module_ numpy = py::module_::import("numpy");
  py::object file = py::module_::import("io").attr("open")(path, "r", py::arg("newline") = "");
  py::list rows = py::list(csv.attr("reader")(file));
  file.attr("close")();
  const auto header = rows[0].cast<std::vector<std::string>>();
  py::list arrays;
  for (std::size_t c = 0; c < header.size(); ++c) {
    py::list cells;
    for (std::size_t r = 1; r < rows.size(); ++r) cells.append(rows[r].cast<py::list>()[c]);
    if (header[c] == "status" || header[c] == "message") {
      arrays.append(numpy.attr("array")(cells, py::arg("dtype") = "U"));
      continue;
    }
    py::list numbers;
    for (const auto& cell : cells) {
      const auto text = cell.cast<std::string>();
      numbers.append(text.empty() ? py::float_(NAN) : py::float_(std::stod(text)));
    }
    arrays.append(numpy.attr("array")(numbers, py::arg("dtype") = "float64"));
  }
  return numpy.attr("rec").attr("fromarrays")(arrays, py::arg("names") = header);
}

}  // namespace

void BindSweep(py::module_& m) {
  m.def(
      "sweep",
      [](const py::object& target, const py::dict& vary, const py::dict& random,
         std::size_t samples, std::uint64_t seed, std::size_t jobs, const py::object& out_dir,
         bool trajectories, bool wall_time, const py::object& set, const py::object& t_end,
         const py::object& progress, bool as_frame) {
        // Before any run: a missing pandas is an error at once, not after the sweep.
        const py::object pandas =
            as_frame ? py::object(ImportPandas("sweep(as_frame=True)")) : py::object(py::none());
        // A Scenario is derived here; a Model is used as it is.
        const py::object derived =
            py::isinstance<PyScenario>(target) ? target.attr("derive")() : target;
        const PyModel& model = derived.cast<const PyModel&>();
        const Scenario base = WithValues(model.scenario, set, t_end);
        SweepPlan plan;
        for (const auto& item : vary) {
          const std::string name = py::str(item.first);
          const auto v = Numbers(name, item.second, 3);
          if (v[2] < 1 || v[2] != static_cast<double>(static_cast<std::size_t>(v[2])))
            throw py::value_error("sweep: the count of '" + name + "' must be a whole number >= 1");
          plan.grid.push_back({name, v[0], v[1], static_cast<std::size_t>(v[2])});
        }
        for (const auto& item : random) {
          const std::string name = py::str(item.first);
          const auto v = Numbers(name, item.second, 2);
          plan.random.push_back({name, v[0], v[1]});
        }
        plan.random_count = plan.random.empty() ? 0 : samples;
        plan.seed = seed;
        SweepOptions options;
        options.jobs = jobs;
        options.write_trajectories = trajectories;
        options.wall_time = wall_time;
        py::object temporary = py::none();
        if (out_dir.is_none()) {
          temporary = py::module_::import("tempfile").attr("TemporaryDirectory")();
          options.out_dir = temporary.attr("name").cast<std::string>();
        } else {
          options.out_dir = py::str(out_dir);
        }
        std::atomic<std::size_t> finished{0}, total{0};
        std::size_t reported = 0;
        SweepResult result;
        RunOnWorker(
            [&](const std::atomic<bool>& cancel) {
              result = RunSweep(
                  *model.model, base, plan, options,
                  [&](const SweepProgress& p) {
                    total = p.total;
                    finished = p.finished;
                  },
                  &cancel);
            },
            nullptr,
            [&] {
              if (progress.is_none() || finished == reported) return true;
              reported = finished;
              const py::object answer = progress(reported, total.load());
              return answer.is_none() || answer.cast<bool>();
            });
        py::object table = ReadTable(result.summary_path);
        if (!temporary.is_none()) temporary.attr("cleanup")();
        return as_frame ? pandas.attr("DataFrame").attr("from_records")(table) : table;
      },
      py::arg("model"), py::kw_only(), py::arg("vary") = py::dict(), py::arg("random") = py::dict(),
      py::arg("samples") = 0, py::arg("seed") = 0, py::arg("jobs") = 1,
      py::arg("out_dir") = py::none(), py::arg("trajectories") = false,
      py::arg("wall_time") = false, py::arg("set") = py::none(), py::arg("t_end") = py::none(),
      py::arg("progress") = py::none(), py::arg("as_frame") = false,
      "Runs a parameter sweep of a Model (a Scenario is derived first), as `dirac sweep` "
      "(docs/sweeps.md): vary= "
      "{name: (start, stop, count)} grid axes from the model's scenario with the set= values and "
      "t_end [s] (the last varying fastest), random= {name: (low, "
      "high)} drawn `samples` times from `seed`, over `jobs` threads. Returns the summary table "
      "as a NumPy record array (one row per run: run, the varied values, final_<column>, "
      "max_constraint_residual, max_energy_drift, steps, status, message[, wall_time_s [s]]). "
      "With out_dir the table (and with trajectories=True each run's CSV) is written there as "
      "by the CLI; without, nothing stays on disk. progress(finished, total) is called as runs "
      "finish (return False to stop: the table then holds the runs completed, as the CLI's "
      "interrupted summary); Ctrl+C stops the sweep (KeyboardInterrupt). as_frame=True returns "
      "the table as a pandas.DataFrame instead (ImportError without pandas).");
}

}  // namespace dirac::python
