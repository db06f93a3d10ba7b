#pragma once
// Shared pieces of the Python module `dirac`: the wrapped objects, the process-wide symbolic
// lock, the GIL-free calls that poll for Ctrl+C, and the NumPy views of trajectories.

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dirac/linearization.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/symbolic_lock.hpp"
#include "dirac/trajectory.hpp"

namespace dirac::python {

namespace py = pybind11;

// ---- py_symbolic_lock.cpp

/// Takes core's symbolic lock (dirac/symbolic_lock.hpp: reading a scenario, deriving,
/// Model::Equations, the constraint algorithm, destroying a model), without holding the GIL
/// while it waits (a thread deriving under the lock never needs the GIL, so no thread can wait
/// for the other's lock while holding its own).
[[nodiscard]] SymbolicGuard LockSymbolic();

/// Runs `work(cancel)` on a worker thread while the calling thread, without the GIL, checks
/// every 50 ms for Ctrl+C (PyErr_CheckSignals) and calls `tick` with the GIL (it may raise; it
/// returns false to set `cancel`). A Python error sets `cancel` and is raised once the worker
/// has ended; otherwise the work's
/// exception is rethrown. With `on_stage` (a derivation) the worker holds the symbolic lock inside
/// a dirac::DerivationScope on `cancel` that reports stages to *on_stage (on the worker).
void RunOnWorker(const std::function<void(const std::atomic<bool>& cancel)>& work,
                 const std::function<void(const std::string&)>* on_stage,
                 const std::function<bool()>& tick);

/// RunOnWorker for a derivation: progress(stage: str) (unless None) hears of each new stage and
/// returns False to cancel it (core then throws DerivationCancelled).
void RunDerivation(const std::function<void()>& work, const py::object& progress);

/// Number of derivations (BuildModel and AnalyzeChain calls) made by this process through the
/// module: what lets a test show that `set=` re-derives nothing.
std::size_t DerivationCount();

/// What a core progress callback calls, on a thread without the GIL: it takes the GIL briefly,
/// checks for Ctrl+C and calls the Python `progress` with `args`. Without a `progress` it takes
/// the GIL at most every kSignalInterval (taking it at each of a run's ~50 progress points cost
/// about 70 us per run, 6 % of a 1 ms run), so Ctrl+C is seen within that much more.
/// Returns false (cancel) once a Python error is pending; Finish() raises it.
class InterruptPoll {
 public:
  static constexpr std::chrono::milliseconds kSignalInterval{20};

  explicit InterruptPoll(py::object progress)
      : progress_(std::move(progress)), last_check_(std::chrono::steady_clock::now()) {}
  /// From the core callback's thread (without the GIL): false to cancel.
  bool Poll(const std::function<py::object()>& progress_args);
  /// Raises the pending Python error (KeyboardInterrupt, an exception of the callback) if any.
  void Finish();
  bool cancelled() const { return cancelled_; }

 private:
  py::object progress_;
  std::chrono::steady_clock::time_point last_check_;
  bool cancelled_ = false;
  std::unique_ptr<py::error_already_set> pending_;
};

// ---- py_result.cpp

/// A finished run or solve: the trajectory (shared with the NumPy views made of it) and a
/// report as a Python dict.
struct PyResult {
  std::shared_ptr<const Trajectory> trajectory;
  std::string scenario_name;
  py::dict report;
};

void BindResult(py::module_& m);

/// `import pandas`, or an ImportError that names `caller` and the package to install
/// (pandas is optional: only Result.to_pandas and sweep(as_frame=True) need it).
py::module_ ImportPandas(const char* caller);

// ---- py_model.cpp

struct PyScenario {
  Scenario scenario;
};

/// A derived model; destroyed under the symbolic lock (a model holds GiNaC expressions).
struct PyModel {
  std::shared_ptr<const Model> model;
  Scenario scenario;  ///< the scenario it was derived from (values at derivation time)
  /// Model.linearize's linearizers, derived once per choice of options (py_linearize.cpp);
  /// read and filled with the GIL held.
  mutable std::map<std::string, std::shared_ptr<const Linearizer>> linearizers;
  ~PyModel();
};

/// A copy of `base` with the `set` values ({name: number or str}) and `t_end` applied as the
/// CLI's --set and --t-end do (all at once, settings checked together). Throws ScenarioError.
Scenario WithValues(const Scenario& base, const py::object& set, const py::object& t_end);

void BindScenarioAndModel(py::module_& m);

// ---- py_errors.cpp

/// dirac.Error and its subclasses, and the translation of core exceptions to them.
void BindErrors(py::module_& m);
/// Raises dirac.SolveError with `message` and `report` (a dict) as its .report.
/// Warns dirac.DivergenceWarning(message) (raises if warnings are errors).
void WarnDiverged(const std::string& message);
[[noreturn]] void ThrowSolveError(const std::string& message, const py::dict& report);

// ---- py_solve.cpp

void BindSolve(py::module_& m);

// ---- py_sweep.cpp

void BindSweep(py::module_& m);

// ---- py_linearize.cpp

/// dirac.Linearization, dirac.LinearMode, dirac.StabilitySweep and Model.linearize /
/// Model.stability_sweep (after BindScenarioAndModel).
void BindLinearization(py::module_& m);

}  // namespace dirac::python
