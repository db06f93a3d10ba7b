// The shooting polish of a collocation optimum: when it applies, which inequality prevents it,
// the multiple-shooting start from the nodes (see the header), and the polished solution.
#include "control/collocation_polish.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "control/collocation_columns.hpp"
#include "control/collocation_costates.hpp"
#include "geometry/lie_group.hpp"
#include "model/explicit_flow.hpp"

namespace dirac::control {
namespace {

std::string Number(double v) {
  std::ostringstream out;
  out.precision(4);
  out << v;
  return out.str();
}

}  // namespace

std::string PolishPrecondition(const Scenario& scenario,
                               const OptimalControlSolution& collocation) {
  const OptimalControlSpec& spec = scenario.optimal_control;
  if (!spec.collocation.polish) return "polish: off";
  if (!collocation.report.converged) return "the collocation solve did not converge";
  if (!collocation.warm_start.collocation) return "no collocation optimum to start from";
  if (spec.horizon_free) return "the horizon is free (shooting needs it fixed)";
  if (!spec.terminal_cost.empty())
    return "the problem has a terminal cost (shooting's transversality conditions know none)";
  // The report's active arcs (a bound within 1e-6 of its scale, a path constraint to the mesh):
  // no need to read the NLP's point for these.
  if (!collocation.report.active_arcs.empty()) {
    const ActiveArc& arc = collocation.report.active_arcs.front();
    return (arc.path_constraint ? "path constraint " + arc.name + " is active"
                                : arc.name + " is on its " + (arc.upper ? "max" : "min")) +
           " for t in [" + Number(arc.t_begin) + ", " + Number(arc.t_end) + "]";
  }
  return "";
}

PolishSeed::PolishSeed(const Scenario& scenario, const CollocationWarmStart& collocation)
    : scenario_(scenario),
      collocation_(collocation),
      nlp_(scenario, *collocation.dynamics, collocation.mesh, collocation.scheme) {
  // The optimum's group elements are the kept chart's reference (its coordinates 0).
  nlp_.SetReference(collocation.reference);
}

std::string PolishSeed::ActiveInequality() const {
  const CollocationDynamics& dynamics = *collocation_.dynamics;
  const NlpPoint& point = collocation_.point;
  const double* w = point.x.data();
  const double T = nlp_.FinalTime(w);
  std::vector<std::string> names = dynamics.base();
  names.insert(names.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  names.insert(names.end(), dynamics.controls().begin(), dynamics.controls().end());
  for (const VariableBound& b : scenario_.optimal_control.bounds) {
    const auto at = std::find(names.begin(), names.end(), b.name);
    if (at == names.end()) return b.name + " is bounded but no state or control here";
    const int c = static_cast<int>(at - names.begin());
    for (const bool upper : {false, true}) {
      const double bound = upper ? b.max : b.min;
      if (!std::isfinite(bound)) continue;
      const double margin = kPolishSlack * std::max(1.0, std::abs(bound));
      for (int p = 0; p < nlp_.num_points(); ++p) {
        const int index = nlp_.PointIndex(p, c);
        const double slack = upper ? bound - w[index] : w[index] - bound;
        const double multiplier = upper ? point.z_upper[index] : point.z_lower[index];
        if (slack < margin || std::abs(multiplier) > kPolishMultiplier)
          return b.name + " is on (or within " + Number(margin) + " of) its " +
                 (upper ? "max " : "min ") + Number(bound) +
                 " at t = " + Number(T * nlp_.PointFraction(p)) + " (multiplier " +
                 Number(multiplier) + ")";
      }
    }
  }
  const int paths = static_cast<int>(dynamics.num_path_constraints());
  if (paths == 0) return "";
  std::vector<double> g(static_cast<std::size_t>(nlp_.num_constraints()));
  nlp_.Constraints(w, g.data());
  for (int j = 0; j < paths; ++j) {
    double scale = 1.0;
    for (int p = 0; p < nlp_.num_points(); ++p)
      scale = std::max(scale, std::abs(g[nlp_.PathRow(p, j)]));
    for (int p = 0; p < nlp_.num_points(); ++p) {
      const int row = nlp_.PathRow(p, j);
      if (g[row] > -kPolishSlack * scale || std::abs(point.lambda[row]) > kPolishMultiplier)
        return "path constraint " + scenario_.optimal_control.path_constraints[j].text +
               " is active (or within " + Number(kPolishSlack * scale) +
               ") at t = " + Number(T * nlp_.PointFraction(p)) + " (multiplier " +
               Number(point.lambda[row]) + ")";
    }
  }
  return "";
}

bool PolishSeed::Start(const MultipleShooting& ms, ShootingPoint& start, std::string& why) const {
  const CollocationDynamics& dynamics = *collocation_.dynamics;
  const std::vector<double>& w = collocation_.point.x;
  const int N = nlp_.intervals(), n = static_cast<int>(dynamics.base().size()),
            k_fibre = static_cast<int>(dynamics.fibre().size()), d = n + k_fibre,
            m = static_cast<int>(dynamics.num_controls());
  const ExplicitFlow& flow = ms.flow();
  const BoundaryProblem& problem = ms.problem();
  const double T = nlp_.FinalTime(w.data());

  // Where each flow state comes from: collocation state i (q, y), a section costate p_A or a
  // fibre costate pbar_A (A indexing the collocation's fibre).
  enum class Source { kState, kSection, kFibre };
  std::vector<std::pair<Source, int>> source;
  auto index_in = [](const std::vector<std::string>& list, const std::string& name) {
    const auto at = std::find(list.begin(), list.end(), name);
    return at == list.end() ? -1 : static_cast<int>(at - list.begin());
  };
  for (const std::string& name : flow.states) {
    int i = index_in(dynamics.base(), name);
    if (i >= 0) {
      source.emplace_back(Source::kState, i);
      continue;
    }
    if ((i = index_in(dynamics.fibre(), name)) >= 0) {
      source.emplace_back(Source::kState, n + i);
      continue;
    }
    const int section = index_in(flow.section_costates, name);
    const int fibre = index_in(flow.fibre_costates, name);
    const int a = section >= 0 && section < static_cast<int>(flow.fibre.size())
                      ? index_in(dynamics.fibre(), flow.fibre[section])
                  : fibre >= 0 && fibre < static_cast<int>(flow.fibre.size())
                      ? index_in(dynamics.fibre(), flow.fibre[fibre])
                      : -1;
    if (a < 0) {
      why = "the shooting state " + name + " has no counterpart in the collocation";
      return false;
    }
    source.emplace_back(section >= 0 ? Source::kSection : Source::kFibre, a);
  }

  // The costates of (q, y) at the nodes, the group elements and the group costate.
  const auto costates = NodeCostates(N, d, collocation_.point.lambda, collocation_.scheme);
  const bool group = problem.has_group && dynamics.has_body_velocity();
  std::vector<Eigen::Matrix3d> G(static_cast<std::size_t>(N + 1), Eigen::Matrix3d::Identity());
  if (group) G = nlp_.Attitudes(w.data());
  // The group costate from the final rows' multipliers, carried back (as the output's columns).
  const auto group_costates = NodeGroupCostates(nlp_, dynamics, collocation_.point);
  std::vector<std::vector<double>> X(static_cast<std::size_t>(N + 1));
  std::vector<double> rates(static_cast<std::size_t>(d)),
      rates_jacobian(static_cast<std::size_t>(d * (1 + d + m))), xi(3),
      xi_jacobian(static_cast<std::size_t>(3 * (1 + d + m)));
  for (int k = 0; k <= N; ++k) {
    const double t = T * nlp_.mesh()[k];
    const double* x = &w[static_cast<std::size_t>(nlp_.StateIndex(k, 0))];
    const double* u = &w[static_cast<std::size_t>(nlp_.ControlIndex(k, 0))];
    dynamics.Rates(t, x, u, rates.data(), rates_jacobian.data());
    const Eigen::Vector3d mu(group_costates[k].data());
    if (group) dynamics.BodyVelocity(x, xi.data(), xi_jacobian.data());
    // p_A = pi_i rho^i_A + mu_b dxi^b / dy^A (rho^i_A = d q'^i / d y^A).
    std::vector<double> p(static_cast<std::size_t>(k_fibre), 0.0);
    for (int a = 0; a < k_fibre; ++a) {
      const int column = 1 + n + a;
      for (int i = 0; i < n; ++i)
        p[a] += costates[k][i] * rates_jacobian[static_cast<std::size_t>(i * (1 + d + m) + column)];
      if (group)
        for (int b = 0; b < 3; ++b)
          p[a] += mu(b) * xi_jacobian[static_cast<std::size_t>(b * (1 + d + m) + column)];
    }
    auto& state = X[static_cast<std::size_t>(k)];
    for (const auto& [kind, i] : source)
      state.push_back(kind == Source::kState     ? x[i]
                      : kind == Source::kSection ? p[i]
                                                 : costates[k][n + i]);
  }

  // Linear interpolation between the nodes (the group element along its geodesic).
  auto at_time = [&](double t, std::vector<double>& x, Eigen::Matrix3d& g) {
    const double s = std::clamp(t / T, 0.0, 1.0);
    const auto& mesh = nlp_.mesh();
    int k = static_cast<int>(std::upper_bound(mesh.begin(), mesh.end(), s) - mesh.begin()) - 1;
    k = std::clamp(k, 0, N - 1);
    const double f = std::clamp((s - mesh[k]) / (mesh[k + 1] - mesh[k]), 0.0, 1.0);
    x.resize(X[k].size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (1 - f) * X[k][i] + f * X[k + 1][i];
    g = problem.g0;
    if (group)
      g = geometry::ProjectToGroup(
          problem.group,
          G[k] * geometry::Exp(problem.group,
                               f * geometry::Log(problem.group, G[k].inverse() * G[k + 1])));
  };
  ShootingPoint out;
  std::vector<double> x;
  Eigen::Matrix3d g;
  at_time(0.0, x, g);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (problem.x0_unknown[i]) out.u0.push_back(x[i]);
  out.g0 = problem.g0;
  const std::vector<double>& times = ms.node_times();
  for (int j = 1; j < ms.intervals(); ++j) {
    at_time(times[static_cast<std::size_t>(j)], x, g);
    out.x.push_back(x);
    out.g.push_back(g);
  }
  start = std::move(out);
  return true;
}

OptimalControlSolution Polished(OptimalControlSolution collocation,
                                OptimalControlSolution shooting) {
  OptimalControlSolution out = std::move(shooting);
  const SolveReport& polish = out.report;
  SolveReport report = std::move(collocation.report);
  report.polished = true;
  report.polish_residual = polish.residual;
  report.polish_iterations = polish.iterations;
  report.polish_intervals = polish.nodes;
  report.polish_seconds = polish.seconds;
  report.seconds += polish.seconds;
  std::ostringstream text;
  text.precision(3);
  text << "shooting polish: " << polish.iterations << " Newton iterations on " << polish.nodes
       << (polish.nodes == 1 ? " shooting interval" : " shooting intervals")
       << ", max |F| = " << polish.residual << ", cost " << std::setprecision(17) << out.cost
       << " (collocation " << collocation.cost << ")";
  report.polish = text.str();
  out.report = std::move(report);
  out.warm_start.collocation = std::move(collocation.warm_start.collocation);
  return out;
}

}  // namespace dirac::control
