#include "lagrange_dirac/lagrange_dirac_simulation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "dirac/error.hpp"
#include "dynamics/idas_driver.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/reconstruction.hpp"

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

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

namespace lagrange_dirac {

Trajectory SimulateDae(const CompiledDae& dae, const ReconstructionSpec& reconstruction_spec,
                       const std::vector<std::string>& columns, const SimulationInput& input,
                       const SimulationProgress& progress, SimulationReport* report_out) {
  const InputLayout& layout = dae.layout;
  const std::size_t n = layout.n, k = layout.k, m = layout.m, N = layout.dae_size();
  if (input.q0.size() != n || input.v0.size() != k ||
      input.parameters.size() != layout.num_parameters)
    throw ModelError("simulation input sizes do not match the system (" + std::to_string(n) +
                     " coordinates, " + std::to_string(k) + " velocities, " +
                     std::to_string(layout.num_parameters) + " parameters)");
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
       {&dae.residual, &dae.jacobian_y.values, &dae.jacobian_yp.values, &dae.energy,
        &dae.constraints, &dae.constraint_matrix, &dae.mass_matrix, &dae.anchor, &dae.body_velocity,
        &dae.fibre_momentum})
    scratch = Max(scratch, f->scratch_size());
  ctx.scratch.assign(scratch, 0.0);

  SimulationReport report;

