// CollocationNlp: Hermite-Simpson or trapezoidal collocation of the controlled equations on a
// non-uniform mesh, the group element on SO(3) or SE(2) at every node in a local chart with
// per-interval group defects, exact first derivatives from the tapes (the group rows:
// collocation_group.cpp).
#include "control/collocation_nlp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "control/collocation_mesh.hpp"
#include "dirac/error.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::control {
namespace {

using geometry::MatrixGroup;

// A component of the reconstructed group element: SO3 <prefix>.x/.y/.z, SE2 its three names.
bool IsGroupQuantity(const ReconstructionSpec& rec, const std::string& name) {
  if (rec.group == "SE2")
    return std::find(rec.names.begin(), rec.names.end(), name) != rec.names.end();
  if (rec.group != "SO3" || rec.names.empty()) return false;
  for (const char* axis : {".x", ".y", ".z"})
    if (name == rec.names[0] + axis) return true;
  return false;
}

// Its component index: SO3 .x/.y/.z -> 0, 1, 2; SE2 the position of the name in names.
int GroupComponent(const ReconstructionSpec& rec, const std::string& name) {
  if (rec.group == "SE2")
    return static_cast<int>(std::find(rec.names.begin(), rec.names.end(), name) -
                            rec.names.begin());
  return name.back() - 'x';
}

}  // namespace

CollocationFormula CollocationFormula::For(CollocationScheme scheme) {
  CollocationFormula f;
  if (scheme == CollocationScheme::kTrapezoidal) {
    f.points = 2;
    f.rows = 1;
    f.alpha[0][0] = -1;
    f.alpha[0][1] = 1;
    f.beta[0][0] = f.beta[0][1] = -0.5;
    f.weight[0] = f.weight[1] = 0.5;
    f.fraction[1] = 1;
    return f;
  }
  // Hermite-Simpson, separated: the Simpson defect, then the Hermite interpolant at the midpoint.
  f.points = 3;
  f.rows = 2;
  const double simpson_alpha[3] = {-1, 0, 1}, simpson_beta[3] = {-1.0 / 6, -4.0 / 6, -1.0 / 6};
  const double hermite_alpha[3] = {-0.5, 1, -0.5}, hermite_beta[3] = {-0.125, 0, 0.125};
  const double weight[3] = {1.0 / 6, 4.0 / 6, 1.0 / 6}, fraction[3] = {0, 0.5, 1};
  for (int l = 0; l < 3; ++l) {
    f.alpha[0][l] = simpson_alpha[l];
    f.beta[0][l] = simpson_beta[l];
    f.alpha[1][l] = hermite_alpha[l];
    f.beta[1][l] = hermite_beta[l];
    f.weight[l] = weight[l];
    f.fraction[l] = fraction[l];
  }
  return f;
}

CollocationNlp::CollocationNlp(const Scenario& s, const CollocationDynamics& dynamics,
                               int intervals)
    : CollocationNlp(s, dynamics, UniformMesh(intervals), s.optimal_control.collocation.scheme) {}

