#include "constraints/first_order_system.hpp"

#include <ginac/ginac.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "constraints/generic_rank_chain.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/divergence_monitor.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/reconstruction.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac::constraints {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

// Tapes over [t, q (n), v (n), q' (n), parameters].
struct FirstOrderTapes {
  std::size_t n = 0, num_parameters = 0;
  CompiledFunction rows;      // the Euler–Lagrange rows F(t, q, v, q'), n outputs
  CompiledFunction matrix;    // B = dF/dq', n x n row-major
  CompiledFunction energy;    // E_L = dL/dv . v - L (= H)
  bool conservative = false;  // L free of t: E_L is conserved
  std::size_t inputs() const { return 1 + 3 * n + num_parameters; }
};

class FirstOrderSystem : public Model {
 public:
  FirstOrderSystem(FirstOrderTapes tapes, ConstraintChain chain, std::vector<ColumnInfo> columns,
                   std::vector<InitialValueInfo> initial_values,
                   std::vector<DerivedEquation> equations)
      : t_(std::move(tapes)),
        chain_(std::move(chain)),
        columns_(std::move(columns)),
        initial_values_(std::move(initial_values)),
        equations_(std::move(equations)) {}

  std::string formulation() const override {
    return "Lagrangian affine in the velocities, L = theta(q).v - H(q) (seed D §6.3): q' from "
           "(d theta) q' = -dH, solved numerically at every step";
  }
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  const std::vector<InitialValueInfo>& initial_values() const override { return initial_values_; }
  std::vector<DerivedEquation> Equations(EquationFormat) const override { return equations_; }
  std::vector<std::string> constraint_names() const override { return {}; }
  std::vector<double> ConstraintCovectors(double, const std::vector<double>&,
                                          const std::vector<double>&) const override {
    return {};
  }
  const ConstraintChain* constraint_chain() const override { return &chain_; }
  std::vector<MethodVerdict> integration_methods(const std::vector<double>&) const override {
    return dynamics::MethodVerdicts(dynamics::SystemForm::kExplicitOde, "this first-order system");
  }
  Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress,
                      SimulationReport* report_out) const override;
  std::optional<RightHandSide> MakeRightHandSide(const SimulationInput& input) const override;

 private:
  void RequireSizes(const SimulationInput& input) const;

  FirstOrderTapes t_;
  ConstraintChain chain_;
  std::vector<ColumnInfo> columns_;
  std::vector<InitialValueInfo> initial_values_;
  std::vector<DerivedEquation> equations_;
};

// Evaluates q' at (t, q) with the velocities v held in `in`: B q' = -F(q' = 0).
class RateSolver {
 public:
  RateSolver(const FirstOrderTapes& t, const std::vector<double>& parameters,
             const std::vector<double>& v0)
      : t_(t), n_(t.n), in_(t.inputs(), 0.0), f_(t.n), b_(t.n * t.n) {
    std::copy(v0.begin(), v0.end(), in_.begin() + 1 + n_);
    std::copy(parameters.begin(), parameters.end(), in_.begin() + 1 + 3 * n_);
    scratch_.assign(
        std::max({t.rows.scratch_size(), t.matrix.scratch_size(), t.energy.scratch_size()}), 0.0);
  }

  // Returns false if the rates are not finite. `residual`: max |B q' + F0| after the solve.
  bool Rates(double t, const double* q, double* qdot, double* residual = nullptr) {
    in_[0] = t;
    std::copy(q, q + n_, in_.begin() + 1);
    std::fill(in_.begin() + 1 + 2 * n_, in_.begin() + 1 + 3 * n_, 0.0);
    t_.rows.Evaluate(in_.data(), f_.data(), scratch_.data());
    t_.matrix.Evaluate(in_.data(), b_.data(), scratch_.data());
    const auto n = static_cast<Eigen::Index>(n_);
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        B(b_.data(), n, n);
    const Eigen::Map<const Eigen::VectorXd> F(f_.data(), n);
    Eigen::Map<Eigen::VectorXd> x(qdot, n);
    x = B.partialPivLu().solve(-F);
    if (residual) *residual = (B * x + F).cwiseAbs().maxCoeff();
    return x.allFinite();
  }

