// Model.linearize and Model.stability_sweep: core's Linearizer (derived once per model and
// choice of ignorable coordinates and speeds, then only re-evaluated) with NumPy matrices.
#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <complex>

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
  key += ";" + std::to_string(o.tolerance);
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

  auto model = py::reinterpret_borrow<py::class_<PyModel>>(m.attr("Model"));
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