CollocationNlp::CollocationNlp(const Scenario& s, const CollocationDynamics& dynamics,
                               std::vector<double> mesh, CollocationScheme scheme)
    : dynamics_(dynamics),
      scheme_(scheme),
      formula_(CollocationFormula::For(scheme)),
      mesh_(std::move(mesh)),
      N_(static_cast<int>(mesh_.size()) - 1),
      d_(static_cast<int>(dynamics.num_states())),
      m_(static_cast<int>(dynamics.num_controls())),
      p_(static_cast<int>(dynamics.num_path_constraints())) {
  const OptimalControlSpec& spec = s.optimal_control;
  P_ = N_ * (formula_.points - 1) + 1;
  point_fraction_.resize(P_);
  for (int k = 0; k < N_; ++k)
    for (int l = 0; l < formula_.points; ++l)
      point_fraction_[LocalPoint(k, l)] =
          mesh_[k] + formula_.fraction[l] * (mesh_[k + 1] - mesh_[k]);
  free_time_ = spec.horizon_free;
  horizon_ = spec.horizon;
  horizon_min_ = spec.horizon_min;
  horizon_max_ = spec.horizon_max;
  offset_ = free_time_ ? 1 : 0;
  num_variables_ = offset_ + P_ * (d_ + m_);

  std::vector<std::string> names = dynamics.base();
  names.insert(names.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  initial_.assign(d_, std::nullopt);
  final_.assign(d_, std::nullopt);
  // Fixed end values: listed, or (initial, unlisted) the scenario's own; nullopt when free.
  for (int i = 0; i < d_; ++i) {
    initial_[i] = CurrentValue(s, "initial." + names[i]);
    final_[i] = CurrentValue(s, "final." + names[i]);
  }
  // Per-point bounds (state then controls), then the starting point.
  lower_.assign(d_ + m_, -std::numeric_limits<double>::infinity());
  upper_.assign(d_ + m_, std::numeric_limits<double>::infinity());
  for (const VariableBound& b : spec.bounds) {
    int index = -1;
    for (int i = 0; i < d_; ++i)
      if (names[i] == b.name) index = i;
    for (int j = 0; j < m_; ++j)
      if (dynamics.controls()[j] == b.name) index = d_ + j;
    if (index < 0)
      throw ScenarioError(s.source_file, b.where.line, b.name, "names no state or control");
    lower_[index] = b.min;
    upper_[index] = b.max;
  }
  start_.assign(P_ * (d_ + m_), 0.0);
  for (int p = 0; p < P_; ++p) {
    const double s_p = point_fraction_[p];
    for (int i = 0; i < d_ + m_; ++i) {
      double a = 0.0, b = 0.0;
      if (i < d_) {
        a = initial_[i].value_or(final_[i].value_or(0.0));
        b = final_[i].value_or(a);
      } else {
        // Controls: a small deterministic ripple (1 % of the bound's half range) off zero, so
        // that a guess in an invariant subspace (a rest-to-rest turn about a principal axis:
        // the other rates stay 0) does not keep the iterates on that subspace's stationary point.
        const double range = std::isfinite(upper_[i] - lower_[i]) ? (upper_[i] - lower_[i]) / 2 : 1;
        a = b = 0.01 * range * std::sin(1.3 * N_ * s_p + 2.1 * (i - d_) + 0.5);
      }
      start_[p * (d_ + m_) + i] = std::clamp((1 - s_p) * a + s_p * b, lower_[i], upper_[i]);
    }
  }

  // The group element: G_0 fixed; on SO(3) R_N fixed as a whole or free, on SE(2) the position
  // (as a pair) and the angle each fixed or free (shooting's rules).
  const ReconstructionSpec& rec = s.reconstruction;
  const MatrixGroup group = rec.group == "SE2" ? MatrixGroup::kSE2 : MatrixGroup::kSO3;
  auto group_condition = [&](const std::vector<BoundaryCondition>& list, int& free,
                             Eigen::Vector3d& value, bool fixed[3]) {
    for (const auto& bc : list) {
      if (!IsGroupQuantity(rec, bc.quantity)) continue;
      const int c = GroupComponent(rec, bc.quantity);
      fixed[c] = !bc.free;
      if (bc.free)
        ++free;
      else
        value[c] = bc.value;
    }
  };
  int initial_free = 0, final_free = 0;
  bool initial_fixed[3] = {true, true, true}, final_fixed[3] = {false, false, false};
  Eigen::Vector3d r0 = Eigen::Vector3d::Zero(), r1 = Eigen::Vector3d::Zero();
  if (rec.group == "SO3" && rec.initial.size() == 9)
    r0 = geometry::Log(
        MatrixGroup::kSO3,
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(rec.initial.data()));
  if (rec.group == "SE2" && rec.initial.size() == 3)
    r0 = Eigen::Vector3d(rec.initial[0], rec.initial[1], rec.initial[2]);
  group_condition(spec.initial, initial_free, r0, initial_fixed);
  group_condition(spec.final, final_free, r1, final_fixed);
  const int fixed_count = final_fixed[0] + final_fixed[1] + final_fixed[2];
  if (initial_free > 0)
    throw ScenarioError(s.source_file, spec.where.line, rec.names.empty() ? "" : rec.names[0],
                        "collocation needs the initial attitude fixed");
  if (group == MatrixGroup::kSO3 && fixed_count > 0 && fixed_count < 3)
    throw ScenarioError(s.source_file, spec.where.line, rec.names[0],
                        "collocation fixes the final attitude as a whole (all three of " +
                            rec.names[0] + ".x, .y, .z) or leaves it free");
  if (group == MatrixGroup::kSE2 && final_fixed[0] != final_fixed[1])
    throw ScenarioError(s.source_file, spec.where.line, rec.names[0] + ", " + rec.names[1],
                        "the SE2 position is fixed or free as a pair");
  if (group == MatrixGroup::kSO3) {
    R0_ = geometry::Exp(MatrixGroup::kSO3, r0);
    group_rows_ = GroupRows(group, geometry::Exp(group, r1), fixed_count == 3, fixed_count == 3);
  } else if (rec.group == "SE2") {
    R0_ = SE2Matrix(r0[0], r0[1], r0[2]);
    group_rows_ = GroupRows(group, SE2Matrix(r1[0], r1[1], r1[2]), final_fixed[0], final_fixed[2]);
  }
  has_group_ = group_rows_.size() > 0;
  if (has_group_ && !dynamics.has_body_velocity())
    throw ScenarioError(s.source_file, spec.where.line, rec.names[0],
                        "the reconstruction has no body velocity");
  for (int i = 0; i < d_ && has_group_; ++i)
    if (dynamics_.body_velocity_reads()[i]) group_states_.push_back(i);
  eta_offset_ = num_variables_;
  if (has_group_) num_variables_ += 3 * N_;
  chart_row_ = N_ * formula_.rows * d_;
  path_row_ = chart_row_ + (has_group_ ? 3 * N_ + group_rows_.size() : 0);
  num_constraints_ = path_row_ + P_ * p_;
  BuildPattern();
  BuildHessianPattern();
  if (has_group_) DefaultReference();
}

// The Jacobian pattern, once: defect rows on their interval's points (and T); group defects on
// the states the body velocity reads at their interval's points, T and the chart coordinates at
// the interval's ends; the final rows on eta_N; path rows on their point's state and controls
// (and T).
void CollocationNlp::BuildPattern() {
  for (int k = 0; k < N_; ++k)
    for (int r = 0; r < formula_.rows; ++r)
      for (int i = 0; i < d_; ++i) {
        const int row = DefectRow(k, r, i);
        if (free_time_) pattern_.emplace_back(row, 0);
        for (int l = 0; l < formula_.points; ++l)
          for (int c = 0; c < d_ + m_; ++c)
            pattern_.emplace_back(row, PointIndex(LocalPoint(k, l), c));
      }
  for (int k = 0; k < N_ && has_group_; ++k)
    for (int a = 0; a < 3; ++a) {
      const int row = GroupDefectRow(k, a);
      if (free_time_) pattern_.emplace_back(row, 0);
      for (int l = 0; l < formula_.points; ++l)
        for (const int i : group_states_)
          pattern_.emplace_back(row, PointIndex(LocalPoint(k, l), i));
      for (int c = k == 0 ? 3 : 0; c < 6; ++c)
        pattern_.emplace_back(row, EtaIndex(k + c / 3, c % 3));
    }
  for (int r = 0; r < group_rows_.size() && has_group_; ++r)
    for (int c = 0; c < 3; ++c) pattern_.emplace_back(FinalGroupRow() + r, EtaIndex(N_, c));
  for (int p = 0; p < P_; ++p)
    for (int j = 0; j < p_; ++j) {
      if (free_time_) pattern_.emplace_back(PathRow(p, j), 0);
      for (int c = 0; c < d_ + m_; ++c) pattern_.emplace_back(PathRow(p, j), PointIndex(p, c));
    }
}

void CollocationNlp::Bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
  if (free_time_) {
    x_l[0] = horizon_min_;
    x_u[0] = horizon_max_;
  }
  for (int p = 0; p < P_; ++p)
    for (int i = 0; i < d_ + m_; ++i) {
      double lo = lower_[i], hi = upper_[i];
      const std::optional<double>* fixed = i >= d_       ? nullptr
                                           : p == 0      ? &initial_[i]
                                           : p == P_ - 1 ? &final_[i]
                                                         : nullptr;
      if (fixed && fixed->has_value()) lo = hi = **fixed;
      x_l[PointIndex(p, i)] = lo;
      x_u[PointIndex(p, i)] = hi;
    }
  std::fill(x_l + eta_offset_, x_l + num_variables_, -std::numeric_limits<double>::infinity());
  std::fill(x_u + eta_offset_, x_u + num_variables_, std::numeric_limits<double>::infinity());
  std::fill(g_l, g_l + num_constraints_, 0.0);
  std::fill(g_u, g_u + num_constraints_, 0.0);
  std::fill(g_l + path_row_, g_l + num_constraints_, -std::numeric_limits<double>::infinity());
}

