#include "dirac/optimal_control.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>

#include "control/boundary_conditions.hpp"
#include "control/collocation_polish.hpp"
#include "control/multiple_shooting.hpp"
#include "control/stored_jacobian_iteration.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "model/explicit_flow.hpp"

namespace dirac {
namespace {

using control::MaxAbs;
using control::MultipleShooting;
using control::ShootingPoint;
using Clock = std::chrono::steady_clock;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Quasi-Newton iterations a warm start may spend on its stored Jacobian before Newton.
constexpr int kStoredJacobianIterations = 12;

// The tangent-space difference a - b of two iterates (charts: Log(b^-1 a)).
Eigen::VectorXd Difference(const MultipleShooting& ms, const ShootingPoint& a,
                           const ShootingPoint& b) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(ms.num_unknowns()));
  Eigen::Index c = 0;
  for (std::size_t k = 0; k < a.u0.size(); ++k) out(c++) = a.u0[k] - b.u0[k];
  const auto& P = ms.problem();
  if (P.g0_unknown) {
    out.segment<3>(c) = geometry::Log(P.group, b.g0.inverse() * a.g0);
    c += 3;
  }
  for (std::size_t j = 0; j < a.x.size(); ++j) {
    for (std::size_t i = 0; i < a.x[j].size(); ++i) out(c++) = a.x[j][i] - b.x[j][i];
    if (P.has_group) {
      out.segment<3>(c) = geometry::Log(P.group, b.g[j].inverse() * a.g[j]);
      c += 3;
    }
  }
  return out;
}

// Newton's method with an Armijo line search on phi = |F|^2 / 2.
class Newton {
 public:
  Newton(MultipleShooting& ms, const SolveOptions& options, SolveReport& report, double tolerance,
         int max_iterations)
      : ms_(ms),
        options_(options),
        report_(report),
        tolerance_(tolerance),
        max_iterations_(max_iterations) {}

  // dF/dw at the solution of the last Solve that converged (empty otherwise).
  const Eigen::MatrixXd& jacobian() const { return jacobian_; }

  // Solves from `point` (updated in place); returns false with report_.message set.
  bool Solve(ShootingPoint& point, double s) {
    jacobian_.resize(0, 0);
    s_ = s;
    Eigen::VectorXd F, trial_F;
    Eigen::MatrixXd J, trial_J;
    std::string failure;
    // Inexact Newton: far from the solution the motion is integrated to 1e-7; once |F| is
    // small the tight tolerance takes over (and F, J are recomputed with it).
    ms_.set_relative_tolerance(kLooseTolerance);
    if (!ms_.Evaluate(point, F, &J, &failure))
      return Fail("the integration fails at the start: " + failure);
    if (MaxAbs(F) < kSwitchResidual && !Tighten(point, F, J)) return false;
    Note(MaxAbs(F));
    for (int it = 0; it < max_iterations_; ++it) {
      if (MaxAbs(F) <= tolerance_ && Tight()) return Converged(J);
      Cancelled();
      Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
      if (lu.rank() < J.rows())
        return Fail("singular shooting Jacobian (rank " + std::to_string(lu.rank()) + " of " +
                    std::to_string(J.rows()) + ")");
      const Eigen::VectorXd step = lu.solve(-F);
      if (!step.allFinite()) return Fail("the Newton step is not finite");
      const double phi = 0.5 * F.squaredNorm();
      double lambda = 1.0;
      bool accepted = false;
      for (int k = 0; k < 30 && !accepted; ++k, lambda *= 0.5) {
        const ShootingPoint trial = ms_.Displace(point, lambda * step);
        if (!ms_.Evaluate(trial, trial_F, &trial_J, &failure)) continue;
        if (0.5 * trial_F.squaredNorm() <= phi * (1.0 - 2e-4 * lambda)) {
          point = trial;
          F.swap(trial_F);
          J.swap(trial_J);
          accepted = true;
        }
      }
      if (!accepted) return Fail("the line search found no decrease of |F|");
      lambda *= 2.0;
      NewtonIterate iterate;
      iterate.iteration = ++report_.iterations;
      iterate.continuation = s;
      iterate.residual = MaxAbs(F);
      iterate.step_norm = lambda * MaxAbs(step);
      iterate.step_length = lambda;
      report_.history.push_back(iterate);
      Note(iterate.residual);
      if (options_.progress && !options_.progress(iterate)) throw control::Cancelled{};
      if (!Tight() && iterate.residual < kSwitchResidual && !Tighten(point, F, J)) return false;
      if (!std::isfinite(iterate.residual) || iterate.residual > 1e12)
        return Fail("Newton diverges");
    }
    if (MaxAbs(F) <= tolerance_ && Tight()) return Converged(J);
    return Fail("no convergence in " + std::to_string(max_iterations_) + " iterations");
  }

