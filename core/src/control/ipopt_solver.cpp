// SolveNlp: the SparseNlp as an IPOPT TNLP (the 3.11 / 3.14 C++ interface). The only file that
// includes IPOPT's headers (core/CMakeLists.txt gives them to this file alone).
#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "control/sparse_nlp.hpp"

namespace dirac::control {
namespace {

using Ipopt::Index;
using Ipopt::Number;

// A warm start's push off the bounds (absolute and relative) and its initial barrier
// parameter; the barrier parameter's floor (limited memory: a fraction of the tolerance).
constexpr double kWarmPush = 1e-9;
constexpr double kWarmMu = 1e-9;
constexpr double kMuFloor = 0.9;
constexpr double kDefaultMuFloor = 1e-11;  // IPOPT's

// A (row, column) pattern into IPOPT's index arrays.
void CopyPattern(const std::vector<std::pair<int, int>>& pattern, Index* rows, Index* cols) {
  for (std::size_t e = 0; e < pattern.size(); ++e) {
    rows[e] = pattern[e].first;
    cols[e] = pattern[e].second;
  }
}

class Adaptor : public Ipopt::TNLP {
 public:
  Adaptor(const SparseNlp& nlp, const NlpSettings& settings, NlpResult& result)
      : nlp_(nlp), settings_(settings), result_(result) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = nlp_.num_variables();
    m = nlp_.num_constraints();
    nnz_jac_g = static_cast<Index>(nlp_.JacobianPattern().size());
    nnz_h_lag = exact() ? static_cast<Index>(nlp_.HessianPattern().size()) : 0;
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) override {
    nlp_.Bounds(x_l, x_u, g_l, g_u);
    // IPOPT's infinity is 1e19 (nlp_lower/upper_bound_inf).
    auto clip = [](Number* v, Index count) {
      for (Index i = 0; i < count; ++i) v[i] = std::clamp(v[i], -1e20, 1e20);
    };
    clip(x_l, nlp_.num_variables());
    clip(x_u, nlp_.num_variables());
    clip(g_l, nlp_.num_constraints());
    clip(g_u, nlp_.num_constraints());
    return true;
  }

  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L, Number* z_U,
                          Index m, bool init_lambda, Number* lambda) override {
    const NlpPoint* warm = warm_start();
    if ((init_z || init_lambda) && !warm) return false;
    if (init_x && !warm) nlp_.StartingPoint(x);
    if (!warm) return true;
    // The previous optimum, projected into this problem's bounds (an edit may have moved a
    // bound past it); IPOPT then pushes it warm_start_bound_push inside. (Moving the unknowns
    // that sat on a moved bound along with it cost more iterations: 12 against 7 on the
    // reorientation, 15 against 12 on Bryson-Denham.)
    std::vector<double> x_l(n), x_u(n), g_l(m), g_u(m);
    nlp_.Bounds(x_l.data(), x_u.data(), g_l.data(), g_u.data());
    for (Index i = 0; i < n; ++i) {
      if (init_x) x[i] = std::clamp(warm->x[i], x_l[i], x_u[i]);
      if (init_z) {
        z_L[i] = warm->z_lower[i];
        z_U[i] = warm->z_upper[i];
      }
    }
    if (init_lambda) std::copy(warm->lambda.begin(), warm->lambda.end(), lambda);
    return true;
  }

  /// The settings' warm start if it fits the problem and is asked for.
  const NlpPoint* warm_start() const {
    const NlpPoint* w = settings_.warm_start;
    return use_warm_start_ && w && w->Fits(nlp_.num_variables(), nlp_.num_constraints()) ? w
                                                                                         : nullptr;
  }
  void set_use_warm_start(bool use) { use_warm_start_ = use; }

  bool eval_f(Index, const Number* x, bool, Number& value) override {
    value = nlp_.Objective(x);
    return std::isfinite(value);
  }

