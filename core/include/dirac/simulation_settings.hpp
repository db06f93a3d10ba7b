#pragma once
/// @file simulation_settings.hpp
/// The integration settings of a scenario (`simulation:`): the method, the tolerances, the
/// sampling, the tape and linear-solver modes, and their one check. Times in seconds, rates in
/// 1/s, tolerances dimensionless. Part of the scenario's data (dirac/scenario.hpp); included
/// alone by code that only runs or edits settings (the integrators' registry,
/// dirac/integrators.hpp). Only RequireValidSimulationSpec throws (ModelError). Layer: scenario.

#include <optional>
#include <string>

namespace dirac {

/// Upper bound on the samples of one run (t_end / output_step): beyond it a run is refused.
inline constexpr double kMaxSamples = 2e7;

/// How a system is integrated (`simulation.method`); the names and where each applies are the
/// registry of dirac/integrators.hpp, the choice on each model dynamics::ResolveMethod.
enum class IntegrationMethod {
  kAuto,   ///< Adams unless the linearisation at t = 0 is stiff, then BDF (see ChooseMethod)
  kAdams,  ///< ODE (multipliers eliminated): CVODES Adams-Moulton, fixed-point iteration
  kBdf,    ///< ODE (multipliers eliminated): CVODES BDF, Newton with the exact Jacobian,
           ///< the constraint kept by CVODES' projection
  kIdas,   ///< the index-1 DAE in (q, y, mu) with IDAS (BDF) and a Baumgarte term
  /// fixed-step variational integrator on TQ (midpoint discrete Lagrangian, order 2 or 4 by
  /// composition; discrete Lagrange-d'Alembert constraints)
  kVariational,
  /// fixed-step isospectral midpoint on the Lie–Poisson (Lax) form of an Euler–Poincaré system on
  /// a matrix Lie algebra with a diagonal trace form (so(n), Zeitlin's torus): Casimirs kept to
  /// round-off
  kIsospectral,
  /// fixed-step Lie group variational integrator of the free rigid body on SO(3)
  /// (Lee–Leok–McClamroch): the attitude on SO(3) and the spatial angular momentum to round-off
  kLieVariational,
};

/// "auto", "adams", "bdf", "idas", "isospectral", "lie_variational" or "variational".
const char* IntegrationMethodName(IntegrationMethod method);
/// The method named `name` (as IntegrationMethodName), or nullopt.
std::optional<IntegrationMethod> IntegrationMethodFromName(const std::string& name);

/// How the compiled tapes of a model are evaluated (`simulation.tape`); the results are
/// bit-identical either way, only the speed differs.
enum class TapeMode {
  kAuto,         ///< machine code if the model's tapes are in the on-disk cache, else the
                 ///< interpreter while a background compile fills the cache (never waits)
  kNative,       ///< machine code, compiled now if not cached (the interpreter if that fails)
  kInterpreter,  ///< the tape interpreter only
};

/// "auto", "native" or "interpreter".
const char* TapeModeName(TapeMode mode);
/// The mode named `name` (as TapeModeName), or nullopt.
std::optional<TapeMode> TapeModeFromName(const std::string& name);

/// The linear algebra of the integrator's Newton iteration (`simulation.linear_solver`): the
/// results agree to the integration tolerance either way, only the cost per step differs.
enum class LinearSolverMode {
  kAuto,    ///< sparse (KLU) from 100 unknowns when the Jacobian's sparsity pattern fills at
            ///< most a quarter of it, else dense LU (dynamics/sparse_jacobian.hpp)
  kDense,   ///< dense LU at every size
  kSparse,  ///< sparse LU (KLU) at every size (tests and measurements)
};

/// "auto", "dense" or "sparse".
const char* LinearSolverModeName(LinearSolverMode mode);
/// The mode named `name` (as LinearSolverModeName), or nullopt.
std::optional<LinearSolverMode> LinearSolverModeFromName(const std::string& name);

/// Integration settings.
struct SimulationSpec {
  double t_end = 10.0;        ///< final time [s]
  double output_step = 0.01;  ///< sampling interval of the trajectory [s]
  double rtol = 1e-10;        ///< IDAS relative tolerance
  double atol = 1e-12;        ///< IDAS absolute tolerance
  /// Baumgarte rate alpha [1/s] in the index-1 constraint d/dt g + alpha g = 0 (0 = none).
  double stabilization = 1.0;
  /// Integrator (the IDAS path uses `stabilization`).
  IntegrationMethod method = IntegrationMethod::kAuto;
  /// Fixed step [s] of the fixed-step methods (`variational`, `isospectral`,
  /// `lie_variational`); 0 = not set. output_step and
  /// t_end must then be whole multiples of it.
  double step = 0.0;
  /// Order of the fixed-step methods: 2 (midpoint) or 4 (triple-jump composition).
  int order = 2;
  /// Machine code or interpreter for the compiled tapes (same results).
  TapeMode tape = TapeMode::kAuto;
  /// Dense or sparse linear algebra in the integrator (same results to the tolerance).
  LinearSolverMode linear_solver = LinearSolverMode::kAuto;
};

/// What is wrong with simulation settings: the offending key and why.
struct SettingProblem {
  std::string key;  ///< "t_end", "output_step", "rtol", "atol", "stabilization", "step", "order"
  std::string message;
};

/// The one check of a whole SimulationSpec (used by the reader, the --set overrides and every
/// integrator): t_end > 0, output_step > 0, t_end / output_step <= kMaxSamples, rtol, atol > 0,
/// stabilization >= 0, all finite. Returns the first problem, or nullopt if the spec can run.
std::optional<SettingProblem> CheckSimulationSpec(const SimulationSpec& spec);

/// Throws ModelError "simulation settings: KEY MESSAGE" if CheckSimulationSpec finds a problem
/// (for integrators handed a spec that did not come through the reader).
void RequireValidSimulationSpec(const SimulationSpec& spec);

}  // namespace dirac