 private:
  static constexpr double kLooseTolerance = 1e-7, kSwitchResidual = 1e-4;
  bool Tight() const { return ms_.relative_tolerance() <= MultipleShooting::kTightTolerance; }
  bool Tighten(const ShootingPoint& point, Eigen::VectorXd& F, Eigen::MatrixXd& J) {
    ms_.set_relative_tolerance(MultipleShooting::kTightTolerance);
    std::string failure;
    if (!ms_.Evaluate(point, F, &J, &failure))
      return Fail("the integration fails at the tight tolerance: " + failure);
    return true;
  }
  bool Converged(const Eigen::MatrixXd& J) {
    jacobian_ = J;
    return true;
  }
  bool Fail(const std::string& why) {
    std::ostringstream out;
    out << why << " (iteration " << report_.iterations
        << ", best max |F| = " << report_.best_residual << ")";
    report_.message = out.str();
    return false;
  }
  // The best residual is that of the problem itself (s = 1), not of a continuation step.
  void Note(double residual) {
    if (s_ >= 1.0 && (!(report_.best_residual > 0) || residual < report_.best_residual))
      report_.best_residual = residual;
    report_.residual = residual;
  }
  void Cancelled() const {
    if (options_.cancel && options_.cancel->load()) throw control::Cancelled{};
  }

  MultipleShooting& ms_;
  const SolveOptions& options_;
  SolveReport& report_;
  double tolerance_;
  int max_iterations_;
  double s_ = 1.0;
  Eigen::MatrixXd jacobian_;  // at the point of the last successful Solve (tight tolerance)
};

int DefaultIntervals(const Scenario& s, const SolveOptions& options) {
  if (options.nodes > 0) return options.nodes;
  if (s.optimal_control.present && s.optimal_control.shooting.nodes > 0)
    return s.optimal_control.shooting.nodes;
  // One interval per 2 s of horizon, at most 16: the sensitivities of the shipped mechanics grow
  // moderately over such an interval and the group charts stay small, while every interval
  // adds its state to the Newton system. A cold start that fails is continued anyway.
  return std::clamp(static_cast<int>(std::ceil(s.simulation.t_end / 2.0 - 1e-9)), 1, 16);
}

// Continuation in the boundary data from the motion the initial guess starts (which solves the
// problem with its own end values as targets) to the problem's targets, with a secant predictor
// and an adaptive step in s.
bool Continue(MultipleShooting& ms, Newton& newton, ShootingPoint& point, SolveReport& report) {
  control::BoundaryProblem& P = ms.problem();
  const control::EndConditions target_initial = P.initial, target_final = P.final;
  ShootingPoint current = ms.FromInitialGuess();
  Eigen::VectorXd F;
  std::string failure;
  if (!ms.Evaluate(current, F, nullptr, &failure)) {
    report.message = "continuation: the initial guess cannot be integrated: " + failure;
    return false;
  }
  const std::vector<double> x0 = ms.InitialState(current);
  const control::EndConditions from_initial = control::TargetsAt(
      P.initial, ms.flow(), 0.0, x0.data(), current.g0, ms.parameters(), P.group);
  const control::EndConditions from_final =
      control::TargetsAt(P.final, ms.flow(), P.horizon, ms.final_state().data(), ms.final_group(),
                         ms.parameters(), P.group);
  auto set_s = [&](double s) {
    P.initial = control::Blend(target_initial, from_initial, s, P.group);
    P.final = control::Blend(target_final, from_final, s, P.group);
  };
  set_s(0.0);
  if (!newton.Solve(current, 0.0)) {
    P.initial = target_initial;
    P.final = target_final;
    report.message = "continuation: the start problem does not solve: " + report.message;
    return false;
  }
  ShootingPoint previous = current;
  double s = 0.0, s_previous = 0.0, ds = 0.25;
  while (s < 1.0) {
    const double s_try = std::min(1.0, s + ds);
    ShootingPoint trial = current;
    if (s > s_previous)  // secant predictor
      trial =
          ms.Displace(current, (s_try - s) / (s - s_previous) * Difference(ms, current, previous));
    set_s(s_try);
    if (newton.Solve(trial, s_try)) {
      previous = current;
      current = trial;
      s_previous = s;
      s = s_try;
      ++report.continuation_steps;
      ds = std::min(0.5, ds * 1.5);
    } else {
      ds *= 0.5;
      if (ds < 1e-3) {
        P.initial = target_initial;
        P.final = target_final;
        std::ostringstream out;
        out << "continuation stalled at s = " << s << ": " << report.message;
        report.message = out.str();
        return false;
      }
    }
  }
  point = current;
  report.message.clear();
  return true;
}

