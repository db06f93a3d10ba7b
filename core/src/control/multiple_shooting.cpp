#include "control/multiple_shooting.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "dirac/error.hpp"
#include "geometry/lie_group.hpp"

namespace dirac::control {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kSensitivityTolerance = 1e-8;

struct MultipleShooting::Segment {
  std::vector<double> x;
  Eigen::MatrixXd S, eta;
  Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
  Eigen::VectorXd Sp, etap;  // along the parameter step, if asked
  double cost = 0.0;
};

MultipleShooting::MultipleShooting(const ExplicitFlow& flow, BoundaryProblem problem, int intervals,
                                   std::vector<double> parameters, const std::atomic<bool>* cancel)
    : flow_(flow),
      problem_(std::move(problem)),
      intervals_(std::max(1, intervals)),
      parameters_(std::move(parameters)),
      cancel_(cancel) {
  d_ = flow_.dimension();
  if (d_ == 0) throw ModelError("the flow has no states to shoot on");
  group_dim_ = problem_.has_group ? 3 : 0;
  for (std::size_t i = 0; i < d_; ++i)
    if (problem_.x0_unknown[i]) unknown_index_.push_back(i);
  m0_ = unknown_index_.size() + (problem_.g0_unknown ? 3 : 0);
  unknowns_ = m0_ + static_cast<std::size_t>(intervals_ - 1) * (d_ + group_dim_);
  for (int j = 0; j <= intervals_; ++j) times_.push_back(problem_.horizon * j / intervals_);
}

std::vector<double> MultipleShooting::InitialState(const ShootingPoint& point) const {
  std::vector<double> x = problem_.x0;
  for (std::size_t k = 0; k < unknown_index_.size(); ++k) x[unknown_index_[k]] = point.u0[k];
  return x;
}

void MultipleShooting::Integrate(double t0, double t1, const std::vector<double>& x,
                                 const Eigen::Matrix3d& g, const Eigen::MatrixXd& S0,
                                 const Eigen::MatrixXd& eta0, const Eigen::VectorXd* parameter_step,
                                 Segment& out) {
  const std::size_t d = d_, m = static_cast<std::size_t>(S0.cols());
  const bool group = problem_.has_group;
  const bool with_p = parameter_step != nullptr;
  const std::size_t P = parameters_.size();
  // State: x (d), S (d x m, column-major), [Sp (d)], [g (9, column-major), eta (3 x m), [etap]],
  // cost (1).
  const std::size_t cols = m + (with_p ? 1 : 0);
  const std::size_t off_S = d, off_g = d + d * cols, off_eta = off_g + (group ? 9 : 0);
  const std::size_t off_cost = off_eta + (group ? 3 * cols : 0), size = off_cost + 1;
  std::vector<double> y(size, 0.0);
  std::copy(x.begin(), x.end(), y.begin());
  Eigen::Map<Eigen::MatrixXd>(y.data() + off_S, d, m) = S0;
  if (group) {
    Eigen::Map<Eigen::Matrix3d>(y.data() + off_g) = g;
    Eigen::Map<Eigen::MatrixXd>(y.data() + off_eta, 3, m) = eta0;
  }
  std::vector<double> in(1 + d + P), f(d), jac(d * d), fp(d * P), xi(3), dxi(3 * d), c(1);
  std::copy(parameters_.begin(), parameters_.end(), in.begin() + 1 + static_cast<long>(d));
  std::size_t scratch_size = 0;
  for (const CompiledFunction* tape :
       {&flow_.rates, &flow_.rates_jacobian, &flow_.parameter_jacobian, &flow_.body_velocity,
        &flow_.body_velocity_jacobian, &flow_.running_cost})
    scratch_size = std::max(scratch_size, tape->scratch_size());
  std::vector<double> scratch(scratch_size);
  Eigen::VectorXd dp;
  if (with_p) dp = *parameter_step;
  const geometry::MatrixGroup kind = problem_.group;
  dynamics::ExplicitOde ode;
  ode.size = size;
  ode.rtol = relative_tolerance_;
  ode.atol = relative_tolerance_ * 1e-2;
  // The motion, the group element and the cost are controlled to the relative tolerance; the
  // sensitivities only to an absolute 1e-8 (enough for Newton and for agreement with central
  // differences to 1e-6), so they rarely shorten the steps.
  ode.atol_vector.assign(size, ode.atol);
  std::fill(ode.atol_vector.begin() + static_cast<long>(off_S),
            ode.atol_vector.begin() + static_cast<long>(off_g), kSensitivityTolerance);
  if (group)
    std::fill(ode.atol_vector.begin() + static_cast<long>(off_eta),
              ode.atol_vector.begin() + static_cast<long>(off_cost), kSensitivityTolerance);
  ode.rates = [&](double t, const double* Y, double* Yd) {
    if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw Cancelled{};
    in[0] = t;
    std::copy(Y, Y + d, in.begin() + 1);
    flow_.rates.Evaluate(in.data(), f.data(), scratch.data());
    std::copy(f.begin(), f.end(), Yd);
    // Without sensitivities (cols = 0) the motion alone: no Jacobian tapes are evaluated.
    const Eigen::Map<const Eigen::MatrixXd> S(Y + off_S, d, cols);
    Eigen::Map<Eigen::MatrixXd> dS(Yd + off_S, d, cols);
    if (cols > 0) {
      flow_.rates_jacobian.Evaluate(in.data(), jac.data(), scratch.data());
      dS.noalias() = Eigen::Map<const RowMajor>(jac.data(), d, d).lazyProduct(S);  // no GEMM
    }
    if (with_p && P > 0) {
      flow_.parameter_jacobian.Evaluate(in.data(), fp.data(), scratch.data());
      dS.col(cols - 1) += Eigen::Map<const RowMajor>(fp.data(), d, P) * dp;
    }
    if (group) {
      flow_.body_velocity.Evaluate(in.data(), xi.data(), scratch.data());
      const Eigen::Vector3d v(xi[0], xi[1], xi[2]);
      const Eigen::Map<const Eigen::Matrix3d> G(Y + off_g);
      const Eigen::Matrix3d hat = geometry::Hat(kind, v);
      Eigen::Map<Eigen::Matrix3d>(Yd + off_g).noalias() = G * hat;
      if (cols > 0) {
        flow_.body_velocity_jacobian.Evaluate(in.data(), dxi.data(), scratch.data());
        const Eigen::Map<const Eigen::MatrixXd> eta(Y + off_eta, 3, cols);
        Eigen::Map<Eigen::MatrixXd> deta(Yd + off_eta, 3, cols);
        deta.noalias() = -geometry::Ad(kind, v) * eta;
        deta.noalias() += Eigen::Map<const RowMajor>(dxi.data(), 3, d).lazyProduct(S);
      }
    }
    flow_.running_cost.Evaluate(in.data(), c.data(), scratch.data());
    Yd[off_cost] = flow_.running_cost.num_outputs() ? c[0] : 0.0;
    for (std::size_t i = 0; i < size; ++i)
      if (!std::isfinite(Yd[i])) return false;
    return true;
  };
  ++integrations_;
  if (step_budget_ > 0) {
    const long remaining = step_budget_ - driver_.statistics().steps;
    const auto exceeded = [&] {
      std::ostringstream where;
      where << "integrating [" << t0 << ", " << t1 << "]";
      return WorkLimitExceeded{step_budget_, where.str()};
    };
    if (remaining <= 0) throw exceeded();
    ode.max_steps = std::min(ode.max_steps, remaining);
    try {
      driver_.Integrate(ode, t0, t1, y.data());
    } catch (const NumericalError&) {
      if (driver_.statistics().steps >= step_budget_) throw exceeded();
      throw;
    }
  } else {
    driver_.Integrate(ode, t0, t1, y.data());
  }
  out.x.assign(y.begin(), y.begin() + static_cast<long>(d));
  out.S = Eigen::Map<const Eigen::MatrixXd>(y.data() + off_S, d, cols).leftCols(m);
  if (with_p) out.Sp = Eigen::Map<const Eigen::MatrixXd>(y.data() + off_S, d, cols).col(cols - 1);
  if (group) {
    out.g = geometry::ProjectToGroup(kind, Eigen::Map<const Eigen::Matrix3d>(y.data() + off_g));
    const Eigen::Map<const Eigen::MatrixXd> eta(y.data() + off_eta, 3, cols);
    out.eta = eta.leftCols(m);
    if (with_p) out.etap = eta.col(cols - 1);
  } else {
    out.eta = Eigen::MatrixXd::Zero(3, m);
    if (with_p) out.etap = Eigen::Vector3d::Zero();
  }
  out.cost = y[off_cost];
}

bool MultipleShooting::Evaluate(const ShootingPoint& point, Eigen::VectorXd& F, Eigen::MatrixXd* J,
                                std::string* failure, const Eigen::VectorXd* parameter_step,
                                Eigen::VectorXd* dF_dp) {
  const std::size_t d = d_, gd = group_dim_, n_u = unknown_index_.size();
  const std::size_t rows0 = problem_.initial.num_rows(), rowsT = problem_.final.num_rows();
  const std::size_t block = d + gd;
  F = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(unknowns_));
  if (J)
    *J = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(unknowns_),
                               static_cast<Eigen::Index>(unknowns_));
  if (dF_dp) *dF_dp = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(unknowns_));
  auto column_of = [&](int interval) {
    return interval == 0 ? std::size_t{0} : m0_ + static_cast<std::size_t>(interval - 1) * block;
  };
  // Initial rows, with derivatives along the unknowns of t = 0.
  const std::vector<double> x0 = InitialState(point);
  // Without J (or dF/dp) no variational equations are integrated: the sensitivities have no
  // columns, and the motion alone is integrated.
  const bool sensitivities = J || dF_dp;
  const std::size_t m0 = sensitivities ? m0_ : 0, columns = sensitivities ? block : 0;
  Eigen::MatrixXd S0 = Eigen::MatrixXd::Zero(d, m0), eta0 = Eigen::MatrixXd::Zero(3, m0);
  if (sensitivities) {
    for (std::size_t k = 0; k < n_u; ++k) S0(unknown_index_[k], k) = 1.0;
    if (problem_.g0_unknown) eta0.rightCols(3).setIdentity();
  }
  Eigen::MatrixXd rows_jac = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(unknowns_), m0);
  EndRows(problem_.initial, problem_, flow_, 0.0, x0.data(), point.g0, S0, eta0, parameters_, F,
          rows_jac, 0);
  if (J) J->block(0, 0, rows0, m0_) = rows_jac.topRows(rows0);

  cost_ = 0.0;
  Segment seg;
  std::vector<double> x = x0;
  Eigen::Matrix3d g = point.g0;
  Eigen::MatrixXd S = S0, eta = eta0;
  for (int j = 0; j < intervals_; ++j) {
    if (j > 0) {
      x = point.x[j - 1];
      g = point.g[j - 1];
      S = Eigen::MatrixXd::Zero(d, columns);
      eta = Eigen::MatrixXd::Zero(3, columns);
      if (sensitivities) {
        S.leftCols(d).setIdentity();
        if (gd) eta.rightCols(3).setIdentity();
      }
    }
    try {
      Integrate(times_[j], times_[j + 1], x, g, S, eta, parameter_step, seg);
    } catch (const NumericalError& e) {
      if (failure) *failure = "interval " + std::to_string(j + 1) + ": " + e.what();
      return false;
    }
    cost_ += seg.cost;
    const std::size_t col = column_of(j);
    const auto m = static_cast<Eigen::Index>(S.cols());
    if (j + 1 < intervals_) {
      // Continuity at node j + 1.
      const std::size_t r = rows0 + static_cast<std::size_t>(j) * block;
      const std::size_t next = column_of(j + 1);
      const std::vector<double>& xn = point.x[j];
      for (std::size_t i = 0; i < d; ++i) F(r + i) = xn[i] - seg.x[i];
      if (J) {
        J->block(r, next, d, d).setIdentity();
        J->block(r, col, d, m) = -seg.S;
      }
      if (dF_dp) dF_dp->segment(r, d) = -seg.Sp;
      if (gd) {
        const Eigen::Vector3d res = geometry::Log(problem_.group, seg.g.inverse() * point.g[j]);
        F.segment<3>(r + d) = res;
        const Eigen::Matrix3d Jl_inv = geometry::LeftJacobian(problem_.group, res).inverse();
        if (J) {
          J->block(r + d, next + d, 3, 3) = geometry::LeftJacobian(problem_.group, -res).inverse();
          J->block(r + d, col, 3, m) = -Jl_inv * seg.eta;
        }
        if (dF_dp) dF_dp->segment<3>(r + d) = -Jl_inv * seg.etap;
      }
    } else {
      // Final rows.
      const std::size_t r = unknowns_ - rowsT;
      Eigen::MatrixXd jac_rows = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(unknowns_), m);
      EndRows(problem_.final, problem_, flow_, times_[j + 1], seg.x.data(), seg.g, seg.S, seg.eta,
              parameters_, F, jac_rows, r);
      if (J) J->block(r, col, rowsT, m) = jac_rows.middleRows(r, rowsT);
      if (dF_dp) {
        Eigen::VectorXd tmp = F;
        Eigen::MatrixXd jac_p = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(unknowns_), 1);
        EndRows(problem_.final, problem_, flow_, times_[j + 1], seg.x.data(), seg.g, seg.Sp,
                seg.etap, parameters_, tmp, jac_p, r);
        dF_dp->segment(r, rowsT) = jac_p.col(0).segment(r, rowsT);
      }
      final_state_ = seg.x;
      final_group_ = seg.g;
    }
  }
  return true;
}

