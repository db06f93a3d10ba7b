// The Python module `dirac`: the engine from Python (docs/python.md). Each bound class lives in
// its own file; py_common.hpp says which.
#include "py_common.hpp"

PYBIND11_MODULE(dirac, m) {
  namespace dp = dirac::python;
  m.doc() =
      "Dirac Studio's engine: load a scenario, derive its model once, run it with other "
      "parameter and initial values, solve its optimal control problem. Trajectories are "
      "NumPy arrays; results equal the dirac command line's to the bit.";
  dp::BindErrors(m);
  dp::BindResult(m);
  dp::BindScenarioAndModel(m);
  dp::BindSolve(m);
  dp::BindSweep(m);
  dp::BindLinearization(m);
}