  double Energy(double t, const double* q) {
    in_[0] = t;
    std::copy(q, q + n_, in_.begin() + 1);
    double e = 0.0;
    t_.energy.Evaluate(in_.data(), &e, scratch_.data());
    return e;
  }

 private:
  const FirstOrderTapes& t_;
  std::size_t n_;
  std::vector<double> in_, f_, b_, scratch_;
};

void FirstOrderSystem::RequireSizes(const SimulationInput& input) const {
  const std::size_t n = t_.n;
  if (input.q0.size() != n || input.v0.size() != n || input.parameters.size() != t_.num_parameters)
    throw ModelError("FirstOrderSystem: expected " + std::to_string(n) + " coordinates and " +
                     std::to_string(t_.num_parameters) + " parameters");
}

std::optional<RightHandSide> FirstOrderSystem::MakeRightHandSide(
    const SimulationInput& input) const {
  RequireSizes(input);
  auto solver = std::make_shared<RateSolver>(t_, input.parameters, input.v0);
  RightHandSide rhs;
  for (std::size_t i = 0; i < t_.n; ++i) rhs.names.push_back(columns_[1 + i].name);
  rhs.state = input.q0;
  rhs.rates = [solver](double t, const double* x, double* xdot) {
    return solver->Rates(t, x, xdot);
  };
  return rhs;
}

Trajectory FirstOrderSystem::Simulate(const SimulationInput& input,
                                      const SimulationProgress& progress,
                                      SimulationReport* report_out) const {
  const SimulationSpec& spec = input.spec;
  RequireValidSimulationSpec(spec);
  const std::size_t n = t_.n;
  RequireSizes(input);
  RateSolver solver(t_, input.parameters, input.v0);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(columns_[1 + i].name);
  const dynamics::SampledExplicitOde setup = dynamics::MakeExplicitOde(
      spec, "this first-order system", std::move(names),
      [&solver](double t, const double* y, double* ydot) { return solver.Rates(t, y, ydot); },
      input.q0);
  dynamics::CvodeDriver driver(setup.ode, setup.method, 0.0, input.q0, spec.t_end);
  Trajectory trajectory(TrajectoryColumns());
  trajectory.StreamTo(input.row_sink);
  std::vector<double> row(trajectory.num_columns(), 0.0), qdot(n);
  SimulationReport report;
  report.method =
      dynamics::MethodReport(setup.bdf() ? IntegrationMethod::kBdf : IntegrationMethod::kAdams,
                             "q' from d theta q' = -dH");
  report.tape = "interpreter";
  double e0 = 0.0;
  dynamics::DivergenceMonitor monitor(spec, t_.conservative);
  auto record = [&](double t) {
    const double* q = driver.y();
    double residual = 0.0;
    solver.Rates(t, q, qdot.data(), &residual);
    row[0] = t;
    std::copy(q, q + n, row.begin() + 1);
    std::copy(input.v0.begin(), input.v0.end(), row.begin() + 1 + static_cast<long>(n));
    std::copy(qdot.begin(), qdot.end(), row.begin() + 1 + 2 * static_cast<long>(n));
    std::fill(row.begin() + 1 + 3 * static_cast<long>(n),
              row.begin() + 1 + 4 * static_cast<long>(n), 0.0);
    const double energy = solver.Energy(t, q);
    row[1 + 4 * n] = energy;
    row[2 + 4 * n] = residual;
    if (trajectory.empty()) {
      e0 = energy;
      monitor.SetScales(q, n, energy);
    }
    report.max_energy_drift = std::max(report.max_energy_drift, std::abs(energy - e0));
    monitor.Observe(t, 0.0, std::abs(energy - e0), report);  // no constraint rows here
    trajectory.AppendRow(row.data());
  };
  dynamics::RunSampledOde(spec, driver, record, progress, trajectory, report);
  report.initial_energy = e0;
  if (report_out) *report_out = report;
  return trajectory;
}

}  // namespace