ShootingPoint MultipleShooting::Displace(const ShootingPoint& point,
                                         const Eigen::VectorXd& step) const {
  ShootingPoint out = point;
  const std::size_t n_u = unknown_index_.size();
  for (std::size_t k = 0; k < n_u; ++k) out.u0[k] += step(k);
  if (problem_.g0_unknown)
    out.g0 = geometry::ProjectToGroup(
        problem_.group, point.g0 * geometry::Exp(problem_.group, step.segment<3>(n_u)));
  const std::size_t block = d_ + group_dim_;
  for (int j = 1; j < intervals_; ++j) {
    const std::size_t c = m0_ + static_cast<std::size_t>(j - 1) * block;
    for (std::size_t i = 0; i < d_; ++i) out.x[j - 1][i] += step(c + i);
    if (group_dim_)
      out.g[j - 1] = geometry::ProjectToGroup(
          problem_.group, point.g[j - 1] * geometry::Exp(problem_.group, step.segment<3>(c + d_)));
  }
  return out;
}

ShootingPoint MultipleShooting::FromInitialGuess() {
  ShootingPoint point;
  for (std::size_t i : unknown_index_) point.u0.push_back(problem_.x0[i]);
  point.g0 = problem_.g0;
  std::vector<double> x = problem_.x0;
  Eigen::Matrix3d g = problem_.g0;
  const Eigen::MatrixXd none(d_, 0), none3(3, 0);
  Segment seg;
  for (int j = 1; j < intervals_; ++j) {
    bool ok = true;
    try {
      Integrate(times_[j - 1], times_[j], x, g, none, none3, nullptr, seg);
    } catch (const NumericalError&) {
      ok = false;  // keep the last good node: Newton starts from a piecewise-constant guess
    }
    if (ok) {
      x = seg.x;
      g = seg.g;
    }
    point.x.push_back(x);
    point.g.push_back(g);
  }
  return point;
}

