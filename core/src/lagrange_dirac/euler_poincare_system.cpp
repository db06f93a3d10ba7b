// The Euler–Poincaré equations on a family-named Lie algebra (euler_poincare_system.hpp).
#include "lagrange_dirac/euler_poincare_system.hpp"

#include <ginac/ginac.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "base/foreign_errors.hpp"
#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dynamics/cvode_driver.hpp"
#include "dynamics/divergence_monitor.hpp"
#include "dynamics/sampled_run.hpp"
#include "lagrange_dirac/isospectral_step.hpp"
#include "model/native_tape_set.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac::lagrange_dirac {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

// Largest algebra whose Euler–Poincaré rows `equations` prints in full.
constexpr std::size_t kMaxPrintedRows = 20;

void CollectSymbols(const ex& e, std::set<ex, GiNaC::ex_is_less>& out) {
  if (GiNaC::is_a<symbol>(e)) {
    out.insert(e);
    return;
  }
  for (std::size_t i = 0; i < e.nops(); ++i) CollectSymbols(e.op(i), out);
}

// dL/dy^a for every a, differentiating each term of L only by the symbols it contains (a sum of
// k squares costs O(k), not O(k²)).
std::vector<ex> Gradient(const ex& L, const std::vector<symbol>& y) {
  std::map<ex, std::size_t, GiNaC::ex_is_less> index;
  for (std::size_t a = 0; a < y.size(); ++a) index[y[a]] = a;
  std::vector<ex> gradient(y.size(), ex(0));
  std::vector<ex> terms;
  if (GiNaC::is_a<GiNaC::add>(L))
    for (std::size_t i = 0; i < L.nops(); ++i) terms.push_back(L.op(i));
  else
    terms.push_back(L);
  std::vector<std::vector<ex>> parts(y.size());
  for (const ex& term : terms) {
    std::set<ex, GiNaC::ex_is_less> symbols;
    CollectSymbols(term, symbols);
    for (const ex& s : symbols)
      if (auto found = index.find(s); found != index.end())
        parts[found->second].push_back(term.diff(GiNaC::ex_to<symbol>(s)));
    CheckDerivationCancelled();
  }
  for (std::size_t a = 0; a < y.size(); ++a) {
    GiNaC::exvector sum(parts[a].begin(), parts[a].end());
    gradient[a] = GiNaC::add(sum);
  }
  return gradient;
}

bool DependsOn(const ex& e, const std::vector<symbol>& symbols, const symbol& t) {
  if (e.has(t)) return true;
  std::set<ex, GiNaC::ex_is_less> found;
  CollectSymbols(e, found);
  for (const symbol& s : symbols)
    if (found.count(s)) return true;
  return false;
}

std::vector<DerivedEquation> Equations(const EulerPoincareData& d, const ex& L, const ex& energy,
                                       const std::vector<ex>& p, const std::vector<symbol>& y) {
  std::vector<DerivedEquation> out;
  const std::size_t k = d.dimension();
  out.push_back({"L", k <= kMaxPrintedRows ? symbolic::CanonicalString(L)
                                           : "(" + std::to_string(k) + " terms)"});
  out.push_back({"algebra", d.basis.family + "(" + std::to_string(d.basis.size) + "), dimension " +
                                std::to_string(k) + ", " + std::to_string(d.constants.size()) +
                                " nonzero structure constants C^c_ab (a < b)"});
  if (k > kMaxPrintedRows) {
    out.push_back({"EP", "d/dt (dL/dy^a) = -C^c_ab y^b dL/dy^c, a = 1 ... " + std::to_string(k) +
                             " (rows omitted at this size)"});
    return out;
  }
  out.push_back({"E_L", symbolic::CanonicalString(energy)});
  std::vector<ex> rows(k, ex(0));
  for (const auto& s : d.constants) {
    rows[s.a] += s.value * y[s.b] * p[s.c];
    rows[s.b] -= s.value * y[s.a] * p[s.c];
  }
  for (std::size_t a = 0; a < k; ++a)
    out.push_back(
        {"EP[" + d.basis.names[a] + "]",
         "d/dt(" + symbolic::CanonicalString(p[a]) + ") = " + symbolic::CanonicalString(-rows[a])});
  return out;
}

}  // namespace

