#pragma once
// Internal to core: the compiled numeric form of a LagrangeDiracSystem
// (lagrange_dirac/lagrange_dirac_system.hpp) as an index-1 DAE: the layout of the input vector every tape
// shares, the residual, its sparse Jacobians and the diagnostics, and the accessors that read them
// off a derived system. Used by the lagrange_dirac/ integrators, the linearization and the tests
// and benchmarks; app/, ui/ and python/ see only the public header (scripts/check_includes.py).

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "symbolic/compiled_function.hpp"

namespace dirac {

/// Position of each block in the input vector shared by all compiled functions:
/// [t, q(n), y(k), mu(m), q'(n), y'(k), parameters(P), alpha], alpha = Baumgarte rate.
/// (On TQ, k = n and y = v; the names v()/vdot() refer to the fibre block.)
struct InputLayout {
  std::size_t n = 0, m = 0, num_parameters = 0;
  std::size_t k = 0;  ///< fibre dimension
  std::size_t t() const { return 0; }
  std::size_t q() const { return 1; }
  std::size_t v() const { return 1 + n; }
  std::size_t mu() const { return 1 + n + k; }
  std::size_t qdot() const { return 1 + n + k + m; }
  std::size_t vdot() const { return 1 + 2 * n + k + m; }
  std::size_t parameters() const { return 1 + 2 * n + 2 * k + m; }
  std::size_t stabilization() const { return parameters() + num_parameters; }
  std::size_t size() const { return stabilization() + 1; }
  /// Number of DAE unknowns, n + k + m.
  std::size_t dae_size() const { return n + k + m; }
};

/// A sparse matrix-valued compiled function: output k is entry (rows[k], cols[k]).
struct CompiledSparseMatrix {
  CompiledFunction values;  ///< entry e = (rows[e], cols[e]) (symbolic mode; empty otherwise)
  std::vector<std::size_t> rows, cols;
  std::size_t num_rows = 0, num_cols = 0;
  /// Tangent mode (models above the symbolic size bound): the entries are the derivatives of
  /// `of`'s outputs (rows) with respect to its inputs `wrt_inputs[col]`, by forward-mode
  /// automatic differentiation on the tape (CompiledFunction::EvaluateTangents); rows and cols
  /// are then the tape's structural dependencies.
  CompiledFunction of;
  std::vector<std::size_t> wrt_inputs;

  bool tangent_mode() const { return !wrt_inputs.empty(); }
  /// Doubles of scratch that Evaluate needs.
  std::size_t work_size() const;
  /// entries[e] = the value of entry e at `inputs` (rows.size() of them). Does not throw.
  void Evaluate(const double* inputs, double* entries, double* work) const;
};

/// The sparse Jacobian of `f` with respect to its inputs `wrt_inputs` in tangent mode (the
/// pattern from the tape's dependencies).
CompiledSparseMatrix TangentJacobian(const CompiledFunction& f,
                                     const std::vector<std::size_t>& wrt_inputs);

/// Everything the integrator needs, compiled once. Parameters are inputs, not constants.
struct CompiledDae {
  InputLayout layout;
  CompiledFunction residual;           ///< F, dae_size() outputs
  CompiledSparseMatrix jacobian_y;     ///< dF/dy  (dae_size x dae_size), structural nonzeros only
  CompiledSparseMatrix jacobian_yp;    ///< dF/dy'
  CompiledFunction energy;             ///< E_L = dL/dy . y - L, 1 output
  CompiledFunction constraints;        ///< g^r(q, y), m outputs
  CompiledFunction constraint_matrix;  ///< A^r_A(q) (omega^r_i on TQ), m*k outputs, row-major
  CompiledFunction mass_matrix;        ///< W_AB = d2L/dy^A dy^B, k*k outputs, row-major
  CompiledFunction anchor;             ///< rho^i_A(q), n*k outputs, row-major
  CompiledFunction body_velocity;      ///< reconstruction xi(q, y), 3 outputs (or none)
  CompiledFunction fibre_momentum;     ///< dL/dy^A, k outputs
  /// The holonomic constraints f^h(q) (`holonomic:`), h outputs (none without), whose
  /// differentials are the last h rows of `constraints`; runs keep f = 0 by projection.
  CompiledFunction holonomic;
  CompiledFunction holonomic_jacobian;  ///< df^h/dq^i, h*n outputs, row-major
  /// (dL/dq^i, dL/dv^i) on TQ, 2n outputs (none on an algebroid): the discrete Euler–Lagrange
  /// equations of `method: variational`, their Jacobian by tangent mode (interpreted only).
  CompiledFunction lagrangian_gradient;
};

/// Calls `f` on every tape of `dae` in a fixed order: the batch a model compiles to machine code
/// as one C translation unit (`simulation.tape`).
void ForEachTape(CompiledDae& dae, const std::function<void(CompiledFunction&)>& f);

/// The compiled DAE and diagnostics of `system` (interpreted tapes). Does not throw.
const CompiledDae& CompiledDaeOf(const LagrangeDiracSystem& system);

/// The tapes a run of `system` with `simulation.tape = mode` evaluates: the same functions as
/// CompiledDaeOf(system), as machine code when `mode` gets it (see TapeMode; kNative may compile
/// now, tens to hundreds of milliseconds), else CompiledDaeOf(system) itself. `description` (if
/// given) gets the one-line report. Thread-safe; never throws for a missing compiler or cache
/// (the interpreter is the answer).
const CompiledDae& TapesOf(const LagrangeDiracSystem& system, TapeMode mode,
                           std::string* description = nullptr);

}  // namespace dirac
