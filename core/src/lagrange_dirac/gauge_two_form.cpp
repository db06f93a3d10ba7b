#include "dirac/gauge_two_form.hpp"

#include <ginac/ginac.h>

#include <Eigen/Dense>
#include <chrono>
#include <cmath>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dynamics/idas_driver.hpp"
#include "lagrange_dirac/gauge_derivation.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

using GiNaC::ex;
using GiNaC::symbol;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace {

// Most nodes the equations of the symbolic solve for (a, mu) may have in all (the shipped
// scenarios pass; Lagrangians with functions nested 30 deep in a velocity do not, and their
// solve took minutes).
constexpr std::size_t kMaxSolveNodes = 5000;

// Compute asks its caller whether to go on at least this often, also from inside one output
// step (a blowing-up flow takes thousands of internal steps per sample): a cancel is seen
// within this time plus one residual evaluation.
constexpr auto kProgressInterval = std::chrono::milliseconds(5);

// Thrown from the residual when the caller's progress returned false; caught in Compute
// (CallbackGuard carries it through IDAS), which returns the rows so far.
struct StoppedByCaller {};

// Everything compiled with inputs [t, z = (q, v), parameters].
struct GaugeFunctions {
  std::size_t n = 0, m = 0, P = 0;
  CompiledFunction rate;                 // f(z) = (v, a(q, v)), 2n
  CompiledFunction rate_jacobian;        // Df, 2n x 2n row-major
  CompiledFunction omega_l;              // Omega_L, 2n x 2n row-major
  CompiledFunction d_beta;               // d(beta), 2n x 2n row-major
  CompiledFunction constraint_jacobian;  // d(omega v)/dz, m x 2n row-major
};

GaugeFunctions Derive(const Scenario& s) {
  if (s.algebroid.present)
    throw ModelError("the gauge two-form is implemented for Lagrangians on TQ");
  GaugeFunctions g;
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kTangent});
  const symbol t = symbols.t();
  const std::vector<symbol>& q = symbols.q();
  const std::vector<symbol>& v = symbols.velocities();
  const std::vector<symbol>& p = symbols.parameters();
  const std::size_t n = q.size(), m = s.constraints.size();
  g.n = n;
  g.m = m;
  g.P = p.size();
  const ex L = symbols.Parse(s.lagrangian, s.lagrangian_where.line, "lagrangian");
  GiNaC::matrix W(n, n), omega(m, n);
  for (std::size_t i = 0; i < n; ++i) {
    CheckDerivationCancelled();
    for (std::size_t j = 0; j < n; ++j) W(i, j) = L.diff(v[i]).diff(v[j]);
  }
  if (!symbolic::ComputeGenericRank(W, scenario::NominalValuesOf(s)).full())
    throw ModelError("the gauge two-form needs a regular Lagrangian (det D2D2L != 0)");
  std::vector<ex> g_forms;
  for (std::size_t r = 0; r < m; ++r) {
    const auto& spec = s.constraints[r];
    const ex form = symbols.Parse(spec.form, spec.where.line, spec.name + ".form");
    for (std::size_t i = 0; i < n; ++i) omega(r, i) = form.diff(v[i]);
    g_forms.push_back(form);
  }
  // Solve W a - mu omega^T = dL/dq - (d2L/dq dv)^T v and omega a = -d(omega v)/dq v for (a, mu).
  std::vector<symbol> a, mu;
  GiNaC::lst equations, unknowns;
  for (std::size_t i = 0; i < n; ++i) a.emplace_back("a" + std::to_string(i));
  for (std::size_t r = 0; r < m; ++r) mu.emplace_back("mu" + std::to_string(r));
  for (std::size_t i = 0; i < n; ++i) {
    CheckDerivationCancelled();
    ex row = -L.diff(q[i]) + L.diff(v[i]).diff(t);
    for (std::size_t j = 0; j < n; ++j) row += W(i, j) * a[j] + L.diff(v[i]).diff(q[j]) * v[j];
    for (std::size_t r = 0; r < m; ++r) row -= mu[r] * omega(r, i);
    equations.append(row == 0);
    unknowns.append(a[i]);
  }
  for (std::size_t r = 0; r < m; ++r) {
    ex row = g_forms[r].diff(t);
    for (std::size_t i = 0; i < n; ++i) row += g_forms[r].diff(q[i]) * v[i] + omega(r, i) * a[i];
    equations.append(row == 0);
    unknowns.append(mu[r]);
  }
  // lsolve normalises rational functions (gcds) and cannot be interrupted: the capability is
  // not offered when its equations are large (the model itself does not need it).
  std::size_t nodes = 0;
  for (const ex& equation : equations) nodes += symbolic::NodeCount(equation, kMaxSolveNodes + 1);
  if (nodes > kMaxSolveNodes)
    throw ModelError("the equations of the gauge two-form are too large to solve symbolically (" +
                     std::to_string(nodes) + " nodes)");
  CheckDerivationCancelled();
  const ex solution = GiNaC::lsolve(equations, unknowns);
  if (solution.nops() != n + m)
    throw ModelError("cannot solve for the accelerations and multipliers symbolically");
  GiNaC::exmap solved;
  for (std::size_t k = 0; k < solution.nops(); ++k) {
    CheckDerivationCancelled();
    solved[solution.op(k).lhs()] = GiNaC::normal(solution.op(k).rhs());
  }
  std::vector<symbol> z(q);
  z.insert(z.end(), v.begin(), v.end());
  std::vector<symbol> inputs{t};
  inputs.insert(inputs.end(), z.begin(), z.end());
  inputs.insert(inputs.end(), p.begin(), p.end());
  std::vector<ex> f, df, om, db, cj;
  for (std::size_t i = 0; i < n; ++i) f.push_back(v[i]);
  for (std::size_t i = 0; i < n; ++i) f.push_back(a[i].subs(solved));
  for (const ex& fi : f) {
    CheckDerivationCancelled();
    for (const symbol& zj : z) df.push_back(fi.diff(zj));
  }
  // Omega_L = -d Theta_L = [[M^T - M, W], [-W, 0]], M_ij = d2L/dq^i dv^j.
  GiNaC::matrix Om(2 * n, 2 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      Om(j, i) = L.diff(v[j]).diff(q[i]) - L.diff(v[i]).diff(q[j]);
      Om(i, n + j) = W(i, j);
      Om(n + i, j) = -W(i, j);
    }
  // beta = beta_i dq^i with beta_i = -mu_r omega^r_i (the constraint force of the
  // Lagrange–d'Alembert operator dL/dq - d/dt dL/dv); d beta = d beta_i / dz^j dz^j ^ dq^i.
  GiNaC::matrix D(2 * n, 2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    CheckDerivationCancelled();
    ex beta_i = 0;
    for (std::size_t r = 0; r < m; ++r) beta_i -= mu[r].subs(solved) * omega(r, i);
    for (std::size_t j = 0; j < 2 * n; ++j) {
      const ex d = beta_i.diff(z[j]);
      D(j, i) += d;
      D(i, j) -= d;
    }
  }
  for (std::size_t i = 0; i < 2 * n; ++i) {
    CheckDerivationCancelled();
    for (std::size_t j = 0; j < 2 * n; ++j) {
      om.push_back(Om(i, j));
      db.push_back(GiNaC::normal(D(i, j)));
    }
  }
  for (std::size_t r = 0; r < m; ++r)
    for (const symbol& zj : z) cj.push_back(g_forms[r].diff(zj));
  EnterDerivationStage("compiling the gauge two-form");
  g.rate = symbolic::CompileExpressions(f, inputs);
  g.rate_jacobian = symbolic::CompileExpressions(df, inputs);
  g.omega_l = symbolic::CompileExpressions(om, inputs);
  g.d_beta = symbolic::CompileExpressions(db, inputs);
  g.constraint_jacobian = symbolic::CompileExpressions(cj, inputs);
  return g;
}