bool MultipleShooting::FromWarmStart(const WarmStart& warm, ShootingPoint* point) {
  if (warm.node_states.empty() || warm.node_states.front().size() != d_ ||
      warm.node_states.size() != warm.node_times.size() ||
      warm.node_groups.size() != warm.node_states.size())
    return false;
  auto state_at = [&](double t, std::vector<double>& x, Eigen::Matrix3d& g) {
    // Linear interpolation between the stored nodes (the group along its geodesic).
    const auto& T = warm.node_times;
    std::size_t k = 0;
    while (k + 2 < T.size() && T[k + 1] < t) ++k;
    const double s = T[k + 1] > T[k] ? std::clamp((t - T[k]) / (T[k + 1] - T[k]), 0.0, 1.0) : 0.0;
    x.resize(d_);
    for (std::size_t i = 0; i < d_; ++i)
      x[i] = (1 - s) * warm.node_states[k][i] + s * warm.node_states[k + 1][i];
    const Eigen::Matrix3d g0 =
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(warm.node_groups[k].data());
    const Eigen::Matrix3d g1 = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(
        warm.node_groups[k + 1].data());
    g = Eigen::Matrix3d::Identity();
    if (problem_.has_group)
      g = g0 * geometry::Exp(problem_.group, s * geometry::Log(problem_.group, g0.inverse() * g1));
  };
  ShootingPoint p;
  std::vector<double> x;
  Eigen::Matrix3d g;
  state_at(0.0, x, g);
  for (std::size_t i : unknown_index_) p.u0.push_back(x[i]);
  p.g0 = problem_.g0_unknown ? geometry::ProjectToGroup(problem_.group, g) : problem_.g0;
  for (int j = 1; j < intervals_; ++j) {
    state_at(times_[j] * (warm.node_times.back() / problem_.horizon), x, g);
    p.x.push_back(x);
    p.g.push_back(problem_.has_group ? geometry::ProjectToGroup(problem_.group, g) : g);
  }
  *point = std::move(p);
  return true;
}

