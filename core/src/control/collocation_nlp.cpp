// CollocationNlp: trapezoidal collocation of the controlled equations, the group element carried
// on SO(3) or SE(2) by products of exponentials, exact first derivatives from the tapes.
#include "control/collocation_nlp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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

CollocationNlp::CollocationNlp(const Scenario& s, const CollocationDynamics& dynamics,
                               int intervals)
    : dynamics_(dynamics),
      N_(intervals),
      d_(static_cast<int>(dynamics.num_states())),
      m_(static_cast<int>(dynamics.num_controls())),
      p_(static_cast<int>(dynamics.num_path_constraints())) {
  const OptimalControlSpec& spec = s.optimal_control;
  free_time_ = spec.horizon_free;
  horizon_ = spec.horizon;
  horizon_min_ = spec.horizon_min;
  horizon_max_ = spec.horizon_max;
  offset_ = free_time_ ? 1 : 0;
  num_variables_ = offset_ + (N_ + 1) * (d_ + m_);

  std::vector<std::string> names = dynamics.base();
  names.insert(names.end(), dynamics.fibre().begin(), dynamics.fibre().end());
  initial_.assign(d_, std::nullopt);
  final_.assign(d_, std::nullopt);
  // Fixed end values: listed, or (initial, unlisted) the scenario's own; nullopt when free.
  for (int i = 0; i < d_; ++i) {
    initial_[i] = CurrentValue(s, "initial." + names[i]);
    final_[i] = CurrentValue(s, "final." + names[i]);
  }
  // Per-node bounds (state then controls), then the starting point.
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
  start_.assign((N_ + 1) * (d_ + m_), 0.0);
  for (int k = 0; k <= N_; ++k) {
    const double s_k = static_cast<double>(k) / N_;
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
        a = b = 0.01 * range * std::sin(1.3 * k + 2.1 * (i - d_) + 0.5);
      }
      start_[k * (d_ + m_) + i] = std::clamp((1 - s_k) * a + s_k * b, lower_[i], upper_[i]);
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
  const int group_rows = group_rows_.size();
  path_row_ = N_ * d_ + group_rows;
  num_constraints_ = path_row_ + (N_ + 1) * p_;

  // The Jacobian pattern, once: defect rows on nodes k, k+1 (and T); group rows on every
  // state (and T).
  for (int k = 0; k < N_; ++k)
    for (int i = 0; i < d_; ++i) {
      const int row = k * d_ + i;
      if (free_time_) pattern_.emplace_back(row, 0);
      for (int c = 0; c < 2 * (d_ + m_); ++c) pattern_.emplace_back(row, StateIndex(k, c));
    }
  for (int r = 0; r < group_rows; ++r) {
    const int row = N_ * d_ + r;
    if (free_time_) pattern_.emplace_back(row, 0);
    for (int k = 0; k <= N_; ++k)
      for (int i = 0; i < d_; ++i) pattern_.emplace_back(row, StateIndex(k, i));
  }
  // Path rows on their node's state and controls (and T through t_k = k T / N).
  for (int k = 0; k <= N_; ++k)
    for (int j = 0; j < p_; ++j) {
      if (free_time_) pattern_.emplace_back(PathRow(k, j), 0);
      for (int c = 0; c < d_ + m_; ++c) pattern_.emplace_back(PathRow(k, j), StateIndex(k, c));
    }
  BuildHessianPattern();
}

void CollocationNlp::Bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
  if (free_time_) {
    x_l[0] = horizon_min_;
    x_u[0] = horizon_max_;
  }
  for (int k = 0; k <= N_; ++k)
    for (int i = 0; i < d_ + m_; ++i) {
      double lo = lower_[i], hi = upper_[i];
      const std::optional<double>* fixed = i >= d_   ? nullptr
                                           : k == 0  ? &initial_[i]
                                           : k == N_ ? &final_[i]
                                                     : nullptr;
      if (fixed && fixed->has_value()) lo = hi = **fixed;
      x_l[StateIndex(k, i)] = lo;
      x_u[StateIndex(k, i)] = hi;
    }
  std::fill(g_l, g_l + num_constraints_, 0.0);
  std::fill(g_u, g_u + num_constraints_, 0.0);
  std::fill(g_l + path_row_, g_l + num_constraints_, -std::numeric_limits<double>::infinity());
}

void CollocationNlp::StartingPoint(double* w) const {
  if (free_time_) w[0] = horizon_;
  std::copy(start_.begin(), start_.end(), w + offset_);
}