// Columns of the result: t, q, v, B_ij on K (i < j, dim K = 2n - 2m), the norms and checks.
std::vector<std::string> GaugeColumns(const Scenario& s, std::size_t dk) {
  std::vector<std::string> columns{"t"};
  for (const auto& c : s.coordinates) columns.push_back(c.name);
  for (const auto& c : s.coordinates) columns.push_back(c.velocity);
  for (std::size_t i = 0; i < dk; ++i)
    for (std::size_t j = i + 1; j < dk; ++j)
      columns.push_back("B_" + std::to_string(i + 1) + "_" + std::to_string(j + 1));
  for (const char* c : {"B_norm", "B_full_norm", "omega_change", "identity_residual"})
    columns.push_back(c);
  return columns;
}

// The capability: tapes derived once, integrated per call (no GiNaC here).
class CompiledGaugeTwoForm final : public GaugeTwoForm {
 public:
  CompiledGaugeTwoForm(GaugeFunctions functions, std::vector<std::string> columns)
      : g_(std::move(functions)), columns_(std::move(columns)) {}
  std::vector<std::string> columns() const override { return columns_; }
  Trajectory Compute(const SimulationInput& input,
                     const SimulationProgress& progress) const override {
    return Run(input, progress, nullptr);
  }
  // Compute, and (with `last`) the matrices at the last row.
  Trajectory Run(const SimulationInput& input, const SimulationProgress& progress,
                 lagrange_dirac::GaugeTwoFormMatrices* last) const;

