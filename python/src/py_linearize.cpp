// Model.linearize and Model.stability_sweep: core's Linearizer (derived once per model and
// choice of ignorable coordinates and speeds, then only re-evaluated) with NumPy matrices.
#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <complex>

#include "dirac/csv.hpp"
#include "dirac/linearization.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {

using Complex = std::complex<double>;

py::array_t<double> Matrix(const Eigen::MatrixXd& m) {
  py::array_t<double> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  auto view = out.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) view(i, j) = m(i, j);
  return out;
}

py::array_t<Complex> ComplexVector(const std::vector<Complex>& v) {
  py::array_t<Complex> out(static_cast<py::ssize_t>(v.size()));
  auto view = out.mutable_unchecked<1>();
  for (std::size_t i = 0; i < v.size(); ++i) view(static_cast<py::ssize_t>(i)) = v[i];
  return out;
}

// The linearizer of `model` for these choices: derived on first use (Ctrl+C and `progress` as
// Scenario.derive), then taken from the model's cache; at the set= values if any.
std::shared_ptr<const Linearizer> LinearizerFor(const PyModel& m, const LinearizationOptions& o,
                                                const py::object& set, const py::object& progress) {
  std::string key = o.find ? "find;" : ";";
  for (const auto& name : o.ignorable) key += name + ",";
  key += ";";
  for (const auto& name : o.speeds) key += name + ",";
  key += ";" + std::to_string(o.tolerance) + ";" + std::to_string(o.manifold_tolerance);
  auto it = m.linearizers.find(key);  // the GIL serializes the cache
  if (it == m.linearizers.end()) {
    std::shared_ptr<const Linearizer> derived;
    RunDerivation([&] { derived = Linearizer::FromModel(m.scenario, o, m.model); }, progress);
    it = m.linearizers.emplace(key, std::move(derived)).first;
  }
  if (set.is_none()) return it->second;
  const auto lock = LockSymbolic();  // derived initial velocities are evaluated with GiNaC
  const Scenario scenario = WithValues(m.scenario, set, py::none());
  return it->second->WithValues(scenario);
}

LinearizationOptions Options(const std::vector<std::string>& ignorable,
                             const std::vector<std::string>& speeds, bool find, double tolerance) {
  LinearizationOptions o;
  o.ignorable = ignorable;
  o.speeds = speeds;
  o.find = find;
  o.tolerance = tolerance;
  return o;
}

// Runs `work` without the GIL on a worker that Ctrl+C cancels (the sweep polls the flag),
// under the symbolic lock: each point applies its value as --set does, which re-evaluates the
// derived initial velocities (GiNaC).
template <typename F>
void Numeric(F&& work) {
  const std::function<void(const std::string&)> no_stages = [](const std::string&) {};
  RunOnWorker([&](const std::atomic<bool>& cancel) { work(cancel); }, &no_stages, {});
}

py::dict CriticalDict(const StabilitySweep::Critical& c) {
  py::dict d;
  d["value"] = c.value;
  d["branch"] = c.branch;
  d["eigenvalue"] = c.eigenvalue;
  d["oscillatory"] = c.oscillatory;
  d["stabilizing"] = c.stabilizing;
  d["collision"] = c.collision;
  return d;
}

// T matrices of equal shape as a T x rows x cols array.
py::array_t<double> Stack(const std::vector<Eigen::MatrixXd>& ms, Eigen::Index rows,
                          Eigen::Index cols) {
  py::array_t<double> out({static_cast<py::ssize_t>(ms.size()), static_cast<py::ssize_t>(rows),
                           static_cast<py::ssize_t>(cols)});
  auto view = out.mutable_unchecked<3>();
  for (std::size_t t = 0; t < ms.size(); ++t)
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j) view(static_cast<py::ssize_t>(t), i, j) = ms[t](i, j);
  return out;
}

// linearize_along's run: a dirac.Result, a path (str or os.PathLike) to a CSV of `dirac run
// --csv`, or a T x (1 + states) array of t and Linearizer::StateColumns(). `source` names it.
Trajectory RunOf(const py::object& run, const Linearizer& linearizer, std::string& source) {
  if (py::isinstance<PyResult>(run)) {
    const PyResult& result = run.cast<const PyResult&>();
    source = "the run of " + result.scenario_name;
    return *result.trajectory;
  }
  const py::module_ os = py::module_::import("os");
  if (py::isinstance<py::str>(run) || py::isinstance(run, os.attr("PathLike"))) {
    source = py::str(os.attr("fspath")(run)).cast<std::string>();
    return ReadCsv(source);
  }
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(run);
  std::vector<std::string> columns{"t"};
  for (const auto& name : linearizer.StateColumns()) columns.push_back(name);
  if (!array || array.ndim() != 2 || array.shape(1) != static_cast<py::ssize_t>(columns.size()))
    throw py::type_error(
        "linearize_along expects a dirac.Result, a path to a run's CSV, or a T x " +
        std::to_string(columns.size()) + " array of the columns t, then the states in the order " +
        "of Model.linearize_along_columns");
  source = "the array";
  Trajectory trajectory(columns);
  for (py::ssize_t r = 0; r < array.shape(0); ++r) trajectory.AppendRow(array.data(r, 0));
  return trajectory;
}

}  // namespace

