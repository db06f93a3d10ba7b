// The linearization of a regular Lagrange–Dirac system on its constraint manifold
// (docs/linearization.md). The state x = (q, y) carries the full flow x' = (rho(q) y, a(q, y))
// of the saddle system (lagrange_dirac/saddle_system.hpp) with its exact Jacobian J. The
// constraint manifold C = {f(q) = 0, f_q rho y = 0, A(q) y = 0} is charted at the operating
// point by z = (independent coordinates, independent speeds); the dependent ones follow from the
// implicit function theorem, so the chart's derivative is T = [I; -C_D^+ C_E] and the reduced
// vector field's Jacobian is P J T (P picks z's rows): exact, multiplier-free.
#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dirac/error.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/saddle_system.hpp"
#include "linearization/manifold_linearizer.hpp"
#include "linearization/reduced_point.hpp"
#include "scenario/scenario_symbols.hpp"

namespace dirac::linearization {
namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::string Num(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

struct Chart {
  std::vector<std::size_t> qI, qD;  // coordinates
  std::vector<std::size_t> vS, vD;  // speeds (fibre coordinates)
};

struct Values {
  std::vector<double> parameters, q, v;
};

// Greedy column pivoting in tiers: from the columns listed in `tiers` (tier by tier), picks
// columns of `a` with the largest norm after projecting out the columns already picked, until
// `count` are picked or no candidate exceeds `tol`. `basis` carries the picked directions.
std::vector<std::size_t> PickColumns(const MatrixXd& a,
                                     const std::vector<std::vector<std::size_t>>& tiers,
                                     std::size_t count, double tol, MatrixXd& basis) {
  std::vector<std::size_t> picked;
  for (const auto& tier : tiers) {
    while (picked.size() < count) {
      double best = tol;
      std::size_t best_col = a.cols();
      VectorXd best_residual;
      for (std::size_t c : tier) {
        if (std::find(picked.begin(), picked.end(), c) != picked.end()) continue;
        VectorXd r = a.col(static_cast<Index>(c));
        if (basis.cols() > 0) r -= basis * (basis.transpose() * r);
        if (r.norm() > best) {  // strict: ties keep the earlier column (scenario order)
          best = r.norm();
          best_col = c;
          best_residual = r;
        }
      }
      if (best_col == static_cast<std::size_t>(a.cols())) break;
      picked.push_back(best_col);
      basis.conservativeResize(a.rows(), basis.cols() + 1);
      basis.col(basis.cols() - 1) = best_residual / best_residual.norm();
    }
  }
  return picked;
}

std::size_t Rank(const MatrixXd& a) {
  if (a.size() == 0) return 0;
  Eigen::JacobiSVD<MatrixXd> svd(a);
  const auto& s = svd.singularValues();
  std::size_t r = 0;
  for (Index i = 0; i < s.size(); ++i)
    if (s[i] > 1e-10 * std::max(1.0, s[0])) ++r;
  return r;
}

class ManifoldLinearizer final : public Linearizer {
 public:
  ManifoldLinearizer(const Scenario& scenario, const LinearizationOptions& options,
                     std::shared_ptr<const LagrangeDiracSystem> model)
      : scenario_(scenario),
        options_(options),
        model_(std::move(model)),
        dae_(CompiledDaeOf(*model_)) {
    const InputLayout& L = dae_.layout;
    n_ = L.n;
    k_ = L.k;
    m_ = L.m;
    q_names_ = model_->coordinate_names();
    v_names_ = model_->velocity_names();
    // f(q) is the model's own tape; the differentials are among its constraint forms.
    h_ = dae_.holonomic.num_outputs();
    if (h_ > 0 && scenario.algebroid.present)
      throw ModelError(scenario.source_file +
                       ": holonomic constraints on a Lie algebroid are not linearized");
    DeriveSymbolic();
    for (const auto& name : options.ignorable) {
      auto it = std::find(q_names_.begin(), q_names_.end(), name);
      if (it == q_names_.end())
        throw ScenarioError(scenario.source_file, 0, name,
                            "--ignorable names no coordinate of the scenario");
      named_[static_cast<std::size_t>(it - q_names_.begin())] = true;
    }
    for (const auto& name : options.speeds) {
      auto it = std::find(v_names_.begin(), v_names_.end(), name);
      if (it == v_names_.end())
        throw ScenarioError(scenario.source_file, 0, name,
                            "--speeds names no velocity (fibre coordinate) of the scenario");
      user_speed_[static_cast<std::size_t>(it - v_names_.begin())] = true;
    }
    for (const auto& c : scenario.optimal_control.controls) {
      auto it = std::find(v_names_.begin(), v_names_.end(), c.acts_on);
      if (it == v_names_.end()) continue;
      controls_.push_back(c.name);
      control_rows_.push_back(static_cast<std::size_t>(it - v_names_.begin()));
    }
    ChooseBaseChart();
  }

  std::shared_ptr<const Linearizer> WithValues(const Scenario& scenario) const override {
    auto copy = std::make_shared<ManifoldLinearizer>(*this);
    copy->scenario_ = scenario;
    copy->ChooseBaseChart();
    return copy;
  }

  Linearization Linearize() const override { return At(ValuesOf(scenario_), nullptr, nullptr); }

  Linearization Linearize(const std::string& name, double value) const override {
    return At(ValuesWith(name, value), nullptr, nullptr);
  }

  using Linearizer::Sweep;
  StabilitySweep Sweep(const std::string& name, const std::vector<double>& sweep_values,
                       const std::atomic<bool>* cancel) const override {
    CheckSweepValues(name, sweep_values);
    Chart chart;
    VectorXd x;
    Values first = ValuesWith(name, sweep_values.front());
    chart = Choose(first, x, nullptr);
    const Linearization reference = At(first, &chart, nullptr);
    const std::vector<std::string> states = reference.states;
    return RunStabilitySweep(
        [&](double value) { return At(ValuesWith(name, value), &chart, &states); }, name,
        sweep_values, cancel);
  }

  std::vector<std::string> StateColumns() const override {
    std::vector<std::string> columns = q_names_;
    columns.insert(columns.end(), v_names_.begin(), v_names_.end());
    return columns;
  }

  // The chart of the first row, kept; each row checked on C, projected onto it, reduced.
  TrajectoryLinearization LinearizeAlong(const Trajectory& run,
                                         const std::string& source) const override {
    Values values = ValuesOf(scenario_);
    Chart chart;
    double first_quality = 0.0;
    return RunAlong(run, source, StateColumns(), [&](std::size_t row, const VectorXd& given) {
      const double residual = CheckOnManifold(values, given);
      VectorXd x = given;
      Linearization report;
      if (row == 0) {
        values.q.assign(given.data(), given.data() + n_);
        values.v.assign(given.data() + n_, given.data() + n_ + k_);
        chart = Choose(values, x, &report);
      } else {
        SolveDependents(chart, values, x);
      }
      const double quality = ChartConditioning(chart, values, x);
      if (row == 0) first_quality = quality;
      const double ratio = first_quality > 0.0 ? quality / first_quality : 1.0;
      if (ratio < kAlongChartRatio)
        throw ModelError(
            "the chart chosen at the first row (dependent values " + Join(DependentNames(chart)) +
            ") is ill-conditioned here (its pivots' conditioning fell to " + Num(ratio) +
            " of the first row's); linearize the run in pieces, or name other independent "
            "speeds with --speeds so that the dependent ones stay well-determined");
      ReducedPoint p = Reduce(chart, values, x);
      for (std::size_t i = 0; i < chart.qI.size(); ++i) p.ignorable[i] = named_[chart.qI[i]];
      p.report = std::move(report);
      p.manifold_residual = residual;
      p.chart_quality = ratio;
      return p;
    });
  }

  VectorXd ReducedRates(const VectorXd& z, std::vector<std::string>* names) const override {
    Values values = base_values_;
    const VectorXd x = ChartPoint(base_chart_, values, z);
    lagrange_dirac::SaddleSystem saddle(dae_, values.parameters);
    VectorXd rates(static_cast<Index>(n_ + k_));
    if (!saddle.Rates(0.0, x.data(), rates.data()))
      throw NumericalError("the saddle system is singular at the chart point");
    if (names) *names = ZNames(base_chart_);
    return Select(rates, base_chart_);
  }

  MatrixXd ReducedJacobian(VectorXd* z) const override {
    Values values = base_values_;
    ReducedPoint p = Reduce(base_chart_, values, base_x_);
    if (z) *z = ZOf(base_chart_, base_x_);
    return p.J;
  }

 private:
  // --- symbolic pieces (once) -------------------------------------------------------------
  void DeriveSymbolic() {
    scenario::ScenarioSymbols symbols(scenario_, {scenario::Velocities::kFibre});
    std::vector<GiNaC::ex> f;
    for (const auto& spec : scenario_.holonomic) {
      f.push_back(symbols.Parse(spec.equation, spec.where.line, spec.name + ".equation"));
      holonomic_names_.push_back(spec.name);
    }
    // Coordinates absent from L, every constraint form and every holonomic equation (and, on an
    // algebroid, from the anchor and brackets: not decided there, only named ones count).
    named_.assign(n_, false);
    found_.assign(n_, false);
    user_speed_.assign(k_, false);
    if (scenario_.algebroid.present) return;
    std::vector<GiNaC::ex> all{
        symbols.Parse(scenario_.lagrangian, scenario_.lagrangian_where.line, "lagrangian")};
    for (const auto& c : scenario_.constraints)
      all.push_back(symbols.Parse(c.form, c.where.line, c.name + ".form"));
    all.insert(all.end(), f.begin(), f.end());
    for (std::size_t i = 0; i < n_; ++i) {
      bool absent = true;
      for (const auto& e : all) absent &= !e.has(symbols.q()[i]);
      found_[i] = absent;
    }
  }

  // --- values -------------------------------------------------------------------------------
  static Values ValuesOf(const Scenario& s) {
    const SimulationInput in = SimulationInput::FromScenario(s);
    return {in.parameters, in.q0, in.v0};
  }
  Values ValuesWith(const std::string& name, double value) const {
    Scenario copy = scenario_;
    ApplyOverride(copy, name, value);
    return ValuesOf(copy);
  }

  std::vector<double> Input(const Values& values, const VectorXd& x) const {
    const InputLayout& L = dae_.layout;
    std::vector<double> in(L.size(), 0.0);
    std::copy(x.data(), x.data() + n_ + k_, in.begin() + static_cast<long>(L.q()));
    std::copy(values.parameters.begin(), values.parameters.end(),
              in.begin() + static_cast<long>(L.parameters()));
    return in;
  }

  // d(outputs)/dq by forward mode on the tape: rows outputs, n columns.
  MatrixXd CoordinateTangents(const CompiledFunction& f, const std::vector<double>& in) const {
    const std::size_t dirs = n_;
    MatrixXd out = MatrixXd::Zero(static_cast<Index>(f.num_outputs()), static_cast<Index>(dirs));
    if (f.num_outputs() == 0 || dirs == 0) return out;
    std::vector<double> seeds(f.num_inputs() * dirs, 0.0), tangents(f.num_outputs() * dirs),
        work(f.tangent_work_size(dirs));
    for (std::size_t d = 0; d < dirs; ++d) seeds[(dae_.layout.q() + d) * dirs + d] = 1.0;
    f.EvaluateTangents(in.data(), seeds.data(), dirs, tangents.data(), work.data());
    for (std::size_t r = 0; r < f.num_outputs(); ++r)
      for (std::size_t d = 0; d < dirs; ++d)
        out(static_cast<Index>(r), static_cast<Index>(d)) = tangents[r * dirs + d];
    return out;
  }

  // A row-major matrix-valued tape (rows x cols outputs) at `in`.
  static MatrixXd Matrix(const CompiledFunction& f, const std::vector<double>& in, std::size_t rows,
                         std::size_t cols) {
    MatrixXd out(static_cast<Index>(rows), static_cast<Index>(cols));
    if (rows * cols == 0) return out;
    std::vector<double> values(rows * cols), scratch(f.scratch_size());
    f.Evaluate(in.data(), values.data(), scratch.data());
    return Eigen::Map<const RowMajor>(values.data(), static_cast<Index>(rows),
                                      static_cast<Index>(cols));
  }

  // Rows: f (h), then g = A(q) y (m: the nonholonomic forms and f's differentials); columns
  // (q, y): [f_q, 0; dg/dq, A]. dg/dq (forward mode) only when `q_derivatives`, else zero.
  MatrixXd ConstraintJacobian(const Values& values, const VectorXd& x,
                              bool q_derivatives = true) const {
    const std::vector<double> in = Input(values, x);
    MatrixXd c = MatrixXd::Zero(static_cast<Index>(h_ + m_), static_cast<Index>(n_ + k_));
    if (h_ > 0)
      c.topLeftCorner(static_cast<Index>(h_), static_cast<Index>(n_)) =
          Matrix(dae_.holonomic_jacobian, in, h_, n_);
    if (m_ > 0) {
      if (q_derivatives)
        c.bottomLeftCorner(static_cast<Index>(m_), static_cast<Index>(n_)) =
            CoordinateTangents(dae_.constraints, in);
      c.bottomRightCorner(static_cast<Index>(m_), static_cast<Index>(k_)) =
          Matrix(dae_.constraint_matrix, in, m_, k_);
    }
    return c;
  }

  // The velocity constraints A (rows) in the speeds (columns).
  MatrixXd VelocityConstraints(const MatrixXd& c) const {
    return c.bottomRightCorner(static_cast<Index>(m_), static_cast<Index>(k_));
  }

  // --- along a run ---------------------------------------------------------------------------
  // Throws ModelError when a constraint residual (f, then A(q) y) exceeds the tolerance, naming
  // the constraint; returns the largest.
  double CheckOnManifold(const Values& values, const VectorXd& x) const {
    const std::vector<double> in = Input(values, x);
    std::vector<double> residual = dae_.holonomic.Evaluate(in);
    const std::vector<double> g = dae_.constraints.Evaluate(in);
    residual.insert(residual.end(), g.begin(), g.end());
    std::vector<std::string> names;
    for (const auto& h : holonomic_names_) names.push_back(h);
    for (const auto& c : scenario_.constraints) names.push_back(c.name);
    for (const auto& h : holonomic_names_) names.push_back(h + " (its rate)");
    double worst = 0.0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < residual.size(); ++i)
      if (!(std::abs(residual[i]) <= worst)) {
        worst = std::abs(residual[i]);
        at = i;
      }
    const std::string name = at < names.size() ? names[at] : "constraint " + std::to_string(at + 1);
    if (!(worst <= options_.manifold_tolerance))
      throw ModelError("the state is off the constraint manifold: |" + name + "| = " + Num(worst) +
                       " (tolerance " + Num(options_.manifold_tolerance) + ")");
    return worst;
  }

  // sigma_min(C_D) / |C|_F of C = [f_q 0; 0 A] (no velocity dependence): how well the
  // chart's independent values determine the dependent ones.
  double ChartConditioning(const Chart& chart, const Values& values, const VectorXd& x) const {
    const MatrixXd c = ConstraintJacobian(values, x, false);
    std::vector<std::size_t> d = chart.qD;
    for (std::size_t s : chart.vD) d.push_back(n_ + s);
    if (d.empty() || c.rows() == 0) return 1.0;
    MatrixXd cd(c.rows(), static_cast<Index>(d.size()));
    for (std::size_t j = 0; j < d.size(); ++j)
      cd.col(static_cast<Index>(j)) = c.col(static_cast<Index>(d[j]));
    Eigen::JacobiSVD<MatrixXd> svd(cd);
    return svd.singularValues().minCoeff() / std::max(c.norm(), 1e-300);
  }

  std::vector<std::string> DependentNames(const Chart& chart) const {
    std::vector<std::string> names;
    for (std::size_t s : chart.vD) names.push_back(v_names_[s]);
    for (std::size_t i : chart.qD) names.push_back(q_names_[i]);
    return names;
  }

  // --- the chart ----------------------------------------------------------------------------
  // Solves f(q) = 0 for q_D (q_I fixed) by Newton, then A y = 0 for y_D (y_S fixed).
  void SolveDependents(const Chart& chart, const Values& values, VectorXd& x) const {
    if (!chart.qD.empty()) {
      for (int it = 0;; ++it) {
        const std::vector<double> in = Input(values, x);
        const std::vector<double> f = dae_.holonomic.Evaluate(in);
        double worst = 0.0;
        for (double v : f) worst = std::max(worst, std::abs(v));
        if (worst <= 1e-15 || it == 30) {
          if (!(worst <= 1e-10))
            throw ModelError("the holonomic constraints do not solve for " + q_names_[chart.qD[0]] +
                             " near the given state (|f| = " + Num(worst) + ")");
          break;
        }
        const MatrixXd fq = Matrix(dae_.holonomic_jacobian, in, h_, n_);
        MatrixXd fd(static_cast<Index>(h_), static_cast<Index>(chart.qD.size()));
        for (std::size_t j = 0; j < chart.qD.size(); ++j)
          fd.col(static_cast<Index>(j)) = fq.col(static_cast<Index>(chart.qD[j]));
        const VectorXd step =
            fd.colPivHouseholderQr().solve(-Eigen::Map<const VectorXd>(f.data(), f.size()));
        for (std::size_t j = 0; j < chart.qD.size(); ++j)
          x[static_cast<Index>(chart.qD[j])] += step[static_cast<Index>(j)];
      }
    }
    if (!chart.vD.empty()) {
      const MatrixXd a = VelocityConstraints(ConstraintJacobian(values, x, false));
      MatrixXd ad(a.rows(), static_cast<Index>(chart.vD.size()));
      VectorXd rhs = VectorXd::Zero(a.rows());
      for (std::size_t j = 0; j < chart.vD.size(); ++j)
        ad.col(static_cast<Index>(j)) = a.col(static_cast<Index>(chart.vD[j]));
      for (std::size_t s : chart.vS)
        rhs -= a.col(static_cast<Index>(s)) * x[static_cast<Index>(n_ + s)];
      const VectorXd vd = ad.colPivHouseholderQr().solve(rhs);
      for (std::size_t j = 0; j < chart.vD.size(); ++j)
        x[static_cast<Index>(n_ + chart.vD[j])] = vd[static_cast<Index>(j)];
    }
  }

  bool Ignorable(std::size_t i) const { return named_[i] || found_[i]; }

  // Chooses the chart at the point (pivoting), solving the dependent values into x.
  Chart Choose(const Values& values, VectorXd& x, Linearization* report) const {
    x.resize(static_cast<Index>(n_ + k_));
    for (std::size_t i = 0; i < n_; ++i) x[static_cast<Index>(i)] = values.q[i];
    for (std::size_t a = 0; a < k_; ++a) x[static_cast<Index>(n_ + a)] = values.v[a];
    Chart chart;
    MatrixXd c = ConstraintJacobian(values, x, false);
    if (h_ > 0) {
      const MatrixXd fq = c.topLeftCorner(static_cast<Index>(h_), static_cast<Index>(n_));
      if (Rank(fq) < h_)
        throw ModelError(
            "the holonomic constraints' Jacobian df/dq is singular at the point "
            "(rank " +
            std::to_string(Rank(fq)) + " < " + std::to_string(h_) + "; constraints " +
            Join(holonomic_names_) + ")");
      std::vector<std::size_t> preferred, others;
      for (std::size_t i = 0; i < n_; ++i)
        (Ignorable(i) || user_speed_[i] ? others : preferred).push_back(i);
      MatrixXd basis(fq.rows(), 0);
      chart.qD = PickColumns(fq, {preferred, others}, h_, 1e-10 * fq.norm(), basis);
      std::sort(chart.qD.begin(), chart.qD.end());
    }
    for (std::size_t i = 0; i < n_; ++i)
      if (std::find(chart.qD.begin(), chart.qD.end(), i) == chart.qD.end()) chart.qI.push_back(i);
    if (!chart.qD.empty()) {
      SolveDependents(chart, values, x);  // q_D only: vD still empty
      c = ConstraintJacobian(values, x, false);
    }
    const MatrixXd a = VelocityConstraints(c);
    const std::size_t rank = Rank(a);
    std::vector<std::size_t> forced = chart.qD;  // on TQ the velocity of q_D depends on q_I's
    for (std::size_t s : forced)
      if (user_speed_[s])
        throw ModelError("--speeds names " + v_names_[s] + ", but " + q_names_[s] +
                         " is fixed by the holonomic constraints");
    std::vector<std::size_t> tier1, tier2;
    for (std::size_t s = 0; s < k_; ++s) {
      if (user_speed_[s] || std::find(forced.begin(), forced.end(), s) != forced.end()) continue;
      (s < n_ && !scenario_.algebroid.present && Ignorable(s) ? tier1 : tier2).push_back(s);
    }
    MatrixXd basis(a.rows(), 0);
    const double tol = 1e-10 * std::max(1.0, a.norm());
    std::vector<std::size_t> picked = PickColumns(a, {forced}, forced.size(), tol, basis);
    if (picked.size() < forced.size())
      throw ModelError(
          "the velocity constraints do not fix the rates of the dependent "
          "coordinates at the point");
    std::vector<std::size_t> more =
        PickColumns(a, {tier1, tier2}, rank - forced.size(), tol, basis);
    if (picked.size() + more.size() < rank)
      throw ModelError(
          "the velocity constraints cannot be solved for dependent speeds other "
          "than the named ones (--speeds " +
          Join(options_.speeds) + ")");
    chart.vD = forced;
    chart.vD.insert(chart.vD.end(), more.begin(), more.end());
    std::sort(chart.vD.begin(), chart.vD.end());
    for (std::size_t s = 0; s < k_; ++s)
      if (std::find(chart.vD.begin(), chart.vD.end(), s) == chart.vD.end()) chart.vS.push_back(s);
    SolveDependents(chart, values, x);
    if (report) Describe(chart, values, x, *report);
    return chart;
  }

  void Describe(const Chart& chart, const Values& values, const VectorXd& x,
                Linearization& report) const {
    report.dependent_coordinates.clear();
    report.independent_speeds.clear();
    report.dependent_speeds.clear();
    for (std::size_t i : chart.qD) report.dependent_coordinates.push_back(q_names_[i]);
    for (std::size_t s : chart.vS) report.independent_speeds.push_back(v_names_[s]);
    for (std::size_t s : chart.vD) report.dependent_speeds.push_back(v_names_[s]);
    report.point.clear();
    report.state_change = 0.0;
    for (std::size_t i = 0; i < n_ + k_; ++i) {
      const bool is_q = i < n_;
      const std::string& name = is_q ? q_names_[i] : v_names_[i - n_];
      const double given = is_q ? values.q[i] : values.v[i - n_];
      report.point.emplace_back(name, x[static_cast<Index>(i)]);
      const double change = std::abs(x[static_cast<Index>(i)] - given);
      if (change > report.state_change) {
        report.state_change = change;
        report.state_change_name = name;
      }
    }
  }

  static std::string Join(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  }

  std::vector<std::size_t> E(const Chart& chart) const {
    std::vector<std::size_t> e = chart.qI;
    for (std::size_t s : chart.vS) e.push_back(n_ + s);
    return e;
  }
  std::vector<std::string> ZNames(const Chart& chart) const {
    std::vector<std::string> names;
    for (std::size_t i : chart.qI) names.push_back(q_names_[i]);
    for (std::size_t s : chart.vS) names.push_back(v_names_[s]);
    return names;
  }
  VectorXd Select(const VectorXd& full, const Chart& chart) const {
    const std::vector<std::size_t> e = E(chart);
    VectorXd z(static_cast<Index>(e.size()));
    for (std::size_t i = 0; i < e.size(); ++i)
      z[static_cast<Index>(i)] = full[static_cast<Index>(e[i])];
    return z;
  }
  VectorXd ZOf(const Chart& chart, const VectorXd& x) const { return Select(x, chart); }

  // The chart's point for z (dependent values solved), starting from the values' state.
  VectorXd ChartPoint(const Chart& chart, const Values& values, const VectorXd& z) const {
    VectorXd x(static_cast<Index>(n_ + k_));
    for (std::size_t i = 0; i < n_; ++i) x[static_cast<Index>(i)] = values.q[i];
    for (std::size_t a = 0; a < k_; ++a) x[static_cast<Index>(n_ + a)] = values.v[a];
    const std::vector<std::size_t> e = E(chart);
    for (std::size_t i = 0; i < e.size(); ++i)
      x[static_cast<Index>(e[i])] = z[static_cast<Index>(i)];
    SolveDependents(chart, values, x);
    return x;
  }

  // The reduced Jacobian over z at the chart point x (on C).
  ReducedPoint Reduce(const Chart& chart, const Values& values, const VectorXd& x) const {
    const auto N = static_cast<Index>(n_ + k_);
    lagrange_dirac::SaddleSystem saddle(dae_, values.parameters);
    VectorXd rates(N);
    if (!saddle.Rates(0.0, x.data(), rates.data()))
      throw ModelError(
          "the saddle matrix [W -A^T; A 0] is singular at the point: the "
          "velocity constraints are dependent there or the Lagrangian is degenerate");
    MatrixXd J(N, N);
    saddle.Jacobian(0.0, x.data(), J.data());
    const MatrixXd c = ConstraintJacobian(values, x);
    const std::vector<std::size_t> e = E(chart);
    std::vector<std::size_t> d = chart.qD;
    for (std::size_t s : chart.vD) d.push_back(n_ + s);
    const auto ne = static_cast<Index>(e.size()), nd = static_cast<Index>(d.size());
    MatrixXd ce(c.rows(), ne), cd(c.rows(), nd);
    for (Index j = 0; j < ne; ++j)
      ce.col(j) = c.col(static_cast<Index>(e[static_cast<std::size_t>(j)]));
    for (Index j = 0; j < nd; ++j)
      cd.col(j) = c.col(static_cast<Index>(d[static_cast<std::size_t>(j)]));
    MatrixXd T = MatrixXd::Zero(N, ne);
    for (Index j = 0; j < ne; ++j) T(static_cast<Index>(e[static_cast<std::size_t>(j)]), j) = 1.0;
    if (nd > 0) {
      const MatrixXd td = cd.colPivHouseholderQr().solve(-ce);
      for (Index i = 0; i < nd; ++i)
        T.row(static_cast<Index>(d[static_cast<std::size_t>(i)])) = td.row(i);
    }
    ReducedPoint p;
    p.formulation = model_->formulation();
    p.names = ZNames(chart);
    p.num_coordinates = chart.qI.size();
    MatrixXd Je(ne, N);
    for (Index i = 0; i < ne; ++i)
      Je.row(i) = J.row(static_cast<Index>(e[static_cast<std::size_t>(i)]));
    p.J = Je * T;
    p.rates = Select(rates, chart);
    for (std::size_t i : chart.qI) {
      p.ignorable.push_back(Ignorable(i));
      p.named.push_back(named_[i]);
    }
    // N = the speeds' columns of T (velocity rows): a basis of the constraint distribution.
    const auto ns = static_cast<Index>(chart.vS.size());
    const MatrixXd basis = T.block(static_cast<Index>(n_), static_cast<Index>(chart.qI.size()),
                                   static_cast<Index>(k_), ns);
    const std::vector<double> in = saddle.input();
    std::vector<double> w(k_ * k_);
    dae_.mass_matrix.Evaluate(in.data(), w.data(),
                              std::vector<double>(dae_.mass_matrix.scratch_size()).data());
    const MatrixXd W =
        Eigen::Map<const RowMajor>(w.data(), static_cast<Index>(k_), static_cast<Index>(k_));
    p.M = basis.transpose() * W * basis;
    p.controls = controls_;
    p.B = MatrixXd::Zero(ne, static_cast<Index>(controls_.size()));
    if (!controls_.empty() && ns > 0) {
      const auto lu = p.M.partialPivLu();
      for (std::size_t u = 0; u < controls_.size(); ++u) {
        const VectorXd response =
            lu.solve(basis.row(static_cast<Index>(control_rows_[u])).transpose());
        p.B.col(static_cast<Index>(u)).tail(ns) = response;
      }
    }
    return p;
  }

  Linearization At(Values values, const Chart* fixed,
                   const std::vector<std::string>* states) const {
    VectorXd x;
    Linearization report;
    Chart chart;
    if (fixed) {
      chart = *fixed;
      x = ChartPoint(chart, values, ZOfValues(chart, values));
      Describe(chart, values, x, report);
    } else {
      chart = Choose(values, x, &report);
    }
    if (options_.find) {
      Values given = values;
      for (int it = 0;; ++it) {
        ReducedPoint p = Reduce(chart, values, x);
        const std::vector<std::size_t> kept = KeptStates(p);
        // The largest independent speed sets the steady motion's scale (the spin rate, the
        // forward speed) and stays put: else Newton on rates that are homogeneous in the
        // speeds (Euler's equations) walks to rest.
        const VectorXd z0 = Select(x, chart);
        std::size_t held = kept.size();
        double largest = 0.0;
        for (std::size_t i = 0; i < kept.size(); ++i)
          if (kept[i] >= p.num_coordinates && std::abs(z0[static_cast<Index>(kept[i])]) > largest) {
            largest = std::abs(z0[static_cast<Index>(kept[i])]);
            held = i;
          }
        std::vector<std::size_t> moved;
        for (std::size_t i = 0; i < kept.size(); ++i)
          if (i != held) moved.push_back(kept[i]);
        VectorXd r(static_cast<Index>(kept.size()));
        MatrixXd jk(r.size(), static_cast<Index>(moved.size()));
        for (std::size_t i = 0; i < kept.size(); ++i) {
          r[static_cast<Index>(i)] = p.rates[static_cast<Index>(kept[i])];
          for (std::size_t j = 0; j < moved.size(); ++j)
            jk(static_cast<Index>(i), static_cast<Index>(j)) =
                p.J(static_cast<Index>(kept[i]), static_cast<Index>(moved[j]));
        }
        const double size = std::max(1.0, p.J.cwiseAbs().maxCoeff());
        if (r.size() == 0 || r.cwiseAbs().maxCoeff() <= 1e-13 * size) break;
        if (it == 50)
          throw ModelError(
              "Newton's method did not find an equilibrium or steady motion from "
              "the given state (max |rate| " +
              Num(r.cwiseAbs().maxCoeff()) + " after 50 iterations)");
        const VectorXd step = jk.completeOrthogonalDecomposition().solve(-r);
        VectorXd z = Select(x, chart);
        for (std::size_t i = 0; i < moved.size(); ++i)
          z[static_cast<Index>(moved[i])] += step[static_cast<Index>(i)];
        x = ChartPoint(chart, values, z);
      }
      Describe(chart, given, x, report);
    }
    ReducedPoint p = Reduce(chart, values, x);
    p.report = std::move(report);
    return Finish(std::move(p), options_.tolerance, true, states);
  }

  // The chart of ReducedRates / ReducedJacobian: chosen at the scenario's point.
  void ChooseBaseChart() {
    Values values = ValuesOf(scenario_);
    VectorXd x;
    base_chart_ = Choose(values, x, nullptr);
    base_values_ = values;
    base_x_ = x;
  }

  VectorXd ZOfValues(const Chart& chart, const Values& values) const {
    VectorXd x(static_cast<Index>(n_ + k_));
    for (std::size_t i = 0; i < n_; ++i) x[static_cast<Index>(i)] = values.q[i];
    for (std::size_t a = 0; a < k_; ++a) x[static_cast<Index>(n_ + a)] = values.v[a];
    return Select(x, chart);
  }

  Scenario scenario_;
  LinearizationOptions options_;
  std::shared_ptr<const LagrangeDiracSystem> model_;
  const CompiledDae& dae_;
  std::size_t n_ = 0, k_ = 0, m_ = 0, h_ = 0;
  std::vector<std::string> q_names_, v_names_, holonomic_names_, controls_;
  std::vector<std::size_t> control_rows_;
  std::vector<bool> named_, found_, user_speed_;
  Chart base_chart_;
  Values base_values_;
  VectorXd base_x_;
};

}  // namespace

std::shared_ptr<const Linearizer> MakeManifoldLinearizer(
    const Scenario& scenario, const LinearizationOptions& options,
    std::shared_ptr<const LagrangeDiracSystem> model) {
  return std::make_shared<ManifoldLinearizer>(scenario, options, std::move(model));
}

}  // namespace dirac::linearization
