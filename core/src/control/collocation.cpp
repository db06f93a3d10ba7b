// SolveByCollocation: derive the controlled equations, transcribe on a mesh, solve by IPOPT,
// refine the mesh where the error estimate asks and re-solve from the interpolated solution,
// and report (method, T, NLP convergence, mesh, active arcs) and sample the optimum at the nodes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "control/collocation_columns.hpp"
#include "control/collocation_dynamics.hpp"
#include "control/collocation_mesh.hpp"
#include "control/collocation_nlp.hpp"
#include "control/collocation_warm_start.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"

namespace dirac {
namespace {

constexpr int kDefaultIntervals = 100;

// Appends the stretches of consecutive nodes where `on` holds as arcs.
void AppendArcs(const std::vector<bool>& on, const std::vector<double>& times, ActiveArc arc,
                std::vector<ActiveArc>& arcs) {
  int begin = -1;
  for (int k = 0; k <= static_cast<int>(on.size()); ++k) {
    const bool active = k < static_cast<int>(on.size()) && on[k];
    if (active && begin < 0) begin = k;
    if (!active && begin >= 0) {
      arc.t_begin = times[begin];
      arc.t_end = times[k - 1];
      arcs.push_back(arc);
      begin = -1;
    }
  }
}

// Stretches of node times where a bounded quantity sits on a bound (to 1e-6 of the bound's
// scale), then where a path constraint holds with equality to the mesh's accuracy
// (g >= -(1e-6 + h_k^r) max(1, max_k |g_k|), h_k the larger interval width beside node k in
// units of the horizon, r the scheme's order: the discrete optimum of a state constraint may sag
// O(h^2) below its boundary between junction nodes), merged over consecutive nodes.
std::vector<ActiveArc> FindActiveArcs(const Scenario& s, const control::CollocationNlp& nlp,
                                      const control::CollocationDynamics& dynamics,
                                      const std::vector<double>& w) {
  std::vector<ActiveArc> arcs;
  const int d = static_cast<int>(dynamics.num_states()), N = nlp.intervals();
  std::vector<std::string> names = dynamics.base();
  names.insert(names.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  names.insert(names.end(), dynamics.controls().begin(), dynamics.controls().end());
  const double T = nlp.FinalTime(w.data());
  std::vector<double> times(N + 1), width(N + 1, 0.0);
  for (int k = 0; k <= N; ++k) {
    times[k] = T * nlp.mesh()[k];
    if (k > 0) width[k] = std::max(width[k], nlp.mesh()[k] - nlp.mesh()[k - 1]);
    if (k < N) width[k] = std::max(width[k], nlp.mesh()[k + 1] - nlp.mesh()[k]);
  }
  for (const VariableBound& b : s.optimal_control.bounds) {
    int index = 0;
    while (index < static_cast<int>(names.size()) && names[index] != b.name) ++index;
    for (const bool upper : {false, true}) {
      const double bound = upper ? b.max : b.min;
      if (!std::isfinite(bound)) continue;
      const double tol = 1e-6 * std::max(1.0, std::abs(bound));
      std::vector<bool> on(N + 1);
      for (int k = 0; k <= N; ++k)
        on[k] = std::abs(w[index < d ? nlp.StateIndex(k, index) : nlp.ControlIndex(k, index - d)] -
                         bound) <= tol;
      AppendArcs(on, times, {b.name, upper, 0, 0, false}, arcs);
    }
  }
  const int p = static_cast<int>(dynamics.num_path_constraints());
  if (p == 0) return arcs;
  std::vector<double> g(static_cast<std::size_t>(nlp.num_constraints()));
  nlp.Constraints(w.data(), g.data());
  for (int j = 0; j < p; ++j) {
    double scale = 1.0;
    for (int p = 0; p < nlp.num_points(); ++p)
      scale = std::max(scale, std::abs(g[nlp.PathRow(p, j)]));
    std::vector<bool> on(N + 1);
    // The sag is O(h^2) with the trapezoidal rule, O(h^4) with Hermite-Simpson.
    const int order = nlp.scheme() == CollocationScheme::kTrapezoidal ? 2 : 4;
    for (int k = 0; k <= N; ++k)
      on[k] = g[nlp.PathRow(nlp.NodePoint(k), j)] >= -(1e-6 + std::pow(width[k], order)) * scale;
    AppendArcs(on, times, {s.optimal_control.path_constraints[j].text, true, 0, 0, true}, arcs);
  }
  return arcs;
}

// The optimum at the nodes: t, states, controls, the running cost and, on SO(3), R11 ... R33,
// on SE(2) the reconstruction's three names (x, y and the angle, unwrapped); then the columns
// shooting's trajectory has from the Pontryagin bundle (costates p_<y>, pbar_<y>, accelerations
// a_<y>, the Hamiltonian E: control/collocation_columns.hpp).
Trajectory NodeTrajectory(const Scenario& s, const control::CollocationNlp& nlp,
                          const control::CollocationDynamics& dynamics,
                          const control::NlpPoint& optimum) {
  const std::vector<double>& w = optimum.x;
  const control::AdjointColumns adjoint = control::NodeAdjointColumns(s, nlp, dynamics, optimum);
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), dynamics.base().begin(), dynamics.base().end());
  columns.insert(columns.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  columns.insert(columns.end(), dynamics.controls().begin(), dynamics.controls().end());
  columns.push_back("running_cost");
  const bool so3 = s.reconstruction.group == "SO3" && dynamics.has_body_velocity();
  const bool se2 = s.reconstruction.group == "SE2" && dynamics.has_body_velocity();
  if (so3)
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j)
        columns.push_back(s.reconstruction.names[0] + std::to_string(i) + std::to_string(j));
  if (se2)
    columns.insert(columns.end(), s.reconstruction.names.begin(), s.reconstruction.names.end());
  columns.insert(columns.end(), adjoint.names.begin(), adjoint.names.end());
  Trajectory out(columns);
  const std::vector<Eigen::Matrix3d> R = nlp.Attitudes(w.data());
  const int d = static_cast<int>(dynamics.num_states()),
            m = static_cast<int>(dynamics.num_controls());
  const double T = nlp.FinalTime(w.data());
  double angle = std::atan2(R[0](1, 0), R[0](0, 0));
  for (int k = 0; k <= nlp.intervals(); ++k) {
    const double t = T * nlp.mesh()[k];
    std::vector<double> row{t};
    for (int i = 0; i < d + m; ++i) row.push_back(w[nlp.StateIndex(k, i)]);
    double c = 0.0;
    dynamics.Cost(t, &w[nlp.StateIndex(k, 0)], &w[nlp.ControlIndex(k, 0)], &c, nullptr);
    row.push_back(c);
    if (so3)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) row.push_back(R[k](i, j));
    if (se2) {
      angle += std::remainder(std::atan2(R[k](1, 0), R[k](0, 0)) - angle, 2 * M_PI);
      row.insert(row.end(), {R[k](0, 2), R[k](1, 2), angle});
    }
    row.insert(row.end(), adjoint.rows[k].begin(), adjoint.rows[k].end());
    out.AppendRow(row.data());
  }
  return out;
}

}  // namespace