std::shared_ptr<const EulerPoincareData> DeriveEulerPoincareData(const Scenario& scenario) try {
  const LieAlgebraSpec& spec = scenario.algebroid.algebra;
  if (!spec.present || !scenario.constraints.empty() || !scenario.coordinates.empty() ||
      !scenario.reconstruction.group.empty())
    return nullptr;
  auto data = std::make_shared<EulerPoincareData>();
  EnterDerivationStage("generating the Lie algebra's structure constants");
  try {
    data->basis = families::LieAlgebraBasisOf(spec.family, spec.size);
    data->constants = families::StructureConstants(data->basis);
    data->rows = CoadjointRows(data->constants, data->basis.dimension());
  } catch (const FamilyError& e) {
    throw ScenarioError(scenario.source_file, spec.where.line, spec.family, e.what());
  }
  EnterDerivationStage("differentiating the Lagrangian");
  const scenario::ScenarioSymbols symbols(scenario, {scenario::Velocities::kFibre});
  const symbol& t = symbols.t();
  const auto& y = symbols.velocities();
  const auto& params = symbols.parameters();
  const std::size_t k = y.size();
  data->num_parameters = params.size();
  std::vector<symbol> inputs{t};
  inputs.insert(inputs.end(), y.begin(), y.end());
  inputs.insert(inputs.end(), params.begin(), params.end());

  const ex L = symbols.Parse(scenario.lagrangian, scenario.lagrangian_where.line, "lagrangian");
  const std::vector<ex> p = Gradient(L, y);
  ex energy = -L;
  std::vector<ex> rate(k);
  bool autonomous = true;
  for (std::size_t a = 0; a < k; ++a) {
    energy += p[a] * y[a];
    rate[a] = p[a].diff(t);
    autonomous = autonomous && rate[a].is_zero();
  }
  // W = dp/dy, by the symbols each p_a contains; it must not depend on y or t.
  EnterDerivationStage("deriving the inertia (the Hessian of L)");
  std::vector<ex> inertia;
  std::map<ex, std::size_t, GiNaC::ex_is_less> index;
  for (std::size_t a = 0; a < k; ++a) index[y[a]] = a;
  std::vector<symbol> state(y.begin(), y.end());
  for (std::size_t a = 0; a < k; ++a) {
    std::set<ex, GiNaC::ex_is_less> found;
    CollectSymbols(p[a], found);
    for (const ex& s : found) {
      const auto b = index.find(s);
      if (b == index.end()) continue;
      const ex w = p[a].diff(GiNaC::ex_to<symbol>(s));
      if (w.is_zero()) continue;
      if (DependsOn(w, state, t)) return nullptr;  // not quadratic: the general path takes it
      inertia.push_back(w);
      data->inertia_rows.push_back(a);
      data->inertia_cols.push_back(b->second);
    }
  }
  EnterDerivationStage("compiling the momentum, inertia and energy");
  data->tapes.momentum = symbolic::CompileExpressions(p, inputs);
  data->tapes.momentum_rate = symbolic::CompileExpressions(rate, inputs);
  data->tapes.inertia = symbolic::CompileExpressions(inertia, inputs);
  data->tapes.energy = symbolic::CompileExpressions({energy}, inputs);
  data->autonomous = autonomous;
  data->conservative = !L.has(t);
  data->equations = Equations(*data, L, energy, p, y);
  return data;
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "deriving the Euler-Poincare equations");
}

CoadjointRows::CoadjointRows(const std::vector<families::StructureConstant>& constants,
                             std::size_t k) {
  std::vector<std::size_t> count(k, 0);
  for (const auto& s : constants) {
    ++count[s.a];
    ++count[s.b];
  }
  start.assign(k + 1, 0);
  for (std::size_t a = 0; a < k; ++a) start[a + 1] = start[a] + count[a];
  entries.resize(start[k]);
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const auto& s : constants) {
    entries[next[s.a]++] = {s.b, s.c, s.value};
    entries[next[s.b]++] = {s.a, s.c, -s.value};
  }
}