std::shared_ptr<const Model> DeriveFirstOrderSystemIfApplicable(const Scenario& scenario) {
  if (scenario.algebroid.present || !scenario.constraints.empty() ||
      !scenario.reconstruction.group.empty())
    return nullptr;
  auto found = GenericRankChain(scenario);
  if (!found || found->second != ChainStructure::kAffineInVelocities) return nullptr;
  EnterDerivationStage("deriving the first-order system B(q) q' = -dH");

  const scenario::ScenarioSymbols symbols(scenario, {scenario::Velocities::kTangent});
  const symbol& t = symbols.t();
  const auto& q = symbols.q();
  const auto& v = symbols.velocities();
  const auto& p = symbols.parameters();
  const std::size_t n = q.size();
  std::vector<symbol> qd;
  for (const auto& name : symbols.coordinate_names()) qd.emplace_back(name + "'");
  std::vector<symbol> inputs{t};
  for (const std::vector<symbol>* block : {&q, &v, const_cast<const std::vector<symbol>*>(&qd)})
    inputs.insert(inputs.end(), block->begin(), block->end());
  inputs.insert(inputs.end(), p.begin(), p.end());

  const ex L = symbols.Parse(scenario.lagrangian, scenario.lagrangian_where.line, "lagrangian");
  const auto dependence = std::make_shared<symbolic::SymbolDependence>();
  std::vector<symbolic::Differentiator> d_dq = symbolic::MakeDifferentiators(q, dependence);
  std::vector<symbolic::Differentiator> d_dv = symbolic::MakeDifferentiators(v, dependence);
  std::vector<symbolic::Differentiator> d_dqd = symbolic::MakeDifferentiators(qd, dependence);
  symbolic::Differentiator d_dt(t, dependence);
  std::vector<ex> dLdv(n), rows(n), matrix;
  ex energy = -L;
  for (std::size_t a = 0; a < n; ++a) {
    dLdv[a] = d_dv[a](L);
    energy += dLdv[a] * v[a];
  }
  // Euler–Lagrange (seed D eq (29) with W = 0): d/dt dL/dv_a - dL/dq_a along q', with the
  // second-order term -d_a(dL/dv_j)(q'_j - v_j) that makes the rows free of v.
  for (std::size_t a = 0; a < n; ++a) {
    ex row = d_dt(dLdv[a]) - d_dq[a](L);
    for (std::size_t j = 0; j < n; ++j)
      row += d_dq[j](dLdv[a]) * qd[j] - d_dq[a](dLdv[j]) * (qd[j] - v[j]);
    rows[a] = row;
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t j = 0; j < n; ++j) matrix.push_back(d_dqd[j](rows[a]));

  FirstOrderTapes tapes;
  tapes.n = n;
  tapes.num_parameters = p.size();
  tapes.rows = symbolic::CompileExpressions(rows, inputs);
  tapes.matrix = symbolic::CompileExpressions(matrix, inputs);
  tapes.energy = symbolic::CompileExpressions({energy}, inputs);
  tapes.conservative = !L.has(t);

  std::vector<ColumnInfo> columns{{"t", ColumnKind::kTime}};
  std::vector<InitialValueInfo> initial_values;
  for (const auto& name : symbols.coordinate_names()) {
    columns.push_back({name, ColumnKind::kCoordinate});
    initial_values.push_back({name, ColumnKind::kCoordinate, true, ""});
  }
  for (const auto& name : symbols.velocity_names()) {
    columns.push_back({name, ColumnKind::kVelocity});
    initial_values.push_back({name, ColumnKind::kVelocity, true,
                              name + " is a gauge direction: carried along unchanged"});
  }
  for (const auto& name : symbols.coordinate_names())
    columns.push_back({name + "_dot", ColumnKind::kRate});
  for (const auto& name : symbols.velocity_names())
    columns.push_back({name + "_dot", ColumnKind::kRate});
  columns.push_back({"E", ColumnKind::kEnergy});
  columns.push_back({"residual_dynamics", ColumnKind::kDynamicsResidual});

  std::vector<DerivedEquation> equations;
  equations.push_back({"L", symbolic::CanonicalString(L)});
  equations.push_back({"E_L", symbolic::CanonicalString(energy)});
  for (std::size_t a = 0; a < n; ++a)
    equations.push_back(
        {"EL[" + symbols.coordinate_names()[a] + "]", symbolic::CanonicalString(rows[a])});
  equations.push_back({"solved",
                       "omitted at this size: q' solves the EL rows (linear in q') "
                       "numerically at every step"});
  return std::make_shared<FirstOrderSystem>(std::move(tapes), std::move(found->first),
                                            std::move(columns), std::move(initial_values),
                                            std::move(equations));
}

}  // namespace dirac::constraints