OptimalControlSolution SolveByCollocation(const Scenario& scenario, const SolveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const OptimalControlSpec& spec = scenario.optimal_control;
  if (!spec.present)
    throw ScenarioError(scenario.source_file, 0, "optimal_control",
                        "collocation needs an optimal_control block");
  if (const auto problem = CheckOptimalControlBounds(scenario))
    throw ScenarioError(scenario.source_file, spec.where.line, problem->key, problem->message);
  // The tapes of a previous solve of the same structure and, when it started from the same
  // first mesh with the same scheme, its final mesh and the NLP's optimum there.
  const std::string structure = control::StructureKey(scenario);
  const auto shared_dynamics = control::DynamicsFor(scenario, structure, options.warm_start);
  const control::CollocationDynamics& dynamics = *shared_dynamics;
  const CollocationSettings& cs = spec.collocation;
  const int intervals = options.nodes > 0 ? options.nodes
                        : cs.nodes > 0    ? cs.nodes
                                          : kDefaultIntervals;
  const CollocationWarmStart* warm =
      control::WarmFor(structure, cs.scheme, intervals, options.warm_start);
  auto nlp = std::make_unique<control::CollocationNlp>(
      scenario, dynamics, warm ? warm->mesh : control::UniformMesh(intervals), cs.scheme);
  if (warm) nlp->SetReference(warm->reference);

  OptimalControlSolution solution;
  SolveReport& report = solution.report;
  report.method = "collocation";
  control::NlpSettings settings;
  settings.max_iterations = cs.max_iterations;
  settings.tolerance = cs.tolerance;
  settings.exact_hessian = cs.exact_hessian;
  settings.cancel = options.cancel;
  settings.warm_start = warm ? &warm->point : nullptr;
  if (options.progress)
    settings.progress = [&](const control::NlpIterate& it) {
      NewtonIterate step;
      step.iteration = report.iterations + it.iteration;
      step.residual = it.primal_infeasibility;
      return options.progress(step);
    };
  // Solve, estimate the error per interval, refine where it exceeds the tolerance, re-solve from
  // the interpolated solution; until the estimate is met, the rounds are spent or the mesh would
  // grow past max_nodes. A warm start applies to the first solve (on its own final mesh); the
  // refined meshes start from the interpolated solution.
  control::NlpResult result;
  for (;;) {
    result = control::SolveNlp(*nlp, settings);
    report.iterations += result.iterations;
    if (settings.warm_start) {
      report.warm_started = result.warm_started;
      report.warm_iterations = result.warm_iterations;
      settings.warm_start = nullptr;
    }
    if (!result.converged) break;
    const std::vector<double> errors = control::IntervalErrors(*nlp, dynamics, result.x.data());
    report.mesh_error = *std::max_element(errors.begin(), errors.end());
    if (report.mesh_error <= cs.mesh_tolerance || report.mesh_rounds >= cs.mesh_rounds) break;
    std::vector<double> mesh =
        control::RefineMesh(nlp->mesh(), errors, cs.mesh_tolerance, cs.scheme, cs.max_nodes);
    if (mesh.size() == nlp->mesh().size()) break;
    auto next =
        std::make_unique<control::CollocationNlp>(scenario, dynamics, std::move(mesh), cs.scheme);
    next->SetStartingPoint(control::InterpolateSolution(*nlp, dynamics, result.x.data(), *next));
    nlp = std::move(next);
    ++report.mesh_rounds;
  }
  report.nodes = nlp->intervals();
  report.unknowns = nlp->num_variables();
  report.converged = result.converged;
  report.message = result.message;
  report.constraint_violation = result.constraint_violation;
  report.residual = result.constraint_violation;
  report.best_residual = result.constraint_violation;
  if (!result.x.empty()) report.final_time = nlp->FinalTime(result.x.data());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solution.solved = scenario;
  if (!result.converged) return solution;
  solution.cost = result.objective;
  auto kept = std::make_shared<CollocationWarmStart>();
  kept->structure = structure;
  kept->dynamics = shared_dynamics;
  kept->scheme = cs.scheme;
  kept->intervals = intervals;
  control::KeepOptimum(*nlp, result.solution, *kept);
  solution.warm_start.collocation = std::move(kept);
  report.active_arcs = FindActiveArcs(scenario, *nlp, dynamics, result.x);
  solution.solved.optimal_control.horizon = report.final_time;
  solution.solved.simulation.t_end = report.final_time;
  if (options.sample) {
    solution.trajectory = NodeTrajectory(scenario, *nlp, dynamics, result.solution);
    const std::vector<double> H = solution.trajectory.Column("E");
    for (const double h : H)
      solution.hamiltonian_drift = std::max(solution.hamiltonian_drift, std::abs(h - H.front()));
  }
  return solution;
}

}  // namespace dirac