void BindLinearization(py::module_& m) {
  py::class_<LinearMode>(m, "LinearMode", "One eigenvalue of a linearization with its mode shape.")
      .def_readonly("eigenvalue", &LinearMode::eigenvalue, "The eigenvalue [1/s].")
      .def_property_readonly(
          "shape", [](const LinearMode& mode) { return ComplexVector(mode.shape); },
          "The eigenvector over Linearization.states (complex), its largest coordinate "
          "component (or speed component if no coordinate moves) scaled to 1.")
      .def_readonly("dominant", &LinearMode::dominant,
                    "States whose |component| is at least half the largest, largest first.")
      .def("__repr__", [](const LinearMode& mode) {
        return "<dirac.LinearMode " + py::repr(py::cast(mode.eigenvalue)).cast<std::string>() + ">";
      });

  py::class_<Linearization>(m, "Linearization",
                            "dx/dt = A x + B u about an equilibrium or steady motion, on the "
                            "constraint manifold (docs/linearization.md).")
      .def_readonly("formulation", &Linearization::formulation)
      .def_readonly("states", &Linearization::states,
                    "The kept independent coordinates, then the kept speeds: A's rows.")
      .def_readonly("num_coordinate_states", &Linearization::num_coordinate_states)
      .def_readonly("controls", &Linearization::controls)
      .def_property_readonly(
          "A", [](const Linearization& l) { return Matrix(l.A); }, "states x states [1/s].")
      .def_property_readonly(
          "B", [](const Linearization& l) { return Matrix(l.B); }, "states x controls.")
      .def_property_readonly(
          "M", [](const Linearization& l) { return Matrix(l.mass_matrix); },
          "The mass matrix over the kept speeds (empty for an explicit flow).")
      .def_property_readonly(
          "eigenvalues", [](const Linearization& l) { return ComplexVector(l.eigenvalues); },
          "Complex eigenvalues of A [1/s], sorted by real part then imaginary part, largest "
          "first (as `dirac linearize`).")
      .def_readonly("modes", &Linearization::modes,
                    "One LinearMode per eigenvalue with imaginary part >= 0.")
      .def_readonly("dependent_coordinates", &Linearization::dependent_coordinates)
      .def_readonly("independent_speeds", &Linearization::independent_speeds)
      .def_readonly("dependent_speeds", &Linearization::dependent_speeds)
      .def_readonly("ignorable_named", &Linearization::ignorable_named)
      .def_readonly("ignorable_found", &Linearization::ignorable_found)
      .def_readonly("dropped_speeds", &Linearization::dropped_speeds)
      .def_property_readonly(
          "point",
          [](const Linearization& l) {
            py::dict d;
            for (const auto& [name, value] : l.point) d[py::str(name)] = value;
            return d;
          },
          "{name: value}: the operating point, dependent values solved.")
      .def_readonly("rate_residual", &Linearization::rate_residual)
      .def_readonly("rate_residual_state", &Linearization::rate_residual_state)
      .def("to_json", &LinearizationJson, "The report as `dirac linearize --json` prints it.")
      .def("__str__", &LinearizationText)
      .def("__repr__", [](const Linearization& l) {
        return "<dirac.Linearization: " + std::to_string(l.states.size()) + " states, " +
               std::to_string(l.eigenvalues.size()) + " eigenvalues>";
      });

  py::class_<StabilitySweep>(m, "StabilitySweep",
                             "Eigenvalues along a parameter, as `dirac linearize --vary`.")
      .def_readonly("parameter", &StabilitySweep::parameter)
      .def_readonly("states", &StabilitySweep::states)
      .def_property_readonly(
          "values",
          [](const StabilitySweep& s) {
            return py::array_t<double>(static_cast<py::ssize_t>(s.values.size()), s.values.data());
          },
          "The parameter values swept (float64, as given).")
      .def_property_readonly(
          "eigenvalues",
          [](const StabilitySweep& s) {
            const auto rows = static_cast<py::ssize_t>(s.eigenvalues.rows());
            const auto cols = static_cast<py::ssize_t>(s.eigenvalues.cols());
            py::array_t<Complex> out({rows, cols});
            auto view = out.mutable_unchecked<2>();
            for (py::ssize_t i = 0; i < rows; ++i)
              for (py::ssize_t j = 0; j < cols; ++j) view(i, j) = s.eigenvalues(i, j);
            return out;
          },
          "values x branches (complex128): row i the spectrum at values[i], each column one "
          "continuous branch (the CLI's CSV columns re_k, im_k).")
      .def_property_readonly(
          "critical",
          [](const StabilitySweep& s) {
            py::list out;
            for (const auto& c : s.critical) out.append(CriticalDict(c));
            return out;
          },
          "Each critical value as a dict: value, branch (0-based), eigenvalue, oscillatory, "
          "stabilizing, collision; by value.")
      .def_property_readonly(
          "critical_values",
          [](const StabilitySweep& s) {
            py::array_t<double> out(static_cast<py::ssize_t>(s.critical.size()));
            for (std::size_t i = 0; i < s.critical.size(); ++i)
              out.mutable_at(static_cast<py::ssize_t>(i)) = s.critical[i].value;
            return out;
          },
          "Where a branch's real part crosses zero (refined to 1e-12), ascending.")
      .def_property_readonly(
          "stable_intervals",
          [](const StabilitySweep& s) {
            py::array_t<double> out(
                {static_cast<py::ssize_t>(s.stable_intervals.size()), static_cast<py::ssize_t>(2)});
            for (std::size_t i = 0; i < s.stable_intervals.size(); ++i) {
              out.mutable_at(static_cast<py::ssize_t>(i), 0) = s.stable_intervals[i].first;
              out.mutable_at(static_cast<py::ssize_t>(i), 1) = s.stable_intervals[i].second;
            }
            return out;
          },
          "k x 2: the intervals with no eigenvalue of positive real part.")
      .def("summary", &StabilitySweepText, "The critical values and stable intervals as text.")
      .def("to_csv", &StabilitySweepCsv, "The sweep as `dirac linearize --vary --csv` writes it.")
      .def("__repr__", [](const StabilitySweep& s) {
        return "<dirac.StabilitySweep over " + s.parameter + ": " +
               std::to_string(s.values.size()) + " values, " + std::to_string(s.critical.size()) +
               " critical>";
      });

  py::class_<TrajectoryLinearization>(
      m, "TrajectoryLinearization",
      "A(t), B(t) on the constraint manifold along a run, as `dirac linearize --along`.")
      .def_readonly("formulation", &TrajectoryLinearization::formulation)
      .def_readonly("states", &TrajectoryLinearization::states,
                    "The independent coordinates (named ignorable ones dropped), then the "
                    "independent speeds: the rows and columns of each A.")
      .def_readonly("num_coordinate_states", &TrajectoryLinearization::num_coordinate_states)
      .def_readonly("controls", &TrajectoryLinearization::controls)
      .def_readonly("dependent_coordinates", &TrajectoryLinearization::dependent_coordinates,
                    "Chosen at the first row and kept.")
      .def_readonly("dependent_speeds", &TrajectoryLinearization::dependent_speeds,
                    "Chosen at the first row and kept.")
      .def_readonly("ignorable", &TrajectoryLinearization::ignorable_named)
      .def_readonly("manifold_residual", &TrajectoryLinearization::manifold_residual,
                    "The largest |constraint residual| of the rows as given.")
      .def_readonly("chart_quality", &TrajectoryLinearization::chart_quality,
                    "The chart's smallest conditioning relative to the first row's (rows below "
                    "0.01 are refused).")
      .def_property_readonly(
          "t",
          [](const TrajectoryLinearization& l) {
            return py::array_t<double>(static_cast<py::ssize_t>(l.t.size()), l.t.data());
          },
          "The run's times [s] (float64, T).")
      .def_property_readonly(
          "A",
          [](const TrajectoryLinearization& l) {
            const auto n = static_cast<Eigen::Index>(l.states.size());
            return Stack(l.A, n, n);
          },
          "T x states x states [1/s]: A[i] = d(z')/dz at t[i].")
      .def_property_readonly(
          "B",
          [](const TrajectoryLinearization& l) {
            return Stack(l.B, static_cast<Eigen::Index>(l.states.size()),
                         static_cast<Eigen::Index>(l.controls.size()));
          },
          "T x states x controls.")
      .def("to_json", &TrajectoryLinearizationJson,
           "As `dirac linearize --along RUN.csv --json` prints it.")
      .def("__repr__", [](const TrajectoryLinearization& l) {
        return "<dirac.TrajectoryLinearization: " + std::to_string(l.t.size()) + " times, " +
               std::to_string(l.states.size()) + " states>";
      });

  auto model = py::reinterpret_borrow<py::class_<PyModel>>(m.attr("Model"));
  model.def(
      "linearize_along",
      [](const PyModel& pm, const py::object& run, const std::vector<std::string>& ignorable,
         const std::vector<std::string>& speeds, const py::object& set, double manifold_tolerance,
         const py::object& progress) {
        LinearizationOptions options = Options(ignorable, speeds, false, 1e-8);
        options.manifold_tolerance = manifold_tolerance;
        const auto linearizer = LinearizerFor(pm, options, set, progress);
        std::string source;
        const Trajectory trajectory = RunOf(run, *linearizer, source);
        TrajectoryLinearization result;
        Numeric([&](const std::atomic<bool>&) {
          result = linearizer->LinearizeAlong(trajectory, source);
        });
        return result;
      },
      py::arg("run"), py::kw_only(), py::arg("ignorable") = std::vector<std::string>{},
      py::arg("speeds") = std::vector<std::string>{}, py::arg("set") = py::none(),
      py::arg("manifold_tolerance") = 1e-6, py::arg("progress") = py::none(),
      "A(t), B(t) on the constraint manifold at every row of `run` (a dirac.Result of "
      "Model.run, a path to the CSV of `dirac run --csv`, or a T x (1 + states) array of t and "
      "the states in the order of Model.linearize_along_columns), as `dirac linearize --along`: "
      "the chart chosen at the first row and kept, only the named ignorable coordinates dropped, "
      "no equilibrium check. Returns a TrajectoryLinearization (t: T, A: T x n x n, B: T x n x "
      "controls, NumPy). Raises ModelError for missing state columns, a row off the constraint "
      "manifold beyond manifold_tolerance, or an ill-conditioned chart (naming the row).");
  model.def_property_readonly(
      "linearize_along_columns",
      [](const PyModel& pm) {
        const auto linearizer = LinearizerFor(pm, {}, py::none(), py::none());
        return linearizer->StateColumns();
      },
      "The state columns linearize_along reads (coordinates, then velocities or fibre "
      "coordinates), after t.");
  model.def(
      "linearize",
      [](const PyModel& pm, const std::vector<std::string>& ignorable,
         const std::vector<std::string>& speeds, bool find, const py::object& set, double tolerance,
         const py::object& progress) {
        const auto linearizer =
            LinearizerFor(pm, Options(ignorable, speeds, find, tolerance), set, progress);
        Linearization result;
        Numeric([&](const std::atomic<bool>&) { result = linearizer->Linearize(); });
        return result;
      },
      py::kw_only(), py::arg("ignorable") = std::vector<std::string>{},
      py::arg("speeds") = std::vector<std::string>{}, py::arg("find") = false,
      py::arg("set") = py::none(), py::arg("tolerance") = 1e-8, py::arg("progress") = py::none(),
      "Linearizes about the scenario's state with the set= values (an equilibrium or, with "
      "ignorable coordinates, a steady motion), on the constraint manifold: as `dirac "
      "linearize --ignorable ... --speeds ... [--find] --set ...`. The linearization is derived "
      "once per model and choice of ignorable/speeds/find/tolerance [state units/s] "
      "(progress(stage) during that derivation), then re-evaluated. Raises ModelError when the "
      "point is not an equilibrium or steady motion (naming the state and by how much).");
  model.def(
      "stability_sweep",
      [](const PyModel& pm, const std::string& name, const std::vector<double>& values,
         const std::vector<std::string>& ignorable, const std::vector<std::string>& speeds,
         bool find, const py::object& set, double tolerance, const py::object& progress) {
        const auto linearizer =
            LinearizerFor(pm, Options(ignorable, speeds, find, tolerance), set, progress);
        StabilitySweep result;
        Numeric([&](const std::atomic<bool>& cancel) {
          result = linearizer->Sweep(name, values, &cancel);
        });
        return result;
      },
      py::arg("name"), py::arg("values"), py::kw_only(),
      py::arg("ignorable") = std::vector<std::string>{},
      py::arg("speeds") = std::vector<std::string>{}, py::arg("find") = false,
      py::arg("set") = py::none(), py::arg("tolerance") = 1e-8, py::arg("progress") = py::none(),
      "Linearizes at each of `values` of `name` (a parameter or initial value; at least 2, "
      "strictly monotone), as `dirac linearize --vary`: eigenvalues matched into continuous "
      "branches, zero crossings of real parts refined to 1e-12. Returns a StabilitySweep. "
      "Ctrl+C stops it (KeyboardInterrupt). Other arguments as linearize().");
}

}  // namespace dirac::python