// The solved scenario: the initial values of the solution written back (states by their --set
// names where they have one, the group element into reconstruction.initial).
Scenario SolvedScenario(const Scenario& scenario, const ExplicitFlow& flow,
                        const std::vector<double>& x0, const Eigen::Matrix3d& g0, bool group) {
  Scenario solved = scenario;
  for (std::size_t i = 0; i < flow.dimension(); ++i) {
    const std::string& name = flow.states[i];
    if (CurrentValue(solved, name).has_value()) {
      ApplyOverride(solved, name, x0[i]);
    } else {
      auto& initial = solved.second_order.initial;
      const auto it = std::find_if(initial.begin(), initial.end(),
                                   [&](const auto& e) { return e.first == name; });
      if (it != initial.end())
        it->second = x0[i];
      else
        initial.emplace_back(name, x0[i]);
    }
  }
  if (group) {
    auto& rec = solved.reconstruction;
    if (rec.group == "SO3") {
      rec.initial.assign(9, 0.0);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) rec.initial[3 * r + c] = g0(r, c);
    } else {
      rec.initial = {g0(0, 2), g0(1, 2), std::atan2(g0(1, 0), g0(0, 0))};
    }
  }
  return solved;
}

}  // namespace

namespace {

// Shooting covers smooth problems: no inequality, a fixed horizon, a running cost only (its
// transversality conditions know no terminal term).
bool ShootingFits(const OptimalControlSpec& spec) {
  return spec.bounds.empty() && spec.path_constraints.empty() && spec.terminal_cost.empty() &&
         !spec.horizon_free;
}

}  // namespace

OptimalControlMethod ChosenMethod(const Scenario& scenario) {
  const OptimalControlSpec& spec = scenario.optimal_control;
  if (!spec.present) return OptimalControlMethod::kShooting;  // a boundary_value block
  if (spec.method != OptimalControlMethod::kAuto) return spec.method;
  return ShootingFits(spec) ? OptimalControlMethod::kShooting : OptimalControlMethod::kCollocation;
}

// Refuses bounds no motion can meet, and shooting asked for what it cannot enforce.
void CheckMethodFits(const Scenario& scenario) {
  const OptimalControlSpec& spec = scenario.optimal_control;
  if (!spec.present) return;
  if (const auto problem = CheckOptimalControlBounds(scenario))
    throw ScenarioError(scenario.source_file, spec.where.line, problem->key, problem->message);
  if (spec.method == OptimalControlMethod::kShooting && !ShootingFits(spec))
    throw ScenarioError(scenario.source_file, spec.where.line, "method",
                        "shooting solves problems without bounds, path constraints or terminal "
                        "cost and with a fixed horizon; this one has " +
                            std::string(!spec.bounds.empty()             ? "bounds"
                                        : !spec.path_constraints.empty() ? "path constraints"
                                        : !spec.terminal_cost.empty()    ? "a terminal cost"
                                                                         : "a free horizon") +
                            ": use method collocation (or auto)");
}

