// dirac.load / dirac.loads, dirac.Scenario and dirac.Model: derive once, run many times with
// other parameter and initial values (applied to a copy of the scenario as the CLI's --set,
// the model untouched), equations and the constraint algorithm's report.
#include <pybind11/stl.h>

#include <cstdio>

#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {

// "%.17g": the shortest text that gives the same double back, as the CLI reads it.
std::string NumberText(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string Plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string ScenarioRepr(const Scenario& s) {
  return "<dirac.Scenario '" + s.name + "' from " +
         (s.source_file.empty() ? std::string("<string>") : s.source_file) + ": " +
         Plural(s.coordinates.size(), "coordinate") + ", " +
         Plural(s.parameters.size(), "parameter") + ", " +
         Plural(s.constraints.size(), "constraint") + ">";
}

std::string ModelRepr(const PyModel& m) {
  return "<dirac.Model '" + m.scenario.name + "': " + m.model->formulation() + ", " +
         Plural(m.model->ColumnsOfKind(ColumnKind::kCoordinate).size(), "coordinate") + ", " +
         Plural(m.model->constraint_names().size(), "constraint") + ">";
}

py::dict RunReport(const SimulationReport& r) {
  py::dict d;
  d["method"] = r.method;
  d["tape"] = r.tape;
  d["last_order"] = r.last_order;
  d["cancelled"] = r.cancelled;
  for (const auto& [name, counter] :
       {std::pair{"steps", &SimulationReport::internal_steps},
        {"rhs_evaluations", &SimulationReport::rhs_evaluations},
        {"projections", &SimulationReport::projections},
        {"error_test_failures", &SimulationReport::error_test_failures},
        {"nonlinear_failures", &SimulationReport::nonlinear_failures}})
    d[name] = r.*counter;
  for (const auto& [name, value] :
       {std::pair{"initial_projection", &SimulationReport::initial_projection},
        {"max_constraint_residual", &SimulationReport::max_constraint_residual},
        {"max_energy_drift", &SimulationReport::max_energy_drift},
        {"initial_energy", &SimulationReport::initial_energy}})
    d[name] = r.*value;
  d["diverged_at"] = r.diverged_at ? py::cast(*r.diverged_at) : py::none();
  d["divergence"] = r.divergence;
  return d;
}

std::unique_ptr<PyModel> Derive(const Scenario& scenario, const py::object& progress) {
  auto m = std::make_unique<PyModel>();  // destroyed under the lock should the derivation fail
  m->scenario = scenario;
  RunDerivation([&] { m->model = BuildModel(m->scenario); }, progress);
  return m;
}

PyResult Run(const PyModel& m, const py::object& t_end, const py::object& set,
             const py::object& progress) {
  const Scenario scenario = WithValues(m.scenario, set, t_end);
  SimulationInput input = SimulationInput::FromScenario(scenario);
  InterruptPoll poll(progress);
  const double end = scenario.simulation.t_end;
  SimulationReport report;
  Trajectory trajectory;
  {
    py::gil_scoped_release release;
    trajectory = m.model->Simulate(
        input,
        [&](const Trajectory& so_far) {
          return poll.Poll([&] {
            const double t = so_far.num_rows() ? so_far.at(so_far.num_rows() - 1, 0) : 0.0;
            return py::make_tuple(t, end);
          });
        },
        &report);
  }
  poll.Finish();
  PyResult result;
  result.trajectory = std::make_shared<const Trajectory>(std::move(trajectory));
  result.scenario_name = scenario.name;
  result.report = RunReport(report);
  if (report.diverged_at)
    WarnDiverged(scenario.name + ": the run diverged at t = " + NumberText(*report.diverged_at) +
                 ": " + report.divergence + "; its results cannot be trusted");
  return result;
}

py::object Analyze(const PyModel& m, const py::object& progress) {
  std::string json;
  RunDerivation([&] { json = ChainToJson(AnalyzeChain(m.scenario)); }, progress);
  return py::module_::import("json").attr("loads")(json);
}

}  // namespace

PyModel::~PyModel() {
  if (!model && linearizers.empty()) return;
  const auto lock = LockSymbolic();
  linearizers.clear();
  model.reset();
}

Scenario WithValues(const Scenario& base, const py::object& set, const py::object& t_end) {
  std::vector<std::string> assignments;
  if (!set.is_none()) {
    for (const auto& item : set.cast<py::dict>()) {
      const std::string name = py::str(item.first);
      const py::handle value = item.second;
      if (py::isinstance<py::str>(value))
        assignments.push_back(name + "=" + value.cast<std::string>());
      else
        assignments.push_back(name + "=" + NumberText(value.cast<double>()));
    }
  }
  if (!t_end.is_none()) assignments.push_back("t_end=" + NumberText(t_end.cast<double>()));
  Scenario scenario = base;
  ApplyOverrides(scenario, assignments);
  return scenario;
}

