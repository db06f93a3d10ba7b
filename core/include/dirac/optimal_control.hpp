#pragma once
/// @file optimal_control.hpp
/// Optimal control and boundary-value problems solved by multiple shooting (`dirac solve`):
/// the model's explicit flow on M_f (the Pontryagin bundle of an `optimal_control:` block, or
/// any integrable model with a `boundary_value:` block) is integrated on each shooting interval
/// with its variational equations (exact sensitivities, CVODES), the group element is carried
/// on the group (nodes in local charts g = g_node Exp(delta)), and a globalised Newton method
/// (Armijo line search on |F|^2 / 2) solves node continuity, boundary values and
/// transversality conditions. A cold start that fails is continued from the uncontrolled motion
/// (homotopy in the boundary data, secant predictor); a warm start re-solves from a previous
/// solution: first by quasi-Newton iterations on that solution's stored inverse Jacobian
/// (Broyden updates, F only: no variational equations), and if those do not contract, by
/// Newton from where they left (tangent predictor for parameter steps). Layer: control.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

/// One Newton iteration, as reported to a progress callback and in the report.
struct NewtonIterate {
  int iteration = 0;          ///< 1-based, counted over the whole solve
  double continuation = 1.0;  ///< homotopy parameter s of the boundary data (1: the problem)
  double residual = 0.0;      ///< max |F| after the step
  double step_norm = 0.0;     ///< max |step| (scaled by the step length)
  double step_length = 1.0;   ///< line-search factor lambda in (0, 1]
  /// True for a quasi-Newton iteration on a warm start's stored Jacobian (F only).
  bool stored_jacobian = false;
};

/// A stretch of the optimum on which a bounded quantity sits on its bound, or a path
/// constraint g <= 0 holds with equality.
struct ActiveArc {
  /// The bounded control, coordinate or velocity / fibre coordinate; for a path constraint,
  /// its text as written ("x <= l").
  std::string name;
  bool upper = true;  ///< on its max (else on its min); a path constraint: true (g = 0)
  double t_begin = 0.0, t_end = 0.0;  ///< [s], node times
  bool path_constraint = false;       ///< a path constraint rather than a bound
};

/// How a solve went.
struct SolveReport {
  std::string method = "shooting";  ///< "shooting" or "collocation"
  double final_time = 0.0;          ///< T of the solution [s] (the horizon unless it is free)
  /// Largest constraint violation at the returned point (collocation: defects, boundary rows).
  double constraint_violation = 0.0;
  std::vector<ActiveArc> active_arcs;  ///< collocation: where bounds are active
  bool converged = false;
  std::string message;                 ///< why it stopped (empty on success)
  std::vector<NewtonIterate> history;  ///< every Newton iteration
  int iterations = 0;  ///< Newton iterations in all (both kinds below); collocation: IPOPT's
  int stored_jacobian_iterations = 0;  ///< of them, quasi-Newton ones on a stored Jacobian
  int continuation_steps = 0;          ///< homotopy steps taken (0: solved directly)
  int nodes = 0;                       ///< shooting (or collocation) intervals
  int unknowns = 0;                    ///< size of the Newton system (collocation: of the NLP)
  double residual = 0.0;               ///< max |F| at the returned point
  double best_residual = 0.0;          ///< smallest max |F| met (for a failure)
  double seconds = 0.0;                ///< wall time of the solve (without output sampling)
  long integrations = 0;               ///< shooting-interval integrations
  long integrator_steps = 0;           ///< CVODES steps over all integrations
  long rhs_evaluations = 0;            ///< right-hand sides (with variational equations)
  /// Started from SolveOptions::warm_start and converged from it (collocation: IPOPT from the
  /// previous optimum; a failed warm start falls back to a cold solve, then false).
  bool warm_started = false;
  /// Collocation with a warm start: IPOPT iterations spent from it (all of `iterations` when
  /// warm_started; those of the failed attempt otherwise).
  int warm_iterations = 0;
  /// Collocation: the mesh refinements made (0: the first mesh only) and the largest interval
  /// error estimate on the final mesh.
  int mesh_rounds = 0;
  double mesh_error = 0.0;
  /// Collocation followed by the shooting polish (control/collocation_polish.hpp): with no
  /// inequality active at the collocation optimum, multiple shooting started from its nodes'
  /// states and costates converged, and the solution is shooting's (controls from the maximum
  /// principle, exact to the integrator's tolerance). `polish` says how it went, or why it was
  /// not applied or did not converge (the collocation result then stands).
  bool polished = false;
  std::string polish;
  double polish_residual = 0.0;  ///< shooting's max |F| at the polished optimum
  int polish_iterations = 0;     ///< Newton iterations of the polish
  int polish_intervals = 0;      ///< its shooting intervals
  double polish_seconds = 0.0;   ///< its wall time (part of `seconds`)
};