double CollocationNlp::Objective(const double* w) const {
  const double T = FinalTime(w), h = T / N_;
  double sum = 0.0;
  for (int k = 0; k <= N_; ++k) {
    double c = 0.0;
    dynamics_.Cost(k * h, w + StateIndex(k, 0), w + ControlIndex(k, 0), &c, nullptr);
    sum += (k == 0 || k == N_ ? 0.5 : 1.0) * c;
  }
  double phi = 0.0;
  if (dynamics_.has_terminal_cost())
    dynamics_.TerminalCost(T, w + StateIndex(N_, 0), &phi, nullptr);
  return h * sum + phi;
}

void CollocationNlp::ObjectiveGradient(const double* w, double* gradient) const {
  const double T = FinalTime(w), h = T / N_;
  std::fill(gradient, gradient + num_variables_, 0.0);
  std::vector<double> g(1 + d_ + m_);
  for (int k = 0; k <= N_; ++k) {
    const double weight = k == 0 || k == N_ ? 0.5 : 1.0;
    double c = 0.0;
    dynamics_.Cost(k * h, w + StateIndex(k, 0), w + ControlIndex(k, 0), &c, g.data());
    for (int i = 0; i < d_ + m_; ++i) gradient[StateIndex(k, i)] += h * weight * g[1 + i];
    // d/dT of h w_k C(t_k): h = T/N, t_k = k T / N.
    if (free_time_) gradient[0] += weight * (c / N_ + h * g[0] * k / N_);
  }
  if (!dynamics_.has_terminal_cost()) return;
  double phi = 0.0;
  dynamics_.TerminalCost(T, w + StateIndex(N_, 0), &phi, g.data());
  for (int i = 0; i < d_; ++i) gradient[StateIndex(N_, i)] += g[1 + i];
  if (free_time_) gradient[0] += g[0];
}

void CollocationNlp::Increments(const double* w, std::vector<Eigen::Vector3d>& xi,
                                std::vector<Eigen::Vector3d>& phi) const {
  const double h = FinalTime(w) / N_;
  xi.resize(N_ + 1);
  phi.resize(N_);
  for (int k = 0; k <= N_; ++k) dynamics_.BodyVelocity(w + StateIndex(k, 0), xi[k].data(), nullptr);
  for (int k = 0; k < N_; ++k) phi[k] = h * (xi[k] + xi[k + 1]) / 2;
}

std::vector<Eigen::Matrix3d> CollocationNlp::Attitudes(const double* w) const {
  std::vector<Eigen::Matrix3d> R{R0_};
  if (!dynamics_.has_body_velocity()) return std::vector<Eigen::Matrix3d>(N_ + 1, R0_);
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  for (int k = 0; k < N_; ++k) R.push_back(R.back() * group_rows_.Exp(phi[k]));
  return R;
}

void CollocationNlp::Constraints(const double* w, double* g) const {
  const double h = FinalTime(w) / N_;
  std::vector<double> f0(d_), f1(d_);
  dynamics_.Rates(0.0, w + StateIndex(0, 0), w + ControlIndex(0, 0), f0.data(), nullptr);
  for (int k = 0; k < N_; ++k) {
    dynamics_.Rates((k + 1) * h, w + StateIndex(k + 1, 0), w + ControlIndex(k + 1, 0), f1.data(),
                    nullptr);
    for (int i = 0; i < d_; ++i)
      g[k * d_ + i] = w[StateIndex(k + 1, i)] - w[StateIndex(k, i)] - h / 2 * (f0[i] + f1[i]);
    std::swap(f0, f1);
  }
  if (has_group_) group_rows_.Residual(Attitudes(w).back(), g + N_ * d_);
  for (int k = 0; k <= N_ && p_ > 0; ++k)
    dynamics_.Path(k * h, w + StateIndex(k, 0), w + ControlIndex(k, 0), g + PathRow(k, 0), nullptr);
}

