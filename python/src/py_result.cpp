// dirac.Result: a trajectory as read-only NumPy views of the engine's own samples (no copy).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdio>

#include "py_common.hpp"

namespace dirac::python {

namespace {

// A read-only view of `rows` x `columns` doubles at `data` (row stride = the trajectory's
// row), kept alive by `owner` (the Result object, which holds the trajectory).
py::array View(const py::object& owner, const double* data, std::vector<py::ssize_t> shape,
               std::vector<py::ssize_t> strides) {
  py::array view(py::dtype::of<double>(), std::move(shape), std::move(strides), data, owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

py::array ColumnView(const py::object& self, std::size_t column) {
  const PyResult& r = self.cast<const PyResult&>();
  const Trajectory& tr = *r.trajectory;
  const auto rows = static_cast<py::ssize_t>(tr.num_rows());
  const auto stride = static_cast<py::ssize_t>(tr.num_columns() * sizeof(double));
  const double* data = rows ? tr.row(0) + column : nullptr;
  return View(self, data, {rows}, {stride});
}

std::size_t IndexOf(const PyResult& r, const std::string& name) {
  const auto index = r.trajectory->FindColumn(name);
  if (!index) throw py::key_error("no column '" + name + "' in this result");
  return *index;
}

std::string ResultRepr(const PyResult& r) {
  const Trajectory& tr = *r.trajectory;
  char text[160];
  if (tr.num_rows() == 0) {
    std::snprintf(text, sizeof text, "<dirac.Result '%s': no samples, %zu columns>",
                  r.scenario_name.c_str(), tr.num_columns());
  } else {
    std::snprintf(text, sizeof text,
                  "<dirac.Result '%s': %zu samples x %zu columns, t = %g .. %g s>",
                  r.scenario_name.c_str(), tr.num_rows(), tr.num_columns(), tr.at(0, 0),
                  tr.at(tr.num_rows() - 1, 0));
  }
  return text;
}

}  // namespace

py::module_ ImportPandas(const char* caller) {
  try {
    return py::module_::import("pandas");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    // Chained to the original ImportError (raise ... from e).
    py::raise_from(
        e, PyExc_ImportError,
        (std::string(caller) + " needs pandas, which is not installed (Debian: apt-get install "
                               "python3-pandas); to_numpy() gives the same numbers without it")
            .c_str());
    throw py::error_already_set();
  }
}

void BindResult(py::module_& m) {
  py::class_<PyResult>(m, "Result",
                       "A sampled trajectory: column 't' [s] and one column per derived "
                       "quantity, in the units of the scenario. The arrays are read-only views "
                       "of the engine's samples (no copy); they keep the Result alive.")
      .def_property_readonly(
          "t", [](const py::object& self) { return ColumnView(self, 0); },
          "Sample times [s] (a read-only float64 array).")
      .def_property_readonly(
          "columns", [](const PyResult& r) { return r.trajectory->columns(); },
          "Column names, as in the CLI's CSV header (column 0 is 't').")
      .def_property_readonly(
          "report", [](const PyResult& r) { return r.report; },
          "What the integrator (or solver) did: a dict (method, steps, residuals, ...).")
      .def(
          "__getitem__",
          [](const py::object& self, const std::string& name) {
            return ColumnView(self, IndexOf(self.cast<const PyResult&>(), name));
          },
          py::arg("name"), "The column `name` (a read-only float64 array); KeyError if absent.")
      .def("__contains__",
           [](const PyResult& r, const std::string& name) {
             return r.trajectory->FindColumn(name).has_value();
           })
      .def("__len__", [](const PyResult& r) { return r.trajectory->num_rows(); })
      .def(
          "to_numpy",
          [](const py::object& self) {
            const Trajectory& tr = *self.cast<const PyResult&>().trajectory;
            const auto rows = static_cast<py::ssize_t>(tr.num_rows());
            const auto columns = static_cast<py::ssize_t>(tr.num_columns());
            const auto item = static_cast<py::ssize_t>(sizeof(double));
            return View(self, rows ? tr.row(0) : nullptr, {rows, columns}, {columns * item, item});
          },
          "All samples as a read-only (samples x columns) float64 array, row i at time t[i] "
          "(no copy).")
      .def(
          "to_pandas",
          [](const py::object& self) {
            const py::module_ pandas = ImportPandas("Result.to_pandas()");
            const PyResult& r = self.cast<const PyResult&>();
            return pandas.attr("DataFrame")(self.attr("to_numpy")().attr("copy")(),
                                            py::arg("columns") = r.trajectory->columns());
          },
          "The samples as a pandas.DataFrame (a copy); ImportError without pandas.")
      .def("__repr__", &ResultRepr);
}

}  // namespace dirac::python