void CollocationNlp::StartingPoint(double* w) const {
  if (warm_.size() == static_cast<std::size_t>(num_variables_)) {
    std::copy(warm_.begin(), warm_.end(), w);
    return;
  }
  if (free_time_) w[0] = horizon_;
  std::copy(start_.begin(), start_.end(), w + offset_);
  std::fill(w + eta_offset_, w + num_variables_, 0.0);
}

double CollocationNlp::Objective(const double* w) const {
  const double T = FinalTime(w);
  double sum = 0.0;
  for (int k = 0; k < N_; ++k) {
    const double h = T * (mesh_[k + 1] - mesh_[k]);
    for (int l = 0; l < formula_.points; ++l) {
      const int p = LocalPoint(k, l);
      double c = 0.0;
      dynamics_.Cost(T * point_fraction_[p], w + PointIndex(p, 0), w + PointIndex(p, d_), &c,
                     nullptr);
      sum += h * formula_.weight[l] * c;
    }
  }
  double phi = 0.0;
  if (dynamics_.has_terminal_cost())
    dynamics_.TerminalCost(T, w + PointIndex(P_ - 1, 0), &phi, nullptr);
  return sum + phi;
}

void CollocationNlp::ObjectiveGradient(const double* w, double* gradient) const {
  const double T = FinalTime(w);
  std::fill(gradient, gradient + num_variables_, 0.0);
  std::vector<double> g(1 + d_ + m_);
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k], h = T * delta;
    for (int l = 0; l < formula_.points; ++l) {
      const int p = LocalPoint(k, l);
      const double weight = formula_.weight[l], s_p = point_fraction_[p];
      double c = 0.0;
      dynamics_.Cost(T * s_p, w + PointIndex(p, 0), w + PointIndex(p, d_), &c, g.data());
      for (int i = 0; i < d_ + m_; ++i) gradient[PointIndex(p, i)] += h * weight * g[1 + i];
      // d/dT of h w_l C(t_p): h = T delta, t_p = T s_p.
      if (free_time_) gradient[0] += weight * (delta * c + h * g[0] * s_p);
    }
  }
  if (!dynamics_.has_terminal_cost()) return;
  double phi = 0.0;
  dynamics_.TerminalCost(T, w + PointIndex(P_ - 1, 0), &phi, g.data());
  for (int i = 0; i < d_; ++i) gradient[PointIndex(P_ - 1, i)] += g[1 + i];
  if (free_time_) gradient[0] += g[0];
}

