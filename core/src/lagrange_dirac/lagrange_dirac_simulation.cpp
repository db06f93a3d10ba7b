#include "lagrange_dirac/lagrange_dirac_simulation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "dirac/error.hpp"
#include "dynamics/divergence_monitor.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/local_tolerance.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/reconstruction.hpp"
#include "lagrange_dirac/constraint_rank.hpp"
#include "lagrange_dirac/fixed_step_simulation.hpp"
#include "lagrange_dirac/lie_variational_step.hpp"
#include "lagrange_dirac/saddle_system.hpp"
#include "lagrange_dirac/sample_recorder.hpp"

namespace dirac {

namespace {

// Evaluation state shared by the residual and Jacobian: one input vector in InputLayout order.
struct DaeContext {
  const CompiledDae* dae = nullptr;
  std::vector<double> input, scratch, jac_values;

  void Load(double t, const double* y, const double* yp) {
    const InputLayout& L = dae->layout;
    input[L.t()] = t;
    std::copy(y, y + L.dae_size(), input.begin() + L.q());    // q, y, mu are contiguous
    std::copy(yp, yp + L.n + L.k, input.begin() + L.qdot());  // q', y' are contiguous
  }
};

std::size_t Max(std::size_t a, std::size_t b) { return a > b ? a : b; }

std::string Scientific(double value) {
  std::ostringstream out;
  out.precision(3);
  out << std::scientific << value;
  return out.str();
}

void CheckInputSizes(const InputLayout& layout, const SimulationInput& input) {
  if (input.q0.size() != layout.n || input.v0.size() != layout.k ||
      input.parameters.size() != layout.num_parameters)
    throw ModelError("simulation input sizes do not match the system (" + std::to_string(layout.n) +
                     " coordinates, " + std::to_string(layout.k) + " velocities, " +
                     std::to_string(layout.num_parameters) + " parameters)");
}

// A run starts on f(q0) = 0: the scenario reader and --set solve the coordinates marked
// `solve: true`; an input that violates f (a direct caller, an edited parameter) is refused.
void RequireInitialPositions(lagrange_dirac::ConstraintProjector& projector,
                             const std::vector<std::string>& columns, const CompiledDae& dae,
                             const Eigen::VectorXd& q0, double bound) {
  if (!projector.holonomic()) return;
  const double residual = projector.PositionResidual(0.0, q0.data());
  if (residual <= bound) return;
  const std::size_t h = projector.WorstConstraint();
  const std::size_t column = 1 + dae.layout.dae_size() + 1 + dae.layout.m + h;
  const std::string name = column < columns.size() ? columns[column].substr(18) : "";
  throw ModelError("the initial coordinates violate the holonomic constraint " + name +
                   ": |f| = " + Scientific(residual) +
                   " (mark the coordinates it fixes `solve: true` in the scenario, or set "
                   "consistent values)");
}

}  // namespace

namespace lagrange_dirac {

double ProjectOntoDistribution(const CompiledDae& dae, const std::vector<double>& parameters,
                               const Eigen::VectorXd& q0, Eigen::VectorXd& v0,
                               const std::vector<std::size_t>& dependent) {
  const std::size_t n = dae.layout.n, k = dae.layout.k, m = dae.layout.m;
  if (m == 0) return 0.0;
  if (dependent.size() == m) {
    // The dependent velocities solved from A(q0) v = 0 given the others (the scenario chose
    // them by pivoting at q0: scenario/initial_state.hpp).
    std::vector<double> in(dae.layout.size(), 0.0), values(m * k),
        scratch(dae.constraint_matrix.scratch_size());
    std::copy(parameters.begin(), parameters.end(), in.begin() + dae.layout.parameters());
    std::copy(q0.data(), q0.data() + n, in.begin() + dae.layout.q());
    dae.constraint_matrix.Evaluate(in.data(), values.data(), scratch.data());
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        A(values.data(), static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(k));
    Eigen::MatrixXd AD(A.rows(), static_cast<Eigen::Index>(m));
    Eigen::VectorXd rest = A * v0;
    for (std::size_t d = 0; d < m; ++d) {
      const auto column = static_cast<Eigen::Index>(dependent[d]);
      AD.col(static_cast<Eigen::Index>(d)) = A.col(column);
      rest -= A.col(column) * v0[column];
    }
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(AD);
    if (!lu.isInvertible())
      throw ModelError(
          "the dependent velocities cannot be solved: the constraint forms restricted to them are "
          "singular at q0");
    const Eigen::VectorXd solved = lu.solve(-rest);
    const Eigen::VectorXd original = v0;
    for (std::size_t d = 0; d < m; ++d)
      v0[static_cast<Eigen::Index>(dependent[d])] = solved[static_cast<Eigen::Index>(d)];
    return (v0 - original).norm();
  }
  SaddleSystem saddle(dae, parameters);
  std::vector<double> x(n + k), corr(n + k);
  std::copy(q0.data(), q0.data() + n, x.begin());
  const Eigen::VectorXd original = v0;
  // y -= W^-1 A^T (A W^-1 A^T)^-1 A y, repeated: exact in one pass when A does not depend on y.
  for (int pass = 0; pass < 3; ++pass) {
    std::copy(v0.data(), v0.data() + k, x.begin() + n);
    if (saddle.ConstraintResidual(0.0, x.data()) == 0.0) break;
    if (!saddle.Projection(0.0, x.data(), corr.data()))
      throw ModelError(
          "the constraint one-forms are linearly dependent at q0 "
          "(omega W^-1 omega^T is singular)");
    for (std::size_t a = 0; a < k; ++a) v0[static_cast<Eigen::Index>(a)] += corr[n + a];
  }
  return (v0 - original).norm();
}

std::vector<std::size_t> DependentVelocities(const InputLayout& layout,
                                             const std::vector<std::string>& columns,
                                             const std::vector<std::string>& solved) {
  std::vector<std::size_t> out;
  for (std::size_t a = 0; a < layout.k && 1 + layout.n + a < columns.size(); ++a)
    if (std::find(solved.begin(), solved.end(), columns[1 + layout.n + a]) != solved.end())
      out.push_back(a);
  return out;
}

void CheckConstraintRows(const CompiledDae& dae, const std::vector<double>& parameters,
                         const std::vector<std::string>& columns, const Eigen::VectorXd& q0,
                         const Eigen::VectorXd& v0) {
  // Named before an integrator meets them: dependent or vanishing constraint rows, a singular
  // Hessian (W and A at (q0, v0); the columns give the names: t, q..., y..., mu..., E,
  // residual_<constraint>...).
  const InputLayout& layout = dae.layout;
  const std::size_t n = layout.n, k = layout.k, m = layout.m, N = layout.dae_size();
  std::vector<double> in(layout.size(), 0.0),
      scratch(std::max(dae.mass_matrix.scratch_size(), dae.constraint_matrix.scratch_size()));
  std::copy(parameters.begin(), parameters.end(), in.begin() + layout.parameters());
  std::copy(q0.data(), q0.data() + n, in.begin() + layout.q());
  std::copy(v0.data(), v0.data() + k, in.begin() + layout.v());
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor Wr(k, k), wr(m, k);
  dae.mass_matrix.Evaluate(in.data(), Wr.data(), scratch.data());
  if (m > 0) dae.constraint_matrix.Evaluate(in.data(), wr.data(), scratch.data());
  std::vector<std::string> coordinate_names(columns.begin() + 1, columns.begin() + 1 + n);
  std::vector<std::string> constraint_names;
  for (std::size_t r = 0; r < m && 2 + N + r < columns.size(); ++r)
    constraint_names.push_back(columns[2 + N + r].substr(columns[2 + N + r].find('_') + 1));
  RequireIndependentConstraints(wr, Wr, constraint_names, coordinate_names, q0);
}

namespace {

// Fills mu(0) (y0's last m entries) and y'(0) (yp0's first n + k) from the saddle system at
// (q0, y0) = y0's first n + k entries; true when the DAE residual there is at rounding level:
// max |F_i| <= sqrt(eps) * max(1, |y0|, |y'0|).
bool SaddleInitialValues(const CompiledDae& dae, const std::vector<double>& parameters,
                         const dynamics::ImplicitDae& problem, std::vector<double>& y0,
                         std::vector<double>& yp0) {
  const std::size_t n = dae.layout.n, k = dae.layout.k, N = dae.layout.dae_size();
  SaddleSystem saddle(dae, parameters);
  std::vector<double> rates(n + k), mu(dae.layout.m), y(y0), yp(yp0), r(N);
  if (!saddle.Rates(0.0, y.data(), rates.data(), mu.data())) return false;
  std::copy(mu.begin(), mu.end(), y.begin() + static_cast<std::ptrdiff_t>(n + k));
  std::copy(rates.begin(), rates.end(), yp.begin());
  if (!problem.residual(0.0, y.data(), yp.data(), r.data())) return false;
  double scale = 1.0, worst = 0.0;
  for (std::size_t i = 0; i < N; ++i) {
    scale = std::max({scale, std::abs(y[i]), std::abs(yp[i])});
    worst = std::max(worst, std::abs(r[i]));
  }
  if (!(worst <= std::sqrt(std::numeric_limits<double>::epsilon()) * scale)) return false;
  y0 = std::move(y);
  yp0 = std::move(yp);
  return true;
}

}  // namespace

Trajectory SimulateDae(const CompiledDae& dae, const ReconstructionSpec& reconstruction_spec,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, bool conservative,
                       SimulationReport* report_out) {
  const InputLayout& layout = dae.layout;
  const std::size_t n = layout.n, k = layout.k, N = layout.dae_size();
  CheckInputSizes(layout, input);
  const SimulationSpec& spec = input.spec;
  RequireValidSimulationSpec(spec);

  DaeContext ctx;
  ctx.dae = &dae;
  ctx.input.assign(layout.size(), 0.0);
  std::copy(input.parameters.begin(), input.parameters.end(),
            ctx.input.begin() + layout.parameters());
  ctx.input[layout.stabilization()] = spec.stabilization;
  std::size_t scratch = 0;
  for (const CompiledFunction* f :
       {&dae.residual, &dae.energy, &dae.constraints, &dae.constraint_matrix, &dae.mass_matrix,
        &dae.anchor, &dae.body_velocity, &dae.fibre_momentum})
    scratch = Max(scratch, f->scratch_size());
  scratch = Max(Max(scratch, dae.jacobian_y.work_size()), dae.jacobian_yp.work_size());
  ctx.scratch.assign(scratch, 0.0);

  SimulationReport report;

  // Put y0 on the constraint with the least kinetic change.
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(input.q0.data(), n);
  Eigen::VectorXd v0 = Eigen::Map<const Eigen::VectorXd>(input.v0.data(), k);
  CheckConstraintRows(dae, input.parameters, columns, q0, v0);
  ConstraintProjector projector(dae, input.parameters);
  RequireInitialPositions(projector, columns, dae, q0, 10.0 * spec.atol);
  report.initial_projection =
      ProjectOntoDistribution(dae, input.parameters, q0, v0,
                              DependentVelocities(layout, columns, input.solved_initial_values));
  report.solved_initial_values = input.solved_initial_values;

  std::vector<double> y0(N, 0.0), yp0(N, 0.0), differential(N, 0.0);
  std::copy(q0.data(), q0.data() + n, y0.begin());
  std::copy(v0.data(), v0.data() + k, y0.begin() + n);
  std::fill(differential.begin(), differential.begin() + n + k, 1.0);

  dynamics::ImplicitDae problem;
  problem.size = N;
  problem.differential = differential;
  problem.rtol = dynamics::LocalTolerance(spec.rtol, IntegrationMethod::kIdas);
  problem.atol = dynamics::LocalTolerance(spec.atol, IntegrationMethod::kIdas);
  // mu is fixed by the discrete constraint through the BDF derivative y', so its local error
  // estimate is one order worse than that of (q, y); testing it throttles the step size ~50x
  // for no accuracy gain in (q, y). See lagrange_dirac/README.md, "The index-1 DAE".
  problem.suppress_algebraic_error = true;
  // y = (q, v, mu) in the order of the trajectory's columns after t.
  if (columns.size() > N) problem.names.assign(columns.begin() + 1, columns.begin() + 1 + N);
  problem.residual = [&ctx, N](double t, const double* y, const double* yp, double* r) {
    ctx.Load(t, y, yp);
    ctx.dae->residual.Evaluate(ctx.input.data(), r, ctx.scratch.data());
    for (std::size_t i = 0; i < N; ++i)
      if (!std::isfinite(r[i])) return false;
    return true;
  };
  problem.jacobian = [&ctx, N](double t, double cj, const double* y, const double* yp,
                               double* jac) {
    ctx.Load(t, y, yp);
    auto add = [&](const CompiledSparseMatrix& mat, double scale) {
      ctx.jac_values.resize(mat.rows.size());
      mat.Evaluate(ctx.input.data(), ctx.jac_values.data(), ctx.scratch.data());
      for (std::size_t e = 0; e < mat.rows.size(); ++e)
        jac[mat.cols[e] * N + mat.rows[e]] += scale * ctx.jac_values[e];  // column-major
    };
    add(ctx.dae->jacobian_y, 1.0);
    add(ctx.dae->jacobian_yp, cj);
  };
  // Consistent mu(0) and y'(0) = (rho(q0) y0, a0) from the saddle system at (q0, y0): they solve
  // F = 0 up to rounding. IDACalcIC was reported failing from such a consistent state at
  // rtol = atol <= 1e-10 (flag -13, line search; its Newton test is 0.0033 in the norm weighted
  // by rtol and atol), so it runs only when this residual is not at rounding level (a singular
  // saddle matrix at the initial state).
  const bool consistent = SaddleInitialValues(dae, input.parameters, problem, y0, yp0);
  dynamics::IdasDriver driver(problem, 0.0, y0, yp0, spec.t_end);
  if (!consistent) driver.ComputeConsistentInitialValues(std::min(spec.output_step, spec.t_end));
  const double* y = driver.y();

  SampleRecorder recorder(dae, reconstruction_spec, columns, input, conservative, report);
  auto body_velocity = [&](double t) {
    driver.Advance(t);
    return recorder.BodyVelocity(t, y);
  };
  // The Baumgarte term holds the velocity constraints; holonomic f(q) drifts by the integration
  // error, so a sample where |f| passed the bound is projected and IDAS restarted there.
  // The restart's y' and mu from the saddle system at the projected state (consistent: g = 0
  // there, so the Baumgarte term vanishes); IDACalcIC's line search fails on a residual that
  // is already at round-off.
  std::vector<double> projected(N), projected_rates(N, 0.0);
  SaddleSystem restart_saddle(dae, input.parameters);
  const double drift_bound = 10.0 * spec.atol;
  auto record = [&](double t) {
    recorder.Record(t, y);
    if (recorder.position_residual() <= drift_bound || t >= spec.t_end) return;
    std::copy(y, y + N, projected.begin());
    if (!projector.Project(t, projected.data()) ||
        !restart_saddle.Rates(t, projected.data(), projected_rates.data(),
                              projected.data() + n + k))
      return;
    driver.Restart(t, projected.data(), projected_rates.data());
    ++report.projections;
  };
  recorder.Record(0.0, y);
  report.method = dynamics::MethodReport(IntegrationMethod::kIdas, "index-1 DAE");
  dynamics::RunSampled(spec, driver, recorder.reconstruction(), body_velocity, record, progress,
                       recorder.trajectory(), report);
  if (report_out) *report_out = report;
  return recorder.Take();
}

namespace {

// The form of the compiled system for the seam and its name in refusals. The rigid-body check
// probes the compiled model: only when `probe_rigid_body`.
dynamics::SystemForm FormOf(const CompiledDae& dae, const std::vector<double>& parameters,
                            const ReconstructionSpec* reconstruction, bool probe_rigid_body,
                            std::string* system) {
  const InputLayout& layout = dae.layout;
  const bool on_tq = dae.lagrangian_gradient.num_outputs() == 2 * layout.n && layout.k == layout.n;
  dynamics::SystemForm form =
      on_tq ? dynamics::SystemForm::kLagrangianOnTQ : dynamics::SystemForm::kOdeAndDae;
  std::string why;
  if (!on_tq && probe_rigid_body && reconstruction) {
    if (reconstruction->group == "SE2") {
      if (PlanarBodyOnSE2(dae, parameters, *reconstruction, &why))
        form = dynamics::SystemForm::kPlanarBodyOnSE2;
    } else if (RigidBodyOnSO3(dae, parameters, *reconstruction, &why)) {
      form = dynamics::SystemForm::kRigidBodyOnSO3;
    }
  }
  *system = !on_tq ? "this Lagrange-Dirac system on a Lie algebroid" +
                         (why.empty() ? std::string() : " (" + why + ")")
                   : "this Lagrange-Dirac system";
  return form;
}

}  // namespace

std::vector<MethodVerdict> MethodVerdictsOf(const CompiledDae& dae,
                                            const std::vector<double>& parameters,
                                            const ReconstructionSpec& reconstruction) {
  std::string system;
  const dynamics::SystemForm form = FormOf(dae, parameters, &reconstruction, true, &system);
  return dynamics::MethodVerdicts(form, system);
}

IntegrationMethod ChooseMethod(const CompiledDae& dae, const SimulationInput& input,
                               const std::vector<double>& x0,
                               const ReconstructionSpec* reconstruction) {
  // The seam's choice: `auto` is the stiffness test on the saddle ODE's exact Jacobian at t = 0.
  // The rigid-body probe only where the form matters: a method other than the ODE's (and then
  // a refusal's advice lists lie_variational where it applies).
  const IntegrationMethod asked = input.spec.method;
  std::string system;
  const dynamics::SystemForm form =
      FormOf(dae, input.parameters, reconstruction,
             asked != IntegrationMethod::kAuto && asked != IntegrationMethod::kAdams &&
                 asked != IntegrationMethod::kBdf,
             &system);
  return dynamics::ResolveMethod(
      input.spec.method, form, system, input.spec.t_end,
      [&] {
        SaddleSystem saddle(dae, input.parameters);
        const std::size_t size = saddle.state_size();
        std::vector<double> rates(size);
        if (!saddle.Rates(0.0, x0.data(), rates.data())) return Eigen::MatrixXd();
        Eigen::MatrixXd J(size, size);
        saddle.Jacobian(0.0, x0.data(), J.data());
        return J;
      },
      input.spec.step);
}

Trajectory SimulateOde(const CompiledDae& dae, const ReconstructionSpec& reconstruction_spec,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, bool conservative,
                       SimulationReport* report_out) {
  const InputLayout& layout = dae.layout;
  const std::size_t n = layout.n, k = layout.k;
  CheckInputSizes(layout, input);
  const SimulationSpec& spec = input.spec;
  RequireValidSimulationSpec(spec);

  SimulationReport report;
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(input.q0.data(), n);
  Eigen::VectorXd v0 = Eigen::Map<const Eigen::VectorXd>(input.v0.data(), k);
  CheckConstraintRows(dae, input.parameters, columns, q0, v0);
  ConstraintProjector projector(dae, input.parameters);
  const double drift_bound = 10.0 * spec.atol;
  RequireInitialPositions(projector, columns, dae, q0, drift_bound);
  report.initial_projection =
      ProjectOntoDistribution(dae, input.parameters, q0, v0,
                              DependentVelocities(layout, columns, input.solved_initial_values));
  report.solved_initial_values = input.solved_initial_values;
  std::vector<double> x0(n + k);
  std::copy(q0.data(), q0.data() + n, x0.begin());
  std::copy(v0.data(), v0.data() + k, x0.begin() + n);

  const IntegrationMethod method = ChooseMethod(dae, input, x0, &reconstruction_spec);
  SaddleSystem saddle(dae, input.parameters);
  saddle.set_linear_solver(spec.linear_solver);
  {
    std::vector<double> rates(n + k);
    if (!saddle.Rates(0.0, x0.data(), rates.data()))
      throw ModelError(
          "the saddle-point matrix [W -A^T; A 0] is singular at the initial state: the "
          "Lagrangian is degenerate there or the constraint one-forms are dependent");
  }
  if (method == IntegrationMethod::kLieVariational)
    return SimulateLieVariational(dae, reconstruction_spec, columns, input, progress, conservative,
                                  x0, report, report_out);
  if (method == IntegrationMethod::kVariational)
    return SimulateVariational(dae, reconstruction_spec, columns, input, progress, conservative, x0,
                               report, report_out);
  dynamics::SampledOde ode;
  ode.size = n + k;
  ode.names.assign(columns.begin() + 1, columns.begin() + 1 + static_cast<std::ptrdiff_t>(n + k));
  ode.rtol = dynamics::LocalTolerance(spec.rtol, method);
  ode.atol = dynamics::LocalTolerance(spec.atol, method);
  ode.linear_solver = spec.linear_solver;
  ode.rates = [&saddle](double t, const double* x, double* xdot) {
    return saddle.Rates(t, x, xdot);
  };
  ode.jacobian = [&saddle, size = n + k](double t, const double* x, double* jac) {
    std::vector<double> rates(size);
    saddle.Rates(t, x, rates.data());
    saddle.Jacobian(t, x, jac);
  };
  if (layout.m > 0)
    ode.project = [&saddle](double t, const double* x, double* corr, double*) {
      return saddle.Projection(t, x, corr);
    };
  const auto family = method == IntegrationMethod::kBdf ? dynamics::MultistepMethod::kBdf
                                                        : dynamics::MultistepMethod::kAdams;
  dynamics::CvodeDriver driver(ode, family, 0.0, x0, spec.t_end);
  const double* x = driver.y();

  SampleRecorder recorder(dae, reconstruction_spec, columns, input, conservative, report);
  auto body_velocity = [&](double t) {
    driver.Advance(t);
    return recorder.BodyVelocity(t, x);
  };
  // Adams has no projection hook in CVODES (BDF only): the multiplier-eliminated flow keeps
  // A(q) y = 0 exactly, and the integrator's drift is checked at every sample; past ten times
  // the asked absolute tolerance the state is projected and the integrator restarted there
  // (the sample keeps the value reached, so the residual column shows the drift). Holonomic
  // constraints f(q) = 0 are held the same way on both families: their differential keeps f
  // constant only up to the integration error, so a sample where |f| passed the bound moves q
  // back onto f = 0 and y onto A(q) y = 0 (docs/robustness.md, "Holonomic constraints").
  std::vector<double> projected(n + k);
  auto record = [&](double t) {
    const bool velocity_drift =
        recorder.Record(t, x) > drift_bound && family == dynamics::MultistepMethod::kAdams;
    const bool position_drift = recorder.position_residual() > drift_bound;
    if (!velocity_drift && !position_drift) return;
    std::copy(x, x + n + k, projected.begin());
    if (projector.Project(t, projected.data())) {
      driver.Restart(t, projected.data(), family);
      ++report.projections;
    }
  };
  recorder.Record(0.0, x);
  report.method = dynamics::MethodReport(method, family == dynamics::MultistepMethod::kBdf
                                                     ? "ODE, multipliers eliminated, projection"
                                                     : "ODE, multipliers eliminated");
  if (!driver.linear_algebra().empty()) report.method += ", " + driver.linear_algebra();
  dynamics::RunSampled(spec, driver, recorder.reconstruction(), body_velocity, record, progress,
                       recorder.trajectory(), report);
  report.rhs_evaluations = driver.rhs_evaluations();
  if (report_out) *report_out = report;
  return recorder.Take();
}

Trajectory Simulate(const CompiledDae& dae, const ReconstructionSpec& reconstruction,
                    const std::vector<std::string>& columns, const SimulationInput& input,
                    const SimulationProgress& progress, bool conservative,
                    SimulationReport* report) {
  // One seam (dynamics/integrator.hpp): the method is resolved there; `idas` takes the DAE form.
  if (input.spec.method == IntegrationMethod::kIdas)
    return SimulateDae(dae, reconstruction, columns, input, progress, conservative, report);
  return SimulateOde(dae, reconstruction, columns, input, progress, conservative, report);
}

}  // namespace lagrange_dirac

}  // namespace dirac
