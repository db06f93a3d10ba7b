#include "scenario/initial_state.hpp"

#include <ginac/ginac.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dirac/error.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/differentiate.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::scenario {
namespace {

using GiNaC::ex;

std::string Sci(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3e", value);
  return buffer;
}

// The holonomic equations f(q; p) and the constraint forms as compiled tapes on the inputs
// [t, q, v, parameters], evaluated at the scenario's current values.
class ConstraintTapes {
 public:
  explicit ConstraintTapes(const Scenario& s)
      : symbols_(s, {Velocities::kTangent}), n_(s.coordinates.size()) {
    std::vector<GiNaC::symbol> inputs{symbols_.t()};
    for (auto* block : {&symbols_.q(), &symbols_.velocities(), &symbols_.parameters()})
      inputs.insert(inputs.end(), block->begin(), block->end());
    auto d_dq = symbolic::MakeDifferentiators(symbols_.q());
    auto d_dv = symbolic::MakeDifferentiators(symbols_.velocities());
    std::vector<ex> f, jacobian, forms;
    for (const auto& h : s.holonomic) {
      f.push_back(symbols_.Parse(h.equation, h.where.line, h.name + ".equation"));
      for (std::size_t i = 0; i < n_; ++i) jacobian.push_back(d_dq[i](f.back()));
    }
    // Rows of A(q): the nonholonomic forms' coefficients, then the holonomic differentials.
    for (const auto& c : s.constraints) {
      const ex form = symbols_.Parse(c.form, c.where.line, c.name + ".form");
      for (std::size_t i = 0; i < n_; ++i) forms.push_back(d_dv[i](form));
    }
    forms.insert(forms.end(), jacobian.begin(), jacobian.end());
    f_ = symbolic::CompileExpressions(f, inputs);
    jacobian_ = symbolic::CompileExpressions(jacobian, inputs);
    forms_ = symbolic::CompileExpressions(forms, inputs);
    input_.assign(inputs.size(), 0.0);
    for (std::size_t i = 0; i < n_; ++i) {
      input_[1 + i] = s.coordinates[i].initial;
      input_[1 + n_ + i] = s.coordinates[i].initial_velocity;
    }
    for (std::size_t j = 0; j < s.parameters.size(); ++j)
      input_[1 + 2 * n_ + j] = s.parameters[j].value;
  }

  void SetQ(const Eigen::VectorXd& q) { std::copy(q.data(), q.data() + n_, input_.begin() + 1); }
  Eigen::VectorXd F() const { return Eval(f_, f_.num_outputs(), 1); }
  Eigen::MatrixXd J() const { return Eval(jacobian_, jacobian_.num_outputs() / n_, n_); }
  Eigen::MatrixXd A() const { return Eval(forms_, forms_.num_outputs() / n_, n_); }

 private:
  Eigen::MatrixXd Eval(const CompiledFunction& tape, std::size_t rows, std::size_t cols) const {
    std::vector<double> out(rows * cols), scratch(tape.scratch_size());
    tape.Evaluate(input_.data(), out.data(), scratch.data());
    Eigen::MatrixXd m(rows, cols);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) m(r, c) = out[r * cols + c];
    return m;
  }

  ScenarioSymbols symbols_;
  std::size_t n_;
  CompiledFunction f_, jacobian_, forms_;
  std::vector<double> input_;
};

double MaxAbs(const Eigen::VectorXd& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.0; }

// Index of the largest |f_r| (the constraint a message names).
std::size_t Worst(const Eigen::VectorXd& f) {
  Eigen::Index worst = 0;
  f.cwiseAbs().maxCoeff(&worst);
  return static_cast<std::size_t>(worst);
}

// The first row of `a` that is a combination of the rows before it (relative to the largest
// entry), or a.rows() if the rows are independent.
Eigen::Index FirstDependentRow(const Eigen::MatrixXd& a, double tolerance) {
  std::vector<Eigen::VectorXd> basis;
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    Eigen::VectorXd row = a.row(r).transpose();
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& b : basis) row -= b.dot(row) * b;
    if (row.norm() <= tolerance) return r;
    basis.push_back(row / row.norm());
  }
  return a.rows();
}

