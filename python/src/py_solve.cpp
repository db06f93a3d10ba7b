// Model.solve and dirac.Solution: optimal control (and boundary-value problems) by multiple
// shooting, re-solved warm from the previous solution.
#include <pybind11/stl.h>

#include <cstdio>

#include "dirac/optimal_control.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {

/// A converged solve: what it was solved for (the scenario with its set= values) and the
/// solution, whose warm start the next resolve uses.
struct PySolution {
  std::shared_ptr<const Model> model;  ///< shared with the dirac.Model it came from
  Scenario problem;
  OptimalControlSolution solution;
  py::dict report;
  py::object trajectory;  ///< a dirac.Result, made once
  ~PySolution() {
    if (!model) return;
    const auto lock = LockSymbolic();  // possibly the last reference to the model
    model.reset();
  }
};

py::dict ReportDict(const OptimalControlSolution& s) {
  py::dict report = py::module_::import("json").attr("loads")(SolveReportToJson(s.report, s.cost));
  report["hamiltonian_drift"] = s.hamiltonian_drift;
  return report;
}

std::unique_ptr<PySolution> Solve(const std::shared_ptr<const Model>& model, Scenario problem,
                                  const WarmStart* warm, const py::object& progress) {
  auto out = std::make_unique<PySolution>();
  out->model = model;
  out->problem = std::move(problem);
  InterruptPoll poll(progress);
  SolveOptions options;
  options.warm_start = warm;
  options.progress = [&](const NewtonIterate& it) {
    return poll.Poll([&] { return py::make_tuple(it.iteration, it.residual); });
  };
  {
    py::gil_scoped_release release;
    out->solution = SolveOptimalControl(*model, out->problem, options);
  }
  poll.Finish();
  out->report = ReportDict(out->solution);
  const SolveReport& r = out->solution.report;
  if (!r.converged)
    ThrowSolveError(
        (out->problem.source_file.empty() ? out->problem.name : out->problem.source_file) +
            ": the solve did not converge: " + r.message,
        out->report);
  PyResult result;
  result.trajectory = std::make_shared<const Trajectory>(std::move(out->solution.trajectory));
  result.scenario_name = out->problem.name;
  result.report = out->report;
  out->trajectory = py::cast(std::move(result));
  return out;
}

std::string SolutionRepr(const PySolution& s) {
  // What iterated: Newton (shooting) or IPOPT (collocation, perhaps then the shooting polish).
  const SolveReport& r = s.solution.report;
  const bool collocation = r.method == "collocation";
  char text[320];
  std::snprintf(text, sizeof text,
                "<dirac.Solution '%s': cost %.10g, %d %s iterations%s%s, %s %.2e>",
                s.problem.name.c_str(), s.solution.cost, r.iterations,
                collocation ? "interior-point" : "Newton", r.warm_started ? " (warm)" : "",
                r.polished ? ", then the shooting polish" : "",
                collocation && !r.polished ? "max violation" : "max |F|",
                r.polished ? r.polish_residual : r.residual);
  return text;
}

}  // namespace

void BindSolve(py::module_& m) {
  py::class_<PySolution>(m, "Solution", "A converged optimal-control (or boundary-value) solve.")
      .def_property_readonly(
          "cost", [](const PySolution& s) { return s.solution.cost; },
          "int_0^T C dt along the optimal motion (a quadrature), in the cost's units.")
      .def_property_readonly(
          "trajectory", [](const PySolution& s) { return s.trajectory; },
          "The optimal motion sampled at the scenario's output_step [s] (a dirac.Result).")
      .def_property_readonly(
          "report", [](const PySolution& s) { return s.report; },
          "How the solve went: the dict `dirac solve --json` prints, and hamiltonian_drift.")
      .def(
          "resolve",
          [](const PySolution& s, const py::object& set, const py::object& progress) {
            const Scenario problem = WithValues(s.problem, set, py::none());
            return Solve(s.model, problem, &s.solution.warm_start, progress);
          },
          py::kw_only(), py::arg("set") = py::none(), py::arg("progress") = py::none(),
          "Solves again with the set= values applied on top of this solution's, warm-started "
          "from this solution (no derivation).")
      .def("__repr__", &SolutionRepr);

  // Model.solve, added to the class bound in py_model.cpp.
  py::class_<PyModel> model = py::reinterpret_borrow<py::class_<PyModel>>(m.attr("Model"));
  model.def(
      "solve",
      [](const PyModel& pm, const py::object& set, const py::object& progress) {
        return Solve(pm.model, WithValues(pm.scenario, set, py::none()), nullptr, progress);
      },
      py::kw_only(), py::arg("set") = py::none(), py::arg("progress") = py::none(),
      "Solves the scenario's optimal_control (or boundary_value) problem with the set= values "
      "(e.g. {'final.R.z': 1.0}) by multiple shooting, as `dirac solve`. The GIL is released; "
      "progress(iteration: int, residual: float) is called after each Newton iteration "
      "(return False to stop). Raises SolveError if it does not converge.");
}

}  // namespace dirac::python