namespace {

// A given start for the shooting (the polish): fills the point from the problem's shooting, or
// says why it cannot.
using ShootingStart =
    std::function<bool(const MultipleShooting&, ShootingPoint&, std::string& why)>;

// Multiple shooting on the model's Pontryagin flow: from a warm start or the initial guess (with
// continuation when Newton fails from it), or, with `start`, from that point alone.
OptimalControlSolution SolveByShooting(const Model& model, const Scenario& scenario,
                                       const SolveOptions& options,
                                       const ShootingStart* start = nullptr) {
  const auto start_time = Clock::now();
  const ExplicitFlow* flow = model.explicit_flow();
  if (!flow)
    throw ModelError(scenario.source_file + ": this model (" + model.formulation() +
                     ") has no explicit flow on M_f to shoot on");
  const SimulationInput input = SimulationInput::FromScenario(scenario);
  control::BoundaryProblem problem =
      control::ResolveBoundaryProblem(scenario, *flow, model.FlowState(input));
  const ShootingSettings settings =
      scenario.optimal_control.present ? scenario.optimal_control.shooting : ShootingSettings{};
  MultipleShooting ms(*flow, problem, DefaultIntervals(scenario, options), input.parameters,
                      options.cancel);
  ms.set_step_budget(settings.max_steps);
  OptimalControlSolution solution;
  SolveReport& report = solution.report;
  report.nodes = ms.intervals();
  report.unknowns = static_cast<int>(ms.num_unknowns());
  Newton newton(ms, options, report, settings.tolerance, settings.max_iterations);
  ShootingPoint point;
  bool converged = false, solved_on_stored = false;
  Eigen::MatrixXd inverse_jacobian;  // of the solution, for the next warm start
  try {
    if (start) {
      std::string why;
      if (!(*start)(ms, point, why)) {
        report.message = why;
        report.seconds = std::chrono::duration<double>(Clock::now() - start_time).count();
        return solution;
      }
    } else if (options.warm_start && ms.FromWarmStart(*options.warm_start, &point)) {
      report.warm_started = true;
      const WarmStart& warm = *options.warm_start;
      const auto n = static_cast<Eigen::Index>(ms.num_unknowns());
      if (warm.layout == ms.Layout() && warm.inverse_jacobian.size() == std::size_t(n * n)) {
        inverse_jacobian = Eigen::Map<const RowMajor>(warm.inverse_jacobian.data(), n, n);
        // To a tenth of the tolerance: a quasi-Newton iterate stops just under its target,
        // where Newton's quadratic last step lands far below; the margin keeps the residual
        // reported at the final (tighter) integration under the tolerance too.
        converged =
            control::IterateOnStoredJacobian(ms, inverse_jacobian, point, 0.1 * settings.tolerance,
                                             kStoredJacobianIterations, options, report);
      }
      // Tangent predictor for a parameter step (unless the stored Jacobian has moved the
      // point): one Newton step of the joint system in (w, p) at the old solution,
      // dw = -J^-1 (F(w, p_old) + dF/dp dp).
      const std::vector<double>& old = warm.parameters;
      if (!converged && report.stored_jacobian_iterations == 0 &&
          old.size() == input.parameters.size() && old != input.parameters) {
        MultipleShooting at_old(*flow, ms.problem(), ms.intervals(), old, options.cancel);
        at_old.set_step_budget(settings.max_steps);
        Eigen::VectorXd F, dF;
        Eigen::MatrixXd J;
        std::string failure;
        Eigen::VectorXd dp(static_cast<Eigen::Index>(old.size()));
        for (std::size_t k = 0; k < old.size(); ++k) dp(k) = input.parameters[k] - old[k];
        if (at_old.Evaluate(point, F, &J, &failure, &dp, &dF)) {
          Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
          if (lu.rank() == J.rows()) {
            const Eigen::VectorXd step = lu.solve(-(F + dF));
            if (step.allFinite()) point = ms.Displace(point, step);
          }
        }
      }
    } else {
      point = ms.FromInitialGuess();
    }
    solved_on_stored = converged;
    if (!converged) converged = newton.Solve(point, 1.0);
    if (!converged && options.continuation && !start) {
      const std::string direct = report.message;
      converged = Continue(ms, newton, point, report);
      if (!converged) report.message = "from the initial guess: " + direct + "; " + report.message;
    }
    if (converged && !solved_on_stored) {
      // The next re-solve starts from this Jacobian (exact, at the solution).
      inverse_jacobian.resize(0, 0);
      Eigen::FullPivLU<Eigen::MatrixXd> lu(newton.jacobian());
      if (newton.jacobian().rows() > 0 && lu.isInvertible()) inverse_jacobian = lu.inverse();
    }
  } catch (const control::Cancelled&) {
    report.message = "cancelled";
    converged = false;
  } catch (const control::WorkLimitExceeded& e) {
    std::ostringstream out;
    out << "stopped by the work bound: the integrations took more than " << e.budget
        << " steps in all (" << e.where
        << "); the motion is too fast or too stiff for shooting over this horizon. Check the "
           "initial values and coefficients, or raise optimal_control.shooting.max_steps";
    report.message = out.str();
    converged = false;
  }
  report.converged = converged;
  report.final_time = scenario.simulation.t_end;
  report.integrations = ms.integrations();
  report.integrator_steps = ms.integrator_statistics().steps;
  report.rhs_evaluations = ms.integrator_statistics().rhs_evaluations;
  Eigen::VectorXd F;
  std::string failure;
  // The reported cost: the quadrature along the converged motion at a tighter tolerance.
  ms.set_relative_tolerance(1e-13);
  ms.set_step_budget(ms.integrator_statistics().steps + settings.max_steps);
  try {
    if (converged && ms.Evaluate(point, F, nullptr, &failure)) {
      report.residual = MaxAbs(F);
      report.constraint_violation = report.residual;
      solution.cost = ms.cost();
      solution.warm_start = ms.ToWarmStart(point);
      if (inverse_jacobian.rows() == static_cast<Eigen::Index>(ms.num_unknowns())) {
        solution.warm_start.inverse_jacobian.resize(inverse_jacobian.size());
        Eigen::Map<RowMajor>(solution.warm_start.inverse_jacobian.data(), inverse_jacobian.rows(),
                             inverse_jacobian.cols()) = inverse_jacobian;
      }
    }
  } catch (const control::Cancelled&) {
    // A newer edit cancelled the final quadrature (integrator callbacks now carry the
    // cancellation out instead of failing the step): the solve counts as cancelled.
    report.converged = false;
    report.message = "cancelled";
    report.seconds = std::chrono::duration<double>(Clock::now() - start_time).count();
    return solution;
  } catch (const control::WorkLimitExceeded& e) {
    report.converged = false;
    report.message = "the converged motion does not integrate at the reporting tolerance within " +
                     std::to_string(e.budget) + " steps (" + e.where + ")";
    report.seconds = std::chrono::duration<double>(Clock::now() - start_time).count();
    return solution;
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - start_time).count();
  if (!converged) return solution;

  const std::vector<double> x0 = ms.InitialState(point);
  solution.solved = SolvedScenario(scenario, *flow, x0, point.g0, ms.problem().has_group);
  if (options.sample) {
    SimulationInput run = SimulationInput::FromScenario(solution.solved);
    run.flow_state = x0;
    SimulationReport sampled;
    solution.trajectory = model.Simulate(
        run, [&](const Trajectory&) { return !(options.cancel && options.cancel->load()); },
        &sampled);
    if (sampled.cancelled) {
      report.converged = false;
      report.message = "cancelled";
      return solution;
    }
    if (const auto e = solution.trajectory.FindColumn("E")) {
      const double h0 = solution.trajectory.at(0, *e);
      for (std::size_t r = 0; r < solution.trajectory.num_rows(); ++r)
        solution.hamiltonian_drift =
            std::max(solution.hamiltonian_drift, std::abs(solution.trajectory.at(r, *e) - h0));
    }
  }
  return solution;
}

// Collocation, then the shooting polish when it applies (control/collocation_polish.hpp): the
// model's Pontryagin flow (built here when `model` is null) shot from the collocation nodes.
// If the polish does not apply or does not converge, the collocation result stands and its
// report says why.
OptimalControlSolution SolveByCollocationThenPolish(const Model* model, const Scenario& scenario,
                                                    const SolveOptions& options) {
  OptimalControlSolution collocation = SolveByCollocation(scenario, options);
  std::string why = control::PolishPrecondition(scenario, collocation);
  if (why.empty()) {
    const control::PolishSeed seed(scenario, *collocation.warm_start.collocation);
    why = seed.ActiveInequality();
    std::shared_ptr<const Model> built;
    if (why.empty() && !model) {
      try {
        built = BuildModel(scenario);
        model = built.get();
      } catch (const Error& e) {
        why = std::string("no Pontryagin model to shoot on: ") + e.what();
      }
    }
    if (why.empty() && !model->explicit_flow()) why = "the model has no explicit flow to shoot on";
    if (why.empty()) {
      SolveOptions polish = options;
      polish.warm_start = nullptr;
      polish.nodes = 0;  // the scenario's shooting intervals (options.nodes were collocation's)
      const ShootingStart start = [&](const MultipleShooting& ms, ShootingPoint& point,
                                      std::string& reason) {
        return seed.Start(ms, point, reason);
      };
      try {
        OptimalControlSolution shot = SolveByShooting(*model, scenario, polish, &start);
        if (shot.report.converged)
          return control::Polished(std::move(collocation), std::move(shot));
        why = "the shooting from the collocation nodes did not converge: " + shot.report.message;
      } catch (const Error& e) {
        why = std::string("the shooting does not fit: ") + e.what();
      }
    }
  }
  collocation.report.polish = "shooting polish not applied: " + why;
  return collocation;
}

}  // namespace