struct EulerPoincareRates::Impl {
  const EulerPoincareData& d;
  const EulerPoincareTapes& tapes;
  const CoadjointRows& rows = d.rows;
  std::vector<double> in, p, rate, f, scratch, w, offset;
  Eigen::VectorXd inverse_diagonal;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  bool diagonal = true;
  bool autonomous = true;

  Impl(const EulerPoincareData& data, const EulerPoincareTapes& t,
       const std::vector<double>& parameters)
      : d(data), tapes(t) {
    const std::size_t k = d.dimension();
    if (parameters.size() != d.num_parameters)
      throw ModelError("EulerPoincareRates: expected " + std::to_string(d.num_parameters) +
                       " parameters");
    in.assign(d.inputs(), 0.0);
    std::copy(parameters.begin(), parameters.end(), in.begin() + 1 + static_cast<long>(k));
    p.assign(k, 0.0);
    rate.assign(k, 0.0);
    f.assign(k, 0.0);
    autonomous = d.autonomous;
    scratch.assign(std::max({tapes.momentum.scratch_size(), tapes.momentum_rate.scratch_size(),
                             tapes.inertia.scratch_size(), tapes.energy.scratch_size()}),
                   0.0);
    w.assign(d.inertia_rows.size(), 0.0);
    tapes.inertia.Evaluate(in.data(), w.data(), scratch.data());
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(static_cast<long>(k), static_cast<long>(k));
    for (std::size_t i = 0; i < w.size(); ++i) {
      W(static_cast<long>(d.inertia_rows[i]), static_cast<long>(d.inertia_cols[i])) += w[i];
      diagonal = diagonal && d.inertia_rows[i] == d.inertia_cols[i];
    }
    if (diagonal) {
      inverse_diagonal = W.diagonal().cwiseInverse();
      if (!inverse_diagonal.allFinite() || W.diagonal().size() != static_cast<long>(k))
        throw ModelError("the inertia W = D2D2L is singular at these parameter values");
    } else {
      lu.compute(W);
      if (!(std::abs(lu.determinant()) > 0.0))
        throw ModelError("the inertia W = D2D2L is singular at these parameter values");
    }
    // p at y = 0, t = 0: the affine part of the momentum of a quadratic Lagrangian.
    offset.assign(k, 0.0);
    tapes.momentum.Evaluate(in.data(), offset.data(), scratch.data());
  }

  void Load(double t, const double* y) {
    in[0] = t;
    std::copy(y, y + d.dimension(), in.begin() + 1);
  }
};

EulerPoincareRates::EulerPoincareRates(const EulerPoincareData& data,
                                       const std::vector<double>& parameters)
    : impl_(std::make_unique<Impl>(data, data.tapes, parameters)) {}
EulerPoincareRates::EulerPoincareRates(const EulerPoincareData& data,
                                       const EulerPoincareTapes& tapes,
                                       const std::vector<double>& parameters)
    : impl_(std::make_unique<Impl>(data, tapes, parameters)) {}
EulerPoincareRates::~EulerPoincareRates() = default;

bool EulerPoincareRates::operator()(double t, const double* y, double* ydot) {
  Impl& s = *impl_;
  const std::size_t k = s.d.dimension();
  s.Load(t, y);
  s.tapes.momentum.Evaluate(s.in.data(), s.p.data(), s.scratch.data());
  double* f = s.f.data();
  if (s.autonomous) {
    std::fill(f, f + k, 0.0);
  } else {
    s.tapes.momentum_rate.Evaluate(s.in.data(), f, s.scratch.data());
    for (std::size_t a = 0; a < k; ++a) f[a] = -f[a];
  }
  // W y' = -d_t p - C^c_ab y^b p_c.
  const double* p = s.p.data();
  const CoadjointRows::Entry* entry = s.rows.entries.data();
  for (std::size_t a = 0; a < k; ++a) {
    double sum = 0.0;
    for (const CoadjointRows::Entry* end = s.rows.entries.data() + s.rows.start[a + 1];
         entry != end; ++entry)
      sum += entry->value * y[entry->b] * p[entry->c];
    f[a] -= sum;
  }
  Eigen::Map<Eigen::VectorXd> out(ydot, static_cast<long>(k));
  const Eigen::Map<const Eigen::VectorXd> rhs(f, static_cast<long>(k));
  if (s.diagonal)
    out = rhs.cwiseProduct(s.inverse_diagonal);
  else
    out = s.lu.solve(rhs);
  return out.allFinite();
}

