#include "dirac/simulation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "dirac/error.hpp"
#include "dynamics/idas_driver.hpp"

namespace dirac {

SimulationInput SimulationInput::FromScenario(const Scenario& scenario) {
  SimulationInput in;
  for (const auto& p : scenario.parameters) in.parameters.push_back(p.value);
  for (const auto& c : scenario.coordinates) {
    in.q0.push_back(c.initial);
    in.v0.push_back(c.initial_velocity);
    in.p0.push_back(c.initial_momentum);
  }
  in.spec = scenario.simulation;
  return in;
}

namespace {

// Evaluation state shared by the residual and Jacobian: one input vector in InputLayout order.
struct DaeContext {
  const CompiledDae* dae = nullptr;
  std::vector<double> input, scratch, jac_values;

  void Load(double t, const double* y, const double* yp) {
    const InputLayout& L = dae->layout;
    input[L.t()] = t;
    std::copy(y, y + 2 * L.n + L.m, input.begin() + L.q());  // q, v, mu are contiguous
    std::copy(yp, yp + 2 * L.n, input.begin() + L.qdot());   // q', v' are contiguous
  }
};

std::size_t Max(std::size_t a, std::size_t b) { return a > b ? a : b; }

}  // namespace

Trajectory Simulate(const LagrangeDiracSystem& system, const SimulationInput& input,
                    const SimulationProgress& progress, SimulationReport* report_out) {
  const CompiledDae& dae = system.dae();
  const InputLayout& layout = dae.layout;
  const std::size_t n = layout.n, m = layout.m, N = layout.dae_size();
  if (input.q0.size() != n || input.v0.size() != n ||
      input.parameters.size() != layout.num_parameters)
    throw ModelError("simulation input sizes do not match the system");
  const SimulationSpec& spec = input.spec;
  if (!(spec.t_end > 0) || !(spec.output_step > 0))
    throw ModelError("t_end and output_step must be positive");

  DaeContext ctx;
  ctx.dae = &dae;
  ctx.input.assign(layout.size(), 0.0);
  std::copy(input.parameters.begin(), input.parameters.end(),
            ctx.input.begin() + layout.parameters());
  ctx.input[layout.stabilization()] = spec.stabilization;
  std::size_t scratch = 0;
  for (const CompiledFunction* f :
       {&dae.residual, &dae.jacobian_y.values, &dae.jacobian_yp.values, &dae.energy,
        &dae.constraints, &dae.constraint_matrix, &dae.mass_matrix})
    scratch = Max(scratch, f->scratch_size());
  ctx.scratch.assign(scratch, 0.0);

  SimulationReport report;

  // Put v0 on Delta(q0) with the least kinetic change: v -= W^-1 w^T (w W^-1 w^T)^-1 w v.
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(input.q0.data(), n);
  Eigen::VectorXd v0 = Eigen::Map<const Eigen::VectorXd>(input.v0.data(), n);
  auto load_state = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    std::copy(q.data(), q.data() + n, ctx.input.begin() + layout.q());
    std::copy(v.data(), v.data() + n, ctx.input.begin() + layout.v());
  };
  if (m > 0) {
    const Eigen::VectorXd original = v0;
    for (int pass = 0; pass < 3; ++pass) {
      load_state(q0, v0);
      Eigen::MatrixXd W(n, n), omega(m, n);
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Wr(n, n), wr(m, n);
      dae.mass_matrix.Evaluate(ctx.input.data(), Wr.data(), ctx.scratch.data());
      dae.constraint_matrix.Evaluate(ctx.input.data(), wr.data(), ctx.scratch.data());
      W = Wr;
      omega = wr;
      const Eigen::VectorXd g = omega * v0;
      if (g.norm() == 0.0) break;
      const Eigen::MatrixXd WinvWt = W.lu().solve(omega.transpose());
      const Eigen::MatrixXd S = omega * WinvWt;
      Eigen::FullPivLU<Eigen::MatrixXd> lu(S);
      if (!lu.isInvertible())
        throw ModelError(
            "the constraint one-forms are linearly dependent at q0 "
            "(omega W^-1 omega^T is singular)");
      v0 -= WinvWt * lu.solve(g);
    }
    report.initial_projection = (v0 - original).norm();
  }

  std::vector<double> y0(N, 0.0), yp0(N, 0.0), differential(N, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    y0[i] = q0[i];
    y0[n + i] = v0[i];
    yp0[i] = v0[i];
  }
  std::fill(differential.begin(), differential.begin() + 2 * n, 1.0);