OptimalControlSolution SolveOptimalControl(const Model& model, const Scenario& scenario,
                                           const SolveOptions& options) {
  CheckMethodFits(scenario);
  if (ChosenMethod(scenario) == OptimalControlMethod::kCollocation)
    return SolveByCollocationThenPolish(&model, scenario, options);
  return SolveByShooting(model, scenario, options);
}

OptimalControlSolution SolveOptimalControl(const Scenario& scenario, const SolveOptions& options) {
  CheckMethodFits(scenario);
  if (ChosenMethod(scenario) == OptimalControlMethod::kCollocation)
    return SolveByCollocationThenPolish(nullptr, scenario, options);
  const auto model = BuildModel(scenario);
  return SolveByShooting(*model, scenario, options);
}

namespace {

// The text report of a collocation solve: NLP convergence, T, the active arcs.
std::string FormatCollocationReport(const SolveReport& report, double cost) {
  std::ostringstream out;
  out.precision(6);
  out << "method collocation" << (report.polished ? ", then shooting polish" : "") << ": "
      << (report.converged ? "converged" : "not converged") << ": " << report.iterations
      << " interior-point iterations, ";
  if (report.warm_started)
    out << "warm start, ";
  else if (report.warm_iterations > 0)
    out << "of them " << report.warm_iterations << " from the warm start (abandoned), ";
  out << report.nodes << " intervals, " << report.unknowns << " unknowns, constraint violation "
      << report.constraint_violation << ", " << report.seconds * 1e3 << " ms";
  out << "\n  mesh: " << report.nodes << " intervals after " << report.mesh_rounds
      << " refinements, error estimate " << report.mesh_error;
  out << "\n  final_time = " << std::setprecision(17) << report.final_time;
  if (report.converged) out << "\n  cost = " << cost;
  out << std::setprecision(6);
  if (!report.message.empty()) out << "\n  " << report.message;
  if (!report.polish.empty()) out << "\n  " << report.polish;
  if (report.active_arcs.empty()) out << "\n  no bound or path constraint active";
  for (const ActiveArc& arc : report.active_arcs) {
    if (arc.path_constraint)
      out << "\n  path constraint " << arc.name << " active";
    else
      out << "\n  " << arc.name << " on its " << (arc.upper ? "max" : "min");
    out << " for t in [" << arc.t_begin << ", " << arc.t_end << "]";
  }
  return out.str();
}

}  // namespace

