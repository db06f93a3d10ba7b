#pragma once
// Internal: the Euler–Poincaré equations on a Lie algebra named by a family
// (`algebroid.algebra`), at any size. Seed L eq (17) with no base and no constraints,
//   W y' + d_t (dL/dy) + C^c_ab y^b (dL/dy^c) = 0,
// with the momentum p = dL/dy compiled from the scenario's Lagrangian (GiNaC, then a tape), the
// inertia W = D2D2L derived and required constant (a quadratic Lagrangian; it may depend on
// parameters, and is factorised once per run), and the coadjoint term contracted with the
// family's sparse structure constants at every right-hand side: O(nonzero constants), never a
// dense k³ tensor or a k x k solve per step when W is diagonal.

#include <cstdint>
#include <memory>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "families/lie_algebra_family.hpp"
#include "symbolic/compiled_function.hpp"

namespace dirac::lagrange_dirac {

/// The compiled tapes, over [t, y (k), parameters] (interpreted, or a machine-code copy).
struct EulerPoincareTapes {
  CompiledFunction momentum;       ///< p = dL/dy, k outputs
  CompiledFunction momentum_rate;  ///< d_t (dL/dy), k outputs
  CompiledFunction inertia;        ///< the nonzero entries of W, at (rows[i], cols[i])
  CompiledFunction energy;         ///< E_L = p.y - L
};

/// What the derivation produces; immutable, shared by every run of the model.
/// The coadjoint term row by row: f_a = -Σ C^c_ab y^b p_c over the entries (b, c, C^c_ab) of
/// row a (each listed constant gives one entry to row a and its negative to row b), so every
/// row sums in a register instead of scattering into f. Built once per model.
struct CoadjointRows {
  struct Entry {
    std::uint32_t b, c;
    double value;
  };
  std::vector<std::size_t> start;  ///< k + 1: row a's entries are [start[a], start[a + 1])
  std::vector<Entry> entries;
  CoadjointRows() = default;
  CoadjointRows(const std::vector<families::StructureConstant>& constants, std::size_t k);
};

struct EulerPoincareData {
  families::LieAlgebraBasis basis;
  std::vector<families::StructureConstant> constants;
  CoadjointRows rows;  ///< the constants by row, for the right-hand side
  std::size_t num_parameters = 0;
  EulerPoincareTapes tapes;
  bool autonomous = true;    ///< d_t (dL/dy) = 0 identically
  bool conservative = true;  ///< L free of t: the energy is conserved
  std::vector<std::size_t> inertia_rows, inertia_cols;
  std::vector<DerivedEquation> equations;
  std::size_t dimension() const { return basis.dimension(); }
  std::size_t inputs() const { return 1 + dimension() + num_parameters; }
};

/// Derives the data when the scenario names a Lie algebra by family, has no constraints and its
/// Lagrangian has a constant Hessian; else nullptr (the Lagrange–Dirac path then takes it).
/// Throws ScenarioError for bad expressions, ModelError naming the file otherwise.
std::shared_ptr<const EulerPoincareData> DeriveEulerPoincareData(const Scenario& scenario);

/// The right-hand side y' = W⁻¹ f(t, y) at fixed parameter values (W factorised on
/// construction). One per thread: it owns its scratch buffers.
class EulerPoincareRates {
 public:
  EulerPoincareRates(const EulerPoincareData& data, const std::vector<double>& parameters);
  /// The same on another copy of the tapes (machine code).
  EulerPoincareRates(const EulerPoincareData& data, const EulerPoincareTapes& tapes,
                     const std::vector<double>& parameters);
  ~EulerPoincareRates();
  /// Writes y' into `ydot`; false if it is not finite.
  bool operator()(double t, const double* y, double* ydot);
  /// The momentum p = dL/dy at (t, y) into `p`.
  void Momentum(double t, const double* y, double* p);
  /// The velocity of a momentum at t = 0: y = W⁻¹(p - p|_(y=0)) (the inverse of Momentum for the
  /// quadratic Lagrangian; the isospectral method's B(M)).
  void Velocity(const double* p, double* y);
  double Energy(double t, const double* y);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The model of DeriveEulerPoincareData's result, or nullptr when it does not apply.
std::shared_ptr<const Model> DeriveEulerPoincareSystemIfApplicable(const Scenario& scenario);

}  // namespace dirac::lagrange_dirac