  // Put y0 on the constraint with the least kinetic change: y -= W^-1 A^T (A W^-1 A^T)^-1 A y.
  Eigen::VectorXd q0 = Eigen::Map<const Eigen::VectorXd>(input.q0.data(), n);
  Eigen::VectorXd v0 = Eigen::Map<const Eigen::VectorXd>(input.v0.data(), k);
  auto load_state = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    std::copy(q.data(), q.data() + n, ctx.input.begin() + layout.q());
    std::copy(v.data(), v.data() + k, ctx.input.begin() + layout.v());
  };
  if (m > 0) {
    const Eigen::VectorXd original = v0;
    for (int pass = 0; pass < 3; ++pass) {
      load_state(q0, v0);
      RowMajor Wr(k, k), wr(m, k);
      dae.mass_matrix.Evaluate(ctx.input.data(), Wr.data(), ctx.scratch.data());
      dae.constraint_matrix.Evaluate(ctx.input.data(), wr.data(), ctx.scratch.data());
      const Eigen::MatrixXd W = Wr, omega = wr;
      const Eigen::VectorXd g = omega * v0;
      if (g.norm() == 0.0) break;
      const Eigen::MatrixXd WinvWt = W.lu().solve(omega.transpose());
      Eigen::FullPivLU<Eigen::MatrixXd> lu(omega * WinvWt);
      if (!lu.isInvertible())
        throw ModelError(
            "the constraint one-forms are linearly dependent at q0 "
            "(omega W^-1 omega^T is singular)");
      v0 -= WinvWt * lu.solve(g);
    }
    report.initial_projection = (v0 - original).norm();
  }

  std::vector<double> y0(N, 0.0), yp0(N, 0.0), differential(N, 0.0);
  std::copy(q0.data(), q0.data() + n, y0.begin());
  std::copy(v0.data(), v0.data() + k, y0.begin() + n);
  std::fill(differential.begin(), differential.begin() + n + k, 1.0);

  dynamics::ImplicitDae problem;
  problem.size = N;
  problem.differential = differential;
  problem.rtol = spec.rtol;
  problem.atol = spec.atol;
  // mu is fixed by the discrete constraint through the BDF derivative y', so its local error
  // estimate is one order worse than that of (q, y); testing it throttles the step size ~50x
  // for no accuracy gain in (q, y). See docs/ARCHITECTURE.md.
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
      mat.values.Evaluate(ctx.input.data(), ctx.jac_values.data(), ctx.scratch.data());
      for (std::size_t e = 0; e < mat.rows.size(); ++e)
        jac[mat.cols[e] * N + mat.rows[e]] += scale * ctx.jac_values[e];  // column-major
    };
    add(ctx.dae->jacobian_y, 1.0);
    add(ctx.dae->jacobian_yp, cj);
  };
  dynamics::IdasDriver driver(problem, 0.0, y0, yp0, spec.t_end);
  // Algebraic mu(0) and y'(0) from the differential state (q0, y0): IDAS's own Newton solve.
  driver.ComputeConsistentInitialValues(std::min(spec.output_step, spec.t_end));
  const double* y = driver.y();
  const double* yp = driver.yp();

  // The reported multipliers solve the index-1 algebraic system exactly at the sampled (q, y):
  //   [W  -A^T; A  0] [y'; mu] = -F(q, y, q' = rho y, y' = 0, mu = 0, alpha = 0),
  // i.e. the physical constraint force (without the Baumgarte term), to rounding.
  RowMajor W(k, k), omega(m, k), rho(n, k);
  Eigen::MatrixXd kkt(k + m, k + m);
  Eigen::VectorXd rhs(k + m), r0(N);
  auto exact_multipliers = [&](double t, double* mu_out) {
    if (m == 0) return;
    std::vector<double>& in = ctx.input;
    in[layout.t()] = t;
    std::copy(y, y + n + k, in.begin() + layout.q());
    std::fill(in.begin() + layout.mu(), in.begin() + layout.mu() + m, 0.0);
    dae.anchor.Evaluate(in.data(), rho.data(), ctx.scratch.data());
    const Eigen::VectorXd qdot = rho * Eigen::Map<const Eigen::VectorXd>(y + n, k);
    std::copy(qdot.data(), qdot.data() + n, in.begin() + layout.qdot());
    std::fill(in.begin() + layout.vdot(), in.begin() + layout.vdot() + k, 0.0);
    in[layout.stabilization()] = 0.0;
    dae.residual.Evaluate(in.data(), r0.data(), ctx.scratch.data());
    dae.mass_matrix.Evaluate(in.data(), W.data(), ctx.scratch.data());
    dae.constraint_matrix.Evaluate(in.data(), omega.data(), ctx.scratch.data());
    in[layout.stabilization()] = spec.stabilization;
    kkt.setZero();
    kkt.topLeftCorner(k, k) = W;
    kkt.topRightCorner(k, m) = -omega.transpose();
    kkt.bottomLeftCorner(m, k) = omega;
    rhs = -r0.tail(k + m);
    const Eigen::VectorXd solution = kkt.partialPivLu().solve(rhs);
    for (std::size_t r = 0; r < m; ++r) mu_out[r] = solution[k + r];
  };

  // Reconstruction on the group with the fourth-order Magnus method, fed by the DAE's dense
  // output at the Gauss points of each substep.
  geometry::GroupReconstruction reconstruction(reconstruction_spec);
  auto body_velocity = [&](double t) {
    driver.Advance(t);
    ctx.Load(t, y, yp);
    Eigen::Vector3d xi;
    dae.body_velocity.Evaluate(ctx.input.data(), xi.data(), ctx.scratch.data());
    return xi;
  };

  Trajectory trajectory(columns);
  trajectory.StreamTo(input.row_sink);
  std::vector<double> row(trajectory.num_columns());
  std::vector<double> constraint_values(m), momentum(k);
  double e0 = 0.0;
  auto record = [&](double t) {
    ctx.Load(t, y, yp);
    row[0] = t;
    std::copy(y, y + n + k, row.begin() + 1);
    exact_multipliers(t, row.data() + 1 + n + k);
    ctx.Load(t, y, yp);
    double energy = 0.0;
    dae.energy.Evaluate(ctx.input.data(), &energy, ctx.scratch.data());
    dae.constraints.Evaluate(ctx.input.data(), constraint_values.data(), ctx.scratch.data());
    if (trajectory.empty()) e0 = energy;
    std::size_t c = 1 + N;
    row[c++] = energy;
    for (std::size_t r = 0; r < m; ++r) {
      row[c++] = constraint_values[r];
      report.max_constraint_residual =
          std::max(report.max_constraint_residual, std::abs(constraint_values[r]));
    }
    report.max_energy_drift = std::max(report.max_energy_drift, std::abs(energy - e0));
    if (reconstruction.active()) {
      dae.fibre_momentum.Evaluate(ctx.input.data(), momentum.data(), ctx.scratch.data());
      reconstruction.Write(row.data() + c, k == 3 ? momentum.data() : nullptr);
    }
    trajectory.AppendRow(row.data());
  };
  record(0.0);
  report.initial_energy = e0;

  dynamics::RunSampled(spec, driver, reconstruction, body_velocity, record, progress, trajectory,
                       report);
  if (report_out) *report_out = report;
  return trajectory;
}

}  // namespace lagrange_dirac

}  // namespace dirac
