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

  bool get_starting_point(Index, bool init_x, Number* x, bool init_z, Number*, Number*, Index,
                          bool init_lambda, Number*) override {
    if (init_z || init_lambda) return false;
    if (init_x) nlp_.StartingPoint(x);
    return true;
  }

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

  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number*,
                         const Number*, Index m, const Number* g, const Number*, Number objective,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    result_.converged = status == Ipopt::SUCCESS;
    result_.x.assign(x, x + n);
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

}  // namespace

NlpResult SolveNlp(const SparseNlp& nlp, const NlpSettings& settings) {
  NlpResult result;
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");  // no banner
  app->Options()->SetIntegerValue("max_iter", settings.max_iterations);
  app->Options()->SetNumericValue("tol", settings.tolerance);
  app->Options()->SetNumericValue("constr_viol_tol", settings.tolerance);
  const bool exact = settings.exact_hessian && !nlp.HessianPattern().empty();
  app->Options()->SetStringValue("hessian_approximation", exact ? "exact" : "limited-memory");
  app->Options()->SetStringValue("mu_strategy", "adaptive");
  // "": no options file (IPOPT would otherwise read ./ipopt.opt, an input the scenario does
  // not show, from wherever `dirac solve` runs).
  if (app->Initialize(std::string()) != Ipopt::Solve_Succeeded) {
    result.message = "IPOPT could not be initialised";
    return result;
  }
  Ipopt::SmartPtr<Ipopt::TNLP> adaptor = new Adaptor(nlp, settings, result);
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(adaptor);
  result.converged = status == Ipopt::Solve_Succeeded;
  result.message = StatusMessage(status);
  if (result.cancelled) result.message = "cancelled";
  if (Ipopt::IsValid(app->Statistics())) result.iterations = app->Statistics()->IterationCount();
  return result;
}

}  // namespace dirac::control
