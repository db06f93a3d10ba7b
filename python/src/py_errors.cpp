// dirac.Error and its subclasses; the core's exceptions become them, with a ScenarioError's
// file, line and symbol as attributes.
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "py_common.hpp"

namespace dirac::python {

namespace {

// The module, which holds the exception types (set once by BindErrors, never released).
PyObject* g_module = nullptr;

PyObject* NewType(py::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("dirac.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

// Raises dirac.<type>(message) with extra attributes.
void Raise(const char* type, const std::string& message, const py::dict& attributes = {}) {
  const py::object cls = py::handle(g_module).attr(type);
  py::object instance = cls(message);
  for (const auto& item : attributes) py::setattr(instance, item.first, item.second);
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

}  // namespace

void WarnDiverged(const std::string& message) {
  const py::object cls = py::handle(g_module).attr("DivergenceWarning");
  if (PyErr_WarnEx(cls.ptr(), message.c_str(), 1) < 0) throw py::error_already_set();
}

void ThrowSolveError(const std::string& message, const py::dict& report) {
  py::dict attributes;
  attributes["report"] = report;
  Raise("SolveError", message, attributes);
  throw py::error_already_set();
}

void BindErrors(py::module_& m) {
  g_module = m.ptr();
  PyObject* error = NewType(m, "Error", PyExc_Exception, "Root of the errors of the dirac engine.");
  NewType(m, "ScenarioError", error,
          "A scenario file, its text or a set= value is malformed. Attributes: file (str, '' "
          "for text without a file), line (int, 1-based; 0 when unknown), symbol (str: the "
          "offending symbol or key, '' if none). str(e) is 'FILE:LINE: message'.");
  NewType(m, "ModelError", error,
          "The model cannot be handled (e.g. a singular constraint matrix).");
  PyObject* numerical =
      NewType(m, "NumericalError", error,
              "An integrator or solver failed (a SUNDIALS error, a step size underflow).");
  NewType(m, "SolveError", numerical,
          "An optimal-control or boundary-value solve did not converge. Attribute: report "
          "(dict, as `dirac solve --json`).");
  NewType(m, "IoError", error, "A file could not be read or written.");
  NewType(m, "DerivationCancelled", error,
          "A derivation was cancelled (by its progress callback).");
  NewType(m, "DivergenceWarning", PyExc_RuntimeWarning,
          "A run finished but diverged: its constraint residual or energy drift left the bound "
          "derived from the tolerances (docs/robustness.md, 'Diverged runs'); its results "
          "cannot be trusted. The result's report has diverged_at and divergence.");

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ScenarioError& e) {
      py::dict attributes;
      attributes["file"] = e.file();
      attributes["line"] = e.line();
      attributes["symbol"] = e.symbol();
      Raise("ScenarioError", e.what(), attributes);
    } catch (const ModelError& e) {
      Raise("ModelError", e.what());
    } catch (const NumericalError& e) {
      Raise("NumericalError", e.what());
    } catch (const IoError& e) {
      Raise("IoError", e.what());
    } catch (const DerivationCancelled& e) {
      Raise("DerivationCancelled", e.what());
    } catch (const Error& e) {
      Raise("Error", e.what());
    }
  });
}

}  // namespace dirac::python