std::string FormatSolveReport(const SolveReport& report, double cost) {
  std::ostringstream out;
  out.precision(6);
  if (report.method == "collocation") return FormatCollocationReport(report, cost);
  out << (report.converged ? "converged" : "not converged") << ": " << report.iterations
      << (report.iterations == 1 ? " Newton iteration" : " Newton iterations");
  if (report.stored_jacobian_iterations)
    out << " (" << report.stored_jacobian_iterations
        << " of them quasi-Newton on the stored Jacobian)";
  if (report.continuation_steps) out << " (" << report.continuation_steps << " continuation steps)";
  if (report.warm_started) out << ", warm start";
  out << ", " << report.nodes
      << (report.nodes == 1 ? " shooting interval, " : " shooting intervals, ") << report.unknowns
      << " unknowns, max |F| = " << report.residual << ", " << report.integrations
      << " interval integrations (" << report.integrator_steps << " steps, "
      << report.rhs_evaluations << " right-hand sides), " << report.seconds * 1e3 << " ms";
  if (report.converged) out << "\n  cost = " << std::setprecision(17) << cost;
  if (!report.message.empty()) out << "\n  " << report.message;
  out << "\n  iter      s        max|F|       |step|    lambda  Jacobian";
  for (const NewtonIterate& it : report.history) {
    char line[128];
    std::snprintf(line, sizeof line, "\n  %4d  %6.3f  %11.3e  %11.3e  %7.4f  %s", it.iteration,
                  it.continuation, it.residual, it.step_norm, it.step_length,
                  it.stored_jacobian ? "stored" : "exact");
    out << line;
  }
  return out.str();
}