// Columns of `a` spanning its column space, chosen by greedy pivoting (largest remaining norm):
// among the `preferred` columns while one adds rank, then among the others.
std::vector<Eigen::Index> PivotColumns(Eigen::MatrixXd a, const std::vector<bool>& preferred,
                                       double tolerance) {
  std::vector<Eigen::Index> chosen;
  std::vector<bool> used(static_cast<std::size_t>(a.cols()), false);
  while (static_cast<Eigen::Index>(chosen.size()) < a.rows()) {
    Eigen::Index best = -1;
    for (bool want : {true, false}) {
      double best_norm = tolerance;
      for (Eigen::Index c = 0; c < a.cols(); ++c) {
        const auto k = static_cast<std::size_t>(c);
        if (used[k] || preferred[k] != want || a.col(c).norm() <= best_norm) continue;
        best = c;
        best_norm = a.col(c).norm();
      }
      if (best >= 0) break;
    }
    if (best < 0) break;
    used[static_cast<std::size_t>(best)] = true;
    chosen.push_back(best);
    const Eigen::VectorXd u = a.col(best).normalized();
    a -= u * (u.transpose() * a);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// q0 on f = 0: Newton with minimum-norm steps in the coordinates marked `solve` (halving a step
// that does not reduce max |f|). Returns max |f| reached.
double SolveCoordinates(const Scenario& s, ConstraintTapes& tapes, Eigen::VectorXd& q) {
  std::vector<Eigen::Index> unknown;
  for (std::size_t i = 0; i < s.coordinates.size(); ++i)
    if (s.coordinates[i].solve) unknown.push_back(static_cast<Eigen::Index>(i));
  tapes.SetQ(q);
  Eigen::VectorXd f = tapes.F();
  for (int iteration = 0; iteration < 50 && MaxAbs(f) > kHolonomicTolerance * 1e-2; ++iteration) {
    const Eigen::MatrixXd j = tapes.J();
    Eigen::MatrixXd ju(j.rows(), static_cast<Eigen::Index>(unknown.size()));
    for (std::size_t u = 0; u < unknown.size(); ++u)
      ju.col(static_cast<Eigen::Index>(u)) = j.col(unknown[u]);
    const Eigen::VectorXd step =
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(ju).solve(f);
    bool reduced = false;
    for (double scale = 1.0; scale > 1e-4 && !reduced; scale /= 2) {
      Eigen::VectorXd trial = q;
      for (std::size_t u = 0; u < unknown.size(); ++u)
        trial[unknown[u]] -= scale * step[static_cast<Eigen::Index>(u)];
      tapes.SetQ(trial);
      const Eigen::VectorXd ft = tapes.F();
      if (ft.allFinite() && MaxAbs(ft) < MaxAbs(f)) {
        q = trial;
        f = ft;
        reduced = true;
      }
    }
    tapes.SetQ(q);
    if (!reduced) break;
  }
  return MaxAbs(f);
}

void RefuseSetOfSolvedCoordinate(const Scenario& s, const std::set<std::string>& set_names) {
  for (const auto& c : s.coordinates)
    if (c.solve && set_names.count(c.name))
      throw ScenarioError(s.source_file, 0, c.name,
                          "is solved from the holonomic constraints (`solve: true`): set the "
                          "coordinates it depends on instead");
}

void SolveVelocities(Scenario& s, ConstraintTapes& tapes, const std::set<std::string>& set_names) {
  const Eigen::MatrixXd a = tapes.A();
  const double scale = std::max(1.0, a.size() ? a.cwiseAbs().maxCoeff() : 0.0);
  const Eigen::Index dependent_row = FirstDependentRow(a, 1e-10 * scale);
  if (dependent_row < a.rows()) {
    const auto r = static_cast<std::size_t>(dependent_row);
    const bool form = r < s.constraints.size();
    const std::string name =
        form ? s.constraints[r].name : s.holonomic[r - s.constraints.size()].name;
    const std::size_t line =
        form ? s.constraints[r].where.line : s.holonomic[r - s.constraints.size()].where.line;
    throw ScenarioError(s.source_file, line, name,
                        "the constraint forms are linearly dependent at the initial coordinates "
                        "(this one is a combination of those before it): the dependent "
                        "velocities cannot be solved");
  }
  const std::size_t n = s.coordinates.size();
  std::vector<bool> not_given(n);
  for (std::size_t i = 0; i < n; ++i) not_given[i] = !s.coordinates[i].velocity_given;
  const std::vector<Eigen::Index> dependent = PivotColumns(a, not_given, 1e-10 * scale);
  Eigen::VectorXd v(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    v[static_cast<Eigen::Index>(i)] = s.coordinates[i].initial_velocity;
  Eigen::MatrixXd ad(a.rows(), static_cast<Eigen::Index>(dependent.size()));
  std::vector<bool> is_dependent(n, false);
  for (std::size_t d = 0; d < dependent.size(); ++d) {
    ad.col(static_cast<Eigen::Index>(d)) = a.col(dependent[d]);
    is_dependent[static_cast<std::size_t>(dependent[d])] = true;
  }
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(a.rows());
  for (std::size_t i = 0; i < n; ++i)
    if (!is_dependent[i])
      rhs -= a.col(static_cast<Eigen::Index>(i)) * v[static_cast<Eigen::Index>(i)];
  const Eigen::VectorXd vd = ad.fullPivLu().solve(rhs);
  std::string independent;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_dependent[i])
      independent += (independent.empty() ? "" : ", ") + s.coordinates[i].velocity;
  for (std::size_t d = 0; d < dependent.size(); ++d) {
    Coordinate& c = s.coordinates[static_cast<std::size_t>(dependent[d])];
    const double value = vd[static_cast<Eigen::Index>(d)];
    if (set_names.count(c.velocity))
      throw ScenarioError(s.source_file, 0, c.velocity,
                          "is a dependent velocity: the constraint forms fix it at q0 from the "
                          "independent ones (" +
                              independent + "); set those instead");
    if (c.velocity_given && std::abs(value - c.initial_velocity) > 1e-10 * (1 + std::abs(value)))
      throw ScenarioError(s.source_file, c.where.line, c.velocity,
                          "initial_velocity " + Sci(c.initial_velocity) +
                              " violates the constraint forms, which fix this dependent velocity "
                              "at " +
                              Sci(value) + " from the others (" + independent +
                              "): leave it out to have it solved");
    c.initial_velocity = value;
    c.velocity_solved = true;
  }
}

}  // namespace

void CheckHolonomicEquations(const Scenario& s, const std::set<std::string>& names) {
  const GiNaC::symtab table = TableOfNames({names.begin(), names.end()});
  std::vector<std::string> forbidden{"t"};
  for (const auto& c : s.coordinates) forbidden.insert(forbidden.end(), {c.velocity, c.momentum});
  for (const auto& h : s.holonomic) {
    const ex f = symbolic::ParseExpression(h.equation, table,
                                           {s.source_file, h.where.line, h.name + ".equation"});
    for (const auto& name : forbidden) {
      const auto it = table.find(name);
      if (it != table.end() && f.has(it->second))
        throw ScenarioError(s.source_file, h.where.line, h.name + ".equation",
                            "a holonomic equation f(q) = 0 depends on the coordinates and "
                            "parameters only; it uses " +
                                name);
    }
  }
}

std::vector<ConstraintSpec> HolonomicDifferentials(const Scenario& s) {
  std::vector<ConstraintSpec> out;
  if (s.holonomic.empty()) return out;
  ScenarioSymbols symbols(s, {Velocities::kTangent});
  auto d_dq = symbolic::MakeDifferentiators(symbols.q());
  for (const auto& h : s.holonomic) {
    const ex f = symbols.Parse(h.equation, h.where.line, h.name + ".equation");
    ex df = 0;
    for (std::size_t i = 0; i < symbols.q().size(); ++i) df += d_dq[i](f) * symbols.velocities()[i];
    if (df.is_zero())
      throw ScenarioError(s.source_file, h.where.line, h.name,
                          "holonomic equation does not depend on the coordinates");
    // By name: ScenarioSymbols defines <name>_rate = df in every table with velocities.
    out.push_back({h.name, h.name + "_rate", h.multiplier, h.where});
  }
  return out;
}

Scenario WithHolonomicDifferentials(const Scenario& s) {
  Scenario out = s;
  for (auto& form : HolonomicDifferentials(s)) out.constraints.push_back(std::move(form));
  return out;
}

void SolveInitialState(Scenario& s, const std::set<std::string>& set_names) {
  for (auto& c : s.coordinates) c.velocity_solved = false;
  if (s.holonomic.empty()) {
    for (const auto& c : s.coordinates)
      if (c.solve)
        throw ScenarioError(s.source_file, c.where.line, c.name + ".solve",
                            "`solve: true` solves a coordinate from holonomic constraints; this "
                            "scenario has none");
    return;
  }
  RefuseSetOfSolvedCoordinate(s, set_names);
  ConstraintTapes tapes(s);
  Eigen::VectorXd q(static_cast<Eigen::Index>(s.coordinates.size()));
  for (std::size_t i = 0; i < s.coordinates.size(); ++i)
    q[static_cast<Eigen::Index>(i)] = s.coordinates[i].initial;
  const bool any_solved = std::any_of(s.coordinates.begin(), s.coordinates.end(),
                                      [](const Coordinate& c) { return c.solve; });
  const double residual = any_solved ? SolveCoordinates(s, tapes, q) : MaxAbs(tapes.F());
  if (!(residual <= kHolonomicTolerance)) {
    const Eigen::VectorXd f = tapes.F();
    const HolonomicSpec& h = s.holonomic[Worst(f)];
    throw ScenarioError(
        s.source_file, h.where.line, h.name,
        any_solved
            ? "Newton could not solve the coordinates marked `solve: true` onto f = 0: "
              "|f| = " +
                  Sci(residual) + " after the last step (tolerance " + Sci(kHolonomicTolerance) +
                  "); give them a closer `initial`, or mark the coordinates this "
                  "constraint depends on"
            : "the initial coordinates violate this holonomic constraint: f = " +
                  Sci(f[static_cast<Eigen::Index>(Worst(f))]) + " (tolerance " +
                  Sci(kHolonomicTolerance) +
                  "); give consistent values, or mark a coordinate `solve: true` to have "
                  "it solved");
  }
  for (std::size_t i = 0; i < s.coordinates.size(); ++i)
    s.coordinates[i].initial = q[static_cast<Eigen::Index>(i)];
  SolveVelocities(s, tapes, set_names);
}

}  // namespace dirac::scenario