/// A collocation solve's part of a WarmStart (control/collocation_warm_start.hpp).
struct CollocationWarmStart;

/// What a re-solve needs: the shooting nodes of a converged solution and the values it was
/// solved for, or a collocation solve's compiled equations and primal-dual optimum. Opaque to
/// callers; pass it back in SolveOptions::warm_start.
struct WarmStart {
  std::vector<double> node_times;
  std::vector<std::vector<double>> node_states;  ///< x at each node (flow state order)
  std::vector<std::vector<double>> node_groups;  ///< 3x3 row-major group element per node
  std::vector<double> parameters;                ///< parameter values of that solution
  /// Inverse of the shooting Jacobian dF/dw at that solution (row-major, unknowns square; empty
  /// if none), Broyden-updated by the quasi-Newton iterations that reached it, and the layout
  /// of unknowns and residual rows it belongs to: a re-solve uses it only for the same layout.
  std::vector<double> inverse_jacobian;
  std::string layout;
  /// Collocation: the compiled controlled equations (reused while only values change: the
  /// parameters, boundary values, bounds, the horizon) and the NLP's optimum with its bound and
  /// constraint multipliers, IPOPT's warm start on the same mesh. Immutable, shared.
  std::shared_ptr<const CollocationWarmStart> collocation;
  bool valid() const { return !node_states.empty() || collocation != nullptr; }
};

struct SolveOptions {
  /// A previous solution of the same scenario (possibly other parameters or boundary data).
  const WarmStart* warm_start = nullptr;
  /// Called after every Newton iteration; return false to cancel.
  std::function<bool(const NewtonIterate&)> progress;
  /// Polled during integrations and between iterations; true cancels at once.
  const std::atomic<bool>* cancel = nullptr;
  /// Sample the converged motion into a Trajectory (the output step of the scenario).
  bool sample = true;
  /// Continue from the uncontrolled motion when Newton fails from the initial guess.
  bool continuation = true;
  /// Shooting (or collocation) intervals; 0: the scenario's shooting.nodes (collocation.nodes),
  /// or chosen.
  int nodes = 0;
};

struct OptimalControlSolution {
  SolveReport report;
  Scenario solved;        ///< the scenario with the solved initial values (costates, R(0), ...)
  Trajectory trajectory;  ///< the converged motion sampled (controls, costates, cost rate ...)
  double cost = 0.0;      ///< int_0^T L~ dt, integrated as a quadrature with the motion
  double hamiltonian_drift = 0.0;  ///< max |H(t) - H(0)| on the samples (0 if not sampled)
  WarmStart warm_start;            ///< for the next solve
};

/// The method `dirac solve` uses for the scenario: its optimal_control.method, with auto
/// resolved (shooting unless the problem has bounds, path constraints, a terminal cost or a
/// free horizon, then collocation).
OptimalControlMethod ChosenMethod(const Scenario& scenario);

/// Solves the scenario's `optimal_control:` (or `boundary_value:`) problem on a model built
/// from it. With ChosenMethod collocation the model is not used (see SolveByCollocation); with
/// method shooting on a problem with bounds, path constraints, a terminal cost or a free horizon
/// it throws ScenarioError (shooting cannot enforce them). Never throws for a problem without a
/// solution: the report says why
/// (`converged` false, the message names the iteration reached and the best residual). Throws
/// ScenarioError for boundary conditions that do not fit the model (an unknown quantity, more
/// conditions than unknowns), ModelError if the model has no explicit flow.
OptimalControlSolution SolveOptimalControl(const Model& model, const Scenario& scenario,
                                           const SolveOptions& options = {});

/// Direct collocation of the scenario's optimal-control problem (bounds, free horizon): the
/// controlled equations are derived from the scenario (GiNaC: one thread at a time, as
/// BuildModel) and transcribed on a mesh (trapezoidal defects, the SO(3) element carried by
/// R_{k+1} = R_k exp(h xi_k), free time by scaling), then solved by IPOPT with exact first
/// derivatives from the tapes. Never throws for a problem without a solution (the report says
/// why); throws ScenarioError for what it does not cover (named in the message).
OptimalControlSolution SolveByCollocation(const Scenario& scenario,
                                          const SolveOptions& options = {});

/// Builds the model (GiNaC: one thread at a time) and solves (collocation builds no model).
OptimalControlSolution SolveOptimalControl(const Scenario& scenario,
                                           const SolveOptions& options = {});

/// Text report of a solve (what `dirac solve` prints to stderr) and its JSON form.
std::string FormatSolveReport(const SolveReport& report, double cost);
std::string SolveReportToJson(const SolveReport& report, double cost);

}  // namespace dirac