std::string SolveReportToJson(const SolveReport& report, double cost) {
  std::ostringstream out;
  out.precision(17);
  auto text = [](const std::string& s) {
    std::string r = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') r += '\\';
      if (c == '\n') {
        r += "\\n";
        continue;
      }
      r += c;
    }
    return r + "\"";
  };
  out << "{\"method\": " << text(report.method)
      << ", \"converged\": " << (report.converged ? "true" : "false")
      << ", \"message\": " << text(report.message) << ", \"final_time\": " << report.final_time
      << ", \"constraint_violation\": " << report.constraint_violation << ", \"active_arcs\": [";
  for (std::size_t k = 0; k < report.active_arcs.size(); ++k) {
    const ActiveArc& arc = report.active_arcs[k];
    out << (k ? ", " : "") << "{\"name\": " << text(arc.name) << ", \"bound\": "
        << (arc.path_constraint ? "\"path\""
            : arc.upper         ? "\"max\""
                                : "\"min\"")
        << ", \"t_begin\": " << arc.t_begin << ", \"t_end\": " << arc.t_end << "}";
  }
  out << "], \"cost\": ";
  if (report.converged)
    out << cost;
  else
    out << "null";
  out << ", \"iterations\": " << report.iterations
      << ", \"stored_jacobian_iterations\": " << report.stored_jacobian_iterations
      << ", \"continuation_steps\": " << report.continuation_steps
      << ", \"warm_started\": " << (report.warm_started ? "true" : "false")
      << ", \"warm_iterations\": " << report.warm_iterations << ", \"nodes\": " << report.nodes
      << ", \"mesh_rounds\": " << report.mesh_rounds << ", \"mesh_error\": " << report.mesh_error
      << ", \"unknowns\": " << report.unknowns << ", \"residual\": " << report.residual
      << ", \"best_residual\": " << report.best_residual
      << ", \"integrations\": " << report.integrations << ", \"seconds\": " << report.seconds
      << ", \"polished\": " << (report.polished ? "true" : "false")
      << ", \"polish\": " << text(report.polish)
      << ", \"polish_residual\": " << report.polish_residual
      << ", \"polish_iterations\": " << report.polish_iterations
      << ", \"polish_intervals\": " << report.polish_intervals
      << ", \"polish_seconds\": " << report.polish_seconds << ", \"history\": [";
  for (std::size_t k = 0; k < report.history.size(); ++k) {
    const NewtonIterate& it = report.history[k];
    out << (k ? ", " : "") << "{\"iteration\": " << it.iteration << ", \"s\": " << it.continuation
        << ", \"residual\": " << it.residual << ", \"step_norm\": " << it.step_norm
        << ", \"step_length\": " << it.step_length
        << ", \"stored_jacobian\": " << (it.stored_jacobian ? "true" : "false") << "}";
  }
  out << "]}";
  return out.str();
}

}  // namespace dirac