void CollocationNlp::Constraints(const double* w, double* g) const {
  const double T = FinalTime(w);
  const int L = formula_.points;
  std::vector<double> f(L * d_);
  for (int k = 0; k < N_; ++k) {
    const double h = T * (mesh_[k + 1] - mesh_[k]);
    for (int l = 0; l < L; ++l) {
      const int p = LocalPoint(k, l);
      dynamics_.Rates(T * point_fraction_[p], w + PointIndex(p, 0), w + PointIndex(p, d_),
                      &f[l * d_], nullptr);
    }
    for (int r = 0; r < formula_.rows; ++r)
      for (int i = 0; i < d_; ++i) {
        double value = 0.0;
        for (int l = 0; l < L; ++l)
          value += formula_.alpha[r][l] * w[PointIndex(LocalPoint(k, l), i)] +
                   h * formula_.beta[r][l] * f[l * d_ + i];
        g[DefectRow(k, r, i)] = value;
      }
  }
  if (has_group_) GroupConstraints(w, g);
  for (int p = 0; p < P_ && p_ > 0; ++p)
    dynamics_.Path(T * point_fraction_[p], w + PointIndex(p, 0), w + PointIndex(p, d_),
                   g + PathRow(p, 0), nullptr);
}

void CollocationNlp::JacobianValues(const double* w, double* values) const {
  const double T = FinalTime(w);
  const int cols = 1 + d_ + m_, L = formula_.points;
  std::vector<double> f(L * d_), J(L * d_ * cols);
  std::size_t e = 0;
  for (int k = 0; k < N_; ++k) {
    const double delta = mesh_[k + 1] - mesh_[k], h = T * delta;
    for (int l = 0; l < L; ++l) {
      const int p = LocalPoint(k, l);
      dynamics_.Rates(T * point_fraction_[p], w + PointIndex(p, 0), w + PointIndex(p, d_),
                      &f[l * d_], &J[l * d_ * cols]);
    }
    for (int r = 0; r < formula_.rows; ++r)
      for (int i = 0; i < d_; ++i) {
        if (free_time_) {
          double dT = 0.0;
          for (int l = 0; l < L; ++l)
            dT += formula_.beta[r][l] *
                  (delta * f[l * d_ + i] +
                   h * J[(l * d_ + i) * cols] * point_fraction_[LocalPoint(k, l)]);
          values[e++] = dT;
        }
        for (int l = 0; l < L; ++l)
          for (int c = 0; c < d_ + m_; ++c)
            values[e++] = (c == i ? formula_.alpha[r][l] : 0.0) +
                          h * formula_.beta[r][l] * J[(l * d_ + i) * cols + 1 + c];
      }
  }
  if (has_group_) e += GroupJacobian(w, values + e);
  PathJacobian(w, values + e);
}

void CollocationNlp::PathJacobian(const double* w, double* values) const {
  const double T = FinalTime(w);
  const int cols = 1 + d_ + m_;
  std::vector<double> g(p_), J(p_ * cols);
  std::size_t e = 0;
  for (int p = 0; p < P_ && p_ > 0; ++p) {
    const double s_p = point_fraction_[p];
    dynamics_.Path(T * s_p, w + PointIndex(p, 0), w + PointIndex(p, d_), g.data(), J.data());
    for (int j = 0; j < p_; ++j) {
      if (free_time_) values[e++] = J[j * cols] * s_p;
      for (int c = 0; c < d_ + m_; ++c) values[e++] = J[j * cols + 1 + c];
    }
  }
}

}  // namespace dirac::control