void BindScenarioAndModel(py::module_& m) {
  m.def(
      "load",
      [](const std::string& path) {
        const auto lock = LockSymbolic();  // reading checks every expression with GiNaC
        return PyScenario{LoadScenario(path)};
      },
      py::arg("path"),
      "Reads and checks a scenario file (YAML). Raises ScenarioError with file, line and symbol.");
  m.def(
      "loads",
      [](const std::string& text, const std::string& origin) {
        const auto lock = LockSymbolic();
        return PyScenario{ParseScenario(text, origin)};
      },
      py::arg("text"), py::arg("origin") = "<string>",
      "Parses a scenario from YAML text; `origin` names it in error messages.");
  m.def("derivations", &DerivationCount,
        "Number of derivations (Scenario.derive, Model.analyze) this process made.");

  py::class_<PyScenario>(m, "Scenario", "A scenario as read from its file, before derivation.")
      .def_property_readonly("name", [](const PyScenario& s) { return s.scenario.name; })
      .def_property_readonly(
          "file", [](const PyScenario& s) { return s.scenario.source_file; },
          "The path it was read from ('' for text).")
      .def_property_readonly("description",
                             [](const PyScenario& s) { return s.scenario.description; })
      .def_property_readonly(
          "parameters",
          [](const PyScenario& s) {
            py::dict d;
            for (const auto& p : s.scenario.parameters) d[py::str(p.name)] = p.value;
            return d;
          },
          "{name: value} of the live parameters, in the scenario's units.")
      .def_property_readonly(
          "coordinates",
          [](const PyScenario& s) {
            std::vector<std::string> names;
            for (const auto& c : s.scenario.coordinates) names.push_back(c.name);
            return names;
          },
          "Names of the configuration coordinates q^i.")
      .def(
          "value",
          [](const PyScenario& s, const std::string& name) -> py::object {
            const auto value = CurrentValue(s.scenario, name);
            return value ? py::object(py::float_(*value)) : py::object(py::none());
          },
          py::arg("name"),
          "The current value of a set= name (parameter, initial value, t_end [s], ...), or None.")
      .def(
          "derive",
          [](const PyScenario& s, const py::object& progress) {
            return Derive(s.scenario, progress);
          },
          py::kw_only(), py::arg("progress") = py::none(),
          "Derives the model once (GiNaC; the GIL is released, Ctrl+C stops it). "
          "progress(stage: str) is called as the derivation enters each stage; returning "
          "False cancels it (DerivationCancelled).")
      .def("__repr__", [](const PyScenario& s) { return ScenarioRepr(s.scenario); });

  py::class_<PyModel>(m, "Model",
                      "A derived model. run/solve apply set= values to the scenario it was "
                      "derived from without deriving again.")
      .def_property_readonly("formulation",
                             [](const PyModel& pm) { return pm.model->formulation(); })
      .def_property_readonly(
          "columns", [](const PyModel& pm) { return pm.model->TrajectoryColumns(); },
          "Columns of the trajectories run() returns (column 0 is 't').")
      .def_property_readonly(
          "constraints", [](const PyModel& pm) { return pm.model->constraint_names(); },
          "Names of the scenario's nonholonomic constraints.")
      .def_property_readonly(
          "scenario", [](const PyModel& pm) { return PyScenario{pm.scenario}; },
          "A copy of the scenario the model was derived from.")
      .def("run", &Run, py::kw_only(), py::arg("t_end") = py::none(), py::arg("set") = py::none(),
           py::arg("progress") = py::none(),
           "Integrates from t = 0 to t_end [s] (default: the scenario's) with the set= values "
           "({name: value}: parameters, initial values, settings such as output_step [s]; as "
           "the CLI's --set). The GIL is released; progress(t: float, t_end: float) is called "
           "about 50 times (return False to stop); Ctrl+C raises KeyboardInterrupt.")
      .def(
          "equations",
          [](const PyModel& pm, bool latex) {
            const auto lock = LockSymbolic();
            std::vector<std::pair<std::string, std::string>> equations;
            for (const auto& e :
                 pm.model->Equations(latex ? EquationFormat::kLatex : EquationFormat::kPlain))
              equations.emplace_back(e.label, e.text);
            return equations;
          },
          py::kw_only(), py::arg("latex") = false,
          "The derived equations as (label, text) pairs, as `dirac equations` prints them.")
      .def("analyze", &Analyze, py::kw_only(), py::arg("progress") = py::none(),
           "The constraint algorithm's report as a dict: what `dirac analyze --json` prints.")
      .def("__repr__", &ModelRepr);
}

}  // namespace dirac::python
