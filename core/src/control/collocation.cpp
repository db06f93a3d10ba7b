// SolveByCollocation: derive the controlled equations, transcribe on a mesh, solve by IPOPT,
// and report (method, T, NLP convergence, active arcs) and sample the optimum at the nodes.
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "control/collocation_dynamics.hpp"
#include "control/collocation_nlp.hpp"
#include "control/collocation_warm_start.hpp"
#include "control/sparse_nlp.hpp"
#include "dirac/error.hpp"
#include "dirac/optimal_control.hpp"

namespace dirac {
namespace {

constexpr int kDefaultIntervals = 100;

// Appends the stretches of consecutive nodes where `on` holds as arcs.
void AppendArcs(const std::vector<bool>& on, double h, ActiveArc arc,
                std::vector<ActiveArc>& arcs) {
  int begin = -1;
  for (int k = 0; k <= static_cast<int>(on.size()); ++k) {
    const bool active = k < static_cast<int>(on.size()) && on[k];
    if (active && begin < 0) begin = k;
    if (!active && begin >= 0) {
      arc.t_begin = begin * h;
      arc.t_end = (k - 1) * h;
      arcs.push_back(arc);
      begin = -1;
    }
  }
}

// Stretches of node times where a bounded quantity sits on a bound (to 1e-6 of the bound's
// scale), then where a path constraint holds with equality to the mesh's accuracy
// (g >= -(1e-6 + h^2) max(1, max_k |g_k|): the discrete optimum of a state constraint may sag
// O(h^2) below its boundary between junction nodes), merged over consecutive nodes.
std::vector<ActiveArc> FindActiveArcs(const Scenario& s, const control::CollocationNlp& nlp,
                                      const control::CollocationDynamics& dynamics,
                                      const std::vector<double>& w) {
  std::vector<ActiveArc> arcs;
  const int d = static_cast<int>(dynamics.num_states()), N = nlp.intervals();
  std::vector<std::string> names = dynamics.base();
  names.insert(names.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  names.insert(names.end(), dynamics.controls().begin(), dynamics.controls().end());
  const double h = nlp.FinalTime(w.data()) / N;
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
      AppendArcs(on, h, {b.name, upper, 0, 0, false}, arcs);
    }
  }
  const int p = static_cast<int>(dynamics.num_path_constraints());
  if (p == 0) return arcs;
  std::vector<double> g(static_cast<std::size_t>(nlp.num_constraints()));
  nlp.Constraints(w.data(), g.data());
  for (int j = 0; j < p; ++j) {
    double scale = 1.0;
    for (int k = 0; k <= N; ++k) scale = std::max(scale, std::abs(g[nlp.PathRow(k, j)]));
    std::vector<bool> on(N + 1);
    const double tol = (1e-6 + 1.0 / (static_cast<double>(N) * N)) * scale;
    for (int k = 0; k <= N; ++k) on[k] = g[nlp.PathRow(k, j)] >= -tol;
    AppendArcs(on, h, {s.optimal_control.path_constraints[j].text, true, 0, 0, true}, arcs);
  }
  return arcs;
}

// The optimum at the nodes: t, states, controls, the running cost and, on SO(3), R11 ... R33,
// on SE(2) the reconstruction's three names (x, y and the angle, unwrapped).
Trajectory NodeTrajectory(const Scenario& s, const control::CollocationNlp& nlp,
                          const control::CollocationDynamics& dynamics,
                          const std::vector<double>& w) {
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
  Trajectory out(columns);
  const std::vector<Eigen::Matrix3d> R = nlp.Attitudes(w.data());
  const int d = static_cast<int>(dynamics.num_states()),
            m = static_cast<int>(dynamics.num_controls());
  const double h = nlp.FinalTime(w.data()) / nlp.intervals();
  double angle = std::atan2(R[0](1, 0), R[0](0, 0));
  for (int k = 0; k <= nlp.intervals(); ++k) {
    std::vector<double> row{k * h};
    for (int i = 0; i < d + m; ++i) row.push_back(w[nlp.StateIndex(k, i)]);
    double c = 0.0;
    dynamics.Cost(k * h, &w[nlp.StateIndex(k, 0)], &w[nlp.ControlIndex(k, 0)], &c, nullptr);
    row.push_back(c);
    if (so3)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) row.push_back(R[k](i, j));
    if (se2) {
      angle += std::remainder(std::atan2(R[k](1, 0), R[k](0, 0)) - angle, 2 * M_PI);
      row.insert(row.end(), {R[k](0, 2), R[k](1, 2), angle});
    }
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
  // The tapes and the NLP's optimum of a previous solve of the same structure, if given.
  const std::string structure = control::StructureKey(scenario);
  const auto shared_dynamics = control::DynamicsFor(scenario, structure, options.warm_start);
  const control::CollocationDynamics& dynamics = *shared_dynamics;
  const int intervals = options.nodes > 0            ? options.nodes
                        : spec.collocation.nodes > 0 ? spec.collocation.nodes
                                                     : kDefaultIntervals;
  const control::CollocationNlp nlp(scenario, dynamics, intervals);

  OptimalControlSolution solution;
  SolveReport& report = solution.report;
  report.method = "collocation";
  report.nodes = intervals;
  report.unknowns = nlp.num_variables();
  control::NlpSettings settings;
  settings.max_iterations = spec.collocation.max_iterations;
  settings.tolerance = spec.collocation.tolerance;
  settings.exact_hessian = spec.collocation.exact_hessian;
  settings.cancel = options.cancel;
  settings.warm_start = control::PointFor(structure, intervals, options.warm_start);
  if (options.progress)
    settings.progress = [&](const control::NlpIterate& it) {
      NewtonIterate step;
      step.iteration = it.iteration;
      step.residual = it.primal_infeasibility;
      return options.progress(step);
    };
  const control::NlpResult result = control::SolveNlp(nlp, settings);
  report.converged = result.converged;
  report.message = result.message;
  report.iterations = result.iterations;
  report.warm_started = result.warm_started;
  report.warm_iterations = result.warm_iterations;
  report.constraint_violation = result.constraint_violation;
  report.residual = result.constraint_violation;
  report.best_residual = result.constraint_violation;
  if (!result.x.empty()) report.final_time = nlp.FinalTime(result.x.data());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solution.solved = scenario;
  if (!result.converged) return solution;
  solution.cost = result.objective;
  auto warm = std::make_shared<CollocationWarmStart>();
  warm->structure = structure;
  warm->dynamics = shared_dynamics;
  warm->intervals = intervals;
  warm->point = result.solution;
  solution.warm_start.collocation = std::move(warm);
  report.active_arcs = FindActiveArcs(scenario, nlp, dynamics, result.x);
  solution.solved.optimal_control.horizon = report.final_time;
  solution.solved.simulation.t_end = report.final_time;
  if (options.sample) solution.trajectory = NodeTrajectory(scenario, nlp, dynamics, result.x);
  return solution;
}

}  // namespace dirac