void EulerPoincareRates::Momentum(double t, const double* y, double* p) {
  impl_->Load(t, y);
  impl_->tapes.momentum.Evaluate(impl_->in.data(), p, impl_->scratch.data());
}

void EulerPoincareRates::Velocity(const double* p, double* y) {
  Impl& s = *impl_;
  const auto k = static_cast<long>(s.d.dimension());
  Eigen::Map<Eigen::VectorXd> out(y, k);
  const Eigen::VectorXd rhs = Eigen::Map<const Eigen::VectorXd>(p, k) -
                              Eigen::Map<const Eigen::VectorXd>(s.offset.data(), k);
  if (s.diagonal)
    out = rhs.cwiseProduct(s.inverse_diagonal);
  else
    out = s.lu.solve(rhs);
}

double EulerPoincareRates::Energy(double t, const double* y) {
  impl_->Load(t, y);
  double e = 0.0;
  impl_->tapes.energy.Evaluate(impl_->in.data(), &e, impl_->scratch.data());
  return e;
}

namespace {

// tr((iM)^j), j = 2 ... size, of M = Σ p_a M(X_a) in the family's matrix realization: Casimirs
// of the coadjoint motion where the trace form is diagonal in the basis (so, the torus).
class TraceCasimirs {
 public:
  explicit TraceCasimirs(const families::LieAlgebraBasis& basis)
      : size_(families::MatrixSize(basis)), matrices_(families::MatrixRealization(basis)) {}
  int count() const { return size_ - 1; }
  // Fills out[0 .. count()) and returns the scale Σ |λ|^j per power in scale[...].
  void Evaluate(const double* p, double* out, double* scale) const {
    Eigen::MatrixXcd M = Eigen::MatrixXcd::Zero(size_, size_);
    for (std::size_t a = 0; a < matrices_.size(); ++a)
      if (p[a] != 0.0)
        for (const auto& e : matrices_[a]) M(e.row, e.col) += p[a] * e.value;
    const Eigen::MatrixXcd H = std::complex<double>(0.0, 1.0) * M;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd> eigen(0.5 * (H + H.adjoint()),
                                                          Eigen::EigenvaluesOnly);
    const Eigen::VectorXd lambda = eigen.eigenvalues();
    for (int j = 2; j <= size_; ++j) {
      out[j - 2] = lambda.array().pow(j).sum();
      scale[j - 2] = lambda.array().abs().pow(j).sum();
    }
  }

 private:
  int size_;
  std::vector<std::vector<families::MatrixEntry>> matrices_;
};

class EulerPoincareSystem : public Model {
 public:
  explicit EulerPoincareSystem(std::shared_ptr<const EulerPoincareData> data)
      : d_(std::move(data)),
        native_(std::make_unique<model::NativeTapeSet<EulerPoincareTapes>>(d_->tapes, &Visit)) {
    columns_.push_back({"t", ColumnKind::kTime});
    for (const auto& name : d_->basis.names) {
      columns_.push_back({name, ColumnKind::kVelocity});
      initial_values_.push_back({name, ColumnKind::kVelocity, true, ""});
    }
    columns_.push_back({"E", ColumnKind::kEnergy});
    // On the torus the momentum is the vorticity.
    columns_.push_back({"enstrophy", ColumnKind::kDiagnostic,
                        d_->basis.family == "zeitlin_torus" ? "half the squared vorticity"
                                                            : "half the squared momentum"});
    if (families::HasTraceCasimirs(d_->basis)) {
      casimirs_ = std::make_unique<TraceCasimirs>(d_->basis);
      for (int j = 2; j <= casimirs_->count() + 1; ++j)
        columns_.push_back(
            {"casimir" + std::to_string(j), ColumnKind::kDiagnostic, "Casimir invariant"});
      columns_.push_back({"casimir_drift", ColumnKind::kDiagnostic, "relative Casimir drift"});
    }
  }

