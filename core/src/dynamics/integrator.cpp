#include "dynamics/integrator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dirac/error.hpp"
#include "dirac/integrators.hpp"
#include "dynamics/local_tolerance.hpp"

namespace dirac::dynamics {

void CopyStatistics(const IdasStatistics& st, long* steps, long* error_test_failures,
                    long* nonlinear_failures, int* last_order) {
  *steps = st.steps;
  *error_test_failures = st.error_test_failures;
  *nonlinear_failures = st.nonlinear_failures;
  *last_order = st.last_order;
}

namespace {

constexpr const char* kNoStep =
    "it is a fixed-step method and simulation.step is not set (e.g. --set step=0.01)";

// The methods that apply to `form`, in registry order, for a refusal's advice.
std::string Alternatives(SystemForm form) {
  switch (form) {
    case SystemForm::kExplicitOde:
      return "auto, adams, bdf";
    case SystemForm::kOdeAndDae:
      return "auto, adams, bdf, idas";
    case SystemForm::kLagrangianOnTQ:
      return "auto, adams, bdf, idas, variational";
    case SystemForm::kMatrixLiePoisson:
      return "auto, adams, bdf, isospectral";
    case SystemForm::kRigidBodyOnSO3:
    case SystemForm::kPlanarBodyOnSE2:
      return "auto, adams, bdf, idas, lie_variational";
  }
  return "auto";
}

}  // namespace

IntegrationMethod ResolveMethod(IntegrationMethod asked, SystemForm form, const std::string& system,
                                double horizon, const std::function<Eigen::MatrixXd()>& jacobian,
                                double step) {
  const auto refuse = [&](const std::string& reason) {
    return ModelError(std::string("simulation.method: ") + IntegrationMethodName(asked) +
                      " does not apply to " + system + ": " + reason);
  };
  switch (asked) {
    case IntegrationMethod::kAuto:
      return ChooseFamily(jacobian ? jacobian() : Eigen::MatrixXd(), horizon);
    case IntegrationMethod::kAdams:
    case IntegrationMethod::kBdf:
      return asked;
    case IntegrationMethod::kIdas:
      if (form != SystemForm::kExplicitOde && form != SystemForm::kMatrixLiePoisson) return asked;
      throw refuse(
          "it is an explicit ODE x' = f(t, x) without a DAE form (no multipliers, no algebraic "
          "unknowns); use one of " +
          Alternatives(form));
    case IntegrationMethod::kVariational:
      if (form != SystemForm::kLagrangianOnTQ)
        throw refuse(form == SystemForm::kExplicitOde || form == SystemForm::kMatrixLiePoisson
                         ? "it is not a Lagrangian on TQ (no discrete Lagrangian L_d(q0, q1) to "
                           "vary); use one of " +
                               Alternatives(form)
                         : "it needs a regular Lagrangian on TQ with nonholonomic or holonomic "
                           "constraints or none (not an algebroid, not the constraint "
                           "algorithm's flow); use one of " +
                               Alternatives(form));
      if (!(step > 0.0)) throw refuse(kNoStep);
      return asked;
    case IntegrationMethod::kIsospectral:
      if (form != SystemForm::kMatrixLiePoisson)
        throw refuse(
            "it is not an Euler-Poincare (Lie-Poisson) system on a matrix Lie algebra with a "
            "diagonal trace form (algebroid.algebra so(n) or zeitlin_torus with a quadratic, "
            "autonomous Lagrangian): there is no Lax form M' = [B(M), M] whose spectrum to keep; "
            "use one of " +
            Alternatives(form));
      if (!(step > 0.0)) throw refuse(kNoStep);
      return asked;
    case IntegrationMethod::kLieVariational:
      if (form != SystemForm::kRigidBodyOnSO3 && form != SystemForm::kPlanarBodyOnSE2)
        throw refuse(
            "it is not the free rigid body on SO(3) (an algebroid over a point with the so(3) "
            "brackets [e1, e2] = e3, L = 1/2 w^T J w and reconstruction: {group: SO3, "
            "body_velocity: [w1, w2, w3]}) nor a free planar body on SE(2) (the se(2) brackets "
            "[e1, e3] = -e2, [e2, e3] = e1, L = 1/2 xi^T M xi and reconstruction: {group: SE2, "
            "body_velocity: the fibre}); use one of " +
            Alternatives(form));
      if (!(step > 0.0)) throw refuse(kNoStep);
      return asked;
  }
  return asked;
}

std::vector<MethodVerdict> MethodVerdicts(SystemForm form, const std::string& system) {
  std::vector<MethodVerdict> verdicts;
  for (const IntegratorInfo& info : IntegratorRegistry()) {
    MethodVerdict verdict;
    verdict.method = info.method;
    try {
      // No Jacobian: `auto` applies everywhere and its choice is not asked here.
      ResolveMethod(info.method, form, system, 1.0, {}, 1.0);
      verdict.applies = true;
    } catch (const ModelError& e) {
      verdict.reason = e.what();
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

long WholeSteps(double interval, double step, const char* key) {
  const double ratio = interval / step;
  const double whole = std::round(ratio);
  if (whole < 1.0 || std::abs(ratio - whole) > 1e-9 * std::max(1.0, ratio))
    throw ModelError(std::string("simulation settings: ") + key + " (" + std::to_string(interval) +
                     ") is not a whole multiple of step (" + std::to_string(step) +
                     "): a fixed-step method has states only at multiples of its step");
  return static_cast<long>(whole);
}

Eigen::MatrixXd DifferenceJacobian(
    const std::function<bool(double t, const double* x, double* xdot)>& rates, std::size_t size,
    double t, const double* x) {
  const auto n = static_cast<Eigen::Index>(size);
  std::vector<double> base(size), moved(x, x + size), shifted(size);
  if (!rates(t, x, base.data())) return {};
  Eigen::MatrixXd J(n, n);
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  for (std::size_t j = 0; j < size; ++j) {
    const double h = root_eps * std::max(1.0, std::abs(x[j]));
    moved[j] = x[j] + h;
    if (!rates(t, moved.data(), shifted.data())) return {};
    moved[j] = x[j];
    for (std::size_t i = 0; i < size; ++i)
      J(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = (shifted[i] - base[i]) / h;
  }
  return J;
}

std::string MethodReport(IntegrationMethod method, const std::string& detail) {
  switch (method) {
    case IntegrationMethod::kIdas:
      return "IDAS (BDF, " + detail + ")";
    case IntegrationMethod::kBdf:
      return "CVODES BDF (" + detail + ")";
    default:
      return "CVODES Adams (" + detail + ")";
  }
}

}  // namespace dirac::dynamics
