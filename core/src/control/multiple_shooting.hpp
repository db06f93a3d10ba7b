#pragma once
// Internal: the multiple-shooting system of a boundary problem on a model's explicit flow.
//
// Unknowns w = [u0, delta0 | x_1, delta_1 | ... | x_{N-1}, delta_{N-1}]: the unknown initial
// values (and the chart of g(0) when it is free), then at every interior node its state and the
// chart of its group element, g_j = gbar_j Exp(delta_j). Residual F = [initial rows |
// continuity x_j - x(t_j^-), Log(g(t_j^-)^-1 g_j) | final rows]. Each interval is integrated
// with its variational equations (S' = Df S, eta' = -ad_xi eta + Dxi S, eta the body-frame
// variation of g), so the Jacobian is exact; the charts are re-centred after every step, so the
// group elements of the iterates are orthogonal to rounding.

#include <Eigen/Dense>

#include <atomic>
#include <string>
#include <vector>

#include "control/boundary_conditions.hpp"
#include "dirac/model.hpp"
#include "dirac/optimal_control.hpp"
#include "dynamics/cvode_driver.hpp"
#include "model/explicit_flow.hpp"

namespace dirac::control {

/// A Newton iterate: the vector part and the chart base points of the group elements.
struct ShootingPoint {
  std::vector<double> u0;  ///< unknown components of x(0)
  Eigen::Matrix3d g0 = Eigen::Matrix3d::Identity();
  std::vector<std::vector<double>> x;  ///< interior node states
  std::vector<Eigen::Matrix3d> g;      ///< interior node group elements
};

/// max |v_i| (0 for an empty vector): the residual measure of a shooting system.
inline double MaxAbs(const Eigen::VectorXd& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.0; }

/// Thrown out of an integration when the caller's cancel flag is set.
struct Cancelled {};

/// Thrown when the integrations of one MultipleShooting together exceed its step budget
/// (set_step_budget): `where` names the interval and time reached.
struct WorkLimitExceeded {
  long budget = 0;
  std::string where;
};

class MultipleShooting {
 public:
  /// Throws ModelError for a flow without states.
  MultipleShooting(const ExplicitFlow& flow, BoundaryProblem problem, int intervals,
                   std::vector<double> parameters, const std::atomic<bool>* cancel = nullptr);

  std::size_t num_unknowns() const { return unknowns_; }
  int intervals() const { return intervals_; }
  const std::vector<double>& node_times() const { return times_; }
  BoundaryProblem& problem() { return problem_; }
  const BoundaryProblem& problem() const { return problem_; }
  const std::vector<double>& parameters() const { return parameters_; }
  const ExplicitFlow& flow() const { return flow_; }

  /// F at `point`; J (num_unknowns square) when asked; dF/dp along `parameter_step` when asked.
  /// Without J and dF/dp the motion alone is integrated (no variational equations: a fraction
  /// of the work). Returns false (with the reason) if an integration fails; throws Cancelled.
  bool Evaluate(const ShootingPoint& point, Eigen::VectorXd& F, Eigen::MatrixXd* J,
                std::string* failure, const Eigen::VectorXd* parameter_step = nullptr,
                Eigen::VectorXd* dF_dp = nullptr);
  /// The point moved by `step` (charts re-centred).
  ShootingPoint Displace(const ShootingPoint& point, const Eigen::VectorXd& step) const;
  /// The unknowns from the problem's x0 guess; nodes on the motion it starts.
  ShootingPoint FromInitialGuess();
  /// Nodes interpolated from a previous solution (same flow); false if it does not fit.
  bool FromWarmStart(const WarmStart& warm, ShootingPoint* point);
  WarmStart ToWarmStart(const ShootingPoint& point) const;
  /// The arrangement of unknowns and residual rows (which values are unknown, which rows each
  /// end has, the intervals), without the target values: two problems with the same layout
  /// have Jacobians of the same meaning, entry by entry.
  std::string Layout() const;

  /// x(0), g(0) of a point.
  std::vector<double> InitialState(const ShootingPoint& point) const;
  Eigen::Matrix3d InitialGroup(const ShootingPoint& point) const { return point.g0; }
  /// The end state of the last interval and its group element, from the last Evaluate.
  const std::vector<double>& final_state() const { return final_state_; }
  const Eigen::Matrix3d& final_group() const { return final_group_; }
  /// Cost int L~ dt of the last Evaluate (quadrature along the intervals).
  double cost() const { return cost_; }
  long integrations() const { return integrations_; }
  /// Integration tolerance (relative; absolute = 1e-2 of it) of the motion, the group element
  /// and the cost; the sensitivities ride along on the same steps.
  void set_relative_tolerance(double rtol) { relative_tolerance_ = rtol; }
  /// Bound on the integrator steps of all integrations together (0: none); past it an
  /// integration throws WorkLimitExceeded.
  void set_step_budget(long steps) { step_budget_ = steps; }
  double relative_tolerance() const { return relative_tolerance_; }
  static constexpr double kTightTolerance = 1e-12;
  const dynamics::OdeStatistics& integrator_statistics() const { return driver_.statistics(); }

 private:
  struct Segment;
  void Integrate(double t0, double t1, const std::vector<double>& x, const Eigen::Matrix3d& g,
                 const Eigen::MatrixXd& S0, const Eigen::MatrixXd& eta0,
                 const Eigen::VectorXd* parameter_step, Segment& out);

  const ExplicitFlow& flow_;
  BoundaryProblem problem_;
  int intervals_ = 1;
  std::vector<double> parameters_, times_;
  std::size_t d_ = 0, unknowns_ = 0, m0_ = 0, group_dim_ = 0;
  std::vector<std::size_t> unknown_index_;  // components of x(0) that are unknowns
  const std::atomic<bool>* cancel_ = nullptr;
  long step_budget_ = 0;
  dynamics::OdeDriver driver_;
  std::vector<double> final_state_;
  Eigen::Matrix3d final_group_ = Eigen::Matrix3d::Identity();
  double cost_ = 0.0;
  long integrations_ = 0;
  double relative_tolerance_ = kTightTolerance;
};

}  // namespace dirac::control