  std::string formulation() const override {
    return "Euler-Poincare equations on the Lie algebra " + d_->basis.family + "(" +
           std::to_string(d_->basis.size) +
           ") (seed L eq (17), no base): structure constants generated, coadjoint term "
           "contracted sparsely";
  }
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  const std::vector<InitialValueInfo>& initial_values() const override { return initial_values_; }
  std::vector<DerivedEquation> Equations(EquationFormat) const override { return d_->equations; }
  std::vector<MethodVerdict> integration_methods(const std::vector<double>&) const override {
    return dynamics::MethodVerdicts(casimirs_ && d_->autonomous
                                        ? dynamics::SystemForm::kMatrixLiePoisson
                                        : dynamics::SystemForm::kExplicitOde,
                                    SystemName());
  }
  std::vector<std::string> constraint_names() const override { return {}; }
  std::vector<double> ConstraintCovectors(double, const std::vector<double>&,
                                          const std::vector<double>&) const override {
    return {};
  }
  Trajectory Simulate(const SimulationInput& input, const SimulationProgress& progress,
                      SimulationReport* report_out) const override;
  /// y' = W⁻¹ f(t, y) on the fibre values, as Simulate integrates it (interpreted tapes).
  std::optional<RightHandSide> MakeRightHandSide(const SimulationInput& input) const override {
    RequireSizes(input);
    auto rates = std::make_shared<EulerPoincareRates>(*d_, input.parameters);
    return RightHandSide{
        d_->basis.names, input.v0,
        [rates](double t, const double* y, double* ydot) { return (*rates)(t, y, ydot); }};
  }

 private:
  // The system's name in refusals.
  std::string SystemName() const {
    return "this Euler-Poincare system on " + d_->basis.family + "(" +
           std::to_string(d_->basis.size) + ")";
  }
  void RequireSizes(const SimulationInput& input) const {
    const std::size_t k = d_->dimension();
    if (input.v0.size() != k || input.parameters.size() != d_->num_parameters)
      throw ModelError("EulerPoincareSystem: expected " + std::to_string(k) + " fibre values and " +
                       std::to_string(d_->num_parameters) + " parameters");
  }
  static void Visit(EulerPoincareTapes& t, const std::function<void(CompiledFunction&)>& f) {
    for (CompiledFunction* tape : {&t.momentum, &t.momentum_rate, &t.inertia, &t.energy}) f(*tape);
  }

