// CompiledSparseMatrix: a Jacobian evaluated from its symbolic entries, or by forward-mode
// differentiation of a compiled function (large models: no symbolic Jacobian is built).
#include <algorithm>

#include "lagrange_dirac/compiled_dae.hpp"

namespace dirac {

std::size_t CompiledSparseMatrix::work_size() const {
  if (!tangent_mode()) return values.scratch_size();
  const std::size_t P = wrt_inputs.size();
  return of.num_inputs() * P + of.num_outputs() * P + of.tangent_work_size(P);
}

void CompiledSparseMatrix::Evaluate(const double* inputs, double* entries, double* work) const {
  if (!tangent_mode()) {
    values.Evaluate(inputs, entries, work);
    return;
  }
  const std::size_t P = wrt_inputs.size();
  double* seeds = work;
  double* tangents = seeds + of.num_inputs() * P;
  double* rest = tangents + of.num_outputs() * P;
  std::fill(seeds, seeds + of.num_inputs() * P, 0.0);
  for (std::size_t p = 0; p < P; ++p) seeds[wrt_inputs[p] * P + p] = 1.0;
  of.EvaluateTangents(inputs, seeds, P, tangents, rest);
  for (std::size_t e = 0; e < rows.size(); ++e) entries[e] = tangents[rows[e] * P + cols[e]];
}

CompiledSparseMatrix TangentJacobian(const CompiledFunction& f,
                                     const std::vector<std::size_t>& wrt_inputs) {
  CompiledSparseMatrix jac;
  jac.num_rows = f.num_outputs();
  jac.num_cols = wrt_inputs.size();
  jac.of = f;
  jac.wrt_inputs = wrt_inputs;
  const auto dependencies = f.InputDependencies();
  for (std::size_t i = 0; i < dependencies.size(); ++i)
    for (std::size_t j = 0; j < wrt_inputs.size(); ++j)
      if (std::binary_search(dependencies[i].begin(), dependencies[i].end(), wrt_inputs[j])) {
        jac.rows.push_back(i);
        jac.cols.push_back(j);
      }
  return jac;
}

}  // namespace dirac