std::string MultipleShooting::Layout() const {
  std::ostringstream out;
  out << "n " << unknowns_ << "; intervals " << intervals_ << "; x0 ";
  for (bool unknown : problem_.x0_unknown) out << (unknown ? '?' : '=');
  out << "; g0 " << (problem_.g0_unknown ? '?' : '=');
  for (const EndConditions* end : {&problem_.initial, &problem_.final}) {
    out << " | rows " << end->num_rows() << ":";
    for (const auto& [index, value] : end->coordinates) out << " z" << index;
    out << (end->group_all ? " G" : "") << (end->se2_translation ? " xy" : "")
        << (end->se2_angle ? " theta" : "") << " p0";
    for (std::size_t index : end->zero_costates) out << " " << index;
    out << " N" << end->transversality_rows;
  }
  return out.str();
}

WarmStart MultipleShooting::ToWarmStart(const ShootingPoint& point) const {
  WarmStart warm;
  warm.layout = Layout();
  warm.node_times = times_;
  warm.parameters = parameters_;
  auto store = [&](const std::vector<double>& x, const Eigen::Matrix3d& g) {
    warm.node_states.push_back(x);
    std::vector<double> m(9);
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(m.data()) = g;
    warm.node_groups.push_back(m);
  };
  store(InitialState(point), point.g0);
  for (int j = 1; j < intervals_; ++j) store(point.x[j - 1], point.g[j - 1]);
  store(final_state_.empty() ? InitialState(point) : final_state_, final_group_);
  return warm;
}

}  // namespace dirac::control