  std::shared_ptr<const EulerPoincareData> d_;
  std::unique_ptr<model::NativeTapeSet<EulerPoincareTapes>> native_;
  std::unique_ptr<TraceCasimirs> casimirs_;
  std::vector<ColumnInfo> columns_;
  std::vector<InitialValueInfo> initial_values_;
};

Trajectory EulerPoincareSystem::Simulate(const SimulationInput& input,
                                         const SimulationProgress& progress,
                                         SimulationReport* report_out) const {
  const SimulationSpec& spec = input.spec;
  RequireValidSimulationSpec(spec);
  const std::size_t k = d_->dimension();
  RequireSizes(input);
  std::string tape;
  const EulerPoincareTapes& tapes = native_->Select(spec.tape, tape);
  EulerPoincareRates rates(*d_, tapes, input.parameters);
  // The Lax form M' = [B(M), M] exists when the trace form is diagonal in the basis (so(n), the
  // torus) and the momentum does not depend on t: then `isospectral` applies too.
  const dynamics::SystemForm form = casimirs_ && d_->autonomous
                                        ? dynamics::SystemForm::kMatrixLiePoisson
                                        : dynamics::SystemForm::kExplicitOde;
  const std::string system = SystemName();
  std::optional<dynamics::SampledExplicitOde> setup;
  std::unique_ptr<dynamics::Integrator> integrator;
  SimulationReport report;
  if (spec.method == IntegrationMethod::kIsospectral) {
    dynamics::ResolveMethod(spec.method, form, system, spec.t_end, {}, spec.step);
    dynamics::WholeSteps(spec.output_step, spec.step, "output_step");
    dynamics::WholeSteps(spec.t_end, spec.step, "t_end");
    std::vector<double> p0(k);
    rates.Momentum(0.0, input.v0.data(), p0.data());
    const int size = families::MatrixSize(d_->basis);
    integrator = std::make_unique<IsospectralIntegrator>(
        d_->basis, [&rates](const double* p, double* y) { rates.Velocity(p, y); }, p0, spec.step,
        0.0);
    std::ostringstream method;
    method << "isospectral midpoint (Lax form M' = [B(M), M] on " << size << " x " << size
           << " matrices, fixed-point iteration to round-off, order 2, step " << spec.step
           << (d_->basis.family == "zeitlin_torus" ? ", modes by FFT along the diagonals" : "")
           << ")";
    report.method = method.str();
  } else {
    setup = dynamics::MakeExplicitOde(
        spec, system, d_->basis.names,
        [&rates](double t, const double* y, double* ydot) { return rates(t, y, ydot); }, input.v0,
        form);
    integrator = std::make_unique<dynamics::CvodeDriver>(setup->ode, setup->method, 0.0, input.v0,
                                                         spec.t_end);
    report.method =
        dynamics::MethodReport(setup->bdf() ? IntegrationMethod::kBdf : IntegrationMethod::kAdams,
                               "Euler-Poincare, sparse structure constants");
  }
  dynamics::Integrator& driver = *integrator;
  Trajectory trajectory(TrajectoryColumns());
  trajectory.StreamTo(input.row_sink);
  std::vector<double> row(trajectory.num_columns(), 0.0), p(k);
  const int count = casimirs_ ? casimirs_->count() : 0;
  std::vector<double> initial(count), value(count), scale(count), initial_scale(count);
  report.tape = tape;
  report.initial_energy = rates.Energy(0.0, input.v0.data());
  dynamics::DivergenceMonitor monitor(spec, d_->conservative);
  monitor.SetScales(input.v0.data(), input.v0.size(), report.initial_energy);
  auto record = [&](double t) {
    const double* y = driver.y();
    row[0] = t;
    std::copy(y, y + k, row.begin() + 1);
    const double energy = rates.Energy(t, y);
    rates.Momentum(t, y, p.data());
    double enstrophy = 0.0;
    for (double value_a : p) enstrophy += 0.5 * value_a * value_a;
    std::size_t column = 1 + k;
    row[column++] = energy;
    row[column++] = enstrophy;
    if (casimirs_) {
      casimirs_->Evaluate(p.data(), value.data(), scale.data());
      if (trajectory.empty()) {
        initial = value;
        initial_scale = scale;
      }
      double drift = 0.0;
      for (int j = 0; j < count; ++j) {
        row[column++] = value[j];
        if (initial_scale[j] > 0.0)
          drift = std::max(drift, std::abs(value[j] - initial[j]) / initial_scale[j]);
      }
      row[column++] = drift;
    }
    report.max_energy_drift =
        std::max(report.max_energy_drift, std::abs(energy - report.initial_energy));
    monitor.Observe(t, 0.0, std::abs(energy - report.initial_energy), report);  // no constraints
    trajectory.AppendRow(row.data());
  };
  dynamics::RunSampledOde(spec, driver, record, progress, trajectory, report);
  if (report_out) *report_out = report;
  return trajectory;
}

}  // namespace

std::shared_ptr<const Model> DeriveEulerPoincareSystemIfApplicable(const Scenario& scenario) {
  auto data = DeriveEulerPoincareData(scenario);
  if (!data) return nullptr;
  auto model = std::make_shared<EulerPoincareSystem>(std::move(data));
  return model;
}

}  // namespace dirac::lagrange_dirac