 private:
  GaugeFunctions g_;
  std::vector<std::string> columns_;
};

Trajectory CompiledGaugeTwoForm::Run(const SimulationInput& input,
                                     const SimulationProgress& progress,
                                     lagrange_dirac::GaugeTwoFormMatrices* last) const {
  const GaugeFunctions& g = g_;
  const std::size_t n = g.n, m = g.m, N = 2 * n;
  const SimulationSpec& spec = input.spec;
  RequireValidSimulationSpec(spec);
  if (input.q0.size() != n || input.v0.size() != n || input.parameters.size() != g.P)
    throw ModelError("simulation input sizes do not match the scenario");
  std::vector<double> in(1 + N + g.P, 0.0), scratch(4096);
  std::copy(input.parameters.begin(), input.parameters.end(), in.begin() + 1 + N);
  auto load = [&](double t, const double* z) {
    in[0] = t;
    std::copy(z, z + N, in.begin() + 1);
  };
  auto evaluate = [&](const CompiledFunction& f, double* out) {
    if (scratch.size() < f.scratch_size()) scratch.resize(f.scratch_size());
    f.Evaluate(in.data(), out, scratch.data());
  };
  // Initial point on Delta_Q (least-norm correction of v0) and an orthonormal basis T of T Delta_Q.
  Eigen::VectorXd z0(N);
  for (std::size_t i = 0; i < n; ++i) {
    z0[i] = input.q0[i];
    z0[n + i] = input.v0[i];
  }
  RowMajor G(m, N);
  for (int pass = 0; pass < 3 && m > 0; ++pass) {
    load(0.0, z0.data());
    evaluate(g.constraint_jacobian, G.data());
    const Eigen::MatrixXd omega = G.rightCols(n);  // d(omega v)/dv = omega
    const Eigen::VectorXd residual = omega * z0.tail(n);
    z0.tail(n) -= omega.transpose() * (omega * omega.transpose()).ldlt().solve(residual);
  }
  load(0.0, z0.data());
  Eigen::MatrixXd T = Eigen::MatrixXd::Identity(N, N);
  if (m > 0) {
    evaluate(g.constraint_jacobian, G.data());
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(Eigen::MatrixXd(G), Eigen::ComputeFullV);
    T = svd.matrixV().rightCols(N - m);
  }
  const std::size_t d = T.cols();
  // The admissible subbundle K = {w in T Delta_Q : omega(q) dq = 0} of Thm 3.14, as
  // coordinates C in the basis T (T is orthonormal and K lies in its span).
  Eigen::MatrixXd K = T;
  if (m > 0) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * m, N);
    A.topRows(m) = G;
    A.bottomLeftCorner(m, n) = G.rightCols(n);  // omega(q) acting on dq
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
    const int rank = static_cast<int>(
        (svd.singularValues().array() > 1e-10 * std::max(1.0, svd.singularValues()(0))).count());
    K = svd.matrixV().rightCols(N - rank);
  }
  const Eigen::MatrixXd C = T.transpose() * K;
  const std::size_t dk = K.cols();
  RowMajor omega0(N, N);
  evaluate(g.omega_l, omega0.data());
  const Eigen::MatrixXd omega_restricted0 = T.transpose() * omega0 * T;

  // State: z (N), Phi (N x N, column-major), B (d x d, column-major).
  const std::size_t size = N + N * N + d * d;
  std::vector<double> y0(size, 0.0), yp0(size, 0.0);
  std::copy(z0.data(), z0.data() + N, y0.begin());
  for (std::size_t i = 0; i < N; ++i) y0[N + i * N + i] = 1.0;
  RowMajor Df(N, N), D(N, N);
  Eigen::VectorXd f(N);
  auto rates = [&](double t, const double* y, double* out) {
    load(t, y);
    evaluate(g.rate, f.data());
    evaluate(g.rate_jacobian, Df.data());
    evaluate(g.d_beta, D.data());
    const Eigen::Map<const Eigen::MatrixXd> Phi(y + N, N, N);
    Eigen::Map<Eigen::VectorXd>(out, N) = f;
    Eigen::Map<Eigen::MatrixXd>(out + N, N, N) = Df * Phi;
    const Eigen::MatrixXd PT = Phi * T;
    Eigen::Map<Eigen::MatrixXd>(out + N + N * N, d, d) = PT.transpose() * D * PT;
  };
  rates(0.0, y0.data(), yp0.data());
  dynamics::ImplicitDae problem;
  problem.size = size;
  problem.differential.assign(size, 1.0);
  problem.rtol = spec.rtol;
  problem.atol = spec.atol;
  std::vector<double> rate_buffer(size);
  // The caller's progress, asked at least every kProgressInterval (see StoppedByCaller): from
  // the residual too, since one output step may take thousands of IDAS steps.
  Trajectory trajectory(columns_);
  using Clock = std::chrono::steady_clock;
  auto last_asked = Clock::now();
  auto ask = [&] {
    last_asked = Clock::now();
    if (!progress(trajectory)) throw StoppedByCaller{};
  };
  problem.residual = [&](double t, const double* y, const double* yp, double* r) {
    if (progress && Clock::now() - last_asked >= kProgressInterval) ask();
    rates(t, y, rate_buffer.data());
    for (std::size_t i = 0; i < size; ++i) {
      r[i] = yp[i] - rate_buffer[i];
      if (!std::isfinite(r[i])) return false;
    }
    return true;
  };
  dynamics::IdasDriver driver(problem, 0.0, y0, yp0, spec.t_end);

  if (dk != N - 2 * m)
    throw ModelError("the gauge two-form needs independent constraint forms at q0: dim K = " +
                     std::to_string(dk) + ", expected " + std::to_string(N - 2 * m));
  std::vector<double> row(columns_.size());
  RowMajor omega_now(N, N);
  auto record = [&](double t) {
    const double* y = driver.y();
    load(t, y);
    evaluate(g.omega_l, omega_now.data());
    const Eigen::Map<const Eigen::MatrixXd> Phi(y + N, N, N);
    const Eigen::Map<const Eigen::MatrixXd> B(y + N + N * N, d, d);
    const Eigen::MatrixXd PT = Phi * T;
    const Eigen::MatrixXd pulled_back = PT.transpose() * omega_now * PT;
    std::size_t c = 0;
    row[c++] = t;
    for (std::size_t i = 0; i < N; ++i) row[c++] = y[i];
    const Eigen::MatrixXd BK = C.transpose() * B * C;
    for (std::size_t i = 0; i < dk; ++i)
      for (std::size_t j = i + 1; j < dk; ++j) row[c++] = BK(i, j);
    row[c++] = dk ? BK.cwiseAbs().maxCoeff() : 0.0;
    row[c++] = B.cwiseAbs().maxCoeff();
    row[c++] = (pulled_back - omega_restricted0).cwiseAbs().maxCoeff();
    row[c++] = (pulled_back - omega_restricted0 - B).cwiseAbs().maxCoeff();
    trajectory.AppendRow(row.data());
    if (last) {
      last->t = t;
      last->B = B;
      last->omega_change = pulled_back - omega_restricted0;
    }
  };
  if (last) {
    last->z0 = z0;
    last->tangent_basis = T;
    last->admissible = C;
  }
  const auto total = static_cast<long>(std::ceil(spec.t_end / spec.output_step - 1e-9));
  RequireTrajectoryFits(static_cast<double>(total) + 1, columns_.size(), "gauge two-form");
  record(0.0);
  const long batch = std::max<long>(1, total / 50);
  try {
    for (long step = 1; step <= total; ++step) {
      record(driver.Advance(std::min(spec.t_end, static_cast<double>(step) * spec.output_step)));
      if (progress &&
          (step % batch == 0 || step == total || Clock::now() - last_asked >= kProgressInterval))
        ask();
    }
  } catch (const StoppedByCaller&) {
    // The caller cancelled: the rows so far.
  }
  return trajectory;
}

}  // namespace

namespace lagrange_dirac {

std::shared_ptr<const GaugeTwoForm> DeriveGaugeTwoForm(const Scenario& scenario) {
  EnterDerivationStage("deriving the gauge two-form");
  GaugeFunctions functions = Derive(scenario);
  const std::size_t dk = 2 * functions.n - 2 * functions.m;
  return std::make_shared<const CompiledGaugeTwoForm>(std::move(functions),
                                                      GaugeColumns(scenario, dk));
}

GaugeTwoFormMatrices ComputeGaugeTwoFormMatrices(const Scenario& scenario,
                                                 const SimulationInput& input) {
  GaugeFunctions functions = Derive(scenario);
  const std::size_t dk = 2 * functions.n - 2 * functions.m;
  const CompiledGaugeTwoForm gauge(std::move(functions), GaugeColumns(scenario, dk));
  GaugeTwoFormMatrices matrices;
  gauge.Run(input, {}, &matrices);
  return matrices;
}

}  // namespace lagrange_dirac

Trajectory ComputeGaugeTwoForm(const Scenario& scenario, const SimulationInput& input,
                               const SimulationProgress& progress) {
  return lagrange_dirac::DeriveGaugeTwoForm(scenario)->Compute(input, progress);
}

}  // namespace dirac