  dynamics::ImplicitDae problem;
  problem.size = N;
  problem.differential = differential;
  problem.rtol = spec.rtol;
  problem.atol = spec.atol;
  // mu is fixed by the discrete constraint through the BDF derivative v', so its local error
  // estimate is one order worse than that of (q, v); testing it throttles the step size ~50x
  // for no accuracy gain in (q, v). See docs/ARCHITECTURE.md.
  problem.suppress_algebraic_error = true;
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
    auto add = [&](const CompiledSparseMatrix& m, double scale) {
      ctx.jac_values.resize(m.rows.size());
      m.values.Evaluate(ctx.input.data(), ctx.jac_values.data(), ctx.scratch.data());
      for (std::size_t k = 0; k < m.rows.size(); ++k)
        jac[m.cols[k] * N + m.rows[k]] += scale * ctx.jac_values[k];  // column-major
    };
    add(ctx.dae->jacobian_y, 1.0);
    add(ctx.dae->jacobian_yp, cj);
  };
  dynamics::IdasDriver driver(problem, 0.0, y0, yp0, spec.t_end);
  // Algebraic mu(0) and y'(0) from the differential state (q0, v0): IDAS's own Newton solve.
  driver.ComputeConsistentInitialValues(std::min(spec.output_step, spec.t_end));
  const double* y = driver.y();
  const double* yp = driver.yp();

  // The reported multipliers solve the index-1 algebraic system exactly at the sampled (q, v):
  //   [W  -omega^T; omega  0] [v'; mu] = -F(q, v, q' = v, v' = 0, mu = 0, alpha = 0),
  // i.e. the physical constraint force (without the Baumgarte term), to rounding.
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor W(n, n), omega(m, n);
  Eigen::MatrixXd kkt(n + m, n + m);
  Eigen::VectorXd rhs(n + m), r0(N);
  auto exact_multipliers = [&](double t, double* mu_out) {
    if (m == 0) return;
    std::vector<double>& in = ctx.input;
    in[layout.t()] = t;
    std::copy(y, y + 2 * n, in.begin() + layout.q());
    std::fill(in.begin() + layout.mu(), in.begin() + layout.mu() + m, 0.0);
    std::copy(y + n, y + 2 * n, in.begin() + layout.qdot());
    std::fill(in.begin() + layout.vdot(), in.begin() + layout.vdot() + n, 0.0);
    in[layout.stabilization()] = 0.0;
    dae.residual.Evaluate(in.data(), r0.data(), ctx.scratch.data());
    dae.mass_matrix.Evaluate(in.data(), W.data(), ctx.scratch.data());
    dae.constraint_matrix.Evaluate(in.data(), omega.data(), ctx.scratch.data());
    in[layout.stabilization()] = spec.stabilization;
    kkt.setZero();
    kkt.topLeftCorner(n, n) = W;
    kkt.topRightCorner(n, m) = -omega.transpose();
    kkt.bottomLeftCorner(m, n) = omega;
    rhs = -r0.tail(n + m);
    const Eigen::VectorXd solution = kkt.partialPivLu().solve(rhs);
    for (std::size_t r = 0; r < m; ++r) mu_out[r] = solution[n + r];
  };

  Trajectory trajectory(system.TrajectoryColumns());
  std::vector<double> row(trajectory.num_columns());
  std::vector<double> g(m);
  double e0 = 0.0;
  auto record = [&](double t) {
    ctx.Load(t, y, yp);
    row[0] = t;
    std::copy(y, y + 2 * n, row.begin() + 1);
    exact_multipliers(t, row.data() + 1 + 2 * n);
    ctx.Load(t, y, yp);
    double energy = 0.0;
    dae.energy.Evaluate(ctx.input.data(), &energy, ctx.scratch.data());
    dae.constraints.Evaluate(ctx.input.data(), g.data(), ctx.scratch.data());
    if (trajectory.empty()) e0 = energy;
    row[1 + N] = energy;
    for (std::size_t r = 0; r < m; ++r) {
      row[2 + N + r] = g[r];
      report.max_constraint_residual = std::max(report.max_constraint_residual, std::abs(g[r]));
    }
    report.max_energy_drift = std::max(report.max_energy_drift, std::abs(energy - e0));
    trajectory.AppendRow(row.data());
  };
  record(0.0);
  report.initial_energy = e0;

  const auto total = static_cast<long>(std::ceil(spec.t_end / spec.output_step - 1e-9));
  const long batch = std::max<long>(1, total / 50);
  for (long k = 1; k <= total; ++k) {
    const double tout = std::min(spec.t_end, k * spec.output_step);
    record(driver.Advance(tout));
    if (progress && (k % batch == 0 || k == total) && !progress(trajectory)) {
      report.cancelled = true;
      break;
    }
  }
  const dynamics::IdasStatistics stats = driver.statistics();
  report.internal_steps = stats.steps;
  report.error_test_failures = stats.error_test_failures;
  report.nonlinear_failures = stats.nonlinear_failures;
  report.last_order = stats.last_order;
  if (report_out) *report_out = report;
  return trajectory;
}

}  // namespace dirac