  bool eval_grad_f(Index, const Number* x, bool, Number* gradient) override {
    nlp_.ObjectiveGradient(x, gradient);
    return true;
  }

  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    nlp_.Constraints(x, g);
    return true;
  }

  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols,
                  Number* values) override {
    if (!values) {
      CopyPattern(nlp_.JacobianPattern(), rows, cols);
      return true;
    }
    nlp_.JacobianValues(x, values);
    return true;
  }

  bool eval_h(Index, const Number* x, bool, Number sigma, Index, const Number* lambda, bool, Index,
              Index* rows, Index* cols, Number* values) override {
    if (!exact()) return false;
    if (!values) {
      CopyPattern(nlp_.HessianPattern(), rows, cols);
      return true;
    }
    nlp_.HessianValues(x, sigma, lambda, values);
    return true;
  }

  /// The exact Hessian: asked for, and given by the problem.
  bool exact() const { return settings_.exact_hessian && !nlp_.HessianPattern().empty(); }

  bool intermediate_callback(Ipopt::AlgorithmMode, Index iteration, Number objective, Number inf_pr,
                             Number inf_du, Number, Number, Number, Number, Number, Index,
                             const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    result_.iterations = iteration;
    if (settings_.cancel && settings_.cancel->load()) {
      result_.cancelled = true;
      return false;
    }
    if (settings_.progress && !settings_.progress({iteration, objective, inf_pr, inf_du})) {
      result_.cancelled = true;
      return false;
    }
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number objective, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    result_.converged = status == Ipopt::SUCCESS;
    result_.x.assign(x, x + n);
    result_.solution.x = result_.x;
    result_.solution.z_lower.assign(z_L, z_L + n);
    result_.solution.z_upper.assign(z_U, z_U + n);
    result_.solution.lambda.assign(lambda, lambda + m);

    result_.objective = objective;
    std::vector<double> x_l(n), x_u(n), g_l(m), g_u(m);
    nlp_.Bounds(x_l.data(), x_u.data(), g_l.data(), g_u.data());
    double violation = 0.0;
    for (Index i = 0; i < m; ++i) violation = std::max({violation, g_l[i] - g[i], g[i] - g_u[i]});
    result_.constraint_violation = violation;
  }

 private:
  const SparseNlp& nlp_;
  const NlpSettings& settings_;
  NlpResult& result_;
  bool use_warm_start_ = true;
};

std::string StatusMessage(Ipopt::ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded:
      return "";
    case Ipopt::Solved_To_Acceptable_Level:
      return "IPOPT stopped at an acceptable point, not at the requested tolerance";
    case Ipopt::Infeasible_Problem_Detected:
      return "IPOPT found the problem locally infeasible: no motion meets the bounds, the "
             "boundary values and the horizon bounds (or none near the guess)";
    case Ipopt::Search_Direction_Becomes_Too_Small:
      return "IPOPT's search direction became too small";
    case Ipopt::Diverging_Iterates:
      return "IPOPT's iterates diverged";
    case Ipopt::User_Requested_Stop:
      return "cancelled";
    case Ipopt::Maximum_Iterations_Exceeded:
      return "IPOPT reached the iteration limit (optimal_control.collocation.max_iterations)";
    case Ipopt::Restoration_Failed:
      return "IPOPT's feasibility restoration failed";
    case Ipopt::Error_In_Step_Computation:
      return "IPOPT could not compute a step";
    case Ipopt::Not_Enough_Degrees_Of_Freedom:
      return "more fixed quantities than the problem has unknowns";
    case Ipopt::Invalid_Number_Detected:
      return "a non-finite value in the problem's functions";
    default:
      return "IPOPT failed with status " + std::to_string(static_cast<int>(status));
  }
}

