#include "lagrange_dirac/variational_step.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "dirac/error.hpp"

namespace dirac::lagrange_dirac {

namespace {

// Newton on the step's equations: stop when the update is below this times (1 + |z|).
constexpr double kNewtonTolerance = 1e-14;
constexpr int kNewtonIterations = 50;

double MaxAbs(const Eigen::VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

[[noreturn]] void NewtonFailure(const char* which, double t, double h, double residual) {
  std::ostringstream out;
  out << "variational integrator: Newton on the " << which << " did not converge in the step "
      << "from t = " << t << " (h = " << h << ", last update " << residual
      << "): the step is too large for the motion there, or the Lagrangian is degenerate "
         "(singular dL/dv dv) along it; try a smaller simulation.step";
  throw NumericalError(out.str());
}

}  // namespace

VariationalIntegrator::VariationalIntegrator(const CompiledDae& dae,
                                             const std::vector<double>& parameters, double step,
                                             int order, double t0, const std::vector<double>& x0)
    : dae_(dae), n_(dae.layout.n), m_(dae.layout.m), h_(step), t0_(t0), order_(order) {
  const InputLayout& L = dae.layout;
  if (dae.lagrangian_gradient.num_outputs() != 2 * n_ || L.k != n_)
    throw ModelError(
        "simulation.method: variational needs a Lagrangian on TQ (this system has none)");
  if (order != 2 && order != 4)
    throw ModelError("simulation settings: order must be 2 or 4 (is " + std::to_string(order) +
                     ")");
  if (!(step > 0.0)) throw ModelError("simulation settings: step must be > 0 for variational");
  if (x0.size() != 2 * n_) throw ModelError("variational integrator: x0 is not (q, v)");
  std::vector<std::size_t> qv, q;
  for (std::size_t i = 0; i < n_; ++i) q.push_back(L.q() + i);
  qv = q;
  for (std::size_t i = 0; i < n_; ++i) qv.push_back(L.v() + i);
  hessian_ = TangentJacobian(dae.lagrangian_gradient, qv);
  constraint_jacobian_ = TangentJacobian(dae.constraints, q);
  nh_ = dae.holonomic.num_outputs();
  if (nh_ > m_ || dae.holonomic_jacobian.num_outputs() != nh_ * n_)
    throw ModelError(
        "variational integrator: the holonomic constraints' differentials are not "
        "among the constraint rows");
  input_.assign(L.size(), 0.0);
  std::copy(parameters.begin(), parameters.end(), input_.begin() + L.parameters());
  std::size_t scratch = std::max(
      {dae.lagrangian_gradient.scratch_size(), dae.constraints.scratch_size(),
       dae.constraint_matrix.scratch_size(), hessian_.work_size(), constraint_jacobian_.work_size(),
       dae.holonomic.scratch_size(), dae.holonomic_jacobian.scratch_size()});
  scratch_.assign(scratch, 0.0);
  x_ = x0;
  p_.assign(n_, 0.0);
  std::vector<double> lq(n_);
  Gradient(t0, x_.data(), x_.data() + n_, lq.data(), p_.data(), nullptr);
}

void VariationalIntegrator::Load(double t, const double* q, const double* v) {
  const InputLayout& L = dae_.layout;
  input_[L.t()] = t;
  std::copy(q, q + n_, input_.begin() + L.q());
  std::copy(v, v + n_, input_.begin() + L.v());
}

void VariationalIntegrator::Gradient(double t, const double* q, const double* v, double* lq,
                                     double* lv, Eigen::MatrixXd* hessian) {
  Load(t, q, v);
  values_.resize(std::max(2 * n_, hessian_.rows.size()));
  dae_.lagrangian_gradient.Evaluate(input_.data(), values_.data(), scratch_.data());
  std::copy(values_.begin(), values_.begin() + n_, lq);
  std::copy(values_.begin() + n_, values_.begin() + 2 * n_, lv);
  if (!hessian) return;
  hessian->setZero(2 * n_, 2 * n_);
  hessian_.Evaluate(input_.data(), values_.data(), scratch_.data());
  for (std::size_t e = 0; e < hessian_.rows.size(); ++e)
    (*hessian)(static_cast<Eigen::Index>(hessian_.rows[e]),
               static_cast<Eigen::Index>(hessian_.cols[e])) = values_[e];
}

void VariationalIntegrator::Constraints(double t, const double* q, const double* v,
                                        Eigen::MatrixXd& A, Eigen::MatrixXd* gq) {
  Load(t, q, v);
  values_.resize(std::max({m_ * n_, constraint_jacobian_.rows.size(), 2 * n_}));
  dae_.constraint_matrix.Evaluate(input_.data(), values_.data(), scratch_.data());
  A.resize(static_cast<Eigen::Index>(m_), static_cast<Eigen::Index>(n_));
  for (std::size_t r = 0; r < m_; ++r)
    for (std::size_t a = 0; a < n_; ++a)
      A(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(a)) = values_[r * n_ + a];
  if (!gq) return;
  gq->setZero(static_cast<Eigen::Index>(m_), static_cast<Eigen::Index>(n_));
  constraint_jacobian_.Evaluate(input_.data(), values_.data(), scratch_.data());
  for (std::size_t e = 0; e < constraint_jacobian_.rows.size(); ++e)
    (*gq)(static_cast<Eigen::Index>(constraint_jacobian_.rows[e]),
          static_cast<Eigen::Index>(constraint_jacobian_.cols[e])) = values_[e];
}

void VariationalIntegrator::Holonomic(double t, const double* q, Eigen::VectorXd& f,
                                      Eigen::MatrixXd& fq) {
  const auto n = static_cast<Eigen::Index>(n_), nh = static_cast<Eigen::Index>(nh_);
  Load(t, q, x_.data() + n_);  // f depends on q only
  values_.resize(std::max({nh_ * n_, values_.size()}));
  f.resize(nh);
  dae_.holonomic.Evaluate(input_.data(), f.data(), scratch_.data());
  dae_.holonomic_jacobian.Evaluate(input_.data(), values_.data(), scratch_.data());
  fq.resize(nh, n);
  for (Eigen::Index r = 0; r < nh; ++r)
    for (Eigen::Index a = 0; a < n; ++a) fq(r, a) = values_[static_cast<std::size_t>(r * n + a)];
}

void VariationalIntegrator::MidpointStep(double t, double h, const double* q, const double* p,
                                         double* q1, double* p1, double* v1,
                                         Eigen::MatrixXd* flow_jacobian,
                                         Eigen::MatrixXd* force_two_form) {
  const auto n = static_cast<Eigen::Index>(n_), m = static_cast<Eigen::Index>(m_);
  const Eigen::Map<const Eigen::VectorXd> q0(q, n), p0(p, n);
  const double tm = t + 0.5 * h;
  Eigen::MatrixXd A0, Am, A1, gq, H(2 * n, 2 * n), J(n + m, n + m);
  Eigen::VectorXd lq(n), lv(n), qm(n), vm(n), R(n + m);
  if (m > 0) Constraints(t, q, x_.data() + n_, A0, nullptr);
  // (q1, lambda): p0 + D1 L_d + (h/2) A(q0)^T lambda = 0 and A(qm) (q1 - q0)/h = 0 for the
  // nonholonomic rows, f(q1)/h = 0 for the holonomic ones (the last nh of the m rows: SHAKE).
  const auto nh = static_cast<Eigen::Index>(nh_);
  Eigen::VectorXd f1(nh);
  Eigen::MatrixXd fq1(nh, n);
  Eigen::VectorXd z(n + m);
  z.head(n) = Eigen::Map<const Eigen::VectorXd>(q1, n);  // the caller's guess
  z.tail(m).setZero();
  int it = 0;
  double update = 0.0;
  for (;; ++it) {
    if (it == kNewtonIterations) NewtonFailure("discrete Euler-Lagrange equations", t, h, update);
    qm = 0.5 * (q0 + z.head(n));
    vm = (z.head(n) - q0) / h;
    Gradient(tm, qm.data(), vm.data(), lq.data(), lv.data(), &H);
    R.head(n) = p0 + 0.5 * h * lq - lv;
    J.topLeftCorner(n, n) = 0.25 * h * H.topLeftCorner(n, n) + 0.5 * H.topRightCorner(n, n) -
                            0.5 * H.bottomLeftCorner(n, n) - H.bottomRightCorner(n, n) / h;
    if (m > 0) {
      R.head(n) += 0.5 * h * A0.transpose() * z.tail(m);
      Constraints(tm, qm.data(), vm.data(), Am, &gq);
      R.tail(m) = Am * vm;
      J.topRightCorner(n, m) = 0.5 * h * A0.transpose();
      J.bottomLeftCorner(m, n) = 0.5 * gq + Am / h;
      J.bottomRightCorner(m, m).setZero();
      if (nh > 0) {
        Holonomic(t + h, z.data(), f1, fq1);
        R.tail(nh) = f1 / h;
        J.bottomLeftCorner(nh, n) = fq1 / h;
      }
    }
    ++iterations_;
    const Eigen::VectorXd delta = J.partialPivLu().solve(-R);
    if (!delta.allFinite()) NewtonFailure("discrete Euler-Lagrange equations", t, h, update);
    z += delta;
    update = MaxAbs(delta.head(n));
    if (update <= kNewtonTolerance * (1.0 + MaxAbs(z.head(n)))) break;
  }
  Eigen::Map<Eigen::VectorXd>(q1, n) = z.head(n);
  // The discrete momentum D2 L_d at the converged q1.
  qm = 0.5 * (q0 + z.head(n));
  vm = (z.head(n) - q0) / h;
  Gradient(tm, qm.data(), vm.data(), lq.data(), lv.data(), nullptr);
  const Eigen::VectorXd P = 0.5 * h * lq + lv;
  // (v1, mu): L_v(q1, v1) = P + (h/2) A(q1)^T mu, A(q1) v1 = 0.
  Eigen::VectorXd w(n + m);
  w.head(n) = vm;
  w.tail(m).setZero();
  if (m > 0) Constraints(t + h, q1, vm.data(), A1, nullptr);
  Eigen::MatrixXd H1(2 * n, 2 * n), K(n + m, n + m);
  Eigen::VectorXd lq1(n), lv1(n), S(n + m);
  for (int k = 0;; ++k) {
    if (k == kNewtonIterations) NewtonFailure("node momentum (Legendre transform)", t, h, update);
    Gradient(t + h, q1, w.data(), lq1.data(), lv1.data(), &H1);
    S.head(n) = lv1 - P;
    K.topLeftCorner(n, n) = H1.bottomRightCorner(n, n);
    if (m > 0) {
      S.head(n) -= 0.5 * h * A1.transpose() * w.tail(m);
      S.tail(m) = A1 * w.head(n);
      K.topRightCorner(n, m) = -0.5 * h * A1.transpose();
      K.bottomLeftCorner(m, n) = A1;
      K.bottomRightCorner(m, m).setZero();
    }
    ++iterations_;
    const Eigen::VectorXd delta = K.partialPivLu().solve(-S);
    if (!delta.allFinite()) NewtonFailure("node momentum (Legendre transform)", t, h, update);
    w += delta;
    update = MaxAbs(delta.head(n));
    if (update <= kNewtonTolerance * (1.0 + MaxAbs(w.head(n)))) break;
  }
  Eigen::Map<Eigen::VectorXd>(v1, n) = w.head(n);
  Eigen::Map<Eigen::VectorXd> p1v(p1, n);
  p1v = P;
  if (m > 0) p1v += 0.5 * h * A1.transpose() * w.tail(m);
  if (flow_jacobian || force_two_form) StepJacobian(t, h, q, z, w, flow_jacobian, force_two_form);
}

std::vector<double> VariationalIntegrator::Fractions() const {
  const double g1 = 1.0 / (2.0 - std::cbrt(2.0));
  return order_ == 4 ? std::vector<double>{g1, 1.0 - 2.0 * g1, g1} : std::vector<double>{1.0};
}

long VariationalIntegrator::StepsTo(double tout) const {
  const double now = t0_ + static_cast<double>(steps_) * h_;
  const double ratio = (tout - now) / h_;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) > 1e-9 * std::max(1.0, std::abs(ratio)) || whole < 0)
    throw NumericalError("variational integrator: t = " + std::to_string(tout) +
                         " is not a whole number of steps from t = " + std::to_string(now));
  return static_cast<long>(whole);
}

double VariationalIntegrator::Advance(double tout) {
  const long whole = StepsTo(tout);
  const std::vector<double> fractions = Fractions();
  std::vector<double> q1(n_), p1(n_), v1(n_);
  for (long s = 0; s < whole; ++s) {
    double t = t0_ + static_cast<double>(steps_) * h_;
    for (const double f : fractions) {
      const double h = f * h_;
      for (std::size_t i = 0; i < n_; ++i) q1[i] = x_[i] + h * x_[n_ + i];  // Newton's guess
      MidpointStep(t, h, x_.data(), p_.data(), q1.data(), p1.data(), v1.data());
      std::copy(q1.begin(), q1.end(), x_.begin());
      std::copy(v1.begin(), v1.end(), x_.begin() + static_cast<long>(n_));
      p_ = p1;
      t += h;
    }
    ++steps_;
  }
  return tout;
}

dynamics::IdasStatistics VariationalIntegrator::statistics() const {
  dynamics::IdasStatistics st;
  st.steps = steps_ * (order_ == 4 ? 3 : 1);
  st.last_order = order_;
  return st;
}

}  // namespace dirac::lagrange_dirac