void CollocationNlp::JacobianValues(const double* w, double* values) const {
  const double T = FinalTime(w), h = T / N_;
  const int cols = 1 + d_ + m_;
  std::vector<double> f0(d_), f1(d_), J0(d_ * cols), J1(d_ * cols);
  dynamics_.Rates(0.0, w + StateIndex(0, 0), w + ControlIndex(0, 0), f0.data(), J0.data());
  std::size_t e = 0;
  for (int k = 0; k < N_; ++k) {
    dynamics_.Rates((k + 1) * h, w + StateIndex(k + 1, 0), w + ControlIndex(k + 1, 0), f1.data(),
                    J1.data());
    for (int i = 0; i < d_; ++i) {
      if (free_time_)
        values[e++] = -(f0[i] + f1[i]) / (2.0 * N_) -
                      h / 2 * (J0[i * cols] * k / N_ + J1[i * cols] * (k + 1.0) / N_);
      for (int c = 0; c < d_ + m_; ++c)
        values[e++] = (c == i ? -1.0 : 0.0) - h / 2 * J0[i * cols + 1 + c];
      for (int c = 0; c < d_ + m_; ++c)
        values[e++] = (c == i ? 1.0 : 0.0) - h / 2 * J1[i * cols + 1 + c];
    }
    std::swap(f0, f1);
    std::swap(J0, J1);
  }
  if (has_group_) GroupJacobian(w, values + e);
  PathJacobian(w, values + e + group_rows_.size() * (offset_ + (N_ + 1) * d_));
}

void CollocationNlp::PathJacobian(const double* w, double* values) const {
  const double h = FinalTime(w) / N_;
  const int cols = 1 + d_ + m_;
  std::vector<double> g(p_), J(p_ * cols);
  std::size_t e = 0;
  for (int k = 0; k <= N_ && p_ > 0; ++k) {
    dynamics_.Path(k * h, w + StateIndex(k, 0), w + ControlIndex(k, 0), g.data(), J.data());
    for (int j = 0; j < p_; ++j) {
      if (free_time_) values[e++] = J[j * cols] * k / N_;
      for (int c = 0; c < d_ + m_; ++c) values[e++] = J[j * cols + 1 + c];
    }
  }
}

void CollocationNlp::GroupJacobian(const double* w, double* values) const {
  const double T = FinalTime(w), h = T / N_;
  const int cols = 1 + d_ + m_;
  std::size_t e = 0;
  // dr = D eta, eta = sum_k Ad_{P_k^-1} J_r(phi_k) dphi_k, P_k = E_{k+1} ... E_{N-1},
  // dphi_k = h/2 (Dxi_k dx_k + Dxi_{k+1} dx_{k+1}) + xi-bar_k dT / N.
  std::vector<Eigen::Vector3d> xi, phi;
  Increments(w, xi, phi);
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> Dxi(N_ + 1);
  std::vector<double> jac(3 * cols), value(3);
  for (int k = 0; k <= N_; ++k) {
    dynamics_.BodyVelocity(w + StateIndex(k, 0), value.data(), jac.data());
    Dxi[k].resize(3, d_);
    for (int r = 0; r < 3; ++r)
      for (int i = 0; i < d_; ++i) Dxi[k](r, i) = jac[r * cols + 1 + i];
  }
  Eigen::Matrix3d RN = R0_;
  std::vector<Eigen::Matrix3d> E(N_);
  for (int k = 0; k < N_; ++k) {
    E[k] = group_rows_.Exp(phi[k]);
    RN = RN * E[k];
  }
  const int rows = group_rows_.size();
  const Eigen::Matrix3d A = group_rows_.EtaJacobian(RN);
  // M_k = D Ad_{P_k^-1} J_r(phi_k): d rows / d phi_k (the first `rows` rows).
  std::vector<Eigen::Matrix3d> M(N_);
  Eigen::Matrix3d P = Eigen::Matrix3d::Identity();
  for (int k = N_ - 1; k >= 0; --k) {
    M[k] = A * group_rows_.InverseAdjoint(P) * group_rows_.RightJacobian(phi[k]);
    P = E[k] * P;
  }
  Eigen::Vector3d dT = Eigen::Vector3d::Zero();
  for (int k = 0; k < N_; ++k) dT += M[k] * (xi[k] + xi[k + 1]) / (2.0 * N_);
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> node(N_ + 1);
  for (int k = 0; k <= N_; ++k) {
    Eigen::Matrix3d sum = Eigen::Matrix3d::Zero();
    if (k > 0) sum += M[k - 1];
    if (k < N_) sum += M[k];
    node[k] = h / 2 * sum * Dxi[k];
  }
  for (int r = 0; r < rows; ++r) {
    if (free_time_) values[e++] = dT[r];
    for (int k = 0; k <= N_; ++k)
      for (int i = 0; i < d_; ++i) values[e++] = node[k](r, i);
  }
}

}  // namespace dirac::control