// One IPOPT run into `result`: from the problem's starting point, or (warm) from the settings'
// warm start with IPOPT's warm-start initialisation.
void Run(const SparseNlp& nlp, const NlpSettings& settings, bool warm, NlpResult& result) {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  Ipopt::OptionsList& options = *app->Options();
  options.SetIntegerValue("print_level", 0);
  options.SetStringValue("sb", "yes");  // no banner
  options.SetIntegerValue("max_iter", settings.max_iterations);
  options.SetNumericValue("tol", settings.tolerance);
  options.SetNumericValue("constr_viol_tol", settings.tolerance);
  const bool exact = settings.exact_hessian && !nlp.HessianPattern().empty();
  options.SetStringValue("hessian_approximation", exact ? "exact" : "limited-memory");
  options.SetStringValue("mu_strategy", "adaptive");
  // MUMPS's working space 5 % over its estimate rather than IPOPT's default 1000 %: the
  // default's allocation and first touch of the extra space at every factorisation was a third
  // of the reorientation's CPU time (page faults); IPOPT enlarges it and refactors if needed.
  options.SetIntegerValue("mumps_mem_percent", 5);
  // With the limited-memory Hessian, the barrier parameter's floor just under the tolerance
  // (IPOPT's default, 1e-11, is two decades below it): on the bang-bang reorientation, mu at
  // 1e-11 left the iterates pinned to the control bounds with steps of 1e-4 and the dual
  // infeasibility stuck near 5e-4 (u1 <= 40 or <= 48 N m: the 3000-iteration limit); with the
  // floor at 0.9 tol every bound edit tried converges in 50-170 iterations, and the final
  // complementarity (~ the floor) stays under tol. The exact Hessian converges with the
  // default floor, which keeps a bang-bang control within 1e-6 of its bound up to the switch.
  const double floor = exact ? kDefaultMuFloor : kMuFloor * settings.tolerance;
  options.SetNumericValue("mu_min", floor);
  if (warm) {
    // Start at the previous optimum with its multipliers, pushed only slightly off the bounds,
    // and a small barrier parameter (the adaptive strategy then follows the complementarity
    // the point already has: 7 iterations on the reorientation against 9 with a monotone mu).
    options.SetStringValue("warm_start_init_point", "yes");
    options.SetNumericValue("warm_start_bound_push", kWarmPush);
    options.SetNumericValue("warm_start_bound_frac", kWarmPush);
    options.SetNumericValue("warm_start_slack_bound_push", kWarmPush);
    options.SetNumericValue("warm_start_slack_bound_frac", kWarmPush);
    options.SetNumericValue("warm_start_mult_bound_push", kWarmPush);
    options.SetNumericValue("mu_init", std::max(kWarmMu, floor));
  }
  // "": no options file (IPOPT would otherwise read ./ipopt.opt, an input the scenario does
  // not show, from wherever `dirac solve` runs).
  if (app->Initialize(std::string()) != Ipopt::Solve_Succeeded) {
    result.message = "IPOPT could not be initialised";
    return;
  }
  auto* adaptor = new Adaptor(nlp, settings, result);
  adaptor->set_use_warm_start(warm);
  Ipopt::SmartPtr<Ipopt::TNLP> tnlp = adaptor;
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(tnlp);
  result.converged = status == Ipopt::Solve_Succeeded;
  result.message = StatusMessage(status);
  if (result.cancelled) result.message = "cancelled";
  if (Ipopt::IsValid(app->Statistics())) result.iterations = app->Statistics()->IterationCount();
}

}  // namespace

NlpResult SolveNlp(const SparseNlp& nlp, const NlpSettings& settings) {
  NlpResult result;
  const NlpPoint* warm = settings.warm_start;
  if (warm && warm->Fits(nlp.num_variables(), nlp.num_constraints())) {
    Run(nlp, settings, true, result);
    result.warm_iterations = result.iterations;
    if (result.converged || result.cancelled) {
      result.warm_started = result.converged;
      return result;
    }
    // The previous optimum led nowhere: once more from the problem's own starting point.
    const int spent = result.iterations;
    result = NlpResult{};
    Run(nlp, settings, false, result);
    result.warm_iterations = spent;
    result.iterations += spent;
    return result;
  }
  Run(nlp, settings, false, result);
  return result;
}

}  // namespace dirac::control
